extension Component {
    /// This component with `property` showing `value`, or `nil` when `value` hides it
    /// (`visible` false): what the client's resolved tree and the server's downgrade both apply,
    /// so the two cannot disagree about what a binding sets.
    ///
    /// - `text` sets the kind's text: a text's `text`, the `title` of a button, row, detail
    ///   button, track row, section header or page header; other kinds have none to set.
    /// - `style` sets a button's style or a text's color token; an unknown token gives the kind's
    ///   default (no style, the primary text color).
    /// - `enabled`, `selected` and `validation` have no static field: the resolved tree carries
    ///   them (see the client core), so they leave the component as it is.
    /// - A value of the wrong type (the checker prevents it) leaves the component as it is.
    public func applying(_ property: BindableProperty, _ value: ExpressionValue) -> Component? {
        var copy = self
        switch (property, value) {
        case (.visible, .bool(let visible)):
            return visible ? self : nil
        case (.text, .string(let text)):
            switch content {
            case .text(var payload): payload.text = text; copy.content = .text(payload)
            case .button(var payload): payload.title = text; copy.content = .button(payload)
            case .listRow(var payload): payload.title = text; copy.content = .listRow(payload)
            case .detailButton(var payload): payload.title = text; copy.content = .detailButton(payload)
            case .trackRow(var payload): payload.title = text; copy.content = .trackRow(payload)
            case .sectionHeader(var payload): payload.title = text; copy.content = .sectionHeader(payload)
            case .pageHeader(var payload): payload.title = text; copy.content = .pageHeader(payload)
            default: break
            }
        case (.style, .string(let token)):
            switch content {
            case .button(var payload): payload.style = Button.Style(rawValue: token); copy.content = .button(payload)
            case .text(var payload): payload.color = ColorToken(rawValue: token).map(ColorValue.token); copy.content = .text(payload)
            default: break
            }
        default:
            break
        }
        return copy
    }

    /// This component with every action it holds passed through `transform` (stack children
    /// included), or `nil` when `transform` removes an action the kind requires (a button's, a
    /// detail button's). An optional action removed leaves the component without one; a carousel
    /// or grid item keeps its place without one.
    public func mappingActions(_ transform: (Action) -> Action?) -> Component? {
        var copy = self
        switch content {
        case .button(var payload):
            guard let action = transform(payload.action) else { return nil }
            payload.action = action
            copy.content = .button(payload)
        case .detailButton(var payload):
            guard let action = transform(payload.action) else { return nil }
            payload.action = action
            copy.content = .detailButton(payload)
        case .image(var payload):
            payload.action = payload.action.flatMap(transform)
            copy.content = .image(payload)
        case .listRow(var payload):
            payload.action = payload.action.flatMap(transform)
            copy.content = .listRow(payload)
        case .trackRow(var payload):
            payload.action = payload.action.flatMap(transform)
            copy.content = .trackRow(payload)
        case .sectionHeader(var payload):
            payload.action = payload.action.flatMap(transform)
            copy.content = .sectionHeader(payload)
        case .textField(var payload):
            payload.submit = payload.submit.flatMap(transform)
            copy.content = .textField(payload)
        case .carousel(var payload):
            payload.items = payload.items.map { item in
                var item = item
                item.action = item.action.flatMap(transform)
                return item
            }
            copy.content = .carousel(payload)
        case .grid(var payload):
            payload.cards = payload.cards.map { card in
                var card = card
                card.action = card.action.flatMap(transform)
                return card
            }
            copy.content = .grid(payload)
        case .verticalStack(var payload):
            payload.children = payload.children.compactMap { $0.mappingActions(transform) }
            copy.content = .verticalStack(payload)
        case .horizontalStack(var payload):
            payload.children = payload.children.compactMap { $0.mappingActions(transform) }
            copy.content = .horizontalStack(payload)
        case .reorderableList(var payload):
            payload.children = payload.children.compactMap { $0.mappingActions(transform) }
            copy.content = .reorderableList(payload)
        default:
            break
        }
        return copy
    }
}

extension Screen {
    /// The screen as a fresh one shows it with `client`'s values (by default: nothing playing, an
    /// unnamed platform, the start of 1970): every binding evaluated with the initial state and
    /// applied (``Component/applying(_:_:)``), `compute` and `state` removed. A binding that does
    /// not check or run keeps its static value, as on a client.
    ///
    /// What old apps get (the server's downgrade to v5 and older) and what a renderer that runs no
    /// expressions draws (the web without its script), so both show what a v6 client shows first.
    public func evaluatingBindings(client: [String: ExpressionValue] = ClientVariables.defaults, locale: String = "en") -> Screen {
        var values = ClientVariables.defaults.merging(client) { _, given in given }
        for (name, variable) in state where ClientVariables.types[name] == nil { values[name] = variable.initial }
        let evaluator = BindingEvaluator(types: expressionTypes, environment: ExpressionEnvironment(values: values, locale: locale))
        var result = self
        result.state = [:]
        result.sections = sections.map { section in
            var section = section
            section.components = section.components.compactMap(evaluator.apply)
            return section
        }
        return result
    }
}

/// Evaluates a component tree's bindings with one state.
private struct BindingEvaluator {
    let types: [String: ExpressionType]
    let environment: ExpressionEnvironment

    func apply(_ component: Component) -> Component? {
        var component = component
        switch component.content {
        case .verticalStack(var stack):
            stack.children = stack.children.compactMap(apply)
            component.content = .verticalStack(stack)
        case .horizontalStack(var stack):
            stack.children = stack.children.compactMap(apply)
            component.content = .horizontalStack(stack)
        case .reorderableList(var list):
            list.children = list.children.compactMap(apply)
            component.content = .reorderableList(list)
        default:
            break
        }
        let compute = component.attributes.compute
        component.attributes.compute = [:]
        for (property, source) in compute.sorted(by: { $0.key < $1.key }) {
            guard let expression = try? ScreenExpression(source, types: types), expression.type == property.type,
                let value = try? expression.evaluate(in: environment)
            else { continue }
            guard let applied = component.applying(property, value) else { return nil }
            component = applied
        }
        return component
    }
}

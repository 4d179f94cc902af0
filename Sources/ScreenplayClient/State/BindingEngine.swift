public import ScreenplayContract

/// The state of one shown screen and what its bindings compute from it
/// (contract/expressions/README.md, "Screens, state and bindings").
///
/// Each binding's expression is parsed and type-checked once, when the engine is made; an index
/// from each variable to the bindings that read it means that a change re-evaluates only those,
/// and ``set(_:to:)`` returns only the bindings whose value actually changed: what a renderer
/// redraws. A binding that cannot be compiled, or whose evaluation stops, has no result: the
/// component shows its static value for that property, and ``problems`` says why.
///
/// A value type: a navigator keeps one per shown screen and replaces it on each change, so the
/// rules are tested without a renderer.
public struct BindingEngine: Sendable {
    /// Where a binding is: a component (by id) and one of its properties.
    public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The component's id.
        public let component: String
        /// The property the expression computes.
        public let property: BindableProperty

        /// A key.
        public init(_ component: String, _ property: BindableProperty) {
            self.component = component
            self.property = property
        }

        /// By component, then property.
        public static func < (lhs: Key, rhs: Key) -> Bool { (lhs.component, lhs.property) < (rhs.component, rhs.property) }

        /// `row-3.selected`.
        public var description: String { "\(component).\(property.rawValue)" }
    }

    /// The variables' values now: the screen's and the app's (starting from their initial or kept
    /// values) and the client's.
    public var values: [String: ExpressionValue] { environment.values }
    /// Each working binding's value now. A binding missing here shows its static value.
    public var results: [Key: ExpressionValue] {
        Dictionary(uniqueKeysWithValues: slots.compactMap { slot in slot.result.map { (slot.key, $0) } })
    }
    /// Why a binding has no result: compiled with an error (`syntax`, `type`), or stopped by the
    /// values of the moment (`runtime`, cleared when a later change lets it evaluate).
    public var problems: [Key: ExpressionError] {
        Dictionary(uniqueKeysWithValues: slots.compactMap { slot in slot.problem.map { (slot.key, $0) } } + refused.map { ($0.key, $0.value) })
    }

    /// One compiled binding and what it last came to: kept in an array, so a change touches
    /// only the slots its variable's index names, with no hashing of keys.
    private struct Slot: Sendable {
        let key: Key
        let expression: ScreenExpression
        var result: ExpressionValue?
        var problem: ExpressionError?
    }

    /// The bindings' sources, as given: what two engines are compared by.
    private let sources: [Key: String]
    /// The reader's locale, as given.
    public let locale: String
    private let declarations: [String: StateVariable]
    private let types: [String: ExpressionType]
    private var environment: ExpressionEnvironment
    private var slots: [Slot] = []
    /// Bindings that did not compile, and why.
    private var refused: [Key: ExpressionError] = [:]
    /// For each variable, the slots whose expressions read it.
    private var dependents: [String: [Int]] = [:]

    /// An engine for a screen that declares `state` and computes `bindings` (source by key).
    ///
    /// - Parameters:
    ///   - kept: Values the client kept for the screen's variables (app-scoped ones from its
    ///     storage, screen-scoped ones carried over a reload of the same screen); one that is not of
    ///     its variable's type is dropped for the initial value.
    ///   - client: The client variables' values (``ClientVariables``); missing ones are defaults.
    ///   - locale: The reader's locale, for formatting.
    public init(
        state: [String: StateVariable], bindings: [Key: String], kept: [String: ExpressionValue] = [:],
        client: [String: ExpressionValue] = [:], locale: String = "en"
    ) {
        declarations = state
        sources = bindings
        self.locale = locale
        var types = ClientVariables.types
        var values = ClientVariables.defaults
        for (name, value) in client where ClientVariables.types[name].map({ ExpressionValue(json: value.json, as: $0) != nil }) == true {
            values[name] = value
        }
        for (name, variable) in state where StateVariable.isDeclarable(name) {
            types[name] = variable.type
            let kept = kept[name].flatMap { ExpressionValue(json: $0.json, as: variable.type) }
            values[name] = kept ?? variable.initial
        }
        self.types = types
        environment = ExpressionEnvironment(values: values, locale: locale)
        for (key, source) in bindings.sorted(by: { $0.key < $1.key }) {
            do throws(ExpressionError) {
                let expression = try ScreenExpression(source, types: types)
                guard expression.type == key.property.type else {
                    throw ExpressionError(
                        .type, "typeMismatch", "'\(key.property.rawValue)' takes a \(key.property.type); this expression is a \(expression.type)")
                }
                for name in expression.variables { dependents[name, default: []].append(slots.count) }
                slots.append(Slot(key: key, expression: expression))
            } catch {
                refused[key] = error
            }
        }
        for index in slots.indices { evaluate(index) }
    }

    /// The value of the binding at `key` now, or `nil` when it shows its static value.
    public func result(_ key: Key) -> ExpressionValue? {
        slots.first { $0.key == key }?.result
    }

    /// The values of the app-scoped variables: what the client keeps across launches.
    public var appValues: [String: ExpressionValue] {
        values.filter { declarations[$0.key]?.scope == .app }
    }

    /// Sets `name` to `value` and re-evaluates the bindings that read it; the keys whose value
    /// changed (gained, lost or replaced a result), in order. Setting a variable to the value it
    /// has changes nothing.
    ///
    /// - Throws: ``ExpressionError`` (`type`) for a name that is neither declared nor a client
    ///   variable, or a value not of its type.
    public mutating func set(_ name: String, to value: ExpressionValue) throws(ExpressionError) -> [Key] {
        guard let type = types[name] else { throw ExpressionError(.type, "unknownVariable", "no variable '\(name)' on this screen") }
        guard ExpressionValue(json: value.json, as: type) != nil else {
            throw ExpressionError(.type, "typeMismatch", "'\(name)' is a \(type), not \(String(describing: value).prefix(80))")
        }
        guard environment.values[name] != value else { return [] }
        environment.values[name] = value
        var changed: [Key] = []
        // Slots are in key order, and each variable's list in slot order: the keys come sorted.
        for index in dependents[name] ?? [] where evaluate(index) { changed.append(slots[index].key) }
        return changed
    }

    /// A local action's expression (`set`'s value), checked against this screen's variables.
    public func compile(_ source: String) throws(ExpressionError) -> ScreenExpression {
        try ScreenExpression(source, types: types)
    }

    /// Performs a local `set`: `name` (a variable of the screen or the app, never a client one)
    /// becomes `expression`'s value in the current state. The keys whose value changed.
    public mutating func perform(set name: String, to expression: ScreenExpression) throws(ExpressionError) -> [Key] {
        guard let variable = declarations[name], types[name] == variable.type else {
            throw ExpressionError(.type, "unknownVariable", "'\(name)' is not a variable this screen declares")
        }
        guard expression.type == variable.type || (variable.type == .number && expression.type == .int) else {
            throw ExpressionError(.type, "typeMismatch", "'\(name)' is a \(variable.type); the expression is a \(expression.type)")
        }
        var value = try expression.evaluate(in: environment)
        if case .int(let int) = value, variable.type == .number { value = .number(Double(int)) }
        return try set(name, to: value)
    }

    /// Evaluates one slot; whether its result changed.
    @discardableResult
    private mutating func evaluate(_ index: Int) -> Bool {
        let before = slots[index].result
        do throws(ExpressionError) {
            slots[index].result = try slots[index].expression.evaluate(in: environment)
            slots[index].problem = nil
        } catch {
            slots[index].result = nil
            slots[index].problem = error
        }
        return slots[index].result != before
    }
}

extension BindingEngine: Hashable {
    /// Two engines are equal when they hold the same declarations, bindings and values (the
    /// results follow from those).
    public static func == (lhs: BindingEngine, rhs: BindingEngine) -> Bool {
        lhs.declarations == rhs.declarations && lhs.sources == rhs.sources && lhs.values == rhs.values
            && lhs.locale == rhs.locale
    }

    /// Hashes the values (what changes as the user acts).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }
}

extension BindingEngine {
    /// An engine for `screen`: its state and every computed property of a component with an id
    /// (the decoder refuses `compute` without one; of two components with one id, the first's
    /// bindings count).
    public init(
        screen: Screen, kept: [String: ExpressionValue] = [:], client: [String: ExpressionValue] = [:], locale: String = "en"
    ) {
        // A decoded screen's rows are already made; one built in Swift gets them here.
        let screen = screen.withRowsMade(locale: locale)
        self.init(state: screen.state, bindings: screen.computedBindings, kept: kept, client: client, locale: locale)
    }

    /// The declarations of the screen's variables.
    public var state: [String: StateVariable] { declarations }
}

extension Screen {
    /// Every computed property of the screen's components, by component id and property.
    public var computedBindings: [BindingEngine.Key: String] {
        var bindings: [BindingEngine.Key: String] = [:]
        for component in allComponents {
            guard let id = component.id else { continue }
            for (property, source) in component.attributes.compute {
                let key = BindingEngine.Key(id, property)
                if bindings[key] == nil { bindings[key] = source }
            }
        }
        return bindings
    }

    /// Whether the screen has anything for a ``BindingEngine`` to do.
    public var hasClientState: Bool { !state.isEmpty || allComponents.contains { !$0.attributes.compute.isEmpty } }
}

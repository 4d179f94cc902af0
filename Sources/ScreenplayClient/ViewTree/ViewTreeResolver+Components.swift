import ScreenplayContract

/// One function per component kind: the single place each kind's display decisions are made.
extension Resolution {
    /// The nodes of one component: bindings applied first (problems logged, the component's own
    /// values kept), then the kind's resolution, then the accessibility the server added.
    mutating func component(_ component: Component, index: Int, parent: NodeID) -> [ViewNode] {
        let id = nodeID(of: component, index: index, parent: parent)
        // Computed properties (v6) first: the rest of the resolution sees the values they set.
        var component = component
        var enabled: Bool?
        var selected: Bool?
        var verdict: String?
        var hidden = false
        let sources = component.attributes.compute
        if let key = component.id, !sources.isEmpty {
            for property in sources.keys.sorted() {
                guard let value = computed[BindingEngine.Key(key, property)] else { continue }
                switch (property, value) {
                case (.enabled, .bool(let value)): enabled = value
                case (.selected, .bool(let value)): selected = value
                case (.visible, .bool(let value)): hidden = !value
                case (.validation, .string(let message)): verdict = message
                default:
                    if let applied = component.applying(property, value) { component = applied }
                }
            }
        }
        if hidden && !context.carriesBindingSources { return [] }
        var nodes = resolved(component, id: id)
        if !nodes.isEmpty {
            if enabled == false {
                nodes[0].action?.isEnabled = false
                nodes[0].accessibility.traits.insert(.disabled)
            }
            if selected == true { nodes[0].accessibility.traits.insert(.selected) }
            // A text field's computed verdict (v6): its message is what the field says, and its
            // submit waits until the expression is satisfied.
            if let verdict, !verdict.isEmpty, nodes[0].field != nil {
                nodes[0].field?.isValid = false
                nodes[0].field?.validationMessage = verdict
                nodes[0].accessibility.hint = verdict
                nodes[0].action?.isEnabled = false
            }
            if let key = component.attributes.report.visible { nodes[0].reportsVisible = key }
            if !component.attributes.menu.isEmpty {
                let menuID = childID(of: id, kind: "more", key: "menu")
                nodes[0].moreActions = component.attributes.menu.map { item in
                    control(
                        id: childID(of: menuID, kind: "item", key: item.title), title: item.title, action: item.action, icon: item.icon,
                        emphasis: nil, label: nil)
                }
            }
            if context.carriesBindingSources && component.id != nil {
                nodes[0].computed = sources
                nodes[0].isHidden = hidden
            }
        }
        return nodes
    }

    /// The nodes of a component whose computed properties are applied: entity bindings, the
    /// kind's resolution, the accessibility the server added.
    private mutating func resolved(_ component: Component, id: NodeID) -> [ViewNode] {
        let (bound, problems) = component.resolvingBindings(entities)
        for problem in problems { issues.append(ResolutionIssue(nodeID: id, message: "binding \(problem)")) }
        var nodes = content(bound, id: id, serverLabel: component.attributes.accessibility?.label)
        // A toggle bound to an entity flips with every other toggle bound to the same member.
        if case .favoriteButton = component.content, !nodes.isEmpty, let reference = component.attributes.bindings["isFavorite"] {
            nodes[0].toggle?.binding = reference.description
        }
        if !context.pendingEntities.isEmpty, !nodes.isEmpty,
            component.attributes.bindings.values.contains(where: { context.pendingEntities.contains($0.entity) })
        {
            nodes[0].isPending = true
        }
        if let accessibility = component.attributes.accessibility, !nodes.isEmpty {
            if let label = accessibility.label { nodes[0].accessibility.label = label }
            if let hint = accessibility.hint { nodes[0].accessibility.hint = hint }
            if let level = accessibility.headingLevel {
                nodes[0].accessibility.headingLevel = level
                nodes[0].accessibility.traits.insert(.header)
            }
        }
        return nodes
    }

    /// `serverLabel` is the accessibility label the server gave, which names an image control
    /// better than anything derived here.
    mutating func content(_ component: Component, id: NodeID, serverLabel: String? = nil) -> [ViewNode] {
        switch component.content {
        case .pageHeader(let value): return [header(value, id: id, level: 2)]
        case .sectionHeader(let value): return [sectionHeader(value, id: id)]
        case .paragraphs(let value): return [paragraphs(value, id: id)]
        case .detailButton(let value):
            return [row(id: id, title: value.title, subtitle: value.subtitle, image: value.image, details: [], action: value.action)]
        case .listRow(let value): return [listRow(value, id: id)]
        case .trackRow(let value): return [trackRow(value, id: id)]
        case .carousel(let value):
            return [tiles(value.items, id: id, role: .carousel, style: NodeStyle(tileShape: tileShape(value.itemStyle)))]
        case .grid(let value):
            return [tiles(value.cards, id: id, role: .grid, style: NodeStyle(columns: value.columns, tileShape: .square))]
        case .verticalStack(let value):
            return [
                stack(
                    id: id, axis: .vertical, alignment: value.alignment.map(alignment), spacing: value.spacing, padding: value.padding,
                    background: value.background, children: value.children)
            ]
        case .horizontalStack(let value):
            return [
                stack(
                    id: id, axis: .horizontal, alignment: value.alignment.map(alignment), spacing: value.spacing, padding: value.padding,
                    background: value.background, children: value.children)
            ]
        case .reorderableList(let value): return [reorderable(value, id: id)]
        case .text(let value): return [text(value, id: id)]
        case .image(let value): return [image(value, id: id, serverLabel: serverLabel)]
        case .rectangle(let value): return [rectangle(value, id: id)]
        case .button(let value):
            return [control(id: id, title: value.title, action: value.action, icon: nil, emphasis: value.style.map(emphasis), label: nil)]
        case .spacer(let value):
            return [
                ViewNode(
                    id: id, role: .spacer, style: NodeStyle(height: value.length, isFlexible: value.length == nil),
                    accessibility: .init(isHidden: true))
            ]
        case .favoriteButton(let value): return [favorite(value, id: id)]
        case .textField(let value): return [textField(value, id: id)]
        case .unknown(let unknown): return custom(unknown, id: id)
        // Made into plain rows when the screen is decoded, or by `resolve(_:)` for a screen built
        // in Swift: never here.
        case .rows: return []
        }
    }

    mutating func paragraphs(_ value: Component.Paragraphs, id: NodeID) -> ViewNode {
        ViewNode(id: id, role: .paragraphs, paragraphs: value.paragraphs, style: NodeStyle(font: NodeFont(.body)))
    }

    mutating func row(id: NodeID, title: String, subtitle: String?, image: RemoteImage?, details: [String], action: Action?) -> ViewNode {
        var node = ViewNode(
            id: id, role: .row, text: title, secondaryText: subtitle, details: details, style: NodeStyle(font: NodeFont(.headline)),
            image: image.map(self.image))
        if let action {
            let bound = bind(action, id: id)
            node.action = bound
            node.accessibility.traits = Self.traits(for: action).union(Self.stateTraits(of: bound))
            node.accessibility.hint = Self.hint(for: action)
        }
        // One announcement for the whole row: title, subtitle, details.
        node.accessibility.label = ([title, subtitle] + details.map(Optional.some)).compactMap { $0 }.joined(separator: ", ")
        return node
    }

    mutating func listRow(_ value: Component.ListRow, id: NodeID) -> ViewNode {
        var details: [String] = []
        if let composer = value.composer { details.append(composer) }
        if let count = value.recordingCount { details.append(TextFormat.recordingCount(count)) }
        return row(id: id, title: value.title, subtitle: value.subtitle, image: value.image, details: details, action: value.action)
    }

    /// A track: the row shows title and duration; its play action is a button of its own, so the
    /// row itself stays readable and the button says what it plays.
    mutating func trackRow(_ value: Component.TrackRow, id: NodeID) -> ViewNode {
        var node = row(
            id: id, title: value.title, subtitle: value.subtitle, image: nil,
            details: value.duration.map { [TextFormat.duration(seconds: $0)] } ?? [],
            action: nil)
        if let duration = value.duration {
            node.accessibility.label = [value.title, value.subtitle, TextFormat.spokenDuration(seconds: duration)].compactMap { $0 }
                .joined(separator: ", ")
        }
        if let action = value.action {
            node.children = [
                control(
                    id: childID(of: id, kind: "play", key: "0"), title: "Play", action: action, icon: "play.fill", emphasis: .plain,
                    label: TextFormat.playLabel(value.title))
            ]
        }
        return node
    }

    mutating func tiles(_ tiles: [Component.Tile], id: NodeID, role: NodeRole, style: NodeStyle) -> ViewNode {
        var children: [ViewNode] = []
        for (index, tile) in tiles.enumerated() {
            let key: String =
                switch tile.action {
                case .navigate(let navigate)?: navigate.url
                default: tile.title.isEmpty ? String(index) : tile.title
                }
            let tileID = childID(of: id, kind: "tile", key: key)
            var node = row(id: tileID, title: tile.title, subtitle: tile.subtitle, image: tile.image, details: [], action: tile.action)
            node.role = .tile
            node.style = NodeStyle(font: NodeFont(.subheadline), tileShape: style.tileShape)
            children.append(node)
        }
        return ViewNode(id: id, role: role, style: style, children: children)
    }

    mutating func stack(
        id: NodeID, axis: NodeStyle.Axis, alignment: NodeStyle.Alignment?, spacing: Double?, padding: Double?, background: ColorValue?,
        children: [Component]
    ) -> ViewNode {
        ViewNode(
            id: id, role: .stack,
            style: NodeStyle(axis: axis, alignment: alignment, spacing: spacing, padding: padding, background: color(background)),
            children: components(children, parent: id))
    }

    /// A reorderable list (v6): one node per row shown (a row that resolves to several nodes
    /// keeps only its first: an order names rows, not pieces), each keyed by its id; the order
    /// names every row, those the state hides too.
    mutating func reorderable(_ value: Component.ReorderableList, id: NodeID) -> ViewNode {
        var rows: [ViewNode] = []
        var kept: [Component] = []
        for (index, child) in value.children.enumerated() {
            guard var row = component(child, index: index, parent: id).first else { continue }
            // A row without an id is shown and stays where it is: no order can name it.
            row.reorderKey = child.id
            rows.append(row)
            kept.append(child)
        }
        var node = ViewNode(id: id, role: .reorderable, accessibility: NodeAccessibility(label: value.label), children: rows)
        // The order names every row, shown or hidden by the state; moves count the shown ones.
        node.reorder = NodeReorder(value, visible: kept.compactMap(\.id), isEnabled: bind(.command(value.move), id: id).isEnabled)
        return node
    }

    mutating func text(_ value: Component.Text, id: NodeID) -> ViewNode {
        ViewNode(
            id: id, role: .text, text: value.text,
            style: NodeStyle(
                foreground: color(value.color), font: NodeFont(.body, size: value.size, weight: value.weight.map(weight) ?? .regular)))
    }

    mutating func image(_ value: Component.Image, id: NodeID, serverLabel: String? = nil) -> ViewNode {
        var node = ViewNode(id: id, role: .image, image: image(value.image))
        let label = serverLabel ?? value.image.alt
        node.accessibility = NodeAccessibility(label: label, traits: [.image], isHidden: label == nil && value.action == nil)
        if let action = value.action {
            node.action = bind(action, id: id)
            node.accessibility.traits.formUnion(Self.traits(for: action))
            node.accessibility.hint = Self.hint(for: action)
            // A control needs a name: without alt text, say where it leads.
            if node.accessibility.label == nil {
                node.accessibility.label = Self.destinationName(of: action)
                issues.append(ResolutionIssue(nodeID: id, message: "an image with an action has no alt text; named after its action"))
            }
        }
        return node
    }

    /// A name for an unlabeled control, from where its action leads.
    static func destinationName(of action: Action) -> String {
        switch action {
        case .navigate(let navigate): navigate.header?.title ?? "Open"
        case .openURL: "Open link"
        case .share(let share): "Share \(share.title)"
        case .play(let play): TextFormat.playLabel(play.firstTrack.title)
        case .command: "Perform"
        case .sequence(let sequence): sequence.actions.first { !$0.isLocal }.map(destinationName) ?? "Action"
        case .custom, .set, .unknown: "Action"
        }
    }

    mutating func rectangle(_ value: Component.Rectangle, id: NodeID) -> ViewNode {
        ViewNode(
            id: id, role: .rectangle,
            style: NodeStyle(background: color(value.color), width: value.width, height: value.height, cornerRadius: value.cornerRadius),
            accessibility: .init(isHidden: true))
    }

    /// The toggle offers the opposite of its state; its command is the one for that.
    mutating func favorite(_ value: Component.FavoriteButton, id: NodeID) -> ViewNode {
        func face(_ isFavorite: Bool) -> NodeToggle.Face {
            let title = TextFormat.favoriteTitle(isFavorite: isFavorite)
            return NodeToggle.Face(
                text: title, icon: isFavorite ? "heart.fill" : "heart", label: "\(title): \(value.label)",
                action: .command(isFavorite ? value.remove : value.add))
        }
        let now = face(value.isFavorite)
        let bound = bind(now.action, id: id)
        var traits: Set<NodeAccessibility.Trait> = [.button]
        if value.isFavorite { traits.insert(.selected) }
        traits.formUnion(Self.stateTraits(of: bound))
        return ViewNode(
            id: id, role: .toggle, text: now.text, icon: now.icon, style: NodeStyle(emphasis: .secondary), action: bound,
            accessibility: .init(label: now.label, traits: traits), toggle: NodeToggle(isOn: value.isFavorite, flipped: face(!value.isFavorite)))
    }

    /// A text field shows what is stored under its key; the message appears once something is
    /// typed that breaks the rule, and the submit action stays disabled until the text is valid.
    mutating func textField(_ value: Component.TextField, id: NodeID) -> ViewNode {
        let text = storage[value.storageKey] ?? ""
        var isValid = true
        var message: String?
        switch TextInput.validate(text, against: value.validation) {
        case .valid:
            break
        case .invalid(let reason):
            isValid = false
            if !text.isEmpty { message = reason }
        case .unusablePattern(let reason):
            issues.append(ResolutionIssue(nodeID: id, message: "text field '\(value.storageKey)': \(reason); any text is accepted"))
        }
        if let maxLength = value.maxLength, text.count > maxLength {
            isValid = false
            message = "At most \(maxLength) characters"
        }
        // Blank where a text is required (v6): nothing to send; said once something was typed.
        if let required = TextInput.blank(text, required: value.requiredMessage) {
            isValid = false
            if !text.isEmpty { message = required }
        }
        var node = ViewNode(
            id: id, role: .textField, text: value.label, secondaryText: value.hint,
            accessibility: .init(label: value.label, hint: message ?? value.hint),
            field: NodeField(
                storageKey: value.storageKey, value: text, placeholder: value.hint,
                keyboard: value.keyboard ?? .text, maxLength: value.maxLength,
                validationMessage: message, isValid: isValid, pattern: value.validation?.pattern,
                patternMessage: value.validation?.message,
                submitTitle: value.submit == nil ? nil : (value.keyboard == .search ? "Search" : "Send"), requiredMessage: value.requiredMessage,
                suggestions: value.suggestions))
        if let submit = value.submit {
            var bound = bind(submit, id: id)
            if !isValid { bound.isEnabled = false }
            node.action = bound
        }
        return node
    }

    /// App-defined kinds go through the registry; anything else is left out and logged.
    mutating func custom(_ unknown: Component.Unknown, id: NodeID) -> [ViewNode] {
        do {
            if let nodes = try context.registry.resolve(kind: unknown.type, json: unknown.json, id: id) { return nodes }
            issues.append(ResolutionIssue(nodeID: id, message: "unknown component kind '\(unknown.type)'; nothing shown"))
        } catch {
            issues.append(ResolutionIssue(nodeID: id, message: "'\(unknown.type)' could not be resolved: \(error)"))
        }
        return []
    }

    func alignment(_ value: Component.HorizontalAlignment) -> NodeStyle.Alignment {
        switch value {
        case .leading: .leading
        case .center: .center
        case .trailing: .trailing
        }
    }

    func alignment(_ value: Component.VerticalAlignment) -> NodeStyle.Alignment {
        switch value {
        case .top: .top
        case .center: .center
        case .bottom: .bottom
        }
    }

    func emphasis(_ value: Component.Button.Style) -> NodeStyle.Emphasis {
        switch value {
        case .primary: .primary
        case .secondary: .secondary
        case .plain: .plain
        }
    }

    func weight(_ value: Component.FontWeight) -> NodeFont.Weight {
        switch value {
        case .regular: .regular
        case .medium: .medium
        case .semibold: .semibold
        case .bold: .bold
        }
    }

    func tileShape(_ value: Component.Carousel.ItemStyle) -> NodeStyle.TileShape {
        switch value {
        case .portrait: .portrait
        case .square: .square
        case .wide: .wide
        }
    }
}

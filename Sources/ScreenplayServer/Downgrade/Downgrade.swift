public import ScreenplayContract

/// Shapes a response for a client of an older API version, before it is encoded.
///
/// Every component kind the client's version lacks is replaced by its fallback (built from the
/// same data, and downgraded again in turn) or dropped. Components of app-defined kinds the server
/// has not registered never leave, at any version. The walk runs for every version (about 17 µs for
/// the demo's home screen, against about 400 µs to encode it) and only on cache misses. The walk reaches everything that carries
/// components: sections, stacks, screens inside command results. Field-level changes (a field
/// that changed type) are the encoder's job, by version. A client of version N therefore never
/// receives a kind it cannot decode.
public struct Downgrade: Sendable {
    /// The client's version.
    public let version: APIVersion
    /// App-defined kinds the server knows, by wire name.
    public let customKinds: [String: CustomComponentKind]
    /// App-defined kinds this client said it renders (`Screenplay-Components`).
    public let clientKinds: Set<String>
    /// The reader's locale (a BCP 47 tag): what bindings evaluated for old clients format with.
    public let locale: String

    /// A downgrade to `version` for a client that renders `clientKinds` of the `customKinds`, in
    /// `locale`.
    public init(to version: APIVersion, customKinds: [String: CustomComponentKind] = [:], clientKinds: Set<String> = [], locale: String = "en") {
        self.version = version
        self.customKinds = customKinds
        self.clientKinds = clientKinds
        self.locale = locale
    }

    /// The screen as a client of ``version`` must receive it. Clients older than v4 get every
    /// entity binding resolved into the field it binds (they know no entities); clients older
    /// than v6 get every computed property evaluated with the initial state (what a fresh screen
    /// shows a v6 client) and no local actions.
    public func screen(_ screen: Screen) -> Screen {
        // Rows (v6) reach older clients as the rows they make with the initial state.
        let screen = version < Component.Rows.versioning.introduced ? screen.withRowsMade(locale: locale) : screen
        var result = version < ClientState.introduced ? screen.evaluatingBindings(locale: locale) : screen
        // A text field that only feeds the state (no submit, its key a variable) does nothing
        // without it: old apps do not get it, as they do not get a button that only sets state.
        let localKeys = version < ClientState.introduced ? Set(screen.state.keys) : []
        result.sections = result.sections.map { section in
            var section = section
            section.components = components(section.components.filter { !Self.onlyFeedsState($0, localKeys) }, entities: screen.entities)
            return section
        }
        if version < ClientState.introduced {
            result.toolbar = result.toolbar.map(menuItems)
            result.menu = result.menu.map(menuItems)
        }
        return result
    }

    /// Whether `component` is a text field with no submit whose key is one of `keys`.
    private static func onlyFeedsState(_ component: Component, _ keys: Set<String>) -> Bool {
        guard !keys.isEmpty, case .textField(let field) = component.content else { return false }
        return field.submit == nil && keys.contains(field.storageKey)
    }

    /// Menu items for ``version``: an item whose action the version cannot perform is dropped.
    private func menuItems(_ items: [MenuItem]) -> [MenuItem] {
        items.compactMap { item in
            var item = item
            guard let action = action(item.action) else { return nil }
            item.action = action
            return item
        }
    }

    /// The action as a client of ``version`` can perform it, or `nil` when it can do nothing of
    /// it: before v6 a `set` is nothing (old clients have no state; their screen already shows
    /// the initial one) and a `sequence` is its first step that is something.
    public func action(_ action: Action) -> Action? {
        guard version < ClientState.introduced else { return action }
        switch action {
        case .set: return nil
        case .sequence(let sequence): return sequence.actions.lazy.compactMap { self.action($0) }.first
        default: return action
        }
    }

    /// A fallback standing in for `original`: its first component takes the original's id (the
    /// client keeps its place and state) and what the original asked to be reported (an offer
    /// seen is counted whichever way it was drawn), the others get derived ones later.
    private func replacing(_ original: Component, with fallback: [Component]) -> [Component] {
        guard var first = fallback.first else { return fallback }
        if first.attributes.report.isEmpty { first.attributes.report = original.attributes.report }
        if let id = original.id, first.id == nil { first.id = id }
        return [first] + fallback.dropFirst()
    }

    /// Components with later kinds replaced by their fallbacks, recursively.
    public func components(_ components: [Component], entities: Entities = [:]) -> [Component] {
        components.flatMap { self.component($0, entities: entities) }
    }

    /// One component for ``version``: itself (children downgraded), its fallback, or nothing.
    public func component(_ component: Component, entities: Entities = [:]) -> [Component] {
        var component = component
        if version < ComponentAttributes.introduced && !component.attributes.bindings.isEmpty {
            component = component.resolvingBindings(entities).component
        }
        if version < ClientState.introduced {
            // Bindings were evaluated with the screen (a component alone shows its static values);
            // an action the version cannot perform goes, and with it a kind that requires one.
            component.attributes.compute = [:]
            guard let mapped = component.mappingActions({ self.action($0) }) else { return [] }
            component = mapped
        }
        if let payload = component.payload, type(of: payload).versioning.introduced > version {
            return replacing(component, with: components(payload.fallback(for: version), entities: entities))
        }
        switch component.content {
        case .unknown(let custom):
            // App-defined kinds go only to clients that can show them; unregistered ones never leave.
            guard let kind = customKinds[custom.type] else { return [] }
            if kind.versioning.introduced <= version && clientKinds.contains(custom.type) { return [component] }
            return replacing(component, with: components(kind.fallback(custom.json), entities: entities))
        case .verticalStack(var stack):
            stack.children = components(stack.children, entities: entities)
            component.content = .verticalStack(stack)
            return [component]
        case .horizontalStack(var stack):
            stack.children = components(stack.children, entities: entities)
            component.content = .horizontalStack(stack)
            return [component]
        case .reorderableList(var list):
            // A row that falls back to several components, or to none, could not be named in an
            // order: each row stays one component with its own id.
            list.children = list.children.compactMap { row in components([row], entities: entities).first }
            component.content = .reorderableList(list)
            return [component]
        default:
            return [component]
        }
    }

    /// The command result as a client of ``version`` must receive it: a result kind the version
    /// lacks becomes a generic `done`, and a replacement screen is downgraded like any screen.
    /// Clients older than v4 know no entities: a `done` that patches some asks them to reload the
    /// screen instead, which shows the same facts.
    public func result(_ result: CommandResult) -> CommandResult {
        if let versioning = CommandResult.versioning[result.kind], versioning.introduced > version {
            return .done(.init(message: "Done. Update the app to see more.", refresh: true))
        }
        var result = result
        switch result.outcome {
        case .screen(let replacement):
            result.outcome = .screen(screen(replacement))
        case .done(var done) where version < ClientUpdates.introduced && !result.updates.entities.isEmpty:
            done.refresh = true
            result.outcome = .done(done)
        default:
            break
        }
        if version < ClientUpdates.introduced { result.updates = .init() }
        result.updates.effects = result.updates.effects.compactMap { action($0) }
        return result
    }
}

import Foundation
public import ScreenplayContract

/// What the resolver needs to know about the client right now.
public struct ResolutionContext: Sendable {
    /// Nodes whose own command is in flight: shown busy.
    public var busyNodes: Set<NodeID>
    /// Whether a blocking command is in flight: every action is disabled until it answers.
    public var isBlocked: Bool
    /// App-defined component kinds and how they resolve.
    public var registry: ComponentRegistry
    /// The local action kinds (`play`, `share`, `openURL`) and custom action names the app
    /// handles; `nil` means all (a browser opens every link). Others resolve disabled.
    public var localActions: Set<String>?
    /// Color tokens the app's palette adds to the standard ones; other unknown tokens resolve to
    /// the primary text color.
    public var appColorTokens: Set<String>
    /// The screen's client storage now (what the user typed): text fields show it. `nil` takes the
    /// screen's own storage.
    public var storage: ClientStorage?
    /// The screen's entities now (with patches): bound components show them. `nil` takes the
    /// screen's own entities.
    public var entities: Entities?
    /// Entities an optimistic command set and the server has not confirmed: nodes bound to them
    /// are marked ``ViewNode/isPending``.
    public var pendingEntities: Set<String>
    /// Whether the app's image cache holds an image URL (as the screen names it): images then
    /// show what is cached first (``NodeImage/showFirst``) and swap in the rest. `nil`: nothing is
    /// known, the low-resolution image loads first.
    public var imageCache: (@Sendable (String) -> Bool)?
    /// What the screen's computed properties are now (v6), from its ``BindingEngine``; `nil`
    /// evaluates them with the screen's initial state (what a fresh screen shows).
    public var computed: [BindingEngine.Key: ExpressionValue]?
    /// Whether the renderer evaluates the screen's bindings itself (the web's script): nodes then
    /// carry their expressions (``ViewNode/computed``), and a node hidden by the state is kept,
    /// marked ``ViewNode/isHidden``, for the renderer to show when the state changes.
    public var carriesBindingSources = false

    /// A context; the defaults suit a renderer with nothing in flight.
    public init(
        busyNodes: Set<NodeID> = [], isBlocked: Bool = false, registry: ComponentRegistry = ComponentRegistry(),
        localActions: Set<String>? = nil, appColorTokens: Set<String> = [], storage: ClientStorage? = nil, entities: Entities? = nil,
        pendingEntities: Set<String> = [], imageCache: (@Sendable (String) -> Bool)? = nil
    ) {
        self.imageCache = imageCache
        self.pendingEntities = pendingEntities
        self.busyNodes = busyNodes
        self.isBlocked = isBlocked
        self.registry = registry
        self.localActions = localActions
        self.appColorTokens = appColorTokens
        self.storage = storage
        self.entities = entities
    }
}

/// Something the resolver could not show, with where it was: logged, never a crash.
public struct ResolutionIssue: Sendable, Hashable, CustomStringConvertible {
    /// The id the element would have had.
    public let nodeID: NodeID
    /// What went wrong.
    public let message: String

    /// Creates an issue.
    public init(nodeID: NodeID, message: String) {
        self.nodeID = nodeID
        self.message = message
    }

    /// `section:a/custom:x: unknown component kind 'x'`.
    public var description: String { "\(nodeID): \(message)" }
}

/// A resolved screen: the tree and what was left out of it.
public struct ResolvedScreen: Sendable, Hashable {
    /// The root node (role ``NodeRole/screen``).
    public var root: ViewNode
    /// Elements that could not be shown.
    public var issues: [ResolutionIssue]
}

/// Turns a screen, or a screen's state, into the view tree every renderer draws.
///
/// Pure and cheap: the same screen and context give the same tree, so a renderer may resolve on
/// every state change and diff the result by ``NodeID``.
public struct ViewTreeResolver: Sendable {
    /// The client's state.
    public var context: ResolutionContext

    /// A resolver for `context`.
    public init(context: ResolutionContext = ResolutionContext()) { self.context = context }

    /// The tree of a loaded screen.
    public func resolve(_ screen: Screen) -> ResolvedScreen {
        // A decoded screen's rows are already made; one built in Swift gets them here.
        let screen = screen.withRowsMade()
        let computed = context.computed ?? (screen.hasClientState ? BindingEngine(screen: screen).results : [:])
        var resolution = Resolution(
            context: context, storage: context.storage ?? screen.storage, entities: context.entities ?? screen.entities, computed: computed)
        let root = resolution.screen(screen)
        return ResolvedScreen(root: root, issues: resolution.issues)
    }

    /// The tree of a navigator entry: its state, with the storage typed into it and the entity
    /// patches it received.
    public func resolve(_ entry: NavigationStateMachine.Entry) -> ResolvedScreen {
        var resolver = self
        resolver.context.storage = entry.storage
        resolver.context.entities = entry.entities
        resolver.context.computed = entry.bindings?.results
        return resolver.resolve(entry.state)
    }

    /// An offline copy's date as people read it, the same on every device: `24 Nov 2026, 17:05 UTC`.
    static func savedText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (parts.month ?? 1) - 1))]
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(time) UTC"
    }

    /// The tree of a screen in any state: loading shows the carried header and progress; failed
    /// shows the header, the error and a retry; loaded shows the screen (an offline copy with a
    /// message saying so, first).
    public func resolve(_ state: ScreenState) -> ResolvedScreen {
        switch state {
        case .loaded(let loaded):
            var resolved = resolve(loaded.screen)
            if let saved = loaded.offlineSince {
                // An offline copy says so first, with its age, before anything it shows.
                let text = "Offline: this copy was saved \(Self.savedText(saved))."
                resolved.root.children.insert(
                    ViewNode(id: "offline", role: .message, text: text, icon: "wifi.slash", accessibility: .init(label: text)), at: 0)
            }
            return resolved
        case .loading(let header):
            var resolution = Resolution(context: context, storage: [:], entities: [:])
            var children = header.map { [resolution.header($0, id: "header", level: 1)] } ?? []
            children.append(ViewNode(id: "progress", role: .progress, text: "Loading…", accessibility: .init(label: "Loading")))
            return ResolvedScreen(root: ViewNode(id: "screen", role: .screen, text: header?.title, children: children), issues: [])
        case .failed(let header, let error):
            var resolution = Resolution(context: context, storage: [:], entities: [:])
            var children = header.map { [resolution.header($0, id: "header", level: 1)] } ?? []
            children.append(
                ViewNode(
                    id: "message", role: .message, text: error.message, style: NodeStyle(foreground: .negative),
                    accessibility: .init(label: "Error: \(error.message)"),
                    children: [
                        ViewNode(
                            id: "message/retry", role: .button, text: "Retry", icon: "arrow.clockwise",
                            action: BoundAction(.custom(.init(name: ViewTreeResolver.retryActionName)), isEnabled: !context.isBlocked),
                            accessibility: .init(traits: [.button]))
                    ]))
            return ResolvedScreen(root: ViewNode(id: "screen", role: .screen, text: header?.title, children: children), issues: [])
        }
    }

    /// What is shown over the screen: a message, an error, a choice (one button per option) or a
    /// prompt (a text field and its submit button). The field's id is `presented/field:<name>`.
    ///
    /// `typed` is what the user has typed into a prompt's field so far (`nil`: nothing yet, the
    /// field shows its initial value): a text the field refuses (blank where one is required, v6)
    /// disables the submit button, and once something was typed the field says why.
    public func resolve(_ presented: ScreenNavigator.Presented, typed: String? = nil) -> ViewNode {
        var resolution = Resolution(context: context, storage: [:], entities: [:])
        let id: NodeID = "presented"
        switch presented {
        case .message(let text):
            return ViewNode(id: id, role: .message, text: text, accessibility: .init(label: text))
        case .error(let text):
            return ViewNode(
                id: id, role: .message, text: text, style: NodeStyle(foreground: .negative), accessibility: .init(label: "Error: \(text)"))
        case .choice(let choice):
            let options = choice.options.map { option in
                var node = resolution.control(
                    id: resolution.childID(of: id, kind: "option", key: option.title), title: option.title,
                    action: .command(option.command),
                    icon: nil, emphasis: nil, label: nil)
                node.secondaryText = option.subtitle
                return node
            }
            return ViewNode(id: id, role: .message, text: choice.title, secondaryText: choice.message, children: options)
        case .prompt(let prompt):
            let value = typed ?? prompt.field.initialValue ?? ""
            let problem = TextInput.problem(value, in: prompt.field)
            var nodeField = NodeField(
                storageKey: prompt.field.name, value: value, placeholder: prompt.field.placeholder, maxLength: prompt.field.maxLength)
            nodeField.isValid = problem == nil
            if typed != nil { nodeField.validationMessage = problem }
            let field = ViewNode(
                id: resolution.childID(of: id, kind: "field", key: prompt.field.name), role: .textField, text: typed ?? prompt.field.initialValue,
                secondaryText: prompt.field.placeholder, accessibility: .init(label: prompt.field.placeholder ?? prompt.title),
                field: nodeField)
            var submit = resolution.control(
                id: resolution.childID(of: id, kind: "submit", key: prompt.submitTitle), title: prompt.submitTitle,
                action: .command(prompt.submit), icon: nil, emphasis: .primary, label: nil)
            if problem != nil { submit.action?.isEnabled = false }
            return ViewNode(id: id, role: .message, text: prompt.title, secondaryText: prompt.message, children: [field, submit])
        }
    }

    /// The custom action name of the retry button on a failed screen; renderers pass it back and
    /// the navigator retries.
    public static let retryActionName = "screenplay.retry"

    /// Custom action names the client reserves; the same names sent by a server resolve disabled.
    public static let reservedPrefix = "screenplay."
}

/// One resolution pass: the context, the issues met, and the ids handed out so far.
struct Resolution {
    let context: ResolutionContext
    /// The storage text fields show.
    let storage: ClientStorage
    /// The entities bound components show.
    let entities: Entities
    /// The computed properties' values now (v6).
    let computed: [BindingEngine.Key: ExpressionValue]
    var issues: [ResolutionIssue] = []
    private var usedIDs: [NodeID: Int] = [:]
    private var handedOut: Set<NodeID> = []
    /// Component ids (v4) already used in this screen.
    private var componentIDs: Set<String> = []

    init(context: ResolutionContext, storage: ClientStorage, entities: Entities, computed: [BindingEngine.Key: ExpressionValue] = [:]) {
        self.context = context
        self.storage = storage
        self.entities = entities
        self.computed = computed
    }

    /// The node id of a component: `id:<its id>` when the server gave one (stable wherever the
    /// component moves), else derived from its parent, kind and identity key. A duplicate id is
    /// logged and the second component falls back to the derived id.
    mutating func nodeID(of component: Component, index: Int, parent: NodeID) -> NodeID {
        if let id = component.id {
            if componentIDs.insert(id).inserted {
                let nodeID = NodeID(rawValue: "id:" + id)
                if handedOut.insert(nodeID).inserted { return nodeID }
            }
            let fallback = childID(of: parent, kind: component.kind.rawValue, key: Self.key(of: component, index: index))
            issues.append(ResolutionIssue(nodeID: fallback, message: "duplicate component id '\(id)'; this one is keyed by position"))
            return fallback
        }
        return childID(of: parent, kind: component.kind.rawValue, key: Self.key(of: component, index: index))
    }

    /// A child id unique within its parent: the second row to the same place gets `~2`.
    mutating func childID(of parent: NodeID, kind: String, key: String) -> NodeID {
        let base = parent.child(kind, key)
        var count = usedIDs[base] ?? 0
        var id = base
        // A key may itself end in "~2" (a row titled "A~2"): count on until the id is unused.
        repeat {
            count += 1
            id = count == 1 ? base : NodeID(rawValue: base.rawValue + "~\(count)")
        } while handedOut.contains(id)
        usedIDs[base] = count
        handedOut.insert(id)
        return id
    }

    // MARK: Screen

    mutating func screen(_ screen: Screen) -> ViewNode {
        var children: [ViewNode] = []
        children.append(
            screen.header.map { header($0, id: "header", level: 1) }
                ?? ViewNode(
                    id: "header", role: .header, text: screen.title, accessibility: .init(traits: [.header], headingLevel: 1)))
        let items = (screen.toolbar ?? []) + (screen.menu ?? [])
        if !items.isEmpty {
            let menuID: NodeID = "menu"
            let buttons = items.map { item in
                control(
                    id: childID(of: menuID, kind: "item", key: item.title), title: item.title, action: item.action, icon: item.icon,
                    emphasis: nil, label: nil)
            }
            children.append(ViewNode(id: menuID, role: .menu, accessibility: .init(label: "Actions"), children: buttons))
        }
        for section in screen.sections {
            let id = childID(of: "", kind: "section", key: section.id)
            var nodes: [ViewNode] = []
            if let heading = section.header {
                nodes.append(sectionHeader(heading, id: childID(of: id, kind: "heading", key: heading.title)))
            }
            var content = components(section.components, parent: id)
            // A carousel or grid a section is about is named by the section's title ("Top
            // composers"), so assistive technologies announce a scrolling list by what it holds.
            if let title = section.header?.title {
                for index in content.indices where [.carousel, .grid].contains(content[index].role) && content[index].accessibility.label == nil {
                    content[index].accessibility.label = title
                }
            }
            nodes += content
            children.append(ViewNode(id: id, role: .section, children: nodes))
        }
        return ViewNode(id: "screen", role: .screen, text: screen.title, children: children)
    }

    mutating func components(_ components: [Component], parent: NodeID) -> [ViewNode] {
        var nodes: [ViewNode] = []
        for (index, component) in components.enumerated() { nodes += self.component(component, index: index, parent: parent) }
        return nodes
    }

    // MARK: Pieces shared by several kinds

    mutating func header(_ header: ScreenHeader, id: NodeID, level: Int) -> ViewNode {
        ViewNode(
            id: id, role: .header, text: header.title, secondaryText: header.subtitle, image: header.image.map(image),
            accessibility: .init(traits: [.header], headingLevel: level))
    }

    mutating func sectionHeader(_ header: Component.SectionHeader, id: NodeID) -> ViewNode {
        var node = ViewNode(
            id: id, role: .heading, text: header.title, secondaryText: header.subtitle,
            style: NodeStyle(font: NodeFont(.title, weight: .semibold)),
            accessibility: .init(traits: [.header], headingLevel: 2))
        if let action = header.action {
            node.action = bind(action, id: id)
            node.accessibility.traits.formUnion(Self.traits(for: action))
        }
        return node
    }

    /// An image, with what to show first decided from the app's image cache: the full image when
    /// cached (nothing to swap), else the low-resolution one when cached, else the empty box; the
    /// full image swapped in when it loads.
    func image(_ image: RemoteImage) -> NodeImage {
        var node = NodeImage(url: image.url, placeholderURL: image.lowResURL, alt: image.alt, width: image.size?.width, height: image.size?.height)
        if let isCached = context.imageCache {
            if isCached(image.url) {
                node.showFirst = image.url
                node.swapIn = nil
            } else {
                node.showFirst = image.lowResURL.flatMap { isCached($0) ? $0 : nil }
            }
        }
        return node
    }

    /// An action as the node carries it: disabled when the app cannot perform it or a blocking
    /// command is in flight, busy when this node's command is.
    func bind(_ action: Action, id: NodeID) -> BoundAction {
        var enabled = !context.isBlocked
        switch action {
        case .unknown:
            enabled = false
        case .custom(let custom):
            if let local = context.localActions, !local.contains(custom.name) { enabled = false }
            // Names under `screenplay.` belong to the client itself (the retry button); a server
            // cannot borrow them.
            if custom.name.hasPrefix(ViewTreeResolver.reservedPrefix) { enabled = false }
        case .play, .share, .openURL:
            if let local = context.localActions, !local.contains(action.kind) { enabled = false }
        case .navigate, .command, .set:
            break
        case .sequence(let sequence):
            // A sequence can run only if each of its steps can.
            if !sequence.actions.allSatisfy({ bind($0, id: id).isEnabled }) { enabled = false }
        }
        return BoundAction(action, isEnabled: enabled, isBusy: context.busyNodes.contains(id))
    }

    static func traits(for action: Action) -> Set<NodeAccessibility.Trait> {
        switch action {
        case .navigate, .openURL: [.link]
        default: [.button]
        }
    }

    /// `disabled` and `updatesFrequently` (busy), as the bound action's state says.
    static func stateTraits(of bound: BoundAction) -> Set<NodeAccessibility.Trait> {
        var traits: Set<NodeAccessibility.Trait> = []
        if !bound.isEnabled { traits.insert(.disabled) }
        if bound.isBusy { traits.insert(.updatesFrequently) }
        return traits
    }

    static func role(for action: Action) -> NodeRole {
        switch action {
        case .navigate, .openURL: .link
        default: .button
        }
    }

    /// A titled control: a link when the action goes somewhere, a button otherwise.
    mutating func control(
        id: NodeID, title: String, action: Action, icon: String?, emphasis: NodeStyle.Emphasis?, label: String?
    ) -> ViewNode {
        let bound = bind(action, id: id)
        let traits = Self.traits(for: action).union(Self.stateTraits(of: bound))
        return ViewNode(
            id: id, role: Self.role(for: action), text: title, icon: icon, style: NodeStyle(emphasis: emphasis), action: bound,
            accessibility: .init(label: label, hint: Self.hint(for: action), traits: traits))
    }

    /// What activating an action will do, when the label alone does not say it.
    static func hint(for action: Action) -> String? {
        switch action {
        case .navigate(let navigate): navigate.header.map { "Opens \($0.title)" }
        case .openURL: "Opens in the browser"
        case .share: "Shares a link"
        case .play: "Starts playback"
        default: nil
        }
    }

    func color(_ value: ColorValue?) -> SemanticColor? {
        guard let value else { return nil }
        switch value {
        case .rgba(let red, let green, let blue, let alpha):
            return .rgba(red: red, green: green, blue: blue, alpha: alpha)
        case .token(let token):
            switch token {
            case .primaryText: return .primaryText
            case .secondaryText: return .secondaryText
            case .accent: return .accent
            case .background: return .background
            case .surface: return .surface
            case .positive: return .positive
            case .negative: return .negative
            default: return context.appColorTokens.contains(token.rawValue) ? .appToken(token.rawValue) : .primaryText
            }
        }
    }

    /// The identity key of a component: where its action leads, else its text, else its position.
    static func key(of component: Component, index: Int) -> String {
        component.identityKey ?? String(index)
    }
}

#if canImport(SwiftUI)
public import SwiftUI
public import ScreenplayClient
import ScreenplayContract

/// Draws the top screen of a ``ScreenNavigator`` with SwiftUI, from the resolved view tree.
///
/// Deliberately thin: every decision (text, styles, enabled state, accessibility) is made by
/// `ViewTreeResolver` in the client core, which Linux tests cover; this file maps each node
/// role to a view and sends the node's action back. Not compiled on Linux: see README.md.
@MainActor
public struct ScreenView: View {
    @State private var snapshot: ScreenNavigator.Snapshot?
    /// What this screen view has seen (v6 reports), with the entry it is for: a new tracker for
    /// each screen view, made by the first report from it (never a reset racing its first nodes).
    @State private var impressions: (entry: Int?, tracker: ImpressionTracker) = (nil, ImpressionTracker())
    let navigator: ScreenNavigator
    let context: ResolutionContext
    let customViews: [String: (ViewNode) -> AnyView]
    let reporter: EventReporter?

    /// Shows `navigator`'s stack; `customViews` draws app-defined custom nodes by kind;
    /// `reporter`, when given, receives what the screens ask to hear about once seen (v6).
    public init(
        navigator: ScreenNavigator, context: ResolutionContext = ResolutionContext(), customViews: [String: (ViewNode) -> AnyView] = [:],
        reporter: EventReporter? = nil
    ) {
        self.navigator = navigator
        self.context = context
        self.customViews = customViews
        self.reporter = reporter
    }

    /// The top screen's tree, in whatever state it is.
    public var body: some View {
        Group {
            if let snapshot, let entry = snapshot.top {
                let tree = ViewTreeResolver(context: resolutionContext(snapshot)).resolve(entry).root
                ScrollView {
                    LazyVStack(alignment: .leading, spacing: 12) { NodeView(node: tree, actions: actions, customViews: customViews) }
                }
                .navigationTitle(tree.text ?? "")
            } else {
                ProgressView()
            }
        }
        .task {
            // The stream ends, and the navigator forgets it, when the view goes away.
            for await next in await navigator.snapshots() { snapshot = next }
        }
        // A keyed node that stays in view becomes due with no further scroll: one timer.
        .task(id: impressions.tracker.nextDue) {
            guard let due = impressions.tracker.nextDue else { return }
            try? await Task.sleep(for: .seconds(max(0, due.timeIntervalSinceNow)))
            guard !Task.isCancelled else { return }
            record(impressions.tracker.tick(at: Date()))
        }
    }

    /// A node reporting `key` came half into view or left it, on the screen shown now.
    private func seen(_ key: String, visible: Bool) {
        let entry = snapshot?.top?.id
        if impressions.entry != entry { impressions = (entry, ImpressionTracker()) }
        record(impressions.tracker.update(key: key, visibleFraction: visible ? 1 : 0, at: Date()))
    }

    /// Hands what became due to the reporter, as `visible` events of the screen shown.
    private func record(_ keys: [String]) {
        guard let reporter, !keys.isEmpty else { return }
        let screen = snapshot?.top?.url
        Task { for key in keys { _ = await reporter.record(.visible, key: key, screen: screen) } }
    }

    /// What a node sends back: an action (with the node's id, shown busy while it runs) or text.
    private var actions: NodeActions {
        let navigator = self.navigator
        return NodeActions(
            perform: { action, node in Task { await navigator.perform(action, from: node) } },
            type: { text, key in Task { try? await navigator.type(text, into: key) } },
            suggest: { field, text in await navigator.suggestions(for: field, text: text) },
            seen: { key, visible in seen(key, visible: visible) })
    }

    /// The app's context plus what is in flight now: busy nodes, blocked input.
    private func resolutionContext(_ snapshot: ScreenNavigator.Snapshot) -> ResolutionContext {
        var context = self.context
        context.busyNodes = snapshot.busyNodes
        context.pendingEntities = snapshot.pendingEntities
        context.isBlocked = snapshot.isPerformingCommand
        return context
    }
}

/// What views send back to the navigator.
struct NodeActions {
    /// Performs a node's action.
    let perform: (Action, NodeID) -> Void
    /// Keeps typed text in the screen's storage under a key.
    let type: (String, String) -> Void
    /// The rows a field's suggestions offer for a text (v6; the navigator fetches and resolves them).
    let suggest: @Sendable (NodeField, String) async -> [ViewNode]
    /// A node reporting a key came at least half into view (`true`) or left it (v6 reports).
    let seen: (String, Bool) -> Void
}

/// A node that asks to be reported once seen (v6): its visibility, at the rule's half, told to the
/// screen's ``ImpressionTracker``, which decides when it counts.
struct ImpressionModifier: ViewModifier {
    let key: String?
    let actions: NodeActions

    func body(content: Content) -> some View {
        if let key {
            content
                .onScrollVisibilityChange(threshold: ImpressionRule.visibleFraction) { visible in actions.seen(key, visible) }
                .onDisappear { actions.seen(key, false) }
        } else {
            content
        }
    }
}

/// A field's suggestions (v6): asked after the client core's pause in typing, shown under the
/// field, each row a button doing its action.
struct SuggestionsModifier: ViewModifier {
    let field: NodeField
    let fieldID: NodeID
    let actions: NodeActions
    @State private var rows: [ViewNode] = []

    func body(content: Content) -> some View {
        VStack(alignment: .leading, spacing: 4) {
            content
            ForEach(rows) { row in
                // The field is the node busy meanwhile (the row's id is of another tree).
                Button(row.text ?? "") {
                    if let action = row.action?.action { actions.perform(action, fieldID) }
                    rows = []
                }
                .buttonStyle(.borderless)
            }
        }
        .task(id: field.value) {
            guard field.suggestions != nil else { return }
            try? await Task.sleep(for: NodeField.suggestionPause)
            guard !Task.isCancelled else { return }
            rows = await actions.suggest(field, field.value)
        }
    }
}

/// One node: a switch over roles, each a few lines.
struct NodeView: View {
    let node: ViewNode
    let actions: NodeActions
    let customViews: [String: (ViewNode) -> AnyView]

    var body: some View {
        content
            .accessibilityLabel(node.accessibility.label.map { Text($0) } ?? Text(node.text ?? ""))
            .accessibilityHint(node.accessibility.hint.map { Text($0) } ?? Text(""))
            .accessibilityAddTraits(traits)
            .accessibilityHidden(node.accessibility.isHidden)
            .modifier(ImpressionModifier(key: node.reportsVisible, actions: actions))
    }

    @ViewBuilder var content: some View {
        switch node.role {
        case .screen, .section, .menu:
            ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) }
        case .header, .heading:
            VStack(alignment: .leading) {
                if let image = node.image { RemoteImageView(image: image) }
                Text(node.text ?? "").font(node.role == .header ? .largeTitle : .title2)
                if let subtitle = node.secondaryText { Text(subtitle).foregroundStyle(.secondary) }
            }
        case .text:
            Text(node.text ?? "").font(font(node.style.font)).foregroundStyle(color(node.style.foreground) ?? .primary)
        case .paragraphs:
            VStack(alignment: .leading, spacing: 8) { ForEach(node.paragraphs, id: \.self) { Text($0) } }
        case .image:
            if let image = node.image { actionable(RemoteImageView(image: image)) }
        case .row, .tile:
            actionable(RowContent(node: node)).overlay(alignment: .trailing) {
                HStack { ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) } }
            }
            // Its secondary actions (v6): a long press, as the system's rows offer theirs.
            .contextMenu {
                ForEach(node.moreActions) { item in
                    Button {
                        if let action = item.action?.action { actions.perform(action, item.id) }
                    } label: {
                        Label(item.text ?? "", systemImage: item.icon ?? "")
                    }
                    .disabled(item.action?.isEnabled != true)
                }
            }
        case .button, .link, .toggle:
            Button {
                if let action = node.action?.action { actions.perform(action, node.id) }
            } label: {
                Label(node.text ?? "", systemImage: node.icon ?? "")
            }
            .disabled(node.action?.isEnabled != true)
        case .textField:
            if let field = node.field {
                VStack(alignment: .leading) {
                    TextField(
                        node.text ?? "", text: Binding(get: { field.value }, set: { actions.type($0, field.storageKey) }),
                        prompt: field.placeholder.map { Text($0) }
                    )
                    .onSubmit { if let bound = node.action, bound.isEnabled { actions.perform(bound.action, node.id) } }
                    .modifier(SuggestionsModifier(field: field, fieldID: node.id, actions: actions))
                    if let message = field.validationMessage { Text(message).foregroundStyle(.red).font(.footnote) }
                }
            }
        case .stack:
            let children = ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) }
            Group {
                if node.style.axis == .horizontal {
                    HStack(alignment: verticalAlignment, spacing: node.style.spacing) { children }
                } else {
                    VStack(alignment: horizontalAlignment, spacing: node.style.spacing) { children }
                }
            }
            .padding(node.style.padding ?? 0)
            .background(color(node.style.background) ?? .clear)
        case .grid:
            LazyVGrid(columns: Array(repeating: GridItem(.flexible()), count: max(node.style.columns ?? 2, 1))) {
                ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) }
            }
        case .carousel:
            ScrollView(.horizontal) {
                LazyHStack { ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) } }
            }
        case .spacer:
            if let height = node.style.height { Color.clear.frame(width: height, height: height) } else { Spacer() }
        case .rectangle:
            RoundedRectangle(cornerRadius: node.style.cornerRadius ?? 0)
                .fill(color(node.style.background) ?? .primary)
                .frame(width: node.style.width, height: node.style.height)
        case .progress:
            ProgressView(node.text ?? "")
        case .message:
            VStack(alignment: .leading) {
                Text(node.text ?? "").foregroundStyle(color(node.style.foreground) ?? .primary)
                ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) }
            }
        case .custom:
            if let kind = node.customKind, let view = customViews[kind] { view(node) }
        case .reorderable:
            // SwiftUI's own move (v6); the client core turns it into the command with the new order.
            List {
                ForEach(node.children) { NodeView(node: $0, actions: actions, customViews: customViews) }
                    .onMove { (sources: IndexSet, destination: Int) in
                        guard let reorder = node.reorder, reorder.isEnabled, let source = sources.first,
                            let key = node.children[source].reorderKey, let from = reorder.visible.firstIndex(of: key)
                        else { return }
                        // Counted among the rows that move; SwiftUI's destination counts the moved row itself.
                        let before = node.children.prefix(destination).filter { $0.reorderKey != nil }.count
                        if let action = reorder.action(moving: from, to: before > from ? before - 1 : before) {
                            actions.perform(action, node.id)
                        }
                    }
            }
        }
    }

    @ViewBuilder func actionable(_ content: some View) -> some View {
        if let action = node.action {
            Button {
                actions.perform(action.action, node.id)
            } label: {
                content
            }.buttonStyle(.plain).disabled(!action.isEnabled)
        } else {
            content
        }
    }

    var traits: AccessibilityTraits {
        var traits: AccessibilityTraits = []
        if node.accessibility.traits.contains(.header) { traits.insert(.isHeader) }
        if node.accessibility.traits.contains(.button) { traits.insert(.isButton) }
        if node.accessibility.traits.contains(.link) { traits.insert(.isLink) }
        if node.accessibility.traits.contains(.image) { traits.insert(.isImage) }
        if node.accessibility.traits.contains(.selected) { traits.insert(.isSelected) }
        return traits
    }

    var horizontalAlignment: HorizontalAlignment {
        switch node.style.alignment {
        case .leading?: .leading
        case .trailing?: .trailing
        default: .center
        }
    }

    var verticalAlignment: VerticalAlignment {
        switch node.style.alignment {
        case .top?: .top
        case .bottom?: .bottom
        default: .center
        }
    }

    func font(_ font: NodeFont?) -> Font {
        guard let font else { return .body }
        let weight: Font.Weight =
            switch font.weight {
            case .regular: .regular
            case .medium: .medium
            case .semibold: .semibold
            case .bold: .bold
            }
        if let size = font.size { return .system(size: size, weight: weight) }
        return .body.weight(weight)
    }

    func color(_ color: SemanticColor?) -> Color? {
        switch color {
        case nil: nil
        case .primaryText?: .primary
        case .secondaryText?: .secondary
        case .accent?: .accentColor
        case .background?: Color(white: 1)
        case .surface?: Color.gray.opacity(0.12)
        case .positive?: .green
        case .negative?: .red
        case .appToken(let name)?: Color(name)
        case .rgba(let red, let green, let blue, let alpha)?:
            Color(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, opacity: Double(alpha) / 255)
        }
    }
}

/// A row's or tile's content: picture, title, subtitle, details.
struct RowContent: View {
    let node: ViewNode

    var body: some View {
        HStack {
            if let image = node.image { RemoteImageView(image: image).frame(width: 48, height: 48) }
            VStack(alignment: .leading) {
                Text(node.text ?? "").font(.headline)
                if let subtitle = node.secondaryText { Text(subtitle).font(.subheadline).foregroundStyle(.secondary) }
            }
            Spacer()
            ForEach(node.details, id: \.self) { Text($0).font(.caption).foregroundStyle(.secondary) }
        }
    }
}

/// An image as the tree decided: what to show first (a cached full or low-resolution image, or
/// the empty box), with the full image swapped in when it loads.
struct RemoteImageView: View {
    let image: NodeImage

    var body: some View {
        Group {
            if let swapIn = image.swapIn {
                AsyncImage(url: URL(string: swapIn)) { loaded in
                    loaded.resizable().scaledToFill()
                } placeholder: {
                    first
                }
            } else {
                first
            }
        }
        .frame(width: image.width, height: image.height)
        .accessibilityLabel(image.alt ?? "")
    }

    @ViewBuilder private var first: some View {
        if let first = image.showFirst {
            AsyncImage(url: URL(string: first)) { loaded in loaded.resizable().scaledToFill() } placeholder: { Color.gray.opacity(0.2) }
        } else {
            Color.gray.opacity(0.2)
        }
    }
}
#endif

public import ScreenplayClient
import ScreenplayContract

/// Draws a resolved view tree as an indented outline: role, id, text, details and what
/// activating the node does. What `screenplay render` prints, and the easiest way to read what a
/// screen is on a machine with no browser.
///
/// ```
/// screen "Composers"
///   header [header] h1 "Composers"
///   section [section:all]
///     row [section:all/detailButton:screens/composer/mozart] "Mozart" — "1756–1791" → navigate screens/composer/mozart
/// ```
public struct TerminalRenderer: Sendable {
    /// Spaces per level.
    public var indent: Int

    /// Creates a renderer.
    public init(indent: Int = 2) { self.indent = indent }

    /// The outline of `node` and everything below it, one line per node, ending in a newline.
    /// What changed between two states of a screen, one line per change: `+` inserted, `-`
    /// removed, `↕` moved, `~` updated (with the fields), then how many nodes stayed the same.
    /// What `screenplay render --follow` prints for each new state.
    public func changes(_ diff: ScreenDiff) -> String {
        guard !diff.isEmpty else { return "no change (\(diff.unchanged) nodes)\n" }
        var lines: [String] = []
        for id in diff.inserted.keys.sorted(by: { $0.rawValue < $1.rawValue }) { lines.append("+ \(id)") }
        for id in diff.removed.sorted(by: { $0.rawValue < $1.rawValue }) { lines.append("- \(id)") }
        for id in diff.moved.sorted(by: { $0.rawValue < $1.rawValue }) { lines.append("↕ \(id)") }
        for (id, update) in diff.updated.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("~ \(id): " + update.fields.sorted().map(\.rawValue).joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n\(diff.unchanged) nodes unchanged\n"
    }

    public func outline(_ node: ViewNode) -> String {
        var lines: [String] = []
        append(node, depth: 0, to: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    func append(_ node: ViewNode, depth: Int, to lines: inout [String], number: Int? = nil) {
        lines.append(String(repeating: " ", count: depth * indent) + (number.map { "\($0). " } ?? "") + line(for: node))
        // A reorderable list's rows are numbered: a move is "row 3 to 1", the order they send.
        for (index, child) in node.children.enumerated() {
            append(child, depth: depth + 1, to: &lines, number: node.role == .reorderable ? index + 1 : nil)
        }
    }

    /// One node's line. Every role has its word; the switch is exhaustive, so a new role does
    /// not compile until it has one.
    public func line(for node: ViewNode) -> String {
        var parts: [String] = [word(for: node)]
        if node.role != .screen { parts.append("[" + Self.visible(node.id.rawValue) + "]") }
        if let level = node.accessibility.headingLevel { parts.append("h\(level)") }
        if let text = node.text { parts.append(quoted(text)) }
        if let secondary = node.secondaryText { parts.append((node.role == .textField ? "placeholder " : "— ") + quoted(secondary)) }
        if !node.details.isEmpty { parts.append("· " + node.details.map(Self.visible).joined(separator: " · ")) }
        if !node.paragraphs.isEmpty {
            parts.append(
                "(\(node.paragraphs.count) paragraph\(node.paragraphs.count == 1 ? "" : "s")) "
                    + quoted(String(node.paragraphs[0].prefix(60))))
        }
        if let image = node.image { parts.append("image " + (image.alt.map(quoted) ?? "(decorative)")) }
        if node.role == .toggle { parts.append(node.accessibility.traits.contains(.selected) ? "(on)" : "(off)") }
        if let field = node.field {
            parts.append("key " + Self.visible(field.storageKey) + " = " + quoted(field.value))
            if let message = field.validationMessage { parts.append("! " + quoted(message)) }
        }
        if let action = node.action {
            parts.append("→ " + Self.visible(describe(action.action)))
            if !action.isEnabled { parts.append("(disabled)") }
            if action.isBusy { parts.append("(busy)") }
        }
        if !node.moreActions.isEmpty {
            // A row's secondary actions (v6): what its "…" menu holds.
            parts.append("⋯ [" + node.moreActions.map { item in
                quoted(item.text ?? "") + (item.action.map { " → " + Self.visible(describe($0.action)) } ?? "")
            }.joined(separator: "; ") + "]")
        }
        if let label = node.accessibility.label, label != node.text, node.role != .row, node.role != .tile {
            parts.append("{label: \(quoted(label))}")
        }
        return parts.joined(separator: " ")
    }

    func word(for node: ViewNode) -> String {
        switch node.role {
        case .screen: "screen"
        case .header: "header"
        case .section: "section"
        case .heading: "heading"
        case .text: "text"
        case .paragraphs: "paragraphs"
        case .image: "image"
        case .row: "row"
        case .button: "button"
        case .link: "link"
        case .toggle: "toggle"
        case .textField: "textfield"
        case .stack: node.style.axis == .horizontal ? "hstack" : "vstack"
        case .grid: "grid(\(node.style.columns ?? 0) columns)"
        case .carousel: "carousel(\(node.style.tileShape?.rawValue ?? "square"))"
        case .tile: "tile"
        case .spacer: node.style.isFlexible ? "spacer(flexible)" : "spacer(\(Self.points(node.style.height)))"
        case .rectangle: "rectangle(\(Self.points(node.style.width))×\(Self.points(node.style.height)))"
        case .menu: "menu"
        case .progress: "progress"
        case .message: "message"
        case .custom: "custom(\(node.customKind ?? "?"))"
        case .reorderable:
            "reorderable(\(node.children.count) rows, a move sends \(node.reorder.map { Self.visible($0.move.url) } ?? "nothing") with the new order)"
        }
    }

    func describe(_ action: Action) -> String {
        switch action {
        case .navigate(let navigate): "navigate \(navigate.url)" + (navigate.presentation == .modal ? " (modal)" : "")
        case .command(let command): "command \(command.url)"
        case .play(let play): play.shuffle ? "shuffle, from \(play.firstTrack.title)" : "play \(play.firstTrack.title)"
        case .share(let share): "share \(share.url)"
        case .openURL(let open): "open \(open.url)"
        case .custom(let custom): "custom \(custom.name)"
        case .set(let set): "set \(set.variable) = \(set.value)"
        case .sequence(let sequence): sequence.actions.map(describe).joined(separator: "; then ")
        case .unknown(let type, _): "unknown \(type)"
        }
    }

    /// A length in points, whatever the server sent (a huge or odd number must not trap).
    static func points(_ value: Double?) -> String {
        guard let value else { return "0" }
        guard value.isFinite, abs(value) < 1e15 else { return String(describing: value) }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Text in quotes, made safe for a terminal.
    func quoted(_ text: String) -> String { "\"" + Self.visible(text, escapingQuotes: true) + "\"" }

    /// Line breaks, control characters (C0, DEL, C1) and bidirectional overrides made visible, so
    /// one node stays one line and nothing the server sent can move the cursor, retitle the
    /// window or reorder what the reader sees.
    static func visible(_ text: String) -> String { visible(text, escapingQuotes: false) }

    static func visible(_ text: String, escapingQuotes: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where escapingQuotes: result += "\\\""
            case "\\" where escapingQuotes: result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                let value = scalar.value
                let bidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
                if value < 0x20 || (0x7F...0x9F).contains(value) || bidi {
                    result += "\\u{\(String(value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

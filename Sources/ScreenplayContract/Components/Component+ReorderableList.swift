extension Component {
    /// Rows the user puts in their own order (v6): dragged, moved by keyboard, or moved one place
    /// at a time, and answered by one command carrying the new order. A playlist's works, a
    /// queue, favorites sorted by hand.
    ///
    /// ```json
    /// {"type": "reorderableList", "id": "works", "label": "Works of Late Night",
    ///  "move": {"url": "commands/playlists/reorder", "payload": {"playlistId": 4}},
    ///  "children": [{"type": "listRow", "id": "work-3", "title": "Nocturnes"}, …]}
    /// ```
    ///
    /// - Each child is a row with an `id`: the order a client sends back is the children's ids,
    ///   top to bottom, as `order` in ``move``'s payload (merged into what the payload already
    ///   holds). A child without an id cannot be named in an order: it is shown where it is and
    ///   never moves (the DSL gives every row an id).
    /// - The client shows the new order at once and sends the command; the command's answer
    ///   (a refresh, or a refusal) is the last word, as for any command.
    /// - Renderers: SwiftUI's `onMove`, the web's drag and keyboard (and, without the script,
    ///   a "Move up" and a "Move down" per row, each a form carrying its order), the terminal's
    ///   numbered rows. A client older than v6 gets the rows as a plain list.
    public struct ReorderableList: ComponentPayload {
        /// `reorderableList`.
        public static let kind = ComponentKind(rawValue: "reorderableList")
        /// New in v6; older clients get the rows in a vertical stack, in the server's order.
        public static let versioning = KindVersioning(introduced: .v6, fallback: "a vertical stack of the rows, in their order, with nothing to move")
        /// The member of ``move``'s payload the new order is written to.
        public static let orderMember = "order"
        /// The most rows one list takes: an order is one request body, and a list longer than a
        /// person reorders by hand is a search or a paged list instead.
        public static let maximumRows = 500

        /// What the list is, for assistive technologies and the move controls ("Move Nocturnes up
        /// in Works of Late Night").
        public var label: String
        /// The command a new order is sent with; its payload gains `order`.
        public var move: Action.Command
        /// The rows, each with an `id`, in their current order.
        public var children: [Component]

        /// A list of `children` (each with an id) that `move` reorders.
        public init(label: String, move: Action.Command, children: [Component]) {
            self.label = label
            self.move = move
            self.children = children
        }

        /// `.reorderableList(self)`.
        public var component: Component { .reorderableList(self) }

        /// Rows the user reorders, answered by a command with the new order.
        public static let summary = "Rows the user drags or moves by keyboard into their own order (v6), sent back as one command with `order`: the children's ids."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            ReorderableList(
                label: "Works of Late Night", move: Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4]),
                children: [
                    Component.listRow(.init(title: "Nocturnes", subtitle: "Frédéric Chopin")).id("work-3"),
                    Component.listRow(.init(title: "Clair de lune", subtitle: "Claude Debussy")).id("work-7"),
                ])
        }

        /// The payload ``move`` is sent with for `order` (the children's ids, top to bottom):
        /// its own payload's members, and `order`. A payload that is not an object is replaced.
        public func payload(for order: [String]) -> JSONValue { Self.payload(of: move, for: order) }

        /// The payload `move` is sent with for `order`: its own members, and `order`.
        public static func payload(of move: Action.Command, for order: [String]) -> JSONValue {
            var members = move.payload?.objectValue ?? [:]
            members[orderMember] = .array(order.map(JSONValue.string))
            return .object(members)
        }

        /// The ids of the children, top to bottom.
        public var order: [String] { children.compactMap(\.id) }

        /// `order` with the row at `from` moved to `to` (indexes in the order as it is, `to`
        /// clamped to the list): what a drag, a keyboard move or "Move up" sends.
        public static func order(_ order: [String], moving from: Int, to: Int) -> [String] {
            guard order.indices.contains(from) else { return order }
            var moved = order
            let id = moved.remove(at: from)
            moved.insert(id, at: max(0, min(to, moved.count)))
            return moved
        }

        enum CodingKeys: String, CodingKey { case label, move, children }

        /// Decodes lossily: a bad row, or a row repeating another's id, is left out and reported;
        /// rows past ``maximumRows`` too. A row without an id is kept, and stays where it is.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            label = try container.decode(checkedBy: ValueRules.Label.self, forKey: .label)
            move = try container.decode(Action.Command.self, forKey: .move)
            // Element by element, so each refusal names the row's own place in the JSON (a row
            // that does not decode at all is skipped, and reported, by the lossy decoder).
            var rows = try container.nestedUnkeyedContainer(forKey: .children)
            var kept: [Component] = []
            var ids: Set<String> = []
            var index = -1
            while !rows.isAtEnd {
                index += 1
                guard let row = try rows.decode(LossyElement<Component>.self).value else { continue }
                let path = container.codingPath + [CodingKeys.children, AnyCodingKey(intValue: index)]
                // A row without an id cannot be named in an order: it is shown, and stays where it is.
                guard let id = row.id else {
                    kept.append(row)
                    continue
                }
                guard ids.insert(id).inserted else {
                    try decoder.reportInvalid("the id '\(id.prefix(40))' is another row's; this row is left out", at: path)
                    continue
                }
                guard kept.count < Self.maximumRows else {
                    try decoder.reportInvalid("a reorderable list holds at most \(Self.maximumRows) rows; the rest are left out", at: path)
                    break
                }
                kept.append(row)
            }
            children = kept
        }

        /// For clients before v6: the rows in a vertical stack, in their order.
        public func fallback(for version: APIVersion) -> [Component] {
            [.verticalStack(VerticalStack(children: children))]
        }
    }
}

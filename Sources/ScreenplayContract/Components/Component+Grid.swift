extension Component {
    /// Cards laid out in columns (v2): covers, tiles.
    public struct Grid: ComponentPayload {
        /// `grid`.
        public static let kind = ComponentKind(rawValue: "grid")
        /// New in v2; v1 gets rows.
        public static let versioning = KindVersioning(
            introduced: .v2, fallback: "one `detailButton` row per card with an action, a `listRow` per card without")
        /// Columns on a phone in portrait (1...6); wider screens may add more.
        public var columns: Int
        /// The cards, in reading order; bad ones are skipped by the lossy decoder.
        public var cards: [Card]

        /// Creates a grid.
        public init(columns: Int, cards: [Card]) {
            self.columns = columns
            self.cards = cards
        }

        /// `.grid(self)`.
        public var component: Component { .grid(self) }

        /// Cards laid out in columns: covers, tiles.
        public static let summary = "Cards laid out in columns: covers, tiles."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            Grid(
                columns: 3,
                cards: [
                    .init(
                        title: "Late Night Piano", subtitle: "Solo piano for the quiet hours.",
                        image: RemoteImage(url: "/images/playlist/2-low.svg", alt: "Cover"),
                        action: .navigate(.init(url: "screens/playlist/2")))
                ])
        }

        /// One card.
        public typealias Card = Tile

        /// Rows built from the same cards.
        public func fallback(for version: APIVersion) -> [Component] { cards.map(\.row) }

        enum CodingKeys: String, CodingKey { case columns, cards }

        /// Decodes lossily and refuses column counts outside 1...6.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            columns = try container.decode(checkedBy: ValueRules.GridColumns.self, forKey: .columns)
            cards = try container.decodeLossyArray(of: Card.self, forKey: .cards)
        }
    }
}

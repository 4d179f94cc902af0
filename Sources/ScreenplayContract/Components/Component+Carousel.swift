extension Component {
    /// A horizontally scrolling row of items (top composers).
    ///
    /// `itemStyle` tells the renderer which cell to use for every item, so the items carry only
    /// a title, an image and an action.
    public struct Carousel: ComponentPayload {
        /// `carousel`.
        public static let kind = ComponentKind(rawValue: "carousel")
        /// The cell shape of every item.
        public var itemStyle: ItemStyle
        /// The items, in order; bad items are skipped by the lossy decoder.
        public var items: [Item]

        /// Creates a carousel.
        public init(itemStyle: ItemStyle, items: [Item]) {
            self.itemStyle = itemStyle
            self.items = items
        }

        /// `.carousel(self)`.
        public var component: Component { .carousel(self) }

        /// A horizontally scrolling row of items that all share one cell style.
        public static let summary = "A horizontally scrolling row of items that all share one cell style."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            Carousel(
                itemStyle: .portrait,
                items: [
                    .init(
                        title: "Wolfgang Amadeus Mozart", subtitle: "Classical",
                        image: RemoteImage(url: "/images/composer/mozart-low.svg", alt: "Portrait of Mozart"),
                        action: .navigate(.init(url: "screens/composer/mozart")))
                ])
        }

        /// The shape of a carousel cell.
        public enum ItemStyle: String, Codable, Sendable, Hashable, CaseIterable {
            /// A round portrait with the name under it (people).
            case portrait
            /// A square cover with the title under it (albums, playlists).
            case square
            /// A wide banner.
            case wide
        }

        /// One cell.
        public typealias Item = Tile

        enum CodingKeys: String, CodingKey { case itemStyle, items }

        /// Decodes lossily: one bad item does not lose the carousel.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            itemStyle = try container.decode(ItemStyle.self, forKey: .itemStyle)
            items = try container.decodeLossyArray(of: Item.self, forKey: .items)
        }
    }
}

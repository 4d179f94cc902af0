extension Component {
    /// A titled picture that leads somewhere: one cell of a ``Carousel`` or one card of a
    /// ``Grid``. One type, so a carousel can become a grid (or rows) without remapping data.
    public struct Tile: Codable, Sendable, Hashable {
        /// The main label.
        public var title: String
        /// A second label.
        public var subtitle: String?
        /// The picture.
        public var image: RemoteImage?
        /// What tapping it does.
        public var action: Action?

        /// Creates a tile.
        public init(title: String, subtitle: String? = nil, image: RemoteImage? = nil, action: Action? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.image = image
            self.action = action
        }

        /// The same data as a row: a `detailButton` when it leads somewhere, a `listRow` when not.
        public var row: Component {
            if let action {
                return .detailButton(DetailButton(title: title, subtitle: subtitle, image: image, action: action))
            }
            return .listRow(ListRow(title: title, subtitle: subtitle, image: image))
        }
    }
}

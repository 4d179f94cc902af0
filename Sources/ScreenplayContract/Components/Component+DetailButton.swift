extension Component {
    /// A row that leads somewhere: title, subtitle, image, and an action (required).
    public struct DetailButton: ComponentPayload {
        /// `detailButton`.
        public static let kind = ComponentKind(rawValue: "detailButton")
        /// The main line.
        public var title: String
        /// The second line.
        public var subtitle: String?
        /// A thumbnail on the leading side.
        public var image: RemoteImage?
        /// Where it leads.
        public var action: Action

        /// Creates a detail button.
        public init(title: String, subtitle: String? = nil, image: RemoteImage? = nil, action: Action) {
            self.title = title
            self.subtitle = subtitle
            self.image = image
            self.action = action
        }

        /// `.detailButton(self)`.
        public var component: Component { .detailButton(self) }
    }
}

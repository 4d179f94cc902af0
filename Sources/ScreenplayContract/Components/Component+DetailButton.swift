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

        /// A row that leads somewhere: title, subtitle, image, and a required action.
        public static let summary = "A row that leads somewhere: title, subtitle, image, and a required action."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            DetailButton(
                title: "Symphony No. 40", subtitle: "Symphony",
                image: RemoteImage(url: "/images/work/40-low.svg", size: .init(width: 96, height: 96), alt: "Cover"),
                action: .navigate(.init(url: "screens/work/12")))
        }
    }
}

extension Component {
    /// An image on its own, optionally tappable.
    public struct Image: ComponentPayload {
        /// `image`.
        public static let kind = ComponentKind(rawValue: "image")
        /// The picture, with its size and alt text.
        public var image: RemoteImage
        /// What tapping the image does.
        public var action: Action?

        /// Creates an image component.
        public init(_ image: RemoteImage, action: Action? = nil) {
            self.image = image
            self.action = action
        }

        /// `.image(self)`.
        public var component: Component { .image(self) }

        /// An image on its own, with its size and alt text, optionally tappable.
        public static let summary = "An image on its own, with its size and alt text, optionally tappable."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            Image(RemoteImage(url: "/images/city/vienna.svg", size: .init(width: 100, height: 100), alt: "View of Vienna"))
        }
    }
}

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
    }
}

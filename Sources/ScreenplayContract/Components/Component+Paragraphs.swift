extension Component {
    /// Running text in paragraphs, such as a composer's biography.
    public struct Paragraphs: ComponentPayload {
        /// `paragraphs`.
        public static let kind = ComponentKind(rawValue: "paragraphs")
        /// The paragraphs, in order; plain text, no markup.
        public var paragraphs: [String]

        /// Creates a text block.
        public init(_ paragraphs: [String]) { self.paragraphs = paragraphs }

        /// `.paragraphs(self)`.
        public var component: Component { .paragraphs(self) }
    }
}

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

        /// Running text in paragraphs, such as a biography. Plain text, no markup.
        public static let summary = "Running text in paragraphs, such as a biography. Plain text, no markup."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self { Paragraphs(["Mozart was born in Salzburg in 1756.", "He settled in Vienna in 1781."]) }
    }
}

extension Component {
    /// Empty space: a fixed length, or as much as there is when `length` is `nil`.
    public struct Spacer: ComponentPayload {
        /// `spacer`.
        public static let kind = ComponentKind(rawValue: "spacer")
        /// Points along the parent stack's axis; `nil` is flexible.
        public var length: Double?

        /// Creates a spacer.
        public init(length: Double? = nil) { self.length = length }

        /// `.spacer(self)`.
        public var component: Component { .spacer(self) }

        /// Empty space along the parent stack: a fixed length, or flexible.
        public static let summary = "Empty space along the parent stack: a fixed length, or flexible."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self { Spacer(length: 16) }
    }
}

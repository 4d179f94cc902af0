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
    }
}

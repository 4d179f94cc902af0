extension Component {
    /// One run of styled text: the layout primitive for labels and numbers.
    public struct Text: ComponentPayload {
        /// `text`.
        public static let kind = ComponentKind(rawValue: "text")
        /// The text itself.
        public var text: String
        /// Point size; `nil` is body size.
        public var size: Double?
        /// Weight; `nil` is regular.
        public var weight: FontWeight?
        /// Color; `nil` is the primary text color.
        public var color: ColorValue?

        /// Creates styled text.
        public init(_ text: String, size: Double? = nil, weight: FontWeight? = nil, color: ColorValue? = nil) {
            self.text = text
            self.size = size
            self.weight = weight
            self.color = color
        }

        /// `.text(self)`.
        public var component: Component { .text(self) }

        /// One run of styled text: the layout primitive for labels and numbers.
        public static let summary = "One run of styled text: the layout primitive for labels and numbers."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self { Text("964", size: 11, weight: .semibold, color: .token(.secondaryText)) }
    }

    /// Font weights every renderer maps.
    public enum FontWeight: String, Codable, Sendable, Hashable, CaseIterable {
        /// Body text.
        case regular
        /// Slight emphasis.
        case medium
        /// Headings.
        case semibold
        /// Strong emphasis.
        case bold
    }
}

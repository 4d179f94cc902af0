extension Component {
    /// A filled rectangle: chart bars, dividers, color swatches.
    public struct Rectangle: ComponentPayload {
        /// `rectangle`.
        public static let kind = ComponentKind(rawValue: "rectangle")
        /// Width in points (0...10 000).
        public var width: Double
        /// Height in points (0...10 000).
        public var height: Double
        /// Fill color.
        public var color: ColorValue
        /// Corner radius in points.
        public var cornerRadius: Double?

        /// Creates a rectangle.
        public init(width: Double, height: Double, color: ColorValue, cornerRadius: Double? = nil) {
            self.width = width
            self.height = height
            self.color = color
            self.cornerRadius = cornerRadius
        }

        /// `.rectangle(self)`.
        public var component: Component { .rectangle(self) }

        /// A filled rectangle: chart bars, dividers, swatches.
        public static let summary = "A filled rectangle: chart bars, dividers, swatches."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self { Rectangle(width: 20, height: 58, color: .rgb(245, 10, 0), cornerRadius: 2) }

        enum CodingKeys: String, CodingKey { case width, height, color, cornerRadius }

        /// Decodes and rejects sizes outside 0...10 000 points, which no screen can show.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try container.decode(checkedBy: ValueRules.Points.self, forKey: .width)
            height = try container.decode(checkedBy: ValueRules.Points.self, forKey: .height)
            color = try container.decode(ColorValue.self, forKey: .color)
            cornerRadius = try container.decodeIfPresent(Double.self, forKey: .cornerRadius)
        }
    }
}

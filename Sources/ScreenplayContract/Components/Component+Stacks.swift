extension Component {
    /// Children laid out top to bottom: the layout primitive for one-off screens.
    public struct VerticalStack: ComponentPayload {
        /// `verticalStack`.
        public static let kind = ComponentKind(rawValue: "verticalStack")
        /// How children line up across the stack.
        public var alignment: HorizontalAlignment?
        /// Points between children; `nil` is the renderer's default.
        public var spacing: Double?
        /// Fill behind the stack.
        public var background: ColorValue?
        /// Points of inner padding on every side.
        public var padding: Double?
        /// The children; bad ones are skipped by the lossy decoder.
        public var children: [Component]

        /// Creates a vertical stack.
        public init(
            alignment: HorizontalAlignment? = nil, spacing: Double? = nil, background: ColorValue? = nil,
            padding: Double? = nil, children: [Component]
        ) {
            self.alignment = alignment
            self.spacing = spacing
            self.background = background
            self.padding = padding
            self.children = children
        }

        /// `.verticalStack(self)`.
        public var component: Component { .verticalStack(self) }

        enum CodingKeys: String, CodingKey { case alignment, spacing, background, padding, children }

        /// Decodes lossily: one bad child does not lose the stack.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alignment = try container.decodeIfPresent(HorizontalAlignment.self, forKey: .alignment)
            spacing = try container.decodeIfPresent(Double.self, forKey: .spacing)
            background = try container.decodeIfPresent(ColorValue.self, forKey: .background)
            padding = try container.decodeIfPresent(Double.self, forKey: .padding)
            children = try container.decodeLossyArray(of: Component.self, forKey: .children)
        }
    }

    /// Children laid out left to right.
    public struct HorizontalStack: ComponentPayload {
        /// `horizontalStack`.
        public static let kind = ComponentKind(rawValue: "horizontalStack")
        /// How children line up vertically (bars grow from the `bottom`).
        public var alignment: VerticalAlignment?
        /// Points between children; `nil` is the renderer's default.
        public var spacing: Double?
        /// Fill behind the stack.
        public var background: ColorValue?
        /// Points of inner padding on every side.
        public var padding: Double?
        /// The children; bad ones are skipped by the lossy decoder.
        public var children: [Component]

        /// Creates a horizontal stack.
        public init(
            alignment: VerticalAlignment? = nil, spacing: Double? = nil, background: ColorValue? = nil,
            padding: Double? = nil, children: [Component]
        ) {
            self.alignment = alignment
            self.spacing = spacing
            self.background = background
            self.padding = padding
            self.children = children
        }

        /// `.horizontalStack(self)`.
        public var component: Component { .horizontalStack(self) }

        enum CodingKeys: String, CodingKey { case alignment, spacing, background, padding, children }

        /// Decodes lossily: one bad child does not lose the stack.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alignment = try container.decodeIfPresent(VerticalAlignment.self, forKey: .alignment)
            spacing = try container.decodeIfPresent(Double.self, forKey: .spacing)
            background = try container.decodeIfPresent(ColorValue.self, forKey: .background)
            padding = try container.decodeIfPresent(Double.self, forKey: .padding)
            children = try container.decodeLossyArray(of: Component.self, forKey: .children)
        }
    }

    /// Where children of a vertical stack sit horizontally.
    public enum HorizontalAlignment: String, Codable, Sendable, Hashable, CaseIterable {
        /// Start edge.
        case leading
        /// Centered.
        case center
        /// End edge.
        case trailing
    }

    /// Where children of a horizontal stack sit vertically.
    public enum VerticalAlignment: String, Codable, Sendable, Hashable, CaseIterable {
        /// Top edge.
        case top
        /// Centered.
        case center
        /// Bottom edge.
        case bottom
    }
}

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

        /// Children top to bottom: the layout primitive for one-off screens.
        public static let summary = "Children laid out top to bottom: the layout primitive for one-off screens."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            VerticalStack(
                alignment: .center, spacing: 2,
                children: [
                    .text(.init("964", size: 11)), .rectangle(.init(width: 20, height: 58, color: .rgb(245, 10, 0))),
                    .text(.init("Sun", size: 12)),
                ])
        }

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

        /// Children left to right.
        public static let summary = "Children laid out left to right; bars grow from the bottom with `alignment: bottom`."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            HorizontalStack(
                alignment: .bottom, spacing: 4, background: .token(.surface), padding: 12,
                children: [
                    .rectangle(.init(width: 20, height: 26, color: .rgb(110, 145, 0))),
                    .rectangle(.init(width: 20, height: 42, color: .rgb(179, 76, 0))),
                ])
        }

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

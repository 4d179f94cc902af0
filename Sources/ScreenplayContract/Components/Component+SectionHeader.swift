extension Component {
    /// A title row that opens a group ("Popular works"), optionally with a "See all" action.
    public struct SectionHeader: ComponentPayload {
        /// `sectionHeader`.
        public static let kind = ComponentKind(rawValue: "sectionHeader")
        /// The heading.
        public var title: String
        /// A smaller line under the heading.
        public var subtitle: String?
        /// What tapping the header does (usually navigate to the full list).
        public var action: Action?

        /// Creates a section header.
        public init(title: String, subtitle: String? = nil, action: Action? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.action = action
        }

        /// `.sectionHeader(self)`.
        public var component: Component { .sectionHeader(self) }
    }
}

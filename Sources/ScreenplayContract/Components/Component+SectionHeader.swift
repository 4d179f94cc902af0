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

        /// A title row that opens a group of components, optionally with an action such as "See all".
        public static let summary = "A title row that opens a group of components, optionally with an action such as \"See all\"."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            SectionHeader(
                title: "Popular works", subtitle: "5 in the catalog", action: .navigate(.init(url: "screens/composer/mozart/works")))
        }
    }
}

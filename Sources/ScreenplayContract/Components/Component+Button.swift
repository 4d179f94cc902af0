extension Component {
    /// A button with a title and an action.
    public struct Button: ComponentPayload {
        /// `button`.
        public static let kind = ComponentKind(rawValue: "button")
        /// The label.
        public var title: String
        /// Prominence: `primary` is filled, `secondary` outlined, `plain` a link.
        public var style: Style?
        /// What tapping it does.
        public var action: Action

        /// Creates a button.
        public init(title: String, style: Style? = nil, action: Action) {
            self.title = title
            self.style = style
            self.action = action
        }

        /// `.button(self)`.
        public var component: Component { .button(self) }

        /// A button with a title and an action.
        public static let summary = "A button with a title and an action."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            Button(
                title: "Add to favorites", style: .secondary,
                action: .command(.init(url: "commands/favorites/add", payload: ["playlistId": 1])))
        }

        /// How prominent the button is.
        public enum Style: String, Codable, Sendable, Hashable, CaseIterable {
            /// Filled with the accent color.
            case primary
            /// Outlined.
            case secondary
            /// Looks like a link.
            case plain
        }
    }
}

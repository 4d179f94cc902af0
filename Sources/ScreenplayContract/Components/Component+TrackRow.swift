extension Component {
    /// A playable track: title, subtitle, duration and a play action.
    public struct TrackRow: ComponentPayload {
        /// `trackRow`.
        public static let kind = ComponentKind(rawValue: "trackRow")
        /// The track's title ("I. Allegro").
        public var title: String
        /// Performers or work.
        public var subtitle: String?
        /// The duration as display text ("7:41").
        public var duration: String?
        /// What tapping the row does; usually `play`.
        public var action: Action?

        /// Creates a track row.
        public init(title: String, subtitle: String? = nil, duration: String? = nil, action: Action? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.duration = duration
            self.action = action
        }

        /// `.trackRow(self)`.
        public var component: Component { .trackRow(self) }
    }
}

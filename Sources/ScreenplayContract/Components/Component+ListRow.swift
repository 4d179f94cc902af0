extension Component {
    /// A row in a list of things (works, playlists), with optional accessories.
    ///
    /// The same work shows its composer on a search page and its number of recordings on a
    /// composer page; every accessory is optional and the server fills in the ones it wants.
    public struct ListRow: ComponentPayload {
        /// `listRow`.
        public static let kind = ComponentKind(rawValue: "listRow")
        /// The main line.
        public var title: String
        /// The second line.
        public var subtitle: String?
        /// A leading thumbnail.
        public var image: RemoteImage?
        /// Accessory: the composer's name.
        public var composer: String?
        /// Accessory: how many recordings exist.
        public var recordingCount: Int?
        /// What tapping the row does.
        public var action: Action?

        /// Creates a list row.
        public init(
            title: String, subtitle: String? = nil, image: RemoteImage? = nil, composer: String? = nil,
            recordingCount: Int? = nil, action: Action? = nil
        ) {
            self.title = title
            self.subtitle = subtitle
            self.image = image
            self.composer = composer
            self.recordingCount = recordingCount
            self.action = action
        }

        /// `.listRow(self)`.
        public var component: Component { .listRow(self) }

        /// A row in a list, with optional accessories (composer, number of recordings) the server fills in per screen.
        public static let summary =
            "A row in a list, with optional accessories (composer, number of recordings) the server fills in per screen."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            ListRow(
                title: "Requiem", subtitle: "K. 626 · D minor · 1791", composer: "Wolfgang Amadeus Mozart", recordingCount: 2,
                action: .navigate(.init(url: "screens/work/14")))
        }
    }
}

extension Component {
    /// A playable track: title, subtitle, duration and a play action.
    public struct TrackRow: ComponentPayload {
        /// `trackRow`.
        public static let kind = ComponentKind(rawValue: "trackRow")
        /// `duration` changed shape in v3.
        public static let fieldChanges = [
            FieldChange(
                field: "duration", version: .v3,
                summary:
                    "display text such as \"7:41\" up to v2; a number of seconds from v3. Older clients get the text, formatted m:ss (h:mm:ss past an hour)."
            )
        ]
        /// The track's title ("I. Allegro").
        public var title: String
        /// Performers or work.
        public var subtitle: String?
        /// The length in seconds; renderers format it (``durationText``).
        public var duration: Int?
        /// What tapping the row does; usually `play`.
        public var action: Action?

        /// Creates a track row.
        public init(title: String, subtitle: String? = nil, duration: Int? = nil, action: Action? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.duration = duration
            self.action = action
        }

        /// `.trackRow(self)`.
        public var component: Component { .trackRow(self) }

        /// A playable track with its duration and (usually) a play action.
        public static let summary = "A playable track with its duration and (usually) a play action."

        /// A typical value, shown in the generated contract docs.
        public static var example: Self {
            TrackRow(
                title: "I. Allegro molto", subtitle: "Wiener Philharmoniker, Karl Böhm", duration: 461,
                action: .play(
                    .init(
                        metadataURL: "/media/queues/recording/3",
                        firstTrack: .init(id: "17", title: "I. Allegro molto", durationSeconds: 461, streamURL: "/media/audio/track/17.wav")
                    )))
        }

        /// The duration as clients up to v2 received it: `m:ss`, or `h:mm:ss` from an hour; `nil`
        /// from 10 000 hours on, which their text (four digits a part) cannot say: the field is
        /// optional, and leaving it out beats a value those clients refuse.
        public var durationText: String? {
            guard let duration, duration / 3600 <= 9999 else { return nil }
            return Self.format(duration)
        }

        /// `461` → `"7:41"`, `3723` → `"1:02:03"`.
        public static func format(_ seconds: Int) -> String {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
            let seconds = max(0, seconds)
            let hours = seconds / 3600
            let minutes = seconds % 3600 / 60
            return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds % 60))" : "\(minutes):\(two(seconds % 60))"
        }

        /// `"7:41"` → `461`; `nil` for text that is not `m:ss` or `h:mm:ss`.
        public static func parse(_ text: String) -> Int? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count),
                parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let numbers = Optional(parts.compactMap { Int($0) }), numbers.count == parts.count,
                numbers.dropFirst().allSatisfy({ $0 < 60 })
            else { return nil }
            return numbers.reduce(0) { $0 * 60 + $1 }
        }

        enum CodingKeys: String, CodingKey { case title, subtitle, duration, action }

        /// Reads `duration` as text before v3 and as seconds from v3.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
            action = try container.decodeIfPresent(Action.self, forKey: .action)
            if decoder.screenplayAPIVersion >= .v3 {
                duration = try container.decodeIfPresent(checkedBy: ValueRules.Seconds.self, forKey: .duration)
            } else {
                duration = try container.decodeIfPresent(checkedBy: ValueRules.DurationText.self, forKey: .duration).flatMap(Self.parse)
            }
        }

        /// Writes `duration` as text before v3 and as seconds from v3.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encodeIfPresent(subtitle, forKey: .subtitle)
            try container.encodeIfPresent(action, forKey: .action)
            if encoder.screenplayAPIVersion >= .v3 {
                try container.encodeIfPresent(duration, forKey: .duration)
            } else {
                try container.encodeIfPresent(durationText, forKey: .duration)
            }
        }
    }
}

/// How a screen keeps itself current without the user pulling (v5).
///
/// A screen whose content changes when someone acts (a favorite, a publish) says `events`: the
/// client watches it on the server's event stream (`GET /api/v{N}/events`) while it is on the
/// navigation stack and revalidates it when an event names a new ETag. A screen whose data
/// changes by itself (a live count, a departure board) says `interval`: the client revalidates it
/// every so many seconds with `If-None-Match`, which costs a 304 when nothing moved. Both may be
/// given. Older clients never see the member (the encoder leaves it out below v5); they refresh
/// when the user acts, as before.
public struct LiveUpdates: Sendable, Hashable {
    /// The version that introduced live screens.
    public static let introduced = APIVersion.v5

    /// Watch the screen on the event stream while it is shown.
    public var events: Bool
    /// Revalidate every this many seconds while the screen is shown (5 ... 86 400).
    public var interval: Int?

    /// Live through the event stream.
    public static let events = LiveUpdates(events: true)

    /// Revalidated every `seconds` (within ``intervalRange``).
    public static func interval(_ seconds: Int) -> LiveUpdates { LiveUpdates(events: false, interval: seconds) }

    /// Creates a liveness declaration.
    public init(events: Bool = false, interval: Int? = nil) {
        self.events = events
        self.interval = interval
    }

    /// Whether the declaration asks for anything.
    public var isLive: Bool { events || interval != nil }

    /// The shortest and longest polling intervals, in seconds: at least 5 (a tighter loop is a
    /// load test, not a screen; use `events`), at most a day.
    public static let intervalRange = 5...86_400
}

extension LiveUpdates: Codable {
    enum CodingKeys: String, CodingKey { case events, interval }

    /// Decodes; an interval out of range is reported at its path (`$.live.interval`) and dropped,
    /// so the screen still shows and still follows events if it asked to.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        events = try container.decodeIfPresent(Bool.self, forKey: .events) ?? false
        interval = try container.decodeLossyIfPresent(checkedBy: ValueRules.PollingInterval.self, forKey: .interval)
    }

    /// Writes the members that ask for something.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if events { try container.encode(true, forKey: .events) }
        try container.encodeIfPresent(interval, forKey: .interval)
    }
}

extension ValueRules {
    /// A live screen's polling interval in seconds (``LiveUpdates/intervalRange``).
    package enum PollingInterval: ValueRule {
        package static let range = LiveUpdates.intervalRange
        package static let schema: JSONValue = [
            "type": "integer", "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound),
        ]
        package static let standIn = 30
        package static func check(_ value: Int) throws(ContractViolation) {
            guard range.contains(value) else { throw ContractViolation("\(value) seconds; expected \(range.lowerBound)...\(range.upperBound)") }
        }
    }
}

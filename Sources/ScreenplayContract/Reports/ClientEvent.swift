public import Foundation

/// Something that happened on a device that the server asked to hear about (v6): a component
/// seen (`visible`, keyed by its ``ComponentReports/visible``) or a track played (`played`, keyed
/// by the track's id). Apps send them in batches to `POST {prefix}/v6/reports`; they feed what a
/// server shows back ("Continue listening") and what experiments measure (impressions and plays
/// per exposed user).
///
/// Every event carries an ``id`` the client made when it happened and keeps until the server has
/// it, so a batch sent again (a lost answer, a retry after going offline) is stored once.
public struct ClientEvent: Codable, Sendable, Hashable {
    /// The version that introduced reports.
    public static let introduced = ComponentReports.introduced

    /// What happened. Closed on purpose: a server stores only what it knows how to count, and an
    /// event of a kind it does not know is refused at its path (the rest of the batch is kept).
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// The component with this report key was seen (``ImpressionRule``).
        case visible
        /// The track with this id was heard (``PlayRule``).
        case played
    }

    /// Unique per client and event (a UUID serves): what makes a resent event harmless.
    public var id: String
    /// What happened.
    public var kind: Kind
    /// Which component's report key, or which track's id.
    public var key: String
    /// The screen it happened on (its path under `screens/`), when it happened on one.
    public var screen: String?
    /// When it happened, on the device's clock.
    public var at: Date

    /// Creates an event.
    public init(id: String, kind: Kind, key: String, screen: String? = nil, at: Date) {
        self.id = id
        self.kind = kind
        self.key = key
        self.screen = screen
        self.at = at
    }

    /// What bounds reports, on the client and on the server alike.
    public enum Limits {
        /// Events in one batch; a client with more sends several.
        public static let eventsPerBatch = 100
        /// Bytes of one batch's body: room for a full batch of the longest events (100 × about
        /// 540 bytes), inside the 64 KiB a server reads of any body by default.
        public static let batchBytes = 64 << 10
        /// Events a client keeps while it cannot send (the oldest go first past it).
        public static let queuedEvents = 1_000
        /// The longest event id.
        public static let idLength = 64
        /// The longest report key.
        public static let keyLength = 128
        /// The longest screen path.
        public static let screenLength = 256
        /// How old an event may be when it arrives (a phone offline for a month still counts).
        public static let oldest: TimeInterval = 30 * 86_400
        /// How far ahead of the server's clock an event may say it happened (a phone's clock
        /// set wrong).
        public static let newest: TimeInterval = 86_400
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, key, screen, at
    }

    /// Reads an event as the server writes one (`at` in ISO 8601).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        kind = try container.decode(Kind.self, forKey: .kind)
        key = try container.decode(String.self, forKey: .key)
        screen = try container.decodeIfPresent(String.self, forKey: .screen)
        let text = try container.decode(String.self, forKey: .at)
        guard let date = Self.date(text) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: container, debugDescription: "not an ISO 8601 time")
        }
        at = date
    }

    /// Writes the event, `at` in ISO 8601 with milliseconds and `Z`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(key, forKey: .key)
        try container.encodeIfPresent(screen, forKey: .screen)
        try container.encode(Self.text(at), forKey: .at)
    }

    /// `date` as the wire writes it: `2026-11-28T05:40:12.345Z`.
    public static func text(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// An RFC 3339 time (`2026-11-28T05:40:12Z`, with up to nine fractional digits and `Z` or an
    /// offset `±hh:mm`); `nil` for anything else. Checked field by field first (a 25th hour, a
    /// 61st minute, the 30th of February, a leap second, trailing text are all refused), because
    /// Foundation's parser rolls such values over into another moment instead.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (20...35).contains(bytes.count) else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), bytes[4] == UInt8(ascii: "-"), let month = number(5..<7), bytes[7] == UInt8(ascii: "-"),
            let day = number(8..<10), bytes[10] == UInt8(ascii: "T"), let hour = number(11..<13), bytes[13] == UInt8(ascii: ":"),
            let minute = number(14..<16), bytes[16] == UInt8(ascii: ":"), let second = number(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            let digits = bytes[(index + 1)...].prefix { (0x30...0x39).contains($0) }.count
            guard (1...9).contains(digits) else { return nil }
            index += 1 + digits
        }
        let zone = bytes[index...]
        if zone.count == 1 {
            guard zone.first == UInt8(ascii: "Z") else { return nil }
        } else {
            guard zone.count == 6, zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHours = number((index + 1)..<(index + 3)), let offsetMinutes = number((index + 4)..<(index + 6)),
                offsetHours <= 14, offsetMinutes < 60
            else { return nil }
        }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle())
    }
}

/// A batch of events as a client sends it: `{"events": [{…}, …]}`.
public struct ClientEventBatch: Codable, Sendable, Hashable {
    /// The events, oldest first.
    public var events: [ClientEvent]

    /// A batch of `events`.
    public init(events: [ClientEvent]) { self.events = events }

    /// An event of a batch that the server did not keep, and why: its JSON path
    /// (`$.events[3].kind`) and the reason in words. A client drops it (sending it again would be
    /// refused again) and keeps the rest of its queue.
    public struct Refusal: Codable, Sendable, Hashable {
        /// Where in the batch (`$.events[3].kind`).
        public var path: String
        /// What is wrong, in words.
        public var reason: String

        /// A refusal at `path`.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// What a batch's body holds, read and checked: the events to store and the ones refused.
    /// Each refusal names its JSON path; the others are kept, so one bad event never costs its
    /// neighbours. What cannot be read as a batch at all throws a refusal, naming where.
    ///
    /// An event's `id` and `key` are identifiers (A–Z a–z 0–9 `._:/~-`, at most
    /// ``ClientEvent/Limits/idLength`` and ``ClientEvent/Limits/keyLength``), `kind` one of
    /// ``ClientEvent/Kind``, `screen` optional text without control characters, `at` an ISO 8601
    /// time no older than ``ClientEvent/Limits/oldest`` and no further ahead than
    /// ``ClientEvent/Limits/newest`` of `now`. An id named twice in one batch is one event, the
    /// later copies counted in `repeated`.
    public static func read(_ body: JSONValue, now: Date) throws(Refusal) -> (events: [ClientEvent], refused: [Refusal], repeated: Int) {
        guard case .object(let members) = body else { throw Refusal(path: "$", reason: "the body must be an object with 'events'") }
        guard let list = members["events"]?.arrayValue else { throw Refusal(path: "$.events", reason: "must be an array of events") }
        guard list.count <= ClientEvent.Limits.eventsPerBatch else {
            throw Refusal(path: "$.events", reason: "holds \(list.count) events; a batch holds at most \(ClientEvent.Limits.eventsPerBatch)")
        }
        var events: [ClientEvent] = []
        var refused: [Refusal] = []
        var seen: Set<String> = []
        var repeated = 0
        for (index, element) in list.enumerated() {
            let at = "$.events[\(index)]"
            switch Self.event(element, at: at, now: now) {
            case .success(let event):
                // An id already in this batch is that event sent twice: counted as repeated.
                guard seen.insert(event.id).inserted else {
                    repeated += 1
                    continue
                }
                events.append(event)
            case .failure(let refusal):
                refused.append(refusal)
            }
        }
        return (events, refused, repeated)
    }

    /// What a screen path may not hold: C0 and C1 controls, DEL, line and paragraph separators,
    /// bidirectional controls (text that would reorder or break what a person reads in a log).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    static func event(_ element: JSONValue, at path: String, now: Date) -> Result<ClientEvent, Refusal> {
        guard let item = element.objectValue else { return .failure(.init(path: path, reason: "must be an object with id, kind, key and at")) }
        func identifier(_ name: String, maximum: Int) -> Result<String, Refusal> {
            guard let text = item[name]?.stringValue else { return .failure(.init(path: "\(path).\(name)", reason: "must be a string")) }
            guard ValueRules.isIdentifier(text, maximum: maximum) else {
                return .failure(.init(path: "\(path).\(name)", reason: "must be 1 to \(maximum) of A-Z a-z 0-9 . _ : / ~ -"))
            }
            return .success(text)
        }
        let id: String
        let key: String
        switch (identifier("id", maximum: ClientEvent.Limits.idLength), identifier("key", maximum: ClientEvent.Limits.keyLength)) {
        case (.failure(let refusal), _), (_, .failure(let refusal)): return .failure(refusal)
        case (.success(let first), .success(let second)): (id, key) = (first, second)
        }
        guard let kindText = item["kind"]?.stringValue, let kind = ClientEvent.Kind(rawValue: kindText) else {
            let known = ClientEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            return .failure(.init(path: "\(path).kind", reason: "must be one of \(known)"))
        }
        var screen: String?
        switch item["screen"] {
        case nil, .null?: screen = nil
        case .string(let text)?
        where !text.isEmpty && text.unicodeScalars.count <= ClientEvent.Limits.screenLength && !text.unicodeScalars.contains(where: Self.isForbidden):
            screen = text
        default:
            return .failure(
                .init(
                    path: "\(path).screen",
                    reason: "must be a screen path of 1 to \(ClientEvent.Limits.screenLength) characters, without control characters, line separators or bidirectional controls"))
        }
        guard let text = item["at"]?.stringValue, let date = ClientEvent.date(text) else {
            return .failure(.init(path: "\(path).at", reason: "must be an RFC 3339 time such as 2026-11-28T05:40:12.345Z"))
        }
        guard date >= now.addingTimeInterval(-ClientEvent.Limits.oldest), date <= now.addingTimeInterval(ClientEvent.Limits.newest) else {
            return .failure(.init(path: "\(path).at", reason: "is more than 30 days before or a day after the server's time"))
        }
        return .success(ClientEvent(id: id, kind: kind, key: key, screen: screen, at: date))
    }
}

/// The server's answer to a batch: how many events it stored now, how many it had already (a
/// batch sent again), and the refusals. Everything not refused is the server's from now on: a
/// client removes the whole batch from its queue.
public struct ClientEventReceipt: Codable, Sendable, Hashable {
    /// Events stored by this request.
    public var stored: Int
    /// Events the server already had (the same id from the same user).
    public var repeated: Int
    /// Events refused, each at its path.
    public var refused: [ClientEventBatch.Refusal]

    /// A receipt.
    public init(stored: Int, repeated: Int, refused: [ClientEventBatch.Refusal]) {
        self.stored = stored
        self.repeated = repeated
        self.refused = refused
    }
}

extension ClientEventBatch.Refusal: Error {}

/// One dispatched message of a `text/event-stream`, as a client sees it.
public struct StreamEvent: Sendable, Hashable {
    /// The event type (`message` when the stream named none).
    public var type: String
    /// The data lines, joined by line breaks.
    public var data: String
    /// The stream's last event id when this one was dispatched (what `Last-Event-ID` will say).
    public var lastEventID: String

    /// Creates an event.
    public init(type: String, data: String, lastEventID: String) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// Reads a `text/event-stream` from bytes as they arrive, the way the WHATWG specification tells
/// `EventSource` to: lines end with CR, LF or CRLF (split across chunks too), `:` starts a
/// comment, an empty line dispatches, a message without data only records its id, `retry` takes
/// digits only, an id containing NUL is ignored, unknown fields are ignored.
///
/// Bounded, because a stream is input like any other: a line or a message's data longer than
/// ``maximumLineBytes`` is an ``Overflow`` (the caller logs it and reconnects), not memory without
/// end.
public struct EventStreamParser: Sendable {
    /// A line (or a message's data) longer than the limit.
    public struct Overflow: Error, Sendable, Hashable, CustomStringConvertible {
        /// The limit that was passed.
        public let limit: Int
        /// An overflow past `limit`.
        public init(limit: Int) { self.limit = limit }
        /// Says what happened.
        public var description: String { "an event stream line or message passed \(limit) bytes" }
    }

    /// The longest line, and the most data one message gathers.
    public let maximumLineBytes: Int
    /// The last event id seen (sent as `Last-Event-ID` on reconnection).
    public private(set) var lastEventID = ""
    /// The reconnection delay the stream asked for, in milliseconds.
    public private(set) var retry: Int?

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStart = true
    private var type = ""
    private var data: [UInt8] = []
    private var hasData = false
    private var idBuffer: String?

    /// A parser; `maximumLineBytes` bounds lines and data (1 MiB by default).
    public init(maximumLineBytes: Int = 1 << 20, lastEventID: String = "") {
        self.maximumLineBytes = maximumLineBytes
        self.lastEventID = lastEventID
    }

    /// Feeds `bytes`, returning the messages they complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Overflow) -> [StreamEvent] {
        var events: [StreamEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"):
                if let event = try endLine() { events.append(event) }
            case UInt8(ascii: "\r"):
                afterCR = true
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < maximumLineBytes else { throw Overflow(limit: maximumLineBytes) }
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() throws(Overflow) -> StreamEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count + 1 <= maximumLineBytes else { throw Overflow(limit: maximumLineBytes) }
            if hasData { data.append(UInt8(ascii: "\n")) }
            data += value
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.count <= 9, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> StreamEvent? {
        if let idBuffer { lastEventID = idBuffer }
        defer {
            type = ""
            data.removeAll(keepingCapacity: true)
            hasData = false
            idBuffer = nil
        }
        guard hasData else { return nil }
        return StreamEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID)
    }
}

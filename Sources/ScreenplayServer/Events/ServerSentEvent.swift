/// One message of a `text/event-stream` (the WHATWG server-sent events format), written as the
/// bytes a browser's `EventSource` and the client core's parser read.
///
/// Only the fields Screenplay sends: a type, an id, one line of JSON data, a reconnection delay,
/// or a comment (heartbeats). Values never carry a line break (the JSON is written on one line
/// and ids are made here), so one field is one line.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`ready`, `screen`, `revalidate`, `end`); `nil` for an id-only message.
    public var type: String?
    /// What `Last-Event-ID` says on the client's next reconnection.
    public var id: String?
    /// One line of data (JSON), or `nil`. A message without data is not dispatched by
    /// `EventSource`, but its id is still recorded: how a stream says "you are current" quietly.
    public var data: String?
    /// Milliseconds a client waits before reconnecting.
    public var retry: Int?
    /// A comment line (`: …`), which clients ignore: a heartbeat.
    public var comment: String?

    /// Creates a message.
    public init(type: String? = nil, id: String? = nil, data: String? = nil, retry: Int? = nil, comment: String? = nil) {
        self.type = type
        self.id = id
        self.data = data
        self.retry = retry
        self.comment = comment
    }

    /// The message on the wire, ending with the blank line that dispatches it. Line breaks in a
    /// value (which Screenplay never puts there) are replaced by spaces rather than allowed to
    /// start a field of their own.
    public var bytes: [UInt8] {
        var text = ""
        if let comment { text += ": " + Self.oneLine(comment) + "\n" }
        if let retry { text += "retry: \(retry)\n" }
        if let id { text += "id: " + Self.oneLine(id) + "\n" }
        if let type { text += "event: " + Self.oneLine(type) + "\n" }
        if let data { text += "data: " + Self.oneLine(data) + "\n" }
        return Array((text + "\n").utf8)
    }

    static func oneLine(_ value: String) -> String {
        guard value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return value }
        return String(value.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}

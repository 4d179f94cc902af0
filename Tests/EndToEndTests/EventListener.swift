import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayClientNIO
import Synchronization

/// One open screen event stream over loopback, read as a client would (a connection of its own,
/// as a browser's `EventSource` opens, bytes fed to ``EventStreamParser``), its events kept for
/// the test to wait on.
final class EventListener: Sendable {
    let status: UInt
    let headers: [(String, String)]
    private let received = Mutex<[StreamEvent]>([])
    private let ended = Mutex(false)
    private let comments = Mutex(0)
    private let lastID = Mutex("")
    private let reader = Mutex<Task<Void, Never>?>(nil)

    private init(status: UInt, headers: [(String, String)]) {
        self.status = status
        self.headers = headers
    }

    /// Opens `GET {root}api/v{version}/events?screens=…` (or `path`) with `token` or `cookie`
    /// (or neither) and starts reading.
    static func open(
        _ root: URL, screens: [String], token: String? = nil, lastEventID: String? = nil, version: Int = 4, path: String? = nil,
        cookie: String? = nil
    ) async throws -> EventListener {
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer \(token)" }
        if let cookie { fields[.cookie] = cookie }
        if let lastEventID { fields[HTTPField.Name("Last-Event-ID")!] = lastEventID }
        let request = HTTPRequest(
            method: .get, scheme: "http", authority: "\(root.host!):\(root.port!)",
            path: "/" + (path ?? "api/v\(version)/events?screens=" + screens.joined(separator: ",")), headerFields: fields)
        let (response, body) = try await PlainHTTPTransport().open(request)
        let listener = EventListener(status: UInt(response.status.code), headers: response.headerFields.map { ($0.name.rawName, $0.value) })
        let task = Task {
            var parser = EventStreamParser()
            do {
                for try await bytes in body {
                    if String(decoding: bytes, as: UTF8.self).contains(": heartbeat") { listener.comments.withLock { $0 += 1 } }
                    let events = try parser.feed(bytes)
                    listener.received.withLock { $0 += events }
                    listener.lastID.withLock { $0 = parser.lastEventID }
                }
            } catch {}
            listener.ended.withLock { $0 = true }
        }
        listener.reader.withLock { $0 = task }
        return listener
    }

    /// Every event so far.
    var events: [StreamEvent] { received.withLock { $0 } }
    /// Whether the server ended the stream.
    var hasEnded: Bool { ended.withLock { $0 } }
    /// Heartbeat comments seen.
    var heartbeats: Int { comments.withLock { $0 } }
    /// The stream's last event id so far, id-only messages included (what `Last-Event-ID` would say).
    var lastEventID: String { lastID.withLock { $0 } }

    /// The `screen` events so far, as (path, etag).
    var screenChanges: [(path: String, etag: String)] {
        events.filter { $0.type == "screen" }.compactMap { event in
            guard let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: String],
                let path = object["path"], let etag = object["etag"]
            else { return nil }
            return (path, etag)
        }
    }

    /// Waits until `condition` holds of the events (checked every 10 ms), at most `limit`;
    /// returns how long it took, or `nil` if it never did.
    @discardableResult
    func wait(upTo limit: Duration = .seconds(5), until condition: ([StreamEvent]) -> Bool) async -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if condition(events) { return clock.now - start }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(events) ? clock.now - start : nil
    }

    /// Waits until the server ends the stream, at most `limit`.
    func waitForEnd(upTo limit: Duration = .seconds(5)) async -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit, !hasEnded { try? await Task.sleep(for: .milliseconds(10)) }
        return hasEnded
    }

    /// Stops reading and drops the connection.
    func close() async {
        let task = reader.withLock { $0 }
        task?.cancel()
        _ = await task?.value
    }
}

/// How soon a live change must be heard in these tests. The stream pushes within tens of
/// milliseconds (`python3 Tests/Browser/admin_flow.py` prints the figure), but `swift test` runs
/// the whole suite at once on two cores, where a second is no promise: the bound tells a change
/// pushed by the stream from one never sent (nothing these tests open polls that often).
let heardPromptly: Duration = .seconds(5)

import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ScreenplayClient
import Synchronization

/// The client event streams are read with: a connection each, used once, as a browser's
/// `EventSource` opens its own. A stream's connection handed back to a shared pool could be
/// picked for the next request just as the server closes it after the stream's end, which a
/// loaded machine turned into `remoteConnectionClosed` for a request that was never sent.
let streamClient: HTTPClient = {
    var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    configuration.maximumUsesPerConnection = 1
    configuration.timeout.connect = .seconds(30)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
}()

/// One open screen event stream over loopback, read as a client would (AsyncHTTPClient, bytes
/// fed to ``EventStreamParser``), its events kept for the test to wait on.
final class EventListener: Sendable {
    let status: UInt
    let headers: [(String, String)]
    private let received = Mutex<[StreamEvent]>([])
    private let ended = Mutex(false)
    private let comments = Mutex(0)
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
        var request = HTTPClientRequest(
            url: root.absoluteString + (path ?? "api/v\(version)/events?screens=" + screens.joined(separator: ",")))
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await streamClient.execute(request, timeout: .seconds(600))
        let listener = EventListener(status: response.status.code, headers: response.headers.map { ($0.name, $0.value) })
        let task = Task {
            var parser = EventStreamParser()
            do {
                for try await buffer in response.body {
                    let bytes = Array(buffer.readableBytesView)
                    if String(decoding: bytes, as: UTF8.self).contains(": heartbeat") { listener.comments.withLock { $0 += 1 } }
                    let events = try parser.feed(bytes)
                    listener.received.withLock { $0 += events }
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

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ScreenplayTestSupport
import Synchronization

/// A scripted server on loopback for the client's live code: one live screen (`feed`, whose
/// title and ETag follow a version the test moves), and an event stream that answers each
/// connection with the next act of a script: a refusal, or a stream of pieces with pauses that
/// may end by dropping the connection mid-body. What each connection asked with
/// (`Last-Event-ID`) and each screen read's `If-None-Match` are recorded.
///
/// Unlike the demo, it misbehaves on purpose: drops, delays, 500s and malformed bodies.
final class FaultServer: Sendable {
    /// One thing a stream does.
    enum Piece: Sendable {
        /// Bytes written as they are (an event, a comment, garbage).
        case bytes([UInt8])
        /// Waits before the next piece.
        case pause(Duration)
        /// Moves the screen to `version` (what a `GET` answers from now on).
        case version(Int)
        /// The next `GET`s of the screen answer these statuses instead of the screen.
        case failReads([Int])
        /// Ends the connection mid-body, without finishing the chunked encoding.
        case drop

        /// Text written as UTF-8.
        static func text(_ text: String) -> Piece { .bytes(Array(text.utf8)) }

        /// One event: `event: type`, `id`, `data`, `retry` as given, then the blank line.
        static func event(_ type: String, id: String? = nil, data: String, retry: Int? = nil) -> Piece {
            .text(
                (retry.map { "retry: \($0)\n" } ?? "") + (id.map { "id: \($0)\n" } ?? "") + "event: \(type)\ndata: \(data)\n\n")
        }
    }

    /// What one event-stream connection gets.
    enum Act: Sendable {
        /// A whole answer with this status (and `Retry-After`) and a JSON error body.
        case refuse(status: Int, retryAfter: Int? = nil)
        /// `200 text/event-stream`, then the pieces; after the last one the stream stays open,
        /// silent but for comments, until the client leaves or the server stops.
        case stream([Piece])
    }

    private struct State {
        var script: [Act] = []
        var version = 1
        var screenFailures: [Int] = []
        var lastEventIDs: [String?] = []
        var screenReads: [String?] = []
    }

    private let state = Mutex(State())
    private let stopped = Atomic(false)

    /// The ETag of the screen at `version`.
    static func etag(_ version: Int) -> String { "\"feed-\(version)\"" }

    /// The screen at `version`: live on the event stream, its title saying which version it is.
    static func screen(_ version: Int) -> String {
        #"{"id":"feed","title":"Feed \#(version)","live":{"events":true},"sections":[{"id":"main","components":[{"type":"text","text":"version \#(version)"}]}]}"#
    }

    /// Appends `acts` to the script.
    func play(_ acts: Act...) { state.withLock { $0.script += acts } }

    /// The `Last-Event-ID` of each stream connection so far (`nil`: none sent).
    var lastEventIDs: [String?] { state.withLock { $0.lastEventIDs } }
    /// How many stream connections were made.
    var connections: Int { state.withLock { $0.lastEventIDs.count } }
    /// The `If-None-Match` of each screen read so far.
    var screenReads: [String?] { state.withLock { $0.screenReads } }

    /// Runs the server on a loopback port for the length of `body`.
    static func run<Result: Sendable>(_ body: (URL, FaultServer) async throws -> Result) async throws -> Result {
        let server = FaultServer()
        let router = Router()
        router.get("api/v5/screens/feed") { request, _ in server.screenAnswer(request) }
        router.get("api/v5/events") { request, _ in server.streamAnswer(request) }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "fault-server")
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let running = BackgroundServer(app, whenEnded: { continuation.finish() })
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await running.stop()
            throw FaultServerError.didNotStart
        }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(URL(string: "http://127.0.0.1:\(port)/")!, server))
        } catch {
            outcome = .failure(error)
        }
        server.stopped.store(true, ordering: .releasing)
        // Its faults hang on purpose: what they hold is cancelled soon after the graceful stop.
        await running.stop(patience: .milliseconds(500))
        return try outcome.get()
    }

    enum FaultServerError: Error { case didNotStart }

    private func screenAnswer(_ request: Request) -> Response {
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let (failure, version) = state.withLock { state in
            state.screenReads.append(ifNoneMatch)
            return (state.screenFailures.isEmpty ? nil : state.screenFailures.removeFirst(), state.version)
        }
        if let failure {
            return Response(
                status: .init(code: failure), headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":"internalError","message":"scripted"}}"#)))
        }
        let etag = Self.etag(version)
        if ifNoneMatch == etag { return Response(status: .notModified, headers: [.eTag: etag]) }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .eTag: etag],
            body: .init(byteBuffer: ByteBuffer(string: Self.screen(version))))
    }

    private func streamAnswer(_ request: Request) -> Response {
        let lastEventID = request.headers[HTTPField.Name("Last-Event-ID")!]
        let act = state.withLock { state -> Act in
            state.lastEventIDs.append(lastEventID)
            return state.script.isEmpty ? .stream([]) : state.script.removeFirst()
        }
        switch act {
        case .refuse(let status, let retryAfter):
            var headers: HTTPFields = [.contentType: "application/json"]
            if let retryAfter { headers[.retryAfter] = String(retryAfter) }
            return Response(
                status: .init(code: status), headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"code":"scripted","message":"refused by the script"}}"#)))
        case .stream(let pieces):
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { [self] writer in
                    for piece in pieces {
                        switch piece {
                        case .bytes(let bytes): try await writer.write(ByteBuffer(bytes: bytes))
                        case .pause(let duration): try await Task.sleep(for: duration)
                        case .version(let version): state.withLock { $0.version = version }
                        case .failReads(let statuses): state.withLock { $0.screenFailures += statuses }
                        case .drop: throw CancellationError()
                        }
                    }
                    // Held open, quiet: a comment now and then notices a client that left.
                    while !stopped.load(ordering: .acquiring) {
                        try await Task.sleep(for: .milliseconds(100))
                        try await writer.write(ByteBuffer(string: ": quiet\n"))
                    }
                    try await writer.finish(nil)
                })
        }
    }
}

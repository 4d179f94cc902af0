import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScreenplayClient
import ScreenplayClientAsyncHTTPClient
import ScreenplayContract
import ScreenplayTestSupport
import Testing

/// The client core's transport over AsyncHTTPClient is a pipe, as every transport must be: the
/// headers it is given go out as they are, 304s and 303s come back as themselves, bodies pass
/// byte for byte, and an answer over the limit fails instead of filling memory.
@Suite("AsyncHTTPClient: the client transport")
struct AsyncHTTPClientTransportTests {
    static let screenJSON = #"{"id":"odd","title":"Odd","sections":[{"id":"s","components":["#
        + #"{"type":"text","text":"before"},{"type":"hologram","depth":3},{"type":"text","text":"after"}]}]}"#

    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("api/v1/screens/odd") { request, _ in
            if request.headers[.ifNoneMatch] == "\"v1\"" { return Response(status: .notModified, headers: [.eTag: "\"v1\""]) }
            return Response(
                status: .ok, headers: [.contentType: "application/json", .eTag: "\"v1\""], body: .init(byteBuffer: ByteBuffer(string: screenJSON)))
        }
        router.post("echo") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 16)
            let probe = request.headers[HTTPField.Name("X-Probe")!] ?? "-"
            return Response(status: .ok, headers: [HTTPField.Name("X-Probe")!: probe], body: .init(byteBuffer: body))
        }
        router.get("moved") { _, _ in Response(status: .seeOther, headers: [.location: "/elsewhere"]) }
        router.get("huge") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 20))) }
        router.get("events") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/event-stream"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "event: screen\ndata: one\n\n"))
                    try await Task.sleep(for: .milliseconds(50))
                    try await writer.write(ByteBuffer(string: "event: screen\ndata: two\n\n"))
                    try await writer.finish(nil)
                })
        }
        return router
    }

    static func request(_ method: HTTPRequest.Method, _ root: String, _ path: String, _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "http", authority: String(root.dropFirst("http://".count)), path: path, headerFields: fields)
    }

    @Test("a screen loads through the client core, lossily; its revalidation is the server's 304, not a 200 made up")
    func loadsAndRevalidates() async throws {
        try await withLoopbackServer(Self.router()) { port in
            let root = "http://127.0.0.1:\(port)"
            let transport = AsyncHTTPClientTransport()
            let loader = ScreenLoader(endpoint: ServerEndpoint(root: URL(string: root + "/")!, apiVersion: .v1), transport: transport)
            let loaded = try await loader.screen(at: "screens/odd")
            #expect(loaded.screen.sections[0].components.count == 3)
            #expect(loaded.issues.map(\.kind) == [.unknownKind])
            let again = try await loader.screen(at: "screens/odd")
            #expect(again.revalidated && again.screen == loaded.screen)
            let (head, body) = try await transport.send(Self.request(.get, root, "/api/v1/screens/odd", [.ifNoneMatch: "\"v1\""]), body: nil)
            #expect(head.status == .notModified && body.isEmpty)
        }
    }

    @Test("headers and a body go out as given; a 303 comes back as a 303; an answer over the limit fails")
    func pipe() async throws {
        try await withLoopbackServer(Self.router()) { port in
            let root = "http://127.0.0.1:\(port)"
            let bytes = Array(#"{"text":"ünïcode ✓"}"#.utf8)
            let (echoed, body) = try await AsyncHTTPClientTransport().send(
                Self.request(.post, root, "/echo", [HTTPField.Name("X-Probe")!: "p-1", .contentType: "application/json"]), body: bytes)
            #expect(echoed.status == .ok && body == bytes)
            #expect(echoed.headerFields[HTTPField.Name("X-Probe")!] == "p-1")
            let (moved, _) = try await AsyncHTTPClientTransport(client: Self.noRedirects).send(Self.request(.get, root, "/moved"), body: nil)
            #expect(moved.status == .seeOther && moved.headerFields[.location] == "/elsewhere")
            await #expect(throws: (any Error).self) {
                _ = try await AsyncHTTPClientTransport(maximumResponseSize: 64 * 1024).send(Self.request(.get, root, "/huge"), body: nil)
            }
        }
    }

    @Test("an event stream's bytes arrive as they are sent, and parse into its events")
    func eventStream() async throws {
        try await withLoopbackServer(Self.router()) { port in
            let root = "http://127.0.0.1:\(port)"
            let (head, body) = try await AsyncHTTPClientTransport().open(Self.request(.get, root, "/events"))
            #expect(head.status == .ok)
            var parser = EventStreamParser()
            var events: [StreamEvent] = []
            for try await bytes in body { events += try parser.feed(bytes) }
            #expect(events.map(\.data) == ["one", "two"])
            #expect(events.allSatisfy { $0.type == "screen" })
        }
    }

    /// The shared client follows redirects; a client core's transport is given one that does not.
    static let noRedirects = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
}

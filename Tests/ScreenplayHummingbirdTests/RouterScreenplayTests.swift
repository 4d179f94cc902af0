import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import Synchronization
import Testing

final class OneUser: IdentityResolver {
    func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
        ResolvedIdentity(user: UserIdentity(id: 1), issuedToken: token == nil && creating ? "t" : nil)
    }
}

@Suite("Hummingbird adapter")
struct RouterScreenplayTests {
    static func makeRouter(maximumBodySize: Int = 100) -> Router<BasicRequestContext> {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("hi") } } }
        routes.command("echo") { request in .done(.init(message: try request.text("text"))) }
        let service = ScreenplayService(routes: routes, identity: OneUser(), configuration: .init(maximumBodySize: maximumBodySize))
        let router = Router()
        router.get("hello") { _, _ in "app route" }
        router.addScreenplay(service)
        return router
    }

    @Test("screens, 304s and commands pass through unchanged; the app's own routes still work")
    func passThrough() async throws {
        try await withLoopbackServer(Self.makeRouter()) { client in
            let etag = try await client.execute(uri: "/api/v1/screens/home", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[ScreenplayService.tokenHeader] == nil, "reading hands out no identity")
                let screen = try ScreenplayDecoder().decode(Screen.self, from: .init(buffer: response.body)).value
                #expect(screen.title == "Home")
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/api/v1/screens/home", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
            }
            try await client.execute(
                uri: "/api/v1/commands/echo", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"text":"hey"}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("hey"))
            }
            try await client.execute(uri: "/hello", method: .get) { response in
                #expect(String(buffer: response.body) == "app route")
            }
            try await client.execute(uri: "/api/v1/commands/echo", method: .put) { response in
                #expect(response.status == .methodNotAllowed)
            }
        }
    }

    @Test("a streamed body over the limit is cut off with a 413 stating the limit")
    func bodyLimit() async throws {
        try await withLoopbackServer(Self.makeRouter(maximumBodySize: 100)) { client in
            let body = ByteBuffer(string: "{\"text\":\"" + String(repeating: "a", count: 5000) + "\"}")
            try await client.execute(uri: "/api/v1/commands/echo", method: .post, headers: [.contentType: "application/json"], body: body) {
                response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("100 bytes"))
            }
        }
    }
}

extension Foundation.Data {
    init(buffer: ByteBuffer) { self.init(buffer.readableBytesView) }
}

@Suite("Request bodies: read within a limit and a deadline")
struct CollectedBodyTests {
    static func request(_ body: RequestBody, contentLength: Int? = nil) -> Request {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "h", path: "/web/command")
        if let contentLength { head.headerFields[.contentLength] = String(contentLength) }
        return Request(head: head, body: body)
    }

    @Test("a body that never ends is refused at the deadline with a 408, not held open")
    func trickle() async throws {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        continuation.yield(ByteBuffer(string: "url=commands/x"))
        let started = ContinuousClock.now
        let result = try await ScreenplayResponder.collect(Self.request(RequestBody(asyncSequence: stream)), limit: 1_000, deadline: .milliseconds(200))
        guard case .refused(let error) = result else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(error.status == .requestTimeout)
        // The body never ends: anything bounded is the deadline at work (generous, for a loaded
        // machine running the whole suite at once).
        #expect(ContinuousClock.now - started < .seconds(20))
        continuation.finish()
    }

    @Test("a caller that goes away stops the read: no answer is made up, and nothing waits for the deadline")
    func callerCancelled() async throws {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        continuation.yield(ByteBuffer(string: "url=commands/x"))
        let started = ContinuousClock.now
        let caller = Task { try await ScreenplayResponder.collect(Self.request(RequestBody(asyncSequence: stream)), limit: 1_000, deadline: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(50))
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(ContinuousClock.now - started < .seconds(20), "well before the 60 s deadline")
        continuation.finish()
    }

    @Test("a body over the limit is read and dropped, then refused with a 413 (not lost to a reset); one beyond the drain allowance is refused without waiting for it; a body within the limit is read whole")
    func tooLarge() async throws {
        func refusal(_ result: ScreenplayResponder.CollectedBody) -> HTTPResponse.Status? {
            if case .refused(let error) = result { return error.status }
            return nil
        }
        let allowance = ScreenplayResponder.drainAllowance
        // Declared beyond the limit and the allowance: refused before a byte is read.
        let (unread, unreadFeed) = AsyncStream<ByteBuffer>.makeStream()
        let declaredHuge = try await ScreenplayResponder.collect(
            Self.request(RequestBody(asyncSequence: unread), contentLength: 1_000 + allowance + 1), limit: 1_000)
        #expect(refusal(declaredHuge) == .contentTooLarge)
        unreadFeed.finish()
        // Declared, or streamed, over the limit but within the allowance: read to its end, then
        // refused (the refusal waits for the end: the stream below finishes only after a while).
        for contentLength in [5_000, nil] {
            let (stream, feed) = AsyncStream<ByteBuffer>.makeStream()
            let reading = Task {
                try await ScreenplayResponder.collect(Self.request(RequestBody(asyncSequence: stream), contentLength: contentLength), limit: 1_000)
            }
            feed.yield(ByteBuffer(repeating: 0x20, count: 3_000))
            try await Task.sleep(for: .milliseconds(100))
            feed.yield(ByteBuffer(repeating: 0x20, count: 2_000))
            feed.finish()
            #expect(refusal(try await reading.value) == .contentTooLarge)
        }
        // A stream that goes on past the allowance stops being read: refused without its end.
        let (endless, endlessFeed) = AsyncStream<ByteBuffer>.makeStream()
        for _ in 0...(allowance / 65_536 + 1) { endlessFeed.yield(ByteBuffer(repeating: 0x20, count: 65_536)) }
        let started = ContinuousClock.now
        let cut = try await ScreenplayResponder.collect(Self.request(RequestBody(asyncSequence: endless)), limit: 1_000, deadline: .seconds(60))
        #expect(refusal(cut) == .contentTooLarge)
        #expect(ContinuousClock.now - started < .seconds(20), "not the 60 s deadline")
        endlessFeed.finish()
        let whole = try await ScreenplayResponder.collect(Self.request(RequestBody(buffer: ByteBuffer(string: "abc"))), limit: 1_000)
        guard case .body(let bytes) = whole else {
            Issue.record("expected the body")
            return
        }
        #expect(bytes == Array("abc".utf8))
    }
}

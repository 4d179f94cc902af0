import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ScreenplayClient
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

/// The screen event stream (`GET /api/v{N}/events`) over loopback: limits, heartbeats, idle close,
/// reconnection and revoked tokens against a small service whose data the test moves; what users
/// see against the real demo server.
@Suite("Screen event stream over HTTP")
struct EventStreamTests {
    /// Tokens `u1`…`u9` name users 1…9 until revoked; each user's screen shows their counter.
    final class World: IdentityResolver {
        let counters = Mutex<[Int64: Int]>([:])
        let revoked = Mutex<Set<String>>([])
        /// While true, the `locked` screen answers 401 (as a screen behind a sign-in would).
        let locked = Mutex(false)
        let bus = InProcessInvalidationBus()

        func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
            guard let token else { return ResolvedIdentity(user: .anonymous, issuedToken: nil) }
            guard token.hasPrefix("u"), let id = Int64(token.dropFirst()), !revoked.withLock({ $0.contains(token) }) else {
                throw ScreenplayError.unknownToken("no such token")
            }
            return ResolvedIdentity(user: UserIdentity(id: id), issuedToken: nil)
        }

        /// Moves `user`'s counter and announces it, as a store's write does.
        func bump(_ user: Int64) async {
            counters.withLock { $0[user, default: 0] += 1 }
            await bus.publish(.userRevision(userID: user))
        }
    }

    static let limits = EventStreamLimits(
        perIdentity: 2, total: 4, screensPerStream: 3, heartbeat: .milliseconds(200), idleLimit: .seconds(2),
        reconnectDelay: .milliseconds(500), retryAfter: 7)

    /// ``limits`` with streams that stay open for a whole test however slowly a loaded machine
    /// runs it: for tests that count open streams or wait for changes, not for the idle limit.
    static let patient = {
        var patient = limits
        patient.idleLimit = .seconds(120)
        return patient
    }()

    /// Runs `body` against a server of `world` on a loopback port (with `extra` routes too).
    static func withServer(
        _ world: World, limits: EventStreamLimits = limits, routes extra: (inout ScreenplayRoutes) -> Void = { _ in },
        _ body: (URL, ScreenplayService) async throws -> Void
    ) async throws {
        var routes = ScreenplayRoutes()
        extra(&routes)
        routes.screen("counter") { request in
            let count = world.counters.withLock { $0[request.user.id, default: 0] }
            return Screen(id: "counter", title: "Counter") { Section("s") { Text("\(count)") } }
        }
        routes.screen("static") { _ in Screen(id: "static", title: "Static") { Section("s") { Text("same") } } }
        routes.screen("broken") { _ in throw ScreenplayError.internalError("down") }
        routes.screen("locked") { request in
            if world.locked.withLock({ $0 }) { throw ScreenplayError(status: .unauthorized, code: "signInFirst", message: "sign in first") }
            let count = world.counters.withLock { $0[request.user.id, default: 0] }
            return Screen(id: "locked", title: "Locked") { Section("s") { Text("\(count)") } }
        }
        let service = ScreenplayService(
            routes: routes, identity: world, configuration: .init(eventStreams: limits), invalidations: world.bus)
        let router = Router()
        router.addScreenplay(service)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let server = BackgroundServer(app, whenEnded: { continuation.finish() })
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await server.stop()
            throw CancellationError()
        }
        do {
            try await body(URL(string: "http://127.0.0.1:\(port)/")!, service)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// Waits (at most 3 s) until `service` counts `count` open streams: a client that left is
    /// noticed at the next heartbeat.
    static func waitForStreams(_ service: ScreenplayService, _ count: Int) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        while service.events?.openStreams != count, clock.now - start < .seconds(3) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(service.events?.openStreams == count)
    }

    static func data(_ event: StreamEvent) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any]) ?? [:]
    }

    @Test("ready names each screen's ETag; a write announces only its user's changed screens, once per change")
    func readyThenChanges() async throws {
        let world = World()
        // Streams that stay open for the whole test however slow a loaded machine runs it: user 2's
        // hears nothing, and under the suite's 2 s idle limit it could end as idle before the count.
        try await Self.withServer(world, limits: Self.patient) { root, service in
            let first = try await EventListener.open(root, screens: ["counter", "static"], token: "u1")
            let other = try await EventListener.open(root, screens: ["counter"], token: "u2")
            #expect(first.status == 200)
            #expect(first.headers.contains { $0.0.lowercased() == "content-type" && $0.1.hasPrefix("text/event-stream") })
            try #require(await first.wait { $0.contains { $0.type == "ready" } } != nil)
            let ready = try #require(first.events.first)
            #expect(ready.type == "ready")
            let tags = try #require(Self.data(ready)["screens"] as? [String: String])
            let served = try await raw(.get, root, "/api/v4/screens/counter", headers: [.authorization: "Bearer u1"])
            #expect(tags["counter"] == served.headers[.eTag], "ready carries what a GET answers")
            #expect(tags.keys.sorted() == ["counter", "static"])

            await world.bump(1)
            let took = await first.wait(upTo: heardPromptly + .seconds(3)) { events in events.contains { $0.type == "screen" } }
            #expect(took != nil && took! < heardPromptly, "announced promptly: \(String(describing: took))")
            let changes = first.screenChanges
            #expect(changes.map(\.path) == ["counter"], "the static screen did not change")
            let now = try await raw(.get, root, "/api/v4/screens/counter", headers: [.authorization: "Bearer u1"])
            #expect(changes.first?.etag == now.headers[.eTag])
            // User 2's stream heard nothing but, at most, an id-only message (not dispatched).
            try await Task.sleep(for: .milliseconds(300))
            #expect(!other.events.contains { $0.type == "screen" }, "\(other.events)")

            // Two writes before the stream looks are at most two events, never a flood; each
            // event's ETag is the one a GET gives at that moment or later.
            await world.bump(1)
            await world.bump(1)
            await first.wait { $0.filter { $0.type == "screen" }.count >= 2 }
            try await Task.sleep(for: .milliseconds(300))
            let last = try await raw(.get, root, "/api/v4/screens/counter", headers: [.authorization: "Bearer u1"])
            #expect(first.screenChanges.count <= 3)
            #expect(first.screenChanges.last?.etag == last.headers[.eTag])
            #expect(service.events?.openStreams == 2)
            await first.close()
            await other.close()
        }
    }

    @Test("past the limits: 429 per identity, 503 in all, each with Retry-After; a closed client frees its place")
    func limits() async throws {
        let world = World()
        try await Self.withServer(world, limits: Self.patient) { root, service in
            let a = try await EventListener.open(root, screens: ["counter"], token: "u1")
            let b = try await EventListener.open(root, screens: ["counter"], token: "u1")
            let third = try await raw(.get, root, "/api/v4/events?screens=counter", headers: [.authorization: "Bearer u1"])
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] == "7")
            #expect(third.text.contains("2 event streams"), "\(third.text)")
            let c = try await EventListener.open(root, screens: ["counter"], token: "u2")
            let d = try await EventListener.open(root, screens: ["counter"])
            #expect([a, b, c, d].allSatisfy { $0.status == 200 })
            let full = try await raw(.get, root, "/api/v4/events?screens=counter", headers: [.authorization: "Bearer u3"])
            #expect(full.status == .serviceUnavailable)
            #expect(full.headers[.retryAfter] == "7")
            // A client that goes away is noticed at the next heartbeat at the latest.
            await a.close()
            try await Self.waitForStreams(service, 3)
            let again = try await EventListener.open(root, screens: ["counter"], token: "u1")
            #expect(again.status == 200)
            for listener in [b, c, d, again] { await listener.close() }
        }
    }

    @Test("bad requests name what is wrong: no screens, an unknown one, too many, an empty entry, a POST, an unknown token")
    func badRequests() async throws {
        let world = World()
        try await Self.withServer(world) { root, _ in
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("/api/v4/events", .unprocessableContent, "screens"),
                ("/api/v4/events?screens=nowhere", .notFound, "nowhere"),
                ("/api/v4/events?screens=counter,static,counter/x,static/y", .unprocessableContent, "at most 3"),
                ("/api/v4/events?screens=counter,,static", .unprocessableContent, "screens[1]"),
            ]
            for (path, status, mention) in cases {
                let response = try await raw(.get, root, path, headers: [.authorization: "Bearer u1"])
                #expect(response.status == status, "\(path): \(response.text)")
                #expect(response.text.contains(mention), "\(path): \(response.text)")
            }
            let post = try await raw(.post, root, "/api/v4/events?screens=counter", body: [])
            #expect(post.status == .methodNotAllowed)
            #expect(post.headers[.allow] == "GET")
            let stranger = try await raw(.get, root, "/api/v4/events?screens=counter", headers: [.authorization: "Bearer nobody"])
            #expect(stranger.status == .unauthorized)
        }
    }

    @Test("quiet: heartbeats, then the idle limit ends the stream with a reason; a shutdown says so too")
    func heartbeatsAndIdle() async throws {
        let world = World()
        try await Self.withServer(world) { root, service in
            let listener = try await EventListener.open(root, screens: ["static"], token: "u1")
            #expect(await listener.waitForEnd(upTo: .seconds(5)))
            #expect(listener.heartbeats >= 3, "a heartbeat every 200 ms over 2 s: \(listener.heartbeats)")
            let end = try #require(listener.events.last)
            #expect(end.type == "end")
            #expect(Self.data(end)["reason"] as? String == "idle")
            #expect(service.events?.openStreams == 0)

            let open = try await EventListener.open(root, screens: ["static"], token: "u1")
            await open.wait { $0.contains { $0.type == "ready" } }
            service.events?.closeAll()
            #expect(await open.waitForEnd(upTo: .seconds(2)))
            #expect(open.events.last.map(Self.data)?["reason"] as? String == "shutdown")
            let refused = try await raw(.get, root, "/api/v4/events?screens=static", headers: [.authorization: "Bearer u1"])
            #expect(refused.status == .serviceUnavailable)
        }
    }

    @Test("reconnecting: a current Last-Event-ID needs nothing, a stale or foreign one is told to revalidate everything")
    func reconnect() async throws {
        let world = World()
        try await Self.withServer(world) { root, service in
            let first = try await EventListener.open(root, screens: ["counter", "static"], token: "u1")
            await first.wait { $0.contains { $0.type == "ready" } }
            let seen = try #require(first.events.first?.lastEventID)
            await first.close()
            try await Self.waitForStreams(service, 0)

            let current = try await EventListener.open(root, screens: ["counter", "static"], token: "u1", lastEventID: seen)
            await current.wait { $0.contains { $0.type == "ready" } }
            #expect(current.events.map(\.type) == ["ready"])
            await current.close()
            try await Self.waitForStreams(service, 0)

            await world.bump(1)  // missed while away
            let behind = try await EventListener.open(root, screens: ["counter", "static"], token: "u1", lastEventID: seen)
            await behind.wait { $0.contains { $0.type == "ready" } }
            #expect(behind.events.map(\.type) == ["revalidate", "ready"])
            #expect(behind.events.first.map(Self.data)?["screens"] as? [String] == ["counter", "static"])
            await behind.close()
            try await Self.waitForStreams(service, 0)

            let foreign = try await EventListener.open(root, screens: ["counter"], token: "u1", lastEventID: "0badc0de.1")
            await foreign.wait { $0.contains { $0.type == "ready" } }
            #expect(foreign.events.first?.type == "revalidate")
            await foreign.close()
        }
    }

    @Test("a revoked token ends its streams (reason: identity); other users' streams go on")
    func revoked() async throws {
        let world = World()
        try await Self.withServer(world, limits: Self.patient) { root, _ in
            let revokedUser = try await EventListener.open(root, screens: ["counter"], token: "u5")
            let bystander = try await EventListener.open(root, screens: ["counter"], token: "u6")
            await revokedUser.wait { $0.contains { $0.type == "ready" } }
            world.revoked.withLock { _ = $0.insert("u5") }
            await world.bus.publish(.tokenRevoked(tokenHash: "whatever"))
            #expect(await revokedUser.waitForEnd(upTo: heardPromptly))
            #expect(revokedUser.events.last.map(Self.data)?["reason"] as? String == "identity")
            await world.bump(6)
            #expect(await bystander.wait(upTo: heardPromptly) { $0.contains { $0.type == "screen" } } != nil)
            #expect(!bystander.hasEnded)
            await bystander.close()
        }
    }

    @Test("a screen answering 401 later does not end an app's stream (only a stream opened to end so does, the admin preview): the others are still announced")
    func unauthorizedScreenKeepsTheStream() async throws {
        let world = World()
        try await Self.withServer(world, limits: Self.patient) { root, _ in
            let listener = try await EventListener.open(root, screens: ["locked", "counter"], token: "u1")
            await listener.wait { $0.contains { $0.type == "ready" } }
            world.locked.withLock { $0 = true }
            await world.bump(1)
            #expect(await listener.wait(upTo: heardPromptly) { _ in listener.screenChanges.count == 1 } != nil)
            #expect(listener.screenChanges.map(\.path) == ["counter"], "the locked screen keeps the tag the client has")
            #expect(!listener.hasEnded)
            await listener.close()
        }
    }

    @Test("a screen that fails to build is null in ready and announced once it builds; the stream survives")
    func failingScreen() async throws {
        let world = World()
        try await Self.withServer(world, limits: Self.patient) { root, _ in
            let listener = try await EventListener.open(root, screens: ["broken", "counter"], token: "u1")
            await listener.wait { $0.contains { $0.type == "ready" } }
            let screens = try #require(listener.events.first.map(Self.data)?["screens"] as? [String: Any])
            #expect(screens["broken"] is NSNull)
            await world.bump(1)
            await listener.wait { $0.contains { $0.type == "screen" } }
            #expect(listener.screenChanges.map(\.path) == ["counter"])
            await listener.close()
        }
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayDemo
import ScreenplayHummingbird
import ScreenplayServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The demo's revalidations answered on the event loop, from memory, against the real server:
/// the same answer as the service's, never stale after a write, in order on a connection, and
/// seen by the idle timeout.
@Suite("End to end: revalidations answered before routing", .serialized)
struct RevalidationTests {
    /// A new user (made by a first command), their token.
    static func newUser(_ root: URL) async throws -> String {
        let created = try await raw(
            .post, root, "/api/v4/commands/playlists/create", headers: [.contentType: "application/json"],
            body: Array(#"{"name":"Mine"}"#.utf8))
        #expect(created.status == .ok)
        return try #require(created.headers[ScreenplayService.tokenHeader])
    }

    /// The demo running with `limits`, a new user, and the ETag of their home: what each raw-socket
    /// case starts from. `body` gets the root, the port, the token, the tag and the demo.
    static func withUsersHome(
        limits: ConnectionLimits = ConnectionLimits(), _ body: (URL, Int, String, String, DemoApp) async throws -> Void
    ) async throws {
        let harness = DemoServerHarness(limits: limits)
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let port = try #require(root.port)
            let token = try await Self.newUser(root)
            let etag = try #require(try await Self.home(root, token: token).headers[.eTag])
            try await body(root, port, token, etag, demo)
        }
    }

    /// The demo running, its memory, and two new users' tokens (Alice's and Bob's).
    static func withTwoUsers(_ body: (URL, RevalidationMemory, String, String) async throws -> Void) async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let memory = try #require(demo.service.revalidations)
            try await body(root, memory, try await Self.newUser(root), try await Self.newUser(root))
        }
    }

    /// A revalidation of home as raw HTTP/1.1.
    static func revalidation(token: String, etag: String) -> String {
        "GET /api/v4/screens/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nIf-None-Match: \(etag)\r\n\r\n"
    }

    static func home(_ root: URL, token: String, etag: String? = nil) async throws -> RawResponse {
        var headers: HTTPFields = [.authorization: "Bearer " + token]
        if let etag { headers[.ifNoneMatch] = etag }
        return try await raw(.get, root, "/api/v4/screens/home", headers: headers)
    }

    @Test("a repeated revalidation is answered from memory with the fields of the service's 304, and a write is seen at once")
    func answeredAndInvalidated() async throws {
        try await Self.withTwoUsers { root, memory, alice, bob in
            let first = try await Self.home(root, token: alice)
            let etag = try #require(first.headers[.eTag])
            let before = memory.answered
            var answers: [RawResponse] = []
            for _ in 0..<3 { answers.append(try await Self.home(root, token: alice, etag: etag)) }
            #expect(answers.allSatisfy { $0.status == .notModified && $0.body.isEmpty && $0.headers[.date] != nil })
            #expect(memory.answered == before + 3, "all three answered before routing")
            // The fields a 200 carries, less those about its body, are what the 304 says (and,
            // as these requests ask to close, `Connection: close`).
            let expected = first.headers.filter { ![.contentType, .contentLength, .date].contains($0.name) }
            #expect(answers.allSatisfy { $0.headers[.connection] == "close" })
            let fast = answers[0].headers.filter { ![.date, .connection].contains($0.name) }
            #expect(Set(fast.map(\.description)) == Set(expected.map(\.description)))

            let bobsTag = try #require(try await Self.home(root, token: bob).headers[.eTag])
            // Alice writes: her old tag now gets the new screen, Bob's is still answered early.
            let write = try await raw(
                .post, root, "/api/v4/commands/playlists/create",
                headers: [.contentType: "application/json", .authorization: "Bearer " + alice], body: Array(#"{"name":"Two"}"#.utf8))
            #expect(write.status == .ok)
            let after = try await Self.home(root, token: alice, etag: etag)
            #expect(after.status == .ok)
            #expect(after.headers[.eTag] != etag)
            #expect(after.text.contains("Two"))
            let answered = memory.answered
            #expect(try await Self.home(root, token: bob, etag: bobsTag).status == .notModified)
            #expect(memory.answered == answered + 1)
        }
    }

    @Test("a repeated GET gets the service's own 200 from memory, for its user only, and a write is seen at once")
    func answeredWholeAndInvalidated() async throws {
        try await Self.withTwoUsers { root, memory, alice, bob in
            let first = try await Self.home(root, token: alice)
            #expect(first.status == .ok)
            let before = memory.answered
            let again = try await Self.home(root, token: alice)
            #expect(memory.answered == before + 1, "answered before routing")
            #expect(again.status == .ok)
            #expect(again.body == first.body, "the same bytes")
            func fields(_ response: RawResponse) -> Set<String> {
                Set(response.headers.filter { ![.date, .connection].contains($0.name) }.map(\.description))
            }
            #expect(fields(again) == fields(first), "the same fields")
            let old = try #require(first.headers[.eTag])
            // An old tag is not this answer's: the 200 again, from memory.
            let stale = try await Self.home(root, token: alice, etag: "\"sp-0\"")
            #expect(stale.status == .ok && stale.body == first.body)
            #expect(memory.answered == before + 2)

            // Bob never gets Alice's bytes, remembered or not, nor a 304 for her tag.
            let bobs = try await Self.home(root, token: bob)
            #expect(bobs.body != first.body)
            #expect(try await Self.home(root, token: bob).body == bobs.body)
            let withHerTag = try await Self.home(root, token: bob, etag: old)
            #expect(withHerTag.status == .ok && withHerTag.body == bobs.body)

            let write = try await raw(
                .post, root, "/api/v4/commands/playlists/create",
                headers: [.contentType: "application/json", .authorization: "Bearer " + alice], body: Array(#"{"name":"Two"}"#.utf8))
            #expect(write.status == .ok)
            let after = try await Self.home(root, token: alice)
            #expect(after.headers[.eTag] != old)
            #expect(after.text.contains("Two"), "the write is seen by the next GET")
            #expect(try await Self.home(root, token: alice).body == after.body)
            #expect(try await Self.home(root, token: bob).body == bobs.body, "Bob's answer stays remembered")

            // The write's answer names the revision it committed; a request sending it back is
            // another request for memory (an answer made under a lower floor is not its answer).
            let revision = try #require(write.headers[ScreenplayService.revisionHeader].flatMap { Int64($0) })
            #expect(revision >= 2, "Alice's first command and this one")
            let floored: HTTPFields = [.authorization: "Bearer " + alice, ScreenplayService.revisionHeader: String(revision)]
            let counted = memory.answered
            let underFloor = try await raw(.get, root, "/api/v4/screens/home", headers: floored)
            #expect(underFloor.body == after.body)
            #expect(memory.answered == counted, "not answered from the memory of a request without the floor")
            #expect(try await raw(.get, root, "/api/v4/screens/home", headers: floored).body == after.body)
            #expect(memory.answered == counted + 1, "the same request with its floor, again: from memory")
        }
    }

    @Test("a web page is remembered per cookie: the same page again from memory, another user's cookie their own page")
    func webPages() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let memory = try #require(demo.service.revalidations)
            func user(_ name: String) async throws -> String {
                let created = try await raw(
                    .post, root, "/api/v4/commands/playlists/create", headers: [.contentType: "application/json"],
                    body: Array(#"{"name":"\#(name)"}"#.utf8))
                return try #require(created.headers[ScreenplayService.tokenHeader])
            }
            let (alice, bob) = (try await user("Alice Evenings"), try await user("Bob Mornings"))
            func page(_ token: String) async throws -> RawResponse {
                try await raw(.get, root, "/", headers: [.cookie: "\(ScreenplayService.tokenCookie)=\(token)"])
            }
            let first = try await page(alice)
            #expect(first.status == .ok)
            #expect(first.text.contains("Alice Evenings"))
            #expect(first.headers[.setCookie] == nil)
            let before = memory.answered
            let again = try await page(alice)
            #expect(memory.answered == before + 1, "answered before routing")
            #expect(again.body == first.body)
            #expect(again.headers[.contentSecurityPolicy] == first.headers[.contentSecurityPolicy])
            let bobs = try await page(bob)
            #expect(!bobs.text.contains("Alice Evenings") && bobs.text.contains("Bob Mornings"), "Bob's own page")
            #expect(try await page(bob).body == bobs.body)
            // The page names the origin it was reached at: another Host is another request.
            let answered = memory.answered
            let elsewhere = try await ConnectionLimitTests.exchange(
                port: try #require(root.port),
                "GET / HTTP/1.1\r\nHost: localhost:1\r\nCookie: \(ScreenplayService.tokenCookie)=\(alice)\r\nConnection: close\r\n\r\n")
            #expect(elsewhere.hasPrefix("HTTP/1.1 200"))
            #expect(memory.answered == answered, "another Host is not the same request")
        }
    }

    @Test("on the wire: a HEAD gets the GET's head alone, a body sent with a GET is dropped, and order is kept")
    func onTheWire() async throws {
        try await Self.withUsersHome { root, port, token, etag, demo in
            let memory = try #require(demo.service.revalidations)
            let whole = try await Self.home(root, token: token)
            let length = try #require(whole.headers[.contentLength])
            #expect(Int(length) == whole.body.count)
            let before = memory.answered
            // A write hidden in a GET's body would create a playlist if it were read as a request.
            let hidden = "POST /api/v4/commands/playlists/create HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"name\":\"Hidden\"}"
            let text =
                "HEAD /api/v4/screens/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                + "GET /api/v4/screens/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Length: \(hidden.utf8.count)\r\n\r\n\(hidden)"
                + "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let received = try await ConnectionLimitTests.exchange(port: port, text)
            let answers = received.components(separatedBy: "HTTP/1.1 ").dropFirst()
            #expect(answers.map { $0.prefix(3) } == ["200", "200", "200"], "\(received.prefix(400))")
            #expect(memory.answered == before + 2, "the HEAD and the GET answered before routing")
            let headAnswer = try #require(answers.first)
            #expect(headAnswer.lowercased().contains("content-length: \(length)\r\n"))
            #expect(headAnswer.hasSuffix("\r\n\r\n"), "no body after a HEAD's head")
            #expect(answers.dropFirst().first?.hasSuffix(whole.text) == true, "the GET's body, whole")
            #expect(!(try await Self.home(root, token: token)).text.contains("Hidden"), "the body sent with the GET was never a request")
        }
    }

    @Test("an experiment edited in the admin, or one that starts later, changes home at once despite the memory")
    func experiments() async throws {
        try await AdminAPITests.withAdmin { root, admin in
            func teaser(_ json: String) async throws {
                let saved = try await AdminAPITests.call(.put, root, "experiments/home-shop-teaser", token: admin, json: json)
                #expect(saved.status == .ok, "\(saved.text)")
            }
            let user = try await Self.newUser(root)
            try await teaser(#"{"variants":[{"name":"control","weight":1}]}"#)
            let control = try #require(try await Self.home(root, token: user).headers[.eTag])
            #expect(try await Self.home(root, token: user, etag: control).status == .notModified)
            // Everyone in the teaser now: the remembered answer is gone, home changes.
            try await teaser(#"{"variants":[{"name":"teaser","weight":1}]}"#)
            let edited = try await Self.home(root, token: user, etag: control)
            #expect(edited.status == .ok)
            let shown = try #require(edited.headers[.eTag])
            #expect(shown != control)

            // Scheduled two seconds ahead: remembered only until it starts, then home changes.
            let start = ISO8601DateFormatter().string(from: Date().addingTimeInterval(2))
            try await teaser(#"{"variants":[{"name":"teaser","weight":1}],"start":"\#(start)"}"#)
            let waiting = try #require(try await Self.home(root, token: user).headers[.eTag])
            #expect(waiting != shown, "not running yet: no teaser")
            #expect(try await Self.home(root, token: user, etag: waiting).status == .notModified)
            try await Task.sleep(for: .seconds(3))
            let started = try await Self.home(root, token: user, etag: waiting)
            #expect(started.status == .ok, "the start passed: a new answer, not the remembered 304")
            #expect(started.headers[.eTag] == shown)
        }
    }

    @Test("pipelined requests are answered in order: a remembered 304 or 200 waits behind the request before it")
    func pipelinedInOrder() async throws {
        try await Self.withUsersHome { root, port, token, etag, _ in
            _ = try await Self.home(root, token: token, etag: etag)
            // One write: a GET the framework answers (this encoding was never asked for, so nothing
            // is remembered for it), a revalidation, then a close.
            let text =
                "GET /api/v4/screens/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nAccept-Encoding: gzip\r\n\r\n"
                + Self.revalidation(token: token, etag: etag)
                + "GET /api/v4/screens/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
                + "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let received = try await ConnectionLimitTests.exchange(port: port, text)
            // A status line follows the previous body directly (a JSON body ends without a line break).
            let statuses = received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "304", "200", "200"], "\(received.prefix(300))")
        }
    }

    @Test(
        "a request that asks to close is answered from memory saying so, then closed; one that asks an upgrade is the framework's",
        arguments: [true, false])
    func closeAsked(revalidating: Bool) async throws {
        try await Self.withUsersHome { _, port, token, etag, demo in
            let memory = try #require(demo.service.revalidations)
            let status = revalidating ? "HTTP/1.1 304 Not Modified\r\n" : "HTTP/1.1 200 OK\r\n"
            func asking(_ connection: String) -> String {
                let request = Self.revalidation(token: token, etag: etag)
                return (revalidating ? request : request.replacingOccurrences(of: "If-None-Match: \(etag)\r\n", with: ""))
                    .replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: \(connection)\r\n\r\n")
            }
            let before = memory.answered
            // `exchange` reads until the server closes: it returns only if the server does.
            let closed = try await ConnectionLimitTests.exchange(port: port, asking("Keep-Alive, close"))
            #expect(closed.hasPrefix(status), "\(closed)")
            #expect(closed.lowercased().contains("\r\nconnection: close\r\n"), "\(closed)")
            #expect(memory.answered == before + 1, "answered before routing")
            let upgrade = try await ConnectionLimitTests.exchange(port: port, asking("upgrade, close"))
            #expect(upgrade.hasPrefix(status), "the framework's own answer: \(upgrade)")
            #expect(memory.answered == before + 1, "not answered here")
        }
    }

    @Test("the idle timeout sees requests answered early: a busy connection stays open, an idle one closes")
    func idleTimeout() async throws {
        try await Self.withUsersHome(limits: ConnectionLimits(idleTimeout: .seconds(1))) { _, port, token, etag, demo in
            let memory = try #require(demo.service.revalidations)
            let before = memory.answered
            let request = Self.revalidation(token: token, etag: etag)
            // Six revalidations 0.4 s apart: 2.4 s on one connection with a 1 s idle timeout.
            let (statuses, closed) = try await ConnectionLimitTests.onOwnThread {
                let descriptor = try ConnectionLimitTests.halfSent(port: port, "")
                defer { close(descriptor) }
                var statuses: [String] = []
                for _ in 0..<6 {
                    _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
                    statuses.append(Self.readHead(descriptor))
                    usleep(400_000)
                }
                return (statuses, ConnectionLimitTests.closedByServer(descriptor, within: 3))
            }
            #expect(statuses == Array(repeating: "HTTP/1.1 304 Not Modified", count: 6), "\(statuses)")
            #expect(memory.answered == before + 6)
            #expect(closed, "closed once idle")
        }
    }

    @Test(
        "a client that pipelines requests answered from memory and never reads is held back, not queued for without bound",
        arguments: [true, false])
    func backpressure(revalidating: Bool) async throws {
        try await Self.withUsersHome { root, port, token, etag, _ in
            let text = Self.revalidation(token: token, etag: etag)
            let request = Array((revalidating ? text : text.replacingOccurrences(of: "If-None-Match: \(etag)\r\n", with: "")).utf8)
            let batch = Array([[UInt8]](repeating: request, count: 512).joined())
            let limit = 96 << 20
            // Sends without reading until the server stops taking bytes for a second, or `limit`.
            let sent = try await ConnectionLimitTests.onOwnThread {
                let descriptor = try ConnectionLimitTests.halfSent(port: port, "")
                defer { close(descriptor) }
                var sent = 0
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                while sent < limit, poll(&poller, 1, 1_000) > 0 {
                    let count = batch.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    if count > 0 { sent += count }
                }
                return sent
            }
            // Kernel buffers on both sides hold a few MiB; an unbounded server would take it all.
            #expect(sent < limit, "the server kept reading: \(sent >> 20) MiB")
            #expect(try await raw(.get, root, "/health").status == .ok, "and serves others meanwhile")
        }
    }

    /// Reads one bodiless response's head and returns its status line ("" if none within 2 s).
    static func readHead(_ descriptor: Int32) -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !received.ends(with: Array("\r\n\r\n".utf8)), poll(&poller, 1, 2_000) > 0, recv(descriptor, &byte, 1, 0) == 1 {
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

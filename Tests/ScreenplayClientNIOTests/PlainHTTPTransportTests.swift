import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayClientNIO
import Testing

@Suite("Plain HTTP transport (NIO, no TLS)")
struct PlainHTTPTransportTests {
    static func request(_ authority: String, _ path: String = "/api/v5/screens/home", method: HTTPRequest.Method = .get) -> HTTPRequest {
        HTTPRequest(method: method, scheme: "http", authority: authority, path: path)
    }

    /// Runs `body` and returns the ``PlainHTTPError`` it throws (the test fails if it throws
    /// anything else or nothing).
    static func failure(_ body: () async throws -> Void) async -> PlainHTTPError? {
        do {
            try await body()
            Issue.record("expected a PlainHTTPError, got an answer")
        } catch let error as PlainHTTPError {
            return error
        } catch {
            Issue.record("expected a PlainHTTPError, got \(error)")
        }
        return nil
    }

    @Test("a POST reaches the server as sent (Host, headers, body) and a chunked answer comes back whole")
    func roundTrip() async throws {
        let answer: [ScriptedServer.Step] = [
            .text("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"v1\"\r\nTransfer-Encoding: chunked\r\n\r\n"),
            .text("5\r\n{\"a\":\r\n"), .pause(.milliseconds(20)), .text("2\r\n1}\r\n0\r\n\r\n"),
        ]
        try await ScriptedServer.run(answer) { authority, server in
            var request = Self.request(authority, "/api/v5/commands/favorites/add?x=%2F", method: .post)
            request.headerFields[.authorization] = "Bearer t0ken"
            request.headerFields[.contentType] = "application/json"
            let (response, body) = try await PlainHTTPTransport().send(request, body: Array(#"{"id":7}"#.utf8))
            #expect(response.status == .ok)
            #expect(response.headerFields[.eTag] == "\"v1\"")
            #expect(String(decoding: body, as: UTF8.self) == #"{"a":1}"#)
            let sent = try #require(server.requests.first)
            #expect(sent.hasPrefix("POST /api/v5/commands/favorites/add?x=%2F HTTP/1.1\r\n"), "\(sent)")
            let lines = Set(sent.split(separator: "\r\n").map { $0.lowercased() })
            #expect(lines.isSuperset(of: ["host: \(authority)", "authorization: bearer t0ken", "content-length: 8", "connection: close"]))
            #expect(sent.hasSuffix("\r\n\r\n{\"id\":7}"))
        }
    }

    @Test("a 304 comes back as a 304 with no body, not as a cached 200")
    func notModified() async throws {
        try await ScriptedServer.run([.text("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n")]) { authority, _ in
            var request = Self.request(authority)
            request.headerFields[.ifNoneMatch] = "\"v1\""
            let (response, body) = try await PlainHTTPTransport().send(request, body: nil)
            #expect(response.status.code == 304)
            #expect(body.isEmpty)
        }
    }

    @Test("an answer over the size limit fails as it passes the limit, naming the server")
    func tooLarge() async throws {
        let big = String(repeating: "x", count: 5_000)
        try await ScriptedServer.run([.text("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n\(big)")]) { authority, _ in
            let error = await Self.failure { _ = try await PlainHTTPTransport(maximumResponseSize: 4_096).send(Self.request(authority), body: nil) }
            #expect(error?.code == .responseTooLarge)
            #expect(error?.message.contains(authority) == true && error?.message.contains("4096") == true, "\(String(describing: error))")
        }
    }

    /// Answers no HTTP client should accept, by what is wrong with them.
    static let malformedReplies = [
        "not a status line": "garbage, not a status line\r\n\r\n",
        "a 100 KB header": "HTTP/1.1 200 OK\r\nX-Huge: \(String(repeating: "h", count: 100_000))\r\nContent-Length: 0\r\n\r\n",
        "a status that is not a number": "HTTP/1.1 abc Broken\r\nContent-Length: 0\r\n\r\n",
        "a negative length": "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n",
    ]

    @Test(
        "bytes that are not an HTTP response, or a head over the parser's limit, fail as malformed",
        arguments: malformedReplies.keys.sorted())
    func malformed(what: String) async throws {
        try await ScriptedServer.run([.text(Self.malformedReplies[what]!)]) { authority, _ in
            let error = await Self.failure { _ = try await PlainHTTPTransport().send(Self.request(authority), body: nil) }
            #expect(error?.code == .malformedResponse, "\(String(describing: error))")
            #expect(error?.message.contains(authority) == true)
        }
    }

    @Test("a connection closed before the body's end fails as closed early")
    func cutShort() async throws {
        try await ScriptedServer.run([.text("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")]) { authority, _ in
            let error = await Self.failure { _ = try await PlainHTTPTransport().send(Self.request(authority), body: nil) }
            #expect(error?.code == .closedEarly, "\(String(describing: error))")
        }
    }

    @Test("a refused connection fails at once as connectionFailed, saying so and naming the server")
    func refused() async throws {
        let port = try await ScriptedServer.closedPort()
        let started = ContinuousClock.now
        let error = await Self.failure { _ = try await PlainHTTPTransport().send(Self.request("127.0.0.1:\(port)"), body: nil) }
        #expect(error?.code == .connectionFailed)
        #expect(error?.message == "could not connect to 127.0.0.1:\(port): connection refused", "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("https:// is refused before anything is sent, naming the TLS transport to use instead")
    func httpsRefused() async throws {
        try await ScriptedServer.run([.text("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")]) { authority, server in
            let request = HTTPRequest(method: .get, scheme: "https", authority: authority, path: "/")
            let error = await Self.failure { _ = try await PlainHTTPTransport().send(request, body: nil) }
            #expect(error?.code == .tlsRequired)
            #expect(error?.message.contains("https://\(authority) needs TLS") == true)
            #expect(error?.message.contains("AsyncHTTPClientTransport") == true)
            let stream = await Self.failure { _ = try await PlainHTTPTransport().open(request) }
            #expect(stream?.code == .tlsRequired)
            #expect(server.requests.isEmpty, "nothing may be sent in clear to an https:// address")
        }
    }

    @Test("a request without a usable address is refused before connecting", arguments: ["", "host:99999", "[::1", "ftp"])
    func badAddress(authority: String) async throws {
        let request = authority == "ftp"
            ? HTTPRequest(method: .get, scheme: "ftp", authority: "127.0.0.1", path: "/")
            : Self.request(authority)
        let error = await Self.failure { _ = try await PlainHTTPTransport().send(request, body: nil) }
        #expect(error?.code == .badRequest, "\(String(describing: error))")
    }

    @Test("a server that never answers costs the timeout, then fails as timedOut and the connection is closed")
    func timeout() async throws {
        try await ScriptedServer.run([.holdUntilClientCloses]) { authority, server in
            let started = ContinuousClock.now
            let error = await Self.failure {
                _ = try await PlainHTTPTransport(timeout: .milliseconds(300)).send(Self.request(authority), body: nil)
            }
            #expect(error?.code == .timedOut)
            #expect(ContinuousClock.now - started < .seconds(10))
            try await Self.eventually { server.connectionsClosedByClient == 1 }
        }
    }

    @Test("an event stream hands each piece over as it arrives, and dropping the body closes the connection")
    func eventStream() async throws {
        let script: [ScriptedServer.Step] = [
            .text("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"),
            .text("e\r\nevent: ready\n\n\r\n"),
            .holdUntilClientCloses,
        ]
        try await ScriptedServer.run(script) { authority, server in
            var request = Self.request(authority, "/api/v5/events?screens=home")
            request.headerFields[.accept] = "text/event-stream"
            // The body lives only inside this closure: leaving it drops the body.
            let received: [UInt8] = try await {
                let (response, body) = try await PlainHTTPTransport(timeout: .seconds(20)).open(request)
                #expect(response.status == .ok)
                #expect(response.headerFields[.contentType] == "text/event-stream")
                // The server holds the stream open after its first piece: this piece must arrive
                // while the response goes on.
                var received: [UInt8] = []
                for try await piece in body {
                    received += piece
                    if received.count >= 14 { break }
                }
                #expect(server.connectionsClosedByClient == 0)
                return received
            }()
            #expect(String(decoding: received, as: UTF8.self) == "event: ready\n\n")
            #expect(server.requests.first?.lowercased().contains("accept: text/event-stream") == true)
            try await Self.eventually { server.connectionsClosedByClient == 1 }
        }
    }

    @Test("an event stream whose connection drops mid-body ends with closedEarly; a refusal's body is readable")
    func eventStreamEnds() async throws {
        let dropped: [ScriptedServer.Step] = [
            .text("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n: hi\n\r\n"),
        ]
        try await ScriptedServer.run(dropped) { authority, _ in
            let (_, body) = try await PlainHTTPTransport().open(Self.request(authority, "/api/v5/events"))
            var pieces = 0
            let error = await Self.failure { for try await _ in body { pieces += 1 } }
            #expect(pieces == 1)
            #expect(error?.code == .closedEarly, "\(String(describing: error))")
        }
        let refusal = #"{"error":{"code":"tooManyStreams","message":"8 open"}}"#
        try await ScriptedServer.run([.text("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Length: \(refusal.utf8.count)\r\n\r\n\(refusal)")]) {
            authority, _ in
            let (response, body) = try await PlainHTTPTransport().open(Self.request(authority, "/api/v5/events"))
            #expect(response.status.code == 429)
            #expect(response.headerFields[.retryAfter] == "5")
            var bytes: [UInt8] = []
            for try await piece in body { bytes += piece }
            #expect(String(decoding: bytes, as: UTF8.self) == refusal)
        }
    }

    @Test("an event stream whose head never comes fails as timedOut")
    func eventStreamTimeout() async throws {
        try await ScriptedServer.run([.holdUntilClientCloses]) { authority, server in
            let error = await Self.failure { _ = try await PlainHTTPTransport(timeout: .milliseconds(300)).open(Self.request(authority)) }
            #expect(error?.code == .timedOut)
            try await Self.eventually { server.connectionsClosedByClient == 1 }
        }
    }

    /// Waits up to 10 s for `condition`, failing the test if it never holds.
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition did not hold within 10 s")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayHummingbird
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Slow-loris and connection floods against the real server: half-sent requests are closed after
/// the idle timeout, and the server keeps answering.
@Suite("End to end: connection limits", .serialized)
struct ConnectionLimitTests {
    /// A TCP connection to 127.0.0.1:`port` that has sent `text` and nothing more.
    static func halfSent(port: Int, _ text: String) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        _ = text.withCString { send(descriptor, $0, strlen($0), 0) }
        return descriptor
    }

    /// A connection that sent one whole request and read its answer (`/health`: `ok`), then stays
    /// open and idle, as a keep-alive client's would.
    static func answeredThenIdle(port: Int) throws -> Int32 {
        let descriptor = try halfSent(port: port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !String(decoding: received, as: UTF8.self).hasSuffix("\r\n\r\nok"), poll(&poller, 1, 10_000) > 0 {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        guard String(decoding: received, as: UTF8.self).hasSuffix("\r\n\r\nok") else {
            close(descriptor)
            throw POSIXError(.ECONNRESET)
        }
        return descriptor
    }

    /// Whether the server closed the connection within `seconds` (a read returns end of file).
    static func closedByServer(_ descriptor: Int32, within seconds: Double) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) <= 0
    }

    /// Sends `text` on a new connection and reads everything until the server closes it, on a
    /// thread of its own: blocking a thread of the concurrency pool (two threads on two cores)
    /// would starve the server under test, whose handlers run on that pool.
    static func exchange(port: Int, _ text: String) async throws -> String {
        try await onOwnThread { try blockingExchange(port: port, text) }
    }

    /// Runs blocking socket work on a thread of its own, off the concurrency pool the server
    /// under test needs (its accept loop and handlers run there).
    static func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// ``closedByServer(_:within:)`` for several connections at once, off the pool.
    static func closedCount(_ descriptors: [Int32], within seconds: Double) async throws -> Int {
        try await onOwnThread { descriptors.filter { closedByServer($0, within: seconds) }.count }
    }

    static func blockingExchange(port: Int, _ text: String) throws -> String {
        let descriptor = try halfSent(port: port, text)
        defer { close(descriptor) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 5_000) > 0 {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    @Test("requests the parser refuses get a JSON error naming what was wrong, and the connection closes")
    func malformedHeads() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let cases: [(request: String, status: String, code: String, path: String)] = [
                (
                    "GET /api/v4/screens/home HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 80 * 1024 + 16))\r\n\r\n",
                    "431", "requestHeadTooLarge", "request head"
                ),
                (
                    "GET /api/v4/screens/home HTTP/1.1\r\n" + (0..<1_001).map { "X-\($0): y\r\n" }.joined() + "\r\n",
                    "431", "requestHeadTooLarge", "request head"
                ),
                ("G@T / HTTP/1.1\r\nHost: x\r\n\r\n", "400", "badRequest", "request line"),
                ("POST /api/v4/commands/search HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n", "400", "badRequest", "Content-Length"),
            ]
            for (request, status, code, path) in cases {
                let answer = try await Self.exchange(port: port, request)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(request.prefix(60)): \(answer.prefix(80))")
                #expect(answer.lowercased().contains("content-type: application/json"))
                #expect(answer.lowercased().contains("connection: close"))
                let body = try #require(answer.range(of: "\r\n\r\n").map { answer[$0.upperBound...] })
                let error = try JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8)).error
                #expect(error.code == code && error.path == path, "\(error)")
            }
            #expect(try await raw(.get, root, "/health").status == .ok, "the server keeps answering")
            // HEAD over the wire: GET's length, no body.
            let head = try await raw(.head, root, "/api/v4/screens/cities", headers: [.acceptEncoding: "gzip"])
            let get = try await raw(.get, root, "/api/v4/screens/cities", headers: [.acceptEncoding: "gzip"])
            #expect(head.status == .ok && head.body.isEmpty)
            #expect(head.headers[.contentLength] == String(get.body.count))
            #expect(get.headers[.contentEncoding] == "gzip")
        }
    }

    @Test("half-sent requests are closed after the idle timeout; whole requests are still answered")
    func slowLoris() async throws {
        let harness = DemoServerHarness(limits: ConnectionLimits(idleTimeout: .seconds(1), maximumConnections: 64))
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let lingering = try (0..<20).map { _ in
                try Self.halfSent(port: port, "GET /api/v4/screens/home HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            }
            defer { for descriptor in lingering { close(descriptor) } }
            // Not closed at once: the timeout is what closes them.
            #expect(try await Self.closedCount([lingering[0]], within: 0.2) == 0)
            let closed = try await Self.closedCount(lingering, within: 5)
            #expect(closed == 20, "\(closed) of 20 half-sent connections were closed")
            #expect(try await raw(.get, root, "/health").status == .ok)
        }
    }

    @Test("past the connection cap new connections wait, and are served once idle ones time out")
    func cap() async throws {
        let harness = DemoServerHarness(limits: ConnectionLimits(idleTimeout: .seconds(1), maximumConnections: 4))
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            // Four connections, each answered once and then left idle: answered means accepted, so
            // all four count against the cap before the next one arrives. (Sleeping instead let a
            // connection arrive in the same accept batch as the hogs on a loaded machine.)
            let (hogs, firstIdle) = try await Self.onOwnThread {
                let first = try Self.answeredThenIdle(port: port)
                let idleSince = ContinuousClock.now
                return ([first] + (try (1..<4).map { _ in try Self.answeredThenIdle(port: port) }), idleSince)
            }
            defer { for descriptor in hogs { close(descriptor) } }
            #expect(try await raw(.get, root, "/health").status == .ok, "served after the hogs timed out")
            // It waited for a slot: the cap held it back until the first idle hog was closed, a
            // second after its answer (the idle timeout), less a little for the clocks' slack.
            #expect(ContinuousClock.now - firstIdle > .milliseconds(900))
            #expect(try await Self.closedCount(hogs, within: 3) == hogs.count)
        }
    }
}

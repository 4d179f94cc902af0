import Foundation
import ScreenplayContract
import ScreenplayHummingbird
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One address's thousands of sockets against the real server, beside a client at another
/// address (127.0.0.2: all of 127/8 is loopback on Linux); and request heads that arrive too
/// slowly, or not at all.
@Suite("End to end: connection fairness", .serialized)
struct ConnectionFairnessTests {
    static let screen = "/api/v5/screens/cities"

    @Test("2 200 slow sockets from one address: past its cap each is refused with a JSON 503, and another address is served as before")
    func floodFromOneAddress() async throws {
        let allowed = LoopbackHTTP.allowOpenFiles(8_192)
        try #require(allowed >= 5_000, "the test needs about 4 500 descriptors (client and server sides); the limit is \(allowed)")
        // A server-wide cap below the flood, as 2 048 is below 2 200 in production: without a
        // cap per address the flood takes every place and the other client waits out the idle
        // timeout (30 s). The cap per address is what keeps a place for it.
        // The head's deadline far off: the flood's places stay taken for the whole test.
        let limits = ConnectionLimits(
            idleTimeout: .seconds(30), maximumConnections: 512, maximumConnectionsPerAddress: 32, headerTimeout: .seconds(30))
        let harness = DemoServerHarness(limits: limits)
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let before = try await LoopbackHTTP.onOwnThread {
                try LoopbackHTTP.timedGets(port: port, path: Self.screen, count: 30, from: "127.0.0.2", timeout: 20)
            }
            #expect(before.allSatisfy { $0.status == 200 }, "\(before)")
            let flood = try await LoopbackHTTP.onOwnThread {
                try LoopbackHTTP.flood(port: port, count: 2_200, from: "127.0.0.1", settle: 5)
            }
            defer { for descriptor in flood { close(descriptor) } }
            let during = try await LoopbackHTTP.onOwnThread {
                try LoopbackHTTP.timedGets(port: port, path: Self.screen, count: 30, from: "127.0.0.2", timeout: 20)
            }
            // Connections the kernel held back (a full listen backlog) arrive within seconds.
            let outcome = try await LoopbackHTTP.onOwnThread { LoopbackHTTP.survey(flood, within: 30, settledAt: 32) }

            let (p99Before, p99During) = (
                LoopbackHTTP.quantile(before.map(\.seconds), 0.99), LoopbackHTTP.quantile(during.map(\.seconds), 0.99)
            )
            print(
                "screen p99 at 127.0.0.2: \(Int(p99Before * 1_000)) ms alone, \(Int(p99During * 1_000)) ms beside 2 200 sockets from 127.0.0.1; the flood: \(outcome)"
            )
            #expect(during.count == 30 && during.allSatisfy { $0.status == 200 }, "the other address is served: \(during)")
            // Generous for a loaded two-core machine; without the cap it is a timeout.
            #expect(p99During < 5, "p99 \(p99During) s beside the flood")
            // The address never held more than its 32 places; the rest were refused.
            #expect(outcome.open <= 32, "\(outcome)")
            // Most read the refusal; a few lose it to the reset of a close with their head unread.
            #expect(outcome.answered[503, default: 0] >= 1_800, "refused with an answer: \(outcome)")
            let refusal = try #require(outcome.sampleBodies[503])
            let error = try JSONDecoder().decode(ErrorBody.self, from: Data(refusal.utf8)).error
            #expect(error.code == "tooManyConnections" && error.message.contains("32"), "\(error)")
        }
    }

    @Test(
        "a head trickled a byte at a time is answered 408 (JSON) at the header timeout, though each byte comes well within the idle timeout"
    )
    func trickledHead() async throws {
        let harness = DemoServerHarness(limits: ConnectionLimits(idleTimeout: .seconds(30), headerTimeout: .seconds(1)))
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let (answer, seconds) = try await LoopbackHTTP.onOwnThread { () throws -> (LoopbackHTTP.Answer?, Double) in
                let descriptor = try LoopbackHTTP.connect(port: port)
                defer { close(descriptor) }
                let start = Date()
                var buffered: [UInt8] = []
                for byte in "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
                    guard (try? LoopbackHTTP.send(descriptor, String(byte))) != nil else { break }
                    if let answer = LoopbackHTTP.readAnswer(descriptor, within: 0.2, buffered: &buffered) {
                        return (answer, Date().timeIntervalSince(start))
                    }
                    if Date().timeIntervalSince(start) > 8 { break }
                }
                return (nil, Date().timeIntervalSince(start))
            }
            let refusal = try #require(answer, "no answer in \(seconds) s")
            #expect(refusal.status == 408)
            #expect(seconds >= 0.9 && seconds < 4, "answered after \(seconds) s")
            #expect(refusal.header("connection")?.lowercased() == "close")
            let error = try JSONDecoder().decode(ErrorBody.self, from: Data(refusal.body)).error
            #expect(error.code == "requestHeadTimeout" && error.path == "request head", "\(error)")
        }
    }

    @Test("a connection that sends nothing is closed at the header timeout, without an answer")
    func silentConnection() async throws {
        let harness = DemoServerHarness(limits: ConnectionLimits(idleTimeout: .seconds(30), headerTimeout: .seconds(1)))
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let (closed, received) = try await LoopbackHTTP.onOwnThread { () throws -> (Bool, Int) in
                let descriptor = try LoopbackHTTP.connect(port: port)
                defer { close(descriptor) }
                var buffered: [UInt8] = []
                let answered = LoopbackHTTP.readAnswer(descriptor, within: 4, buffered: &buffered)
                return (answered == nil && LoopbackHTTP.closedByServer(descriptor, within: 0.1), buffered.count)
            }
            #expect(closed && received == 0, "closed \(closed), \(received) bytes received")
        }
    }

    @Test("a kept-alive connection may wait between requests past the header timeout; a partial head after an answer is timed")
    func keepAliveAndPipelinedHead() async throws {
        let harness = DemoServerHarness(limits: ConnectionLimits(idleTimeout: .seconds(30), headerTimeout: .seconds(1)))
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let statuses = try await LoopbackHTTP.onOwnThread { () throws -> [Int] in
                let descriptor = try LoopbackHTTP.connect(port: port)
                defer { close(descriptor) }
                var buffered: [UInt8] = []
                var statuses: [Int] = []
                try LoopbackHTTP.send(descriptor, "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                statuses.append(LoopbackHTTP.readAnswer(descriptor, within: 5, buffered: &buffered)?.status ?? 0)
                // Quiet for twice the header timeout: the idle timeout's business, not this one's.
                Thread.sleep(forTimeInterval: 2)
                // One request and the start of the next in one write: the rest never comes.
                try LoopbackHTTP.send(descriptor, "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\nGET /hea")
                statuses.append(LoopbackHTTP.readAnswer(descriptor, within: 5, buffered: &buffered)?.status ?? 0)
                statuses.append(LoopbackHTTP.readAnswer(descriptor, within: 4, buffered: &buffered)?.status ?? 0)
                return statuses
            }
            #expect(statuses == [200, 200, 408])
        }
    }
}

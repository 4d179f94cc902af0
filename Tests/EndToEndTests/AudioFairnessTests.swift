import Foundation
import HTTPTypes
import ScreenplayContract
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Synthesized audio beside screen requests on the real server: downloads must not starve
/// screens, and media refusals are JSON errors like any other.
@Suite("End to end: audio beside screens", .serialized)
struct AudioFairnessTests {
    static let screen = "/api/v5/screens/cities"

    /// Set once to stop the downloads.
    final class Stop: Sendable {
        let flag = Atomic(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
        func set() { flag.store(true, ordering: .relaxed) }
    }

    /// Bytes a download has read so far.
    final class Progress: Sendable {
        let bytes = Atomic(0)
        var count: Int { bytes.load(ordering: .relaxed) }
    }

    /// Downloads `path` from `source` again and again, reading as fast as it can, until `stop`;
    /// returns the bytes read and the statuses answered, counting the bytes in `progress` too.
    static func download(
        port: Int, path: String, from source: String, until stop: Stop, progress: Progress
    ) -> (bytes: Int, statuses: [Int]) {
        var total = 0
        var statuses: [Int] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !stop.isSet {
            guard let descriptor = try? LoopbackHTTP.connect(port: port, from: source) else { break }
            defer { close(descriptor) }
            guard (try? LoopbackHTTP.send(descriptor, "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")) != nil else {
                break
            }
            var head: [UInt8] = []
            var status: Int?
            while !stop.isSet {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) >= 0 else { break }
                guard poller.revents != 0 else { continue }
                let count = recv(descriptor, &chunk, chunk.count, 0)
                guard count > 0 else { break }
                total += count
                progress.bytes.add(count, ordering: .relaxed)
                if status == nil {
                    head += chunk[..<min(count, 16)]
                    if head.count >= 12 { status = Int(String(decoding: head[9..<12], as: UTF8.self)) }
                }
            }
            statuses.append(status ?? 0)
            // A refusal (the slot of the last download not yet given back): a moment, then again.
            if status != 200 { Thread.sleep(forTimeInterval: 0.05) }
        }
        return (total, statuses)
    }

    /// The path of the longest of the first tracks, found by their lengths (`HEAD`).
    static func longTrack(port: Int) throws -> (path: String, bytes: Int) {
        let descriptor = try LoopbackHTTP.connect(port: port)
        defer { close(descriptor) }
        var buffered: [UInt8] = []
        var best = ("/media/audio/track/1.wav", 0)
        for id in 1...60 {
            let path = "/media/audio/track/\(id).wav"
            try LoopbackHTTP.send(descriptor, "HEAD \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")
            guard let answer = LoopbackHTTP.readAnswer(descriptor, within: 5, buffered: &buffered, toHead: true), answer.status == 200
            else { break }
            let size = answer.header("content-length").flatMap(Int.init) ?? 0
            if size > best.1 { best = (path, size) }
        }
        return best
    }

    @Test("six downloads of a long track at once: another client's screen requests stay fast, and every download keeps moving")
    func downloadsBesideScreens() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            let track = try await LoopbackHTTP.onOwnThread { try Self.longTrack(port: port) }
            #expect(track.bytes > 3_000_000, "a track of minutes: \(track)")
            let alone = try await LoopbackHTTP.onOwnThread {
                try LoopbackHTTP.timedGets(port: port, path: Self.screen, count: 40, from: "127.0.0.2", timeout: 20)
            }
            #expect(alone.allSatisfy { $0.status == 200 }, "\(alone)")

            let stop = Stop()
            let progress = (0..<6).map { _ in Progress() }
            let downloads = progress.map { progress in
                Task {
                    try await LoopbackHTTP.onOwnThread {
                        Self.download(port: port, path: track.path, from: "127.0.0.1", until: stop, progress: progress)
                    }
                }
            }
            // The downloads under way before the first screen is timed.
            try await LoopbackHTTP.onOwnThread { Thread.sleep(forTimeInterval: 0.5) }
            let beside = try await LoopbackHTTP.onOwnThread {
                try LoopbackHTTP.timedGets(port: port, path: Self.screen, count: 40, from: "127.0.0.2", timeout: 20)
            }
            // Audio yields to screens, but is never starved: every download gets past its first
            // chunk (64 KiB, six seconds of sound) while they take turns on the render thread.
            let deadline = ContinuousClock.now + .seconds(90)
            while progress.contains(where: { $0.count <= 64 * 1_024 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            stop.set()
            var received: [(bytes: Int, statuses: [Int])] = []
            for download in downloads { received.append(try await download.value) }

            let p99Alone = LoopbackHTTP.quantile(alone.map(\.seconds), 0.99)
            let p99Beside = LoopbackHTTP.quantile(beside.map(\.seconds), 0.99)
            print(
                "screen p99: \(String(format: "%.1f", p99Alone * 1_000)) ms alone, \(String(format: "%.1f", p99Beside * 1_000)) ms beside 6 downloads "
                    + "(\(String(format: "%.1f", p99Beside / p99Alone))x); downloaded \(received.map { $0.bytes / 1_024 }) KiB")
            #expect(beside.count == 40 && beside.allSatisfy { $0.status == 200 }, "every screen answered: \(beside)")
            // A bound a loaded two-core machine keeps; rendering on the concurrency pool made it
            // 10 to 20 s. The 2x target is measured by scripts/fairness.sh, on a release build.
            #expect(p99Beside < 3, "screen p99 beside the downloads: \(p99Beside) s")
            for download in received {
                #expect(download.statuses.first == 200, "\(download.statuses)")
                #expect(download.bytes > 64 * 1_024, "every download moved: \(received.map(\.bytes))")
            }
        }
    }

    @Test("a seventh stream from one address is a JSON 429; media errors are JSON with a code, HEAD's without a body")
    func refusals() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let port = try #require(root.port)
            // Six streams that read nothing keep their slots.
            let held = try await LoopbackHTTP.onOwnThread { () throws -> [Int32] in
                try (0..<6).map { _ in
                    let descriptor = try LoopbackHTTP.connect(port: port)
                    try LoopbackHTTP.send(descriptor, "GET /media/audio/track/1.wav HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    var buffered: [UInt8] = []
                    // The head arrives: the stream has its slot.
                    _ = LoopbackHTTP.readAnswer(descriptor, within: 5, buffered: &buffered, toHead: true)
                    return descriptor
                }
            }
            defer { for descriptor in held { close(descriptor) } }
            let seventh = try await raw(.get, root, "/media/audio/track/2.wav")
            #expect(seventh.status == .tooManyRequests && seventh.headers[.retryAfter] == "1")
            #expect(try seventh.errorBody().error.code == "tooManyRequests")

            let cases: [(String, HTTPResponse.Status, String)] = [
                ("/media/audio/track/999999.wav", .notFound, "notFound"),
                ("/media/audio/track/nope", .notFound, "notFound"),
                ("/media/queues/recording/abc", .notFound, "notFound"),
                ("/media/queues/recording/999999", .notFound, "notFound"),
                ("/media/whatever/else", .notFound, "notFound"),
                ("/images/dog/rex.svg", .notFound, "notFound"),
                ("/images/composer/nobody.svg", .notFound, "notFound"),
                ("/no/such/path", .notFound, "notFound"),
            ]
            for (path, status, code) in cases {
                let answer = try await raw(.get, root, path)
                #expect(answer.status == status, "\(path): \(answer.status)")
                #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true, "\(path): \(answer.headers)")
                #expect(try answer.errorBody().error.code == code, "\(path): \(answer.text)")
                let head = try await raw(.head, root, path)
                #expect(head.status == status && head.body.isEmpty, "HEAD \(path): \(head.status), \(head.body.count) bytes")
            }
            let size = 44 + 143 * 11_025
            let past = try await raw(.get, root, "/media/audio/track/1.wav", headers: [.range: "bytes=\(size)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(size)")
            #expect(try past.errorBody().error.code == "rangeNotSatisfiable")
        }
    }
}

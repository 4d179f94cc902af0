import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ScreenplayServer
import Synchronization
import Testing

@testable import ScreenplayDemo

#if canImport(Glibc)
import Glibc
#endif

/// Audio rendered on threads of its own, bounded, taking turns, and no faster than it is sent.
@Suite("The demo's audio streaming: render threads, slots and backpressure")
struct AudioStreamingTests {
    /// The calling thread's name as the system keeps it (what `top -H` shows), read from
    /// /proc. Not `Thread.current.name`: that is Foundation's per-thread object, which once, on a
    /// loaded machine, gave a render thread the name of a Dispatch thread it had not named.
    static func systemThreadName() -> String? {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    @Test("renders run on the render threads at nice 10, never on the caller's thread")
    func ownThreads() async {
        let threads = AudioRenderThreads(maximumThreads: 1)
        let (name, nice) = await threads.run { () -> (String?, Int32) in
            (Self.systemThreadName(), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        #expect(name == AudioRenderThreads.threadName)
        #expect(nice == 10, "the render thread's nice value")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "the caller's priority is untouched")
    }

    @Test("at most maximumThreads renders at once; the rest wait their turn, first come first served")
    func bounded() async {
        final class Running: Sendable {
            let state = Mutex((now: 0, most: 0, order: [Int]()))
        }
        let threads = AudioRenderThreads(maximumThreads: 2)
        let running = Running()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    await threads.run {
                        running.state.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                            $0.order.append(index)
                        }
                        Thread.sleep(forTimeInterval: 0.02)
                        running.state.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        let seen = running.state.withLock { $0 }
        #expect(seen.most == 2, "renders at once: \(seen.most)")
        #expect(seen.order.count == 12)
        #expect(threads.completed == 12)
    }

    @Test("an idle render thread ends; the next render starts one again")
    func idleThreadsEnd() async throws {
        let threads = AudioRenderThreads(maximumThreads: 1, idleTimeout: 0.1)
        #expect(await threads.run { 7 } == 7)
        #expect(threads.liveThreads <= 1)
        let deadline = ContinuousClock.now + .seconds(30)
        while threads.liveThreads > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(threads.liveThreads == 0)
        #expect(await threads.run { 8 } == 8)
    }

    /// A response body writer that takes `accepting` buffers, then suspends on the next one until
    /// the task is cancelled: a client that stopped reading.
    struct StallingWriter: ResponseBodyWriter {
        /// Buffers asked to be written so far.
        final class Count: Sendable {
            let value = Mutex(0)
        }

        let accepting: Int
        let written: Count

        mutating func write(_ buffer: ByteBuffer) async throws {
            let count = written.value.withLock {
                $0 += 1
                return $0
            }
            guard count > accepting else { return }
            while true { try await Task.sleep(for: .seconds(60)) }
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    @Test("a reader that stops reading stops the rendering: the next chunk waits for the last to be written, and its slot comes back")
    func backpressure() async throws {
        // At an ordinary priority: the property is backpressure, and a suite running in
        // parallel on a loaded machine would leave a nice 10 thread next to nothing.
        let streaming = AudioStreaming(threads: AudioRenderThreads(maximumThreads: 1, niceness: 0), slots: AudioStreamSlots())
        let track = AudioTrack(seed: 5, seconds: 1_800)
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "x", path: "/media/audio/track/5.wav"),
            body: .init(buffer: ByteBuffer()))
        let response = try streaming.response(track, request: request, address: "192.0.2.1")
        #expect(response.status == .ok && response.headers[.contentLength] == String(track.byteCount))
        #expect(streaming.slots.openStreams == 1)
        let written = StallingWriter.Count()
        let sending = Task { try await response.body.write(StallingWriter(accepting: 2, written: written)) }
        let deadline = ContinuousClock.now + .seconds(60)
        while written.value.withLock({ $0 }) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(written.value.withLock { $0 } >= 3, "the third chunk never came")
        try await Task.sleep(for: .milliseconds(300))
        // Two chunks taken, a third rendered and waiting to be written: nothing more, out of 330.
        #expect(streaming.threads.completed == 3, "chunks rendered: \(streaming.threads.completed)")
        sending.cancel()
        _ = await sending.result
        #expect(streaming.slots.openStreams == 0, "the stream's slot is given back when it ends")
    }

    @Test(
        "past 6 streams an address gets a 429, past the process's bound everyone gets a 503 (codes, Retry-After); a place comes back once")
    func slots() throws {
        let slots = AudioStreamSlots(perAddress: 6, total: 8)
        var held = try (0..<6).map { _ in try slots.take("192.0.2.1") }
        do {
            _ = try slots.take("192.0.2.1")
            Issue.record("a seventh stream from one address was let in")
        } catch {
            #expect(error.status == .tooManyRequests && error.code == "tooManyRequests" && error.retryAfter == 1, "\(error)")
        }
        held.append(try slots.take("192.0.2.2"))
        held.append(try slots.take("192.0.2.3"))
        do {
            _ = try slots.take("192.0.2.4")
            Issue.record("a ninth stream was let in")
        } catch {
            #expect(error.status == .serviceUnavailable && error.code == "audioBusy" && error.retryAfter == 1, "\(error)")
        }
        held[0].release()
        held[0].release()
        #expect(slots.openStreams == 7, "a release counts once")
        held.append(try slots.take("192.0.2.4"))
        #expect(slots.openStreams == 8)
        // A slot dropped unreleased (a response never written) gives its place back.
        held.removeLast()
        #expect(slots.openStreams == 7)
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A few threads of their own, at a low priority, that synthesize audio: the one CPU-heavy job
/// of the demo, kept off Swift's cooperative pool.
///
/// That pool has one thread per core (two on the test machine): a track rendered on it held a
/// thread for as long as the render ran, and screen requests waited behind it (two downloads of
/// one track made another client's screen wait 10 s, six made it 20 s). Here:
/// - at most ``maximumThreads`` renders run at once, process-wide; more wait in a first-in,
///   first-out queue, so concurrent downloads take turns chunk by chunk, and a waiting render
///   costs a suspended task, not a thread;
/// - the threads run at nice 10 (on Linux, where nice is per thread): while screens want the
///   CPU, the scheduler gives a render about a tenth of what it gives them, and when nothing
///   else runs a render has the core to itself;
/// - a thread with nothing to do for ``idleTimeout`` ends, so an idle server holds none.
///
/// A class guarding its state with one `NSCondition`, which is why it is `@unchecked Sendable`:
/// every stored variable is read and written only with the condition's lock held.
final class AudioRenderThreads: @unchecked Sendable {
    /// Renders running at once, at most: one thread per two cores, at least one.
    let maximumThreads: Int
    /// How long a thread waits for work before it ends.
    let idleTimeout: TimeInterval
    /// The threads' nice value on Linux (10: about a tenth of a screen thread's share of a
    /// busy core; 0 would share it evenly).
    let niceness: Int32

    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var threads = 0
    private var idle = 0
    /// Renders done so far (for tests and logs).
    private var done = 0

    /// Threads for rendering, at most `maximumThreads`.
    init(
        maximumThreads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2), idleTimeout: TimeInterval = 10, niceness: Int32 = 10
    ) {
        self.niceness = niceness
        self.maximumThreads = max(1, maximumThreads)
        self.idleTimeout = idleTimeout
    }

    /// Runs `work` on one of the threads, waiting (suspended) for its turn, and returns what it made.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            enqueue { [self] in
                let value = work()
                // Counted before the caller resumes, so a caller sees its own render counted.
                condition.lock()
                done += 1
                condition.unlock()
                continuation.resume(returning: value)
            }
        }
    }

    /// Renders finished so far.
    var completed: Int {
        condition.lock()
        defer { condition.unlock() }
        return done
    }

    /// Threads alive now (busy or waiting for work).
    var liveThreads: Int {
        condition.lock()
        defer { condition.unlock() }
        return threads
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        queue.append(job)
        if idle > 0 { condition.signal() }
        if queue.count > idle, threads < maximumThreads {
            threads += 1
            Thread { [self] in work() }.start()
        }
    }

    /// The name the threads show in `top -H` and debuggers (Linux keeps 15 bytes of a name).
    static let threadName = "audio-render"

    /// A thread's life: take the oldest job, run it, repeat; end after ``idleTimeout`` idle.
    private func work() {
        Self.lowerPriority(to: niceness)
        Self.nameCurrentThread(Self.threadName)
        condition.lock()
        while true {
            while queue.isEmpty {
                idle += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
                idle -= 1
                if !woken, queue.isEmpty {
                    threads -= 1
                    condition.unlock()
                    return
                }
            }
            let job = queue.removeFirst()
            condition.unlock()
            job()
            condition.lock()
        }
    }

    /// Names the calling thread as the system sees it. A new Linux thread starts with its
    /// creator's name (here often a Dispatch thread's), and `Thread.current.name` did not always
    /// replace it (one render in three kept it in a test), so on Linux the name is written to
    /// the thread's own /proc entry, as `prctl(PR_SET_NAME)` would (Swift cannot call variadic
    /// `prctl`); Foundation's name is set too, for Foundation's readers.
    private static func nameCurrentThread(_ name: String) {
        Thread.current.name = name
        #if os(Linux)
        let file = open("/proc/thread-self/comm", O_WRONLY)
        guard file >= 0 else { return }
        defer { close(file) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count) }
        #endif
    }

    /// Nice `niceness` for the calling thread: on Linux `setpriority` with `who` 0 changes the
    /// calling thread only. Elsewhere the thread asks for the utility quality of service instead.
    private static func lowerPriority(to niceness: Int32) {
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #else
        Thread.current.qualityOfService = niceness > 0 ? .utility : .default
        #endif
    }
}

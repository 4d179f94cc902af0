public import Foundation
import Synchronization

/// A program a test runs to its end (the CLI, a Python checker), waited for on a thread of its own.
///
/// Waiting for a child blocks a thread: reading its output to the end, then `waitUntilExit`. On
/// one of Swift concurrency's cooperative threads (two on a two-core machine) that stalls every
/// other test running beside it for as long as the child runs, and deadlocks a child that asks an
/// in-process server something. A thread of its own costs nothing of the pool.
public enum ChildProcess {
    /// How a child ended: its exit status and what it wrote.
    public struct Outcome: Sendable {
        /// The exit status (`0` on success).
        public let status: Int32
        /// Its standard output, with its standard error too unless the run kept them apart.
        public let output: String
    }

    /// A child still running at its time limit: it was killed, and this says what it had written.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The program and its arguments.
        public let command: [String]
        /// The limit it ran past.
        public let limit: Duration
        /// What it wrote before it was killed.
        public let output: String

        public var description: String {
            "\(command.joined(separator: " ")) was still running after \(limit) and was killed; it had written: \(output)"
        }
    }

    /// Runs `executable` with `arguments` in `directory`, writing `input` to its standard input
    /// (then closing it), and returns once it has exited. With `mergingErrors` false, its standard
    /// error goes to this process's own, so `output` holds only what it printed.
    ///
    /// A child still running after `limit` is killed (`SIGKILL`) and ``TimedOut`` thrown: a test
    /// waiting for a child that waits for something that never comes (a change it missed) fails
    /// saying so, instead of holding the whole test run until its timeout kills it without a word
    /// about which test hung. A cancelled task kills its child too (and throws
    /// `CancellationError`): a test that fails while a child runs beside it does not wait for it.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, mergingErrors: Bool = true,
        limit: Duration = .seconds(180)
    ) async throws -> Outcome {
        let killSwitch = KillSwitch()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread {
                    continuation.resume(
                        with: Result {
                            let process = Process()
                            process.executableURL = executable
                            process.arguments = arguments
                            if let directory { process.currentDirectoryURL = directory }
                            let output = Pipe()
                            process.standardOutput = output
                            process.standardError = mergingErrors ? output : FileHandle.standardError
                            let standardInput = Pipe()
                            process.standardInput = standardInput
                            try process.run()
                            killSwitch.started(pid: process.processIdentifier)
                            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
                            let watchdog = DispatchWorkItem { killSwitch.fire(.timedOut) }
                            DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
                            defer { watchdog.cancel() }
                            let data: Data
                            do {
                                if let input { standardInput.fileHandleForWriting.write(input) }
                                try standardInput.fileHandleForWriting.close()
                                data = output.fileHandleForReading.readDataToEndOfFile()
                            } catch {
                                // Not left running behind the error.
                                killSwitch.fire(.failed)
                                process.waitUntilExit()
                                killSwitch.ended()
                                throw error
                            }
                            process.waitUntilExit()
                            killSwitch.ended()
                            let text = String(decoding: data, as: UTF8.self)
                            switch killSwitch.reason {
                            case .timedOut?: throw TimedOut(command: [executable.path] + arguments, limit: limit, output: text)
                            case .cancelled?: throw CancellationError()
                            case .failed?, nil: return Outcome(status: process.terminationStatus, output: text)
                            }
                        })
                }.start()
            }
        } onCancel: {
            killSwitch.fire(.cancelled)
        }
    }

    /// Runs `python3` (found on the `PATH`) with `arguments` in `directory`, for at most `limit`:
    /// the schema checkers validate thousands of documents, which took up to 100 s of a run beside
    /// a thousand other tests, so their limit is well above the CLI's.
    public static func python(
        _ arguments: [String], in directory: URL, mergingErrors: Bool = true, limit: Duration = .seconds(600)
    ) async throws -> Outcome {
        try await run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory, mergingErrors: mergingErrors, limit: limit)
    }

    /// Ends a child early, with `SIGKILL` (a child of `Process` does not always see a `SIGTERM`,
    /// and nothing a test runs needs to clean up): past its limit, when its task is cancelled
    /// (before or after it started), or after an error while talking to it.
    private final class KillSwitch: Sendable {
        enum Reason { case timedOut, cancelled, failed }

        private struct State {
            var pid: Int32?
            var reason: Reason?
            var ended = false
        }

        private let state = Mutex(State())

        /// Why the child was ended early, if it was.
        var reason: Reason? { state.withLock { $0.reason } }

        /// The child runs as `pid`: killed at once if the switch fired before.
        func started(pid: Int32) {
            state.withLock { state in
                state.pid = pid
                if state.reason != nil { kill(pid, SIGKILL) }
            }
        }

        func fire(_ reason: Reason) {
            state.withLock { state in
                // Once the child is waited for, its pid may be another process's: no signal then.
                // (Foundation reaps it a moment before `ended()` is told; a limit or a
                // cancellation falling in that moment is the one case left, and harmless unless
                // the pid was reused within it.)
                guard !state.ended, state.reason == nil else { return }
                state.reason = reason
                if let pid = state.pid { kill(pid, SIGKILL) }
            }
        }

        /// The child was waited for: no signal is sent after this.
        func ended() { state.withLock { $0.ended = true } }
    }
}

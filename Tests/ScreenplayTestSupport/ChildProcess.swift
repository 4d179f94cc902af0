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
    /// A child still running after `limit` is killed (`SIGKILL`) and
    /// ``TimedOut`` thrown: a test waiting for a child that waits for something that never comes
    /// (a change it missed) fails saying so, instead of holding the whole test run until its
    /// timeout kills it without a word about which test hung.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, mergingErrors: Bool = true,
        limit: Duration = .seconds(180)
    ) async throws -> Outcome {
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
                        let killed = KillSwitch(pid: process.processIdentifier)
                        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
                        let watchdog = DispatchWorkItem { killed.fire() }
                        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
                        if let input { standardInput.fileHandleForWriting.write(input) }
                        try standardInput.fileHandleForWriting.close()
                        let data = output.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        watchdog.cancel()
                        killed.childEnded()
                        let text = String(decoding: data, as: UTF8.self)
                        if killed.fired {
                            throw TimedOut(command: [executable.path] + arguments, limit: limit, output: text)
                        }
                        return Outcome(status: process.terminationStatus, output: text)
                    })
            }.start()
        }
    }

    /// Runs `python3` (found on the `PATH`) with `arguments` in `directory`.
    public static func python(_ arguments: [String], in directory: URL, mergingErrors: Bool = true) async throws -> Outcome {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory, mergingErrors: mergingErrors)
    }

    /// Ends a child past its limit, with `SIGKILL` (a child of `Process` does not always see a
    /// `SIGTERM`, and nothing a test runs needs to clean up).
    private final class KillSwitch: Sendable {
        let pid: Int32
        private let didFire = Atomic(false)
        private let ended = Atomic(false)

        init(pid: Int32) { self.pid = pid }

        /// Whether the limit was reached before the child ended.
        var fired: Bool { didFire.load(ordering: .acquiring) }

        func fire() {
            // Not once it is reaped: its pid may be another process's by then.
            guard !ended.load(ordering: .acquiring) else { return }
            didFire.store(true, ordering: .releasing)
            kill(pid, SIGKILL)
        }

        /// Says the child was reaped: no signal is sent after this.
        func childEnded() { ended.store(true, ordering: .releasing) }
    }
}

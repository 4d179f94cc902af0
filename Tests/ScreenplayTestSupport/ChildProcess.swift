public import Foundation

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

    /// Runs `executable` with `arguments` in `directory`, writing `input` to its standard input
    /// (then closing it), and returns once it has exited. With `mergingErrors` false, its standard
    /// error goes to this process's own, so `output` holds only what it printed.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, input: Data? = nil, mergingErrors: Bool = true
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
                        if let input { standardInput.fileHandleForWriting.write(input) }
                        try standardInput.fileHandleForWriting.close()
                        let data = output.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
                    })
            }.start()
        }
    }

    /// Runs `python3` (found on the `PATH`) with `arguments` in `directory`.
    public static func python(_ arguments: [String], in directory: URL, mergingErrors: Bool = true) async throws -> Outcome {
        try await run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory, mergingErrors: mergingErrors)
    }
}

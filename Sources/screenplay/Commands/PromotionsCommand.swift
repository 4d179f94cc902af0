import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ScreenplayDemo

/// `screenplay promotions`: the shop's promotions vertical as its own HTTP service, slow and
/// flaky on purpose. `screenplay serve` starts one as a child process; run it alone to point a
/// server at it (`serve --promotions URL`).
struct PromotionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "promotions", abstract: "Run the demo's promotions service (a widget provider that is slow and sometimes fails).")

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port = 0

    @Option(name: .long, help: "Slowest answer, in milliseconds (each waits a random time up to this, from a sixth of it).")
    var maxDelayMs = 450

    @Option(name: .long, help: "The share of calls answered with 503, 0...1.")
    var failureRate = 1.0 / 6

    @Flag(name: .long, help: "Exit when standard input closes (how `serve` ties this process's life to its own).")
    var exitWithStdin = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        guard (0...60_000).contains(maxDelayMs) else { throw ValidationError("--max-delay-ms must be 0...60000, got \(maxDelayMs)") }
        guard (0...1).contains(failureRate) else { throw ValidationError("--failure-rate must be 0...1, got \(failureRate)") }
    }

    func run() async throws {
        var logger = Logger(label: "screenplay.promotions")
        logger.logLevel = .warning
        if exitWithStdin {
            // The parent holds our stdin open; when it exits, however it exits, we read EOF.
            Thread {
                while FileHandle.standardInput.availableData.count > 0 {}
                Foundation.exit(0)
            }.start()
        }
        let behaviour = PromotionsService.Behaviour(
            delay: .milliseconds(maxDelayMs / 6)...(.milliseconds(maxDelayMs)), failureRate: failureRate)
        let host = self.host
        let app = PromotionsService(behaviour: behaviour, logger: logger).makeApplication(host: host, port: port) { bound in
            FileHandle.standardOutput.write(Data("promotions listening on http://\(host):\(bound)/widgets\n".utf8))
        }
        try await app.runService()
    }
}

/// A `screenplay promotions` child process: started with this executable, ended with the parent.
final class PromotionsChild: Sendable {
    let process: Process
    /// The child's `POST /widgets` URL.
    let url: String
    private let stdin: Pipe

    /// Starts the child and waits (up to 10 s) for the URL it prints.
    static func start() async throws -> PromotionsChild {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try PromotionsChild() }) }.start()
        }
    }

    private init() throws {
        let process = Process()
        // This very executable (Linux names it in /proc; elsewhere argv[0] does).
        process.executableURL =
            FileManager.default.fileExists(atPath: "/proc/self/exe")
            ? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            : URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = ["promotions", "--port", "0", "--exit-with-stdin"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var line = ""
        while !line.contains("\n"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        guard let url = line.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }),
            url.hasPrefix("http://")
        else {
            process.terminate()
            throw ValidationError("the promotions service did not start (it printed: \(line.prefix(200)))")
        }
        self.process = process
        self.url = url
        self.stdin = input
    }

    /// Stops the child.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }
}

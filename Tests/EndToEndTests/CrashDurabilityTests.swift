import Foundation
import HTTPTypes
import ScreenplayContract
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` in the middle of writes: every command the server answered is in the database after
/// a restart. Runs the real `screenplay serve` as a child process (the suite's share: about
/// three seconds).
@Suite("End to end: kill -9 during writes", .serialized)
struct CrashDurabilityTests {
    /// A `screenplay serve` child process on a free port.
    final class ServerProcess: Sendable {
        let process: Process
        let port: Int

        init(data: String) throws {
            let process = Process()
            process.executableURL = packageRoot().appendingPathComponent(".build/debug/screenplay")
            process.arguments = ["serve", "--port", "0", "--data", data, "--log-level", "error", "--command-rate", "100000"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The URL line says which port it bound.
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, !text.contains("/ in a browser") {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":")[1])
            else {
                process.terminate()
                throw DemoServerHarness.HarnessError.serverDidNotStart
            }
            self.process = process
            self.port = port
        }

        var root: URL { URL(string: "http://127.0.0.1:\(port)/")! }

        /// Kills the server at once and waits for its end, on a thread of its own (waiting for a
        /// child blocks the thread: see `ChildProcess`).
        func kill9() async {
            kill(process.processIdentifier, SIGKILL)
            let process = self.process
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    process.waitUntilExit()
                    continuation.resume()
                }.start()
            }
        }
    }

    static func start(data: String) async throws -> ServerProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try ServerProcess(data: data) }) }.start()
        }
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    @Test("every playlist the server confirmed before a kill -9 is there after the restart")
    func answeredWritesSurvive() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-crash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try await Self.start(data: data)
        let created = try await raw(
            .post, first.root, "/api/v4/commands/playlists/create", headers: Self.json, body: Array(#"{"name":"first"}"#.utf8))
        let token = try #require(created.headers[HTTPField.Name("Screenplay-Token")!])
        var headers = Self.json
        headers[.authorization] = "Bearer " + token

        // Eight writers, twelve playlists each at most (the per-user limit is 100); the kill
        // comes once 40 writes were answered, while the others are in flight.
        final class Answered: Sendable {
            let names = Mutex<[String]>([])
        }
        let answered = Answered()
        let writeHeaders = headers
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for index in 0..<12 {
                        let name = "crash-\(writer)-\(index)"
                        guard
                            let answer = try? await raw(
                                .post, first.root, "/api/v4/commands/playlists/create", headers: writeHeaders,
                                body: Array(#"{"name":"\#(name)"}"#.utf8))
                        else { return }  // the server is gone
                        if answer.status == .ok { answered.names.withLock { $0.append(name) } }
                    }
                }
            }
            group.addTask {
                // At 40 answers, or after 2 minutes when the writers failed before (then too few
                // were answered, and the test says so below instead of waiting for ever).
                let giveUp = ContinuousClock.now + .seconds(120)
                while answered.names.withLock({ $0.count }) < 40, ContinuousClock.now < giveUp {
                    try await Task.sleep(for: .milliseconds(2))
                }
                await first.kill9()
            }
            try await group.waitForAll()
        }
        let confirmed = answered.names.withLock { $0 }
        #expect(confirmed.count >= 40)

        let second = try await Self.start(data: data)
        defer { second.process.terminate() }
        var reading: HTTPFields = [:]
        reading[.authorization] = "Bearer " + token
        let home = try await raw(.get, second.root, "/api/v4/screens/home", headers: reading)
        #expect(home.status == .ok, "the token survived too")
        let missing = confirmed.filter { !home.text.contains("\"\($0)\"") }
        #expect(missing.isEmpty, "\(missing.count) of \(confirmed.count) confirmed playlists are gone: \(missing.prefix(5))")
    }

    @Test("kill -9 while publishing: every answered publish is there, each page's history is whole, live is its newest revision")
    func publishSurvivesKill() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-publish-crash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let token = try await Self.adminToken(data: data)
        let first = try await Self.start(data: data)
        var headers = Self.json
        headers[.authorization] = "Bearer " + token
        let admin = headers

        // Four editors, each on a page of its own, save a draft and publish it, again and again;
        // the kill comes once 24 publishes were answered.
        final class Answered: Sendable {
            let publishes = Mutex<[(route: String, revision: Int, note: String)]>([])
            /// Why each editor stopped: the kill, normally; anything else is in the failure message.
            let stops = Mutex<[String: String]>([:])
        }
        let answered = Answered()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for editor in 0..<4 {
                group.addTask {
                    let route = "crash-\(editor)"
                    func stop(_ round: Int, _ step: String, _ outcome: Result<RawResponse, any Error>) {
                        let what =
                            switch outcome {
                            case .success(let answer): "\(answer.status.code) \(String(decoding: answer.body.prefix(200), as: UTF8.self))"
                            case .failure(let error): "\(error)"
                            }
                        answered.stops.withLock { $0[route] = "round \(round), \(step): \(what)" }
                    }
                    for round in 0..<40 {
                        let note = "edit \(editor)-\(round)"
                        let template = #"{"route":"\#(route)","title":"\#(note)","revision":0,"sections":[]}"#
                        let saved = await Self.outcome { try await raw(.put, first.root, "/admin/api/pages/\(route)/draft", headers: admin, body: Array(template.utf8)) }
                        guard case .success(let draft) = saved, draft.status == .ok else { return stop(round, "draft", saved) }
                        let publishing = await Self.outcome {
                            try await raw(.post, first.root, "/admin/api/pages/\(route)/publish", headers: admin, body: Array(#"{"note":"\#(note)"}"#.utf8))
                        }
                        guard case .success(let published) = publishing, published.status == .ok,
                            let revision = try JSONDecoder().decode(JSONValue.self, from: Data(published.body))["revision"]?.integerValue
                        else { return stop(round, "publish", publishing) }
                        answered.publishes.withLock { $0.append((route, revision, note)) }
                    }
                }
            }
            group.addTask {
                // At 24 publishes, or after 2 minutes when the editors stopped before (as above).
                let giveUp = ContinuousClock.now + .seconds(120)
                while answered.publishes.withLock({ $0.count }) < 24, ContinuousClock.now < giveUp {
                    try await Task.sleep(for: .milliseconds(2))
                }
                await first.kill9()
            }
            try await group.waitForAll()
        }
        let confirmed = answered.publishes.withLock { $0 }
        #expect(confirmed.count >= 24)

        let second = try await Self.start(data: data)
        defer { second.process.terminate() }
        for editor in 0..<4 {
            let route = "crash-\(editor)"
            let page = try JSONDecoder().decode(
                JSONValue.self, from: Data(try await raw(.get, second.root, "/admin/api/pages/\(route)", headers: admin).body))
            let history = page["history"]?.arrayValue ?? []
            let revisions = history.compactMap { $0["revision"]?.integerValue }
            let stopped = answered.stops.withLock { $0[route] } ?? "did not stop"
            // An editor whose first publish was cut off by the kill (under load, the others may
            // have made the 24) has an empty history, or one revision if the kill came after the
            // commit: either is whole.
            #expect(revisions == Array((0..<revisions.count).map { revisions.count - $0 }), "\(route): history \(revisions) has a gap (editor stopped at \(stopped))")
            let live = page["live"]
            #expect(live?["revision"]?.integerValue == revisions.first, "\(route): live is the newest revision")
            #expect(live?["template"]?["title"] == history.first?["note"], "\(route): the live template is the one its history row names")
            for publish in confirmed where publish.route == route {
                #expect(
                    history.contains { $0["revision"]?.integerValue == publish.revision && $0["note"]?.stringValue == publish.note },
                    "\(route): answered revision \(publish.revision) is gone")
            }
            let audit = try JSONDecoder().decode(
                JSONValue.self, from: Data(try await raw(.get, second.root, "/admin/api/audit?subject=\(route)", headers: admin).body))
            let publishes = audit.arrayValue?.filter { $0["action"] == "publish" }.count ?? -1
            #expect(publishes == revisions.count, "\(route): one audit entry per revision, written with it")
        }
    }

    /// What `body` returned or threw.
    static func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// An admin and an API token in `data`, made with the CLI before the server starts.
    static func adminToken(data: String) async throws -> String {
        _ = try await runCLI(["admin", "create-user", "ada", "--data", data], input: Data("correct horse battery\n".utf8))
        return try await runCLI(["admin", "create-token", "ada", "--data", data]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the promotions service serve starts as a child process ends with it, even after kill -9")
    func promotionsChildEnds() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await Self.start(data: data)
        let children = Self.children(of: server.process.processIdentifier)
        #expect(children.count == 1, "one promotions child: \(children)")
        await server.kill9()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, children.contains(where: Self.isAlive) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!children.contains(where: Self.isAlive), "the child outlived its parent")
    }

    /// The processes whose parent is `parent` and whose command line runs `promotions`.
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let afterName = stat.range(of: ") ")
            else { return false }
            let fields = stat[afterName.upperBound...].split(separator: " ")
            let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return fields.count > 1 && Int32(fields[1]) == parent && String(decoding: commandLine, as: UTF8.self).contains("promotions")
        }
    }

    /// Whether `pid` runs (a zombie waiting to be reaped counts as ended).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let afterName = stat.range(of: ") ") else {
            return false
        }
        return stat[afterName.upperBound...].first != "Z"
    }
}

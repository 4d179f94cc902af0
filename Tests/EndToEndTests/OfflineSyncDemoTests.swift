import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import Testing

/// Offline sync against the real demo over loopback: the endpoint's refusals, and an app that
/// keeps its home and what it links to (two links deep) for offline use.
@Suite("Offline sync on the demo")
struct OfflineSyncDemoTests {
    static func sync(_ root: URL, _ body: String, token: String? = nil) async throws -> RawResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await raw(.post, root, "/api/v5/sync", headers: headers, body: Array(body.utf8))
    }

    @Test("malformed, oversized, duplicate and hostile manifests are refused with the JSON path of what is wrong")
    func refusals() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            #expect(try await raw(.get, root, "/api/v5/sync").status == .methodNotAllowed)
            let tooMany = "{\"screens\":[" + (0..<201).map { "{\"path\":\"playlist/\($0)\"}" }.joined(separator: ",") + "]}"
            let cases: [(String, String)] = [
                ("{\"screens\": [", "$"),
                ("[]", "$"),
                ("{}", "$.screens"),
                (tooMany, "$.screens"),
                (#"{"screens":[7]}"#, "$.screens[0]"),
                (#"{"screens":[{"etag":"x"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"home"},{"path":"library"},{"path":"home"}]}"#, "$.screens[2].path"),
                (#"{"screens":[{"path":"home"},{"path":"../admin/api/pages"}]}"#, "$.screens[1].path"),
                (#"{"screens":[{"path":"/home"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"playlist//1"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"playlist/%2e%2e/x"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"playlist/a%2Fb"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"home\u0000"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"http://evil.example/x"}]}"#, "$.screens[0].path"),
                (#"{"screens":[{"path":"home","etag":42}]}"#, "$.screens[0].etag"),
            ]
            for (body, path) in cases {
                let answer = try await Self.sync(root, body)
                #expect(answer.status == (path == "$" ? .badRequest : .unprocessableContent), "\(body.prefix(80)): \(answer.status)")
                #expect(try answer.errorBody().error.path == path, "\(body.prefix(80)): \(answer.text)")
            }
            // A screen that does not exist is not an error: it is gone.
            let gone = try await Self.sync(root, #"{"screens":[{"path":"nowhere/at/all"},{"path":"home","etag":"\"old\""}]}"#)
            #expect(gone.status == .ok)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(gone.body)) as? [String: Any])
            #expect(object["gone"] as? [String] == ["nowhere/at/all"])
            #expect((object["changed"] as? [[String: Any]])?.map { $0["path"] as? String } == ["home"])
        }
    }

    @Test("a body not declared JSON is a 415, as for commands; a malformed one says the line and column where it breaks")
    func readsBodiesAsCommandsDo() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let body = Array(#"{"screens": [{"path": "home"}]}"#.utf8)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", nil] as [String?] {
                var headers: HTTPFields = [:]
                if let contentType { headers[.contentType] = contentType }
                for endpoint in ["/api/v5/sync", "/api/v5/commands/search"] {
                    let answer = try await raw(.post, root, endpoint, headers: headers, body: body)
                    #expect(answer.status == .unsupportedMediaType, "\(endpoint) as \(contentType ?? "nothing"): \(answer.status)")
                    let error = try answer.errorBody().error
                    #expect(error.code == "unsupportedMediaType" && error.path == "Content-Type", "\(error)")
                }
            }
            let declared = try await raw(.post, root, "/api/v5/sync", headers: [.contentType: "application/json; charset=utf-8"], body: body)
            #expect(declared.status == .ok)

            let broken = "{\"screens\": [\n  {\"path\": \"home\",}\n]}"
            let sync = try await Self.sync(root, broken)
            let command = try await raw(.post, root, "/api/v5/commands/search", headers: [.contentType: "application/json"], body: Array(broken.utf8))
            #expect(sync.status == .badRequest && command.status == .badRequest)
            let (syncError, commandError) = (try sync.errorBody().error, try command.errorBody().error)
            #expect(syncError.code == "malformedJSON" && syncError.message.contains("line 2, column"), "\(syncError)")
            #expect(syncError.message == commandError.message, "one reader, one message: \(syncError.message) / \(commandError.message)")
        }
    }

    @Test("home and two links deep kept offline: a re-sync after one write fetches only the screens that changed; offline, the copies show and commands are refused")
    func syncsOnlyWhatChanged() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let token = try await LiveDemoTests.newUser(root)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-demo-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = try FileOfflineStorage(directory: folder)
            let loader = ScreenLoader(
                endpoint: ServerEndpoint(root: root, apiVersion: .v5), transport: PlainHTTPTransport(),
                tokens: InMemoryTokenStore(token: token), offlineStorage: storage)
            try await loader.markForOffline("screens/home", depth: 2)
            let full = try await loader.syncOffline()
            #expect(full.issues.isEmpty, "\(full.issues)")
            #expect(full.changed == full.held.count && full.held.count > 20, "held \(full.held.count)")
            #expect(full.held.contains("screens/playlist/1"))

            let quiet = try await loader.syncOffline()
            #expect(quiet.changed == 0 && quiet.unchanged == full.held.count, "\(quiet)")

            // One write: playlist 1 is no longer a favorite.
            let etagsBefore = try await Self.etags(of: full.held, storage: storage)
            let removed = try await raw(
                .post, root, "/api/v5/commands/favorites/remove",
                headers: [.contentType: "application/json", .authorization: "Bearer \(token)"], body: Array(#"{"playlistId":1}"#.utf8))
            #expect(removed.status == .ok)
            let after = try await loader.syncOffline()
            let etagsAfter = try await Self.etags(of: after.held, storage: storage)
            let moved = Set(etagsBefore.keys.filter { etagsBefore[$0] != etagsAfter[$0] })
            #expect(after.changed == moved.count && !moved.isEmpty, "sent exactly the \(moved.count) screens that changed: \(moved.sorted())")
            #expect(moved.contains("screens/playlist/1"))
            for reference in moved {
                let served = try await raw(.get, root, "/api/v5/" + reference, headers: [.authorization: "Bearer \(token)"])
                #expect(served.headers[.eTag] == etagsAfter[reference], "\(reference) is what the server serves now")
            }
            let ratio = Double(after.bytesReceived) / Double(full.bytesReceived)
            print(
                "offline re-sync after one write: \(after.changed) of \(after.held.count) screens, \(after.bytesReceived) of \(full.bytesReceived) bytes (\(String(format: "%.1f", ratio * 100)) %); nothing changed: \(quiet.bytesReceived) bytes"
            )

            // Offline: the home from its copy, marked so; the heart refused with an offline error.
            let navigator = ScreenNavigator(loader: loader)
            await navigator.setOffline(true)
            await navigator.start(at: "screens/playlist/1")
            let shown = try #require(await navigator.snapshot.top?.state)
            guard case .loaded(let loaded) = shown else { Issue.record("not loaded offline: \(shown)"); return }
            #expect(loaded.isOffline)
            let heart = try #require(loaded.screen.allActions.first { if case .command = $0 { true } else { false } })
            await navigator.perform(heart)
            let presented = await navigator.snapshot.presented.map { "\($0)" } ?? "nothing"
            #expect(presented.contains("offline"), "the heart's answer: \(presented)")

            // A copy damaged on disk: the screen is not shown from it, and nothing crashes.
            let victim = try #require(full.held.sorted().first { $0 != "screens/playlist/1" })
            let file = try #require(
                try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).first { url in
                    // The header, the file's second line, names the screen.
                    let lines = (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n", maxSplits: 2) ?? []
                    guard lines.count > 1, let header = try? JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
                    else { return false }
                    return header["reference"] as? String == victim
                })
            try Data("screenplay-offline 1\n{\"reference\":".utf8).write(to: file)
            await navigator.navigate(.init(url: victim))
            guard case .failed(_, let error)? = await navigator.snapshot.top?.state else {
                Issue.record("a damaged copy was shown: \(String(describing: await navigator.snapshot.top?.state))")
                return
            }
            #expect(error.kind == .offline)

            // Online again: the screen that had no sound copy loads, and the copies on the stack
            // are the server's again.
            await navigator.setOffline(false)
            #expect(try await LiveNavigatorTests.waitUntil {
                if case .loaded(let loaded)? = await navigator.snapshot.top?.state { return !loaded.isOffline }
                return false
            } != nil, "the screen with no copy loaded once online")
            await navigator.back()
            #expect(try await LiveNavigatorTests.waitUntil {
                if case .loaded(let loaded)? = await navigator.snapshot.top?.state { return !loaded.isOffline }
                return false
            } != nil)
        }
    }

    static func etags(of references: Set<String>, storage: FileOfflineStorage) async throws -> [String: String] {
        var etags: [String: String] = [:]
        for reference in references { etags[reference] = try await storage.read(reference)?.etag ?? "" }
        return etags
    }
}

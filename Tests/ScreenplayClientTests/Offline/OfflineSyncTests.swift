import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// Offline use in the client core, against a programmed server: marks and their links synced by
/// ETag, bad sync answers logged with their paths while the copies stay, reads from the copies
/// offline (and when the server cannot be reached), commands refused offline.
@Suite("Offline sync and reads")
struct OfflineSyncTests {
    /// A home that links to Mozart's page.
    static let home = Screen(
        id: "home", title: "Home",
        sections: [
            ScreenSection(
                id: "main",
                components: [.image(.init(RemoteImage(url: "/m.svg"), action: .navigate(.init(url: "screens/composer/mozart"))))])
        ])

    static func json(_ screen: Screen) -> String {
        String(decoding: try! ScreenplayEncoder().encode(screen), as: UTF8.self)
    }

    /// A sync answer with `changed` (path, etag, screen) and the rest given.
    static func answer(
        changed: [(String, String, String)] = [], unchanged: Int = 0, gone: [String] = [], more: [String] = [], failed: [String] = []
    ) -> FakeResponse {
        let items = changed.map { #"{"path":"\#($0.0)","etag":"\#($0.1)","screen":\#($0.2)}"# }.joined(separator: ",")
        let strings = { (list: [String]) in "[" + list.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        let failures = failed.map { #"{"path":"\#($0)","error":{"code":"x","message":"y"}}"# }.joined(separator: ",")
        return .raw(#"{"changed":[\#(items)],"unchanged":\#(unchanged),"gone":\#(strings(gone)),"failed":[\#(failures)],"more":\#(strings(more))}"#)
    }

    static func withLoader(_ body: (ScreenLoader, FakeTransport, FileOfflineStorage) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try FileOfflineStorage(directory: folder)
        let transport = FakeTransport()
        let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, offlineStorage: storage)
        try await body(loader, transport, storage)
    }

    /// The manifest a sync request sent: each path with its ETag ("" for none).
    static func manifest(_ request: SentRequest) throws -> [String: String] {
        guard case .object(let root) = try request.json(), case .array(let screens)? = root["screens"] else { return [:] }
        var paths: [String: String] = [:]
        for case .object(let item) in screens {
            guard case .string(let path)? = item["path"] else { continue }
            if case .string(let etag)? = item["etag"] { paths[path] = etag } else { paths[path] = "" }
        }
        return paths
    }

    @Test("a mark and its links to the stated depth are fetched; the next sync sends the ETags held and gets only what changed")
    func marksAndLinks() async throws {
        try await Self.withLoader { loader, transport, storage in
            try await loader.markForOffline("screens/home", depth: 1)
            transport.on(
                .post, api("sync"),
                Self.answer(changed: [("home", "h1", Self.json(Self.home))]),
                Self.answer(changed: [("composer/mozart", "m1", Self.json(Samples.mozart))]),
                // The second sync: home unchanged, Mozart changed.
                Self.answer(unchanged: 1),
                Self.answer(changed: [("composer/mozart", "m2", Self.json(Samples.screen("composer/mozart", title: "Mozart!")))]))
            let first = try await loader.syncOffline()
            #expect(first.changed == 2 && first.requests == 2 && first.issues.isEmpty, "\(first)")
            #expect(first.held == ["screens/home", "screens/composer/mozart"])
            let sent = transport.requests(to: api("sync"))
            #expect(try Self.manifest(sent[0]) == ["home": ""], "nothing held yet: no ETag")
            #expect(try Self.manifest(sent[1]) == ["composer/mozart": ""], "then the link, one deep")

            let second = try await loader.syncOffline()
            #expect(second.changed == 1 && second.unchanged == 1, "\(second)")
            let again = transport.requests(to: api("sync"))
            #expect(try Self.manifest(again[2]) == ["home": "h1"])
            #expect(try Self.manifest(again[3]) == ["composer/mozart": "m1"])
            #expect(try await storage.read("screens/composer/mozart")?.etag == "m2")

            // Unmarked: the next complete sync drops what only the mark kept.
            try await loader.unmarkForOffline("screens/home")
            let third = try await loader.syncOffline()
            #expect(third.removed == 2 && third.held.isEmpty)
        }
    }

    @Test("a bad answer: screens not asked for, twice, not screens, or a cut-short body are issues with their paths; the copies stay")
    func hostileAnswers() async throws {
        try await Self.withLoader { loader, transport, storage in
            try await loader.markForOffline("screens/home")
            transport.on(.post, api("sync"), Self.answer(changed: [("home", "h1", Self.json(Self.home))]))
            _ = try await loader.syncOffline()
            transport.on(
                .post, api("sync"),
                Self.answer(
                    changed: [
                        ("../../etc/passwd", "x", Self.json(Self.home)), ("home", "h2", "42"), ("home", "h3", Self.json(Self.home)),
                    ], more: ["elsewhere"]))
            let report = try await loader.syncOffline()
            let paths = Set(report.issues.map(\.path))
            #expect(paths == ["sync.changed[0].path", "sync.changed[1].screen", "sync.changed[2].path", "sync.more[0]"], "\(report.issues)")
            #expect(try await storage.read("screens/home")?.etag == "h1", "the copy held stays")
            #expect(await storage.references() == ["screens/home"], "nothing written for a path not asked for")

            transport.on(.post, api("sync"), .raw(#"{"changed":[{"path":"home","etag":"h9","screen":{"id":"ho"#))
            let cut = try await loader.syncOffline()
            #expect(cut.issues.map(\.path) == ["sync"])
            #expect(cut.held == ["screens/home"], "an incomplete sync drops nothing")
            #expect(try await storage.read("screens/home")?.etag == "h1")
        }
    }

    @Test("gone screens are dropped, failed ones kept; 'more' is asked again")
    func goneFailedMore() async throws {
        try await Self.withLoader { loader, transport, storage in
            for reference in ["screens/home", "screens/composer/mozart", "screens/shop"] { try await loader.markForOffline(reference) }
            transport.on(
                .post, api("sync"),
                Self.answer(changed: [("composer/mozart", "m1", Self.json(Samples.mozart))], more: ["home", "shop"]),
                Self.answer(changed: [("home", "h1", Self.json(Samples.home)), ("shop", "s1", Self.json(Samples.screen("shop")))]),
                Self.answer(gone: ["shop"], failed: ["home"]))
            let first = try await loader.syncOffline()
            #expect(first.requests == 2 && first.changed == 3)
            #expect(try Self.manifest(transport.requests(to: api("sync"))[1]).keys.sorted() == ["home", "shop"])
            let second = try await loader.syncOffline()
            #expect(second.removed == 1 && second.failed == 1)
            #expect(await storage.references() == ["screens/home", "screens/composer/mozart"])
        }
    }

    @Test("offline, screens come from their copies, marked offline with their date; commands are refused; an unreachable server falls back too")
    func offlineReads() async throws {
        try await Self.withLoader { loader, transport, storage in
            try await loader.markForOffline("screens/home")
            transport.on(.post, api("sync"), Self.answer(changed: [("home", "h1", Self.json(Samples.home))]))
            _ = try await loader.syncOffline()
            await loader.setOffline(true)
            let copy = try await loader.screen(at: "screens/home")
            #expect(copy.isOffline && copy.screen == Samples.home && copy.etag == "h1")
            #expect(transport.requests(to: api("screens/home")).isEmpty, "offline: nothing sent")
            let tree = ViewTreeResolver().resolve(.loaded(copy)).root
            #expect(tree.children.first?.id == "offline" && tree.children.first?.text?.hasPrefix("Offline: this copy was saved") == true)
            await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/elsewhere") }
            do {
                _ = try await loader.perform(Samples.favoriteCommand)
                Issue.record("a command went out offline")
            } catch let error as ClientError {
                #expect(error.kind == .offline && error.message.contains("offline"))
            }
            #expect(transport.requests.filter { $0.method == .post && $0.path != api("sync") }.isEmpty)

            // Online again but the server is unreachable: the copy, marked offline.
            await loader.setOffline(false)
            transport.on(.get, api("screens/home"), replies: [.fail])
            #expect(try await loader.screen(at: "screens/home").isOffline)
            // Reachable: the server's answer, and the copy refreshed with it.
            transport.on(.get, api("screens/home"), .screen(Samples.screen("home", title: "Home again"), etag: "h2"))
            let fresh = try await loader.screen(at: "screens/home")
            #expect(!fresh.isOffline && fresh.screen.title == "Home again")
            #expect(try await storage.read("screens/home")?.etag == "h2", "a held screen's copy follows what was read")
        }
    }
}

import Foundation
import HTTPTypes
import Logging
@testable import ScreenplayAdmin
import ScreenplayContract
import ScreenplayDemo
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import Testing

/// The database away (a PostgreSQL restarting, every connection busy past the wait): the public
/// API, the admin API and the admin pages answer 503 with `Retry-After` and say nothing was
/// changed, rather than a 500 a client would not retry; and they serve again once it is back.
@Suite("The database unavailable")
struct StoreUnavailableTests {
    @Test("commands, the admin API and the admin pages answer 503 while the store is away, and work again after")
    func answers503ThenRecovers() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try FileManager.default.createDirectory(atPath: harness.dataDirectory, withIntermediateDirectories: true)
        let store = SwitchableStore(try await SQLiteStore.open(path: DemoApp.databasePath(in: harness.dataDirectory)))
        try await harness.withDemo(opening: { logger in
            try await DemoApp.open(
                storage: .init(store: store, bus: InProcessInvalidationBus()), logger: logger, passwordHasher: .fastForTests,
                shopTimeouts: DemoServerHarness.shopTimeouts)
        }) { root, demo in
            _ = try await demo.admins.createAdmin(name: "ada", password: "correct horse battery")
            let adminToken = try await demo.admins.createAPIToken(for: "ada", label: "ci")
            let created = try await raw(
                .post, root, "/api/v4/commands/playlists/create", headers: [.contentType: "application/json"], body: Array(#"{"name":"Before"}"#.utf8))
            #expect(created.status == .ok)
            let userToken = try #require(created.headers[HTTPField.Name("Screenplay-Token")!])
            let userHeaders: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(userToken)"]
            let adminHeaders: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(adminToken)"]
            let pages = try await raw(.get, root, "/admin/api/pages/shop", headers: adminHeaders)
            #expect(pages.status == .ok)
            let draft = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(pages.body))["live"]?["template"])
            let draftBody = Array(try JSONEncoder().encode(draft))

            store.isOff = true
            let refusals: [(String, RawResponse)] = [
                ("a command", try await raw(.post, root, "/api/v4/commands/playlists/create", headers: userHeaders, body: Array(#"{"name":"During"}"#.utf8))),
                ("the admin API's pages", try await raw(.get, root, "/admin/api/pages", headers: adminHeaders)),
                ("a draft saved through the admin API", try await raw(.put, root, "/admin/api/pages/shop/draft", headers: adminHeaders, body: draftBody)),
                ("the admin API's experiments", try await raw(.get, root, "/admin/api/experiments", headers: adminHeaders)),
            ]
            for (what, response) in refusals {
                #expect(response.status == .serviceUnavailable, "\(what): \(response.status) \(response.text.prefix(200))")
                #expect(response.headers[.retryAfter] == "1", "\(what)")
                #expect((try? response.errorBody().error.code) == ScreenplayError.storeUnavailableCode, "\(what): \(response.text.prefix(200))")
            }

            // An admin page (its session is looked up first): an HTML 503 in words, not a 500.
            let session = String(repeating: "ab", count: 32)
            let page = try await raw(.get, root, "/admin", headers: [.cookie: "\(AdminSite.sessionCookie)=\(session)"])
            #expect(page.status == .serviceUnavailable, "\(page.status) \(page.text.prefix(300))")
            #expect(page.headers[.retryAfter] == "1")
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("nothing was changed"))

            store.isOff = false
            let again = try await raw(.post, root, "/api/v4/commands/playlists/create", headers: userHeaders, body: Array(#"{"name":"After"}"#.utf8))
            #expect(again.status == .ok)
            #expect(try await raw(.get, root, "/admin/api/pages", headers: adminHeaders).status == .ok)
            #expect(try await raw(.put, root, "/admin/api/pages/shop/draft", headers: adminHeaders, body: draftBody).status == .ok)
            // Nothing written while away: the user has the playlists made before and after only.
            let library = try await raw(.get, root, "/api/v4/screens/library", headers: userHeaders)
            #expect(library.text.contains("Before") && library.text.contains("After"))
            #expect(!library.text.contains("During"))
        }
    }

    @Test("a layout error wraps an unreachable store as 'unavailable', keeping whether anything was written; the admin API sends it as a 503")
    func layoutErrorWrapping() {
        #expect(LayoutError(wrapping: StoreUnavailable("down", wroteNothing: true)) == .unavailable(wroteNothing: true))
        #expect(LayoutError(wrapping: StoreUnavailable("lost in COMMIT", wroteNothing: false)) == .unavailable(wroteNothing: false))
        #expect(LayoutError(wrapping: LayoutError.noDraft(route: "shop")) == .noDraft(route: "shop"))
        #expect(LayoutError.unavailable(wroteNothing: false).unavailableError?.code == "storeInterrupted")
        #expect(LayoutError.unavailable(wroteNothing: true).unavailableError?.status == .serviceUnavailable)
        #expect(LayoutError.noDraft(route: "shop").unavailableError == nil)
        // What the admin API sends for it: the public API's 503.
        let response = AdminAPI.response(for: .unavailable(wroteNothing: true))
        #expect(response.head.status == .serviceUnavailable)
        #expect(response.head.headerFields[.retryAfter] == "1")
        #expect(String(decoding: response.body, as: UTF8.self).contains(ScreenplayError.storeUnavailableCode))
        struct Broken: Error {}
        guard case .store = LayoutError(wrapping: Broken()) else { Issue.record("an unknown error is not .store"); return }
    }
}

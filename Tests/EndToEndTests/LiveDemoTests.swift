import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import ScreenplayServer
import Testing

/// The event stream against the real demo: what two people with the app open see.
@Suite("Live screens on the demo")
struct LiveDemoTests {
    /// A new demo user (their first command creates them), returning their token.
    static func newUser(_ root: URL) async throws -> String {
        let created = try await raw(
            .post, root, "/api/v4/commands/favorites/add", headers: [.contentType: "application/json"], body: Array(#"{"playlistId":1}"#.utf8))
        return try #require(created.headers[ScreenplayService.tokenHeader], "\(created.text)")
    }

    @Test("a user's write reaches their other open client, pushed, and no one else's; a publish reaches every client of the page")
    func writesAndPublishes() async throws {
        try await AdminAPITests.withAdmin { root, admin in
            let ada = try await Self.newUser(root)
            let bob = try await Self.newUser(root)
            let adaPhone = try await EventListener.open(root, screens: ["home", "playlist/1", "shop"], token: ada)
            let bobPhone = try await EventListener.open(root, screens: ["home", "playlist/1", "shop"], token: bob)
            let reader = try await EventListener.open(root, screens: ["shop"])
            // Watches no page of the shop: a publish of the shop does not wake it at all.
            let homeOnly = try await EventListener.open(root, screens: ["home"])
            for listener in [adaPhone, bobPhone, reader, homeOnly] {
                #expect(await listener.wait { $0.contains { $0.type == "ready" } } != nil)
            }
            // Ada's tablet takes the heart off playlist 1.
            let removed = try await raw(
                .post, root, "/api/v4/commands/favorites/remove",
                headers: [.contentType: "application/json", .authorization: "Bearer \(ada)"], body: Array(#"{"playlistId":1}"#.utf8))
            #expect(removed.status == .ok, "\(removed.text)")
            let took = await adaPhone.wait(upTo: heardPromptly + .seconds(3)) { _ in adaPhone.screenChanges.contains { $0.path == "playlist/1" } }
            #expect(took.map { $0 < heardPromptly } == true, "Ada's phone heard promptly: \(String(describing: took))")
            let page = try await raw(.get, root, "/api/v4/screens/playlist/1", headers: [.authorization: "Bearer \(ada)"])
            #expect(adaPhone.screenChanges.last { $0.path == "playlist/1" }?.etag == page.headers[.eTag])
            try await Task.sleep(for: .milliseconds(300))
            #expect(bobPhone.screenChanges.isEmpty, "Bob's data did not change: \(bobPhone.screenChanges)")

            // The shop is published without its featured section: every open shop hears it.
            let detail = try AdminAPITests.object(try await AdminAPITests.call(.get, root, "pages/shop", token: admin))
            var template = try #require(detail["live"]?["template"]?.objectValue)
            template["sections"] = .array((template["sections"]?.arrayValue ?? []).filter { $0["id"] != "featured" })
            let json = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)
            #expect(try await AdminAPITests.call(.put, root, "pages/shop/draft", token: admin, json: json).status == .ok)
            let quietID = homeOnly.lastEventID
            #expect(try await AdminAPITests.call(.post, root, "pages/shop/publish", token: admin, json: #"{"expectedLive":1}"#).status == .ok)
            for (name, listener) in [("Ada", adaPhone), ("Bob", bobPhone), ("a reader", reader)] {
                let heard = await listener.wait(upTo: heardPromptly + .seconds(3)) { _ in listener.screenChanges.contains { $0.path == "shop" } }
                #expect(heard.map { $0 < heardPromptly } == true, "\(name) heard the publish promptly: \(String(describing: heard))")
                #expect(!listener.screenChanges.contains { $0.path == "home" }, "\(name): the publish changed no home")
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(homeOnly.lastEventID == quietID && homeOnly.screenChanges.isEmpty, "a stream that watches no shop was not woken by its publish")
            for listener in [adaPhone, bobPhone, reader, homeOnly] { await listener.close() }
        }
    }

    @Test("a web page names its stream and its screen's ETag; the stream's ready agrees with it")
    func webPageIsLive() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let page = try await raw(.get, root, "/screens/shop", headers: [.accept: "text/html"])
            let html = page.text
            let live = try #require(html.firstMatch(of: /data-live="([^"]+)" data-etag="([^"]+)"/))
            #expect(live.1 == "/web/events?screens=shop")
            let etag = String(live.2).replacingOccurrences(of: "&quot;", with: "\"")
            let listener = try await EventListener.open(root, screens: [], path: String(live.1.dropFirst()))
            #expect(listener.status == 200)
            await listener.wait { $0.contains { $0.type == "ready" } }
            let ready = try #require(listener.events.first)
            let screens = try #require(EventStreamTests.data(ready)["screens"] as? [String: String])
            #expect(screens["shop"] == etag)
            await listener.close()
            let unknown = try await raw(.get, root, "/web/events?screens=nowhere")
            #expect(unknown.status == .notFound)

            // Liveness comes from the screen (v5). Not live: search results change with a release
            // of the catalog, not while they are shown.
            let results = try await raw(.get, root, "/screens/search?q=bach", headers: [.accept: "text/html"]).text
            #expect(results.contains("data-etag=") == false && results.contains("data-live") == false)
            // Followed: a composer's page, whose heart is the user's (tapped on another device, shown here).
            let composer = try await raw(.get, root, "/screens/composer/mozart", headers: [.accept: "text/html"]).text
            #expect(composer.contains(#"data-live="/web/events?screens=composer%2Fmozart""#) || composer.contains(#"data-live="/web/events?screens=composer/mozart""#), "\(composer.prefix(2000))")
            // Polled: attendance, revalidated every minute; no stream held for it.
            let cities = try await raw(.get, root, "/screens/cities", headers: [.accept: "text/html"]).text
            #expect(cities.contains(#"data-interval="60""#) && !cities.contains("data-live"))
            // Followed: the library.
            let library = try await raw(.get, root, "/screens/library", headers: [.accept: "text/html"]).text
            #expect(library.contains(#"data-live="/web/events?screens=library""#) && !library.contains("data-interval"))
            // The API: v5 says so, v4 does not; the hearts carry their outcome from v5 only.
            let token = try await Self.newUser(root)
            for (version, expected) in [(5, true), (4, false)] {
                let body = try await raw(.get, root, "/api/v\(version)/screens/playlist/1", headers: [.authorization: "Bearer \(token)"]).text
                #expect(body.contains(#""live":{"events":true}"#) == expected, "v\(version)")
                #expect(body.contains(#""optimistic":{"entities":{"playlist/1":{"favorite":"#) == expected, "v\(version)")
            }
        }
    }
}

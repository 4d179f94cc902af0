import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// The layout admin's live preview against the real demo: the stream its page follows, who may
/// open it, and what wakes it.
@Suite("Admin live preview over HTTP")
struct AdminPreviewStreamTests {
    /// Signs `ada` in through the form, returning the session cookie (`name=value`).
    static func signIn(_ root: URL) async throws -> String {
        let form = try await raw(.get, root, "/admin/login")
        let login = try #require(form.text.firstMatch(of: /name="login" value="([0-9a-f]+)"/)?.1)
        let answer = try await raw(
            .post, root, "/admin/login",
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "screenplay_admin_login=\(login)"],
            body: Array("login=\(login)&name=ada&password=correct+horse+battery".utf8))
        #expect(answer.status == .seeOther)
        let cookie = try #require(answer.headers[values: .setCookie].first { $0.hasPrefix("screenplay_admin_session=") })
        return String(cookie.prefix { $0 != ";" })
    }

    @Test("the preview names its stream; a saved draft and a publish are announced on it, a draft to no public stream, an experiment change only when the preview changes; a session that ended hears nothing and its stream ends")
    func previewFollowsChanges() async throws {
        try await AdminAPITests.withAdmin { root, admin in
            // Nobody signed in: refused, in JSON; a route with no page: not found.
            let refused = try await raw(.get, root, "/admin/preview-events/shop")
            #expect(refused.status == .unauthorized)
            #expect(try refused.errorBody().error.code == "signInFirst")
            let session = try await Self.signIn(root)
            #expect(try await raw(.get, root, "/admin/preview-events/nowhere", headers: [.cookie: session]).status == .notFound)

            let page = try await raw(.get, root, "/admin/pages/shop/preview?platform=web", headers: [.cookie: session])
            let live = try #require(page.text.firstMatch(of: /data-live="([^"]+)" data-etag="([^"]+)"/))
            #expect(live.1 == "/admin/preview-events/shop?platform=web")
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("connect-src 'self'") == true)
            let preview = try await EventListener.open(root, screens: [], path: String(live.1.dropFirst()), cookie: session)
            let reader = try await EventListener.open(root, screens: ["shop"])
            await preview.wait { $0.contains { $0.type == "ready" } }
            await reader.wait { $0.contains { $0.type == "ready" } }
            let ready = try #require(preview.events.first { $0.type == "ready" })
            let etag = String(live.2).replacingOccurrences(of: "&quot;", with: "\"")
            #expect((EventStreamTests.data(ready)["screens"] as? [String: String])?["preview"] == etag)

            // A saved draft: the preview hears it; the public page does not change, and is not told.
            let detail = try AdminAPITests.object(try await AdminAPITests.call(.get, root, "pages/shop", token: admin))
            var template = try #require(detail["live"]?["template"]?.objectValue)
            template["title"] = "Spring shop"
            let json = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)
            #expect(try await AdminAPITests.call(.put, root, "pages/shop/draft", token: admin, json: json).status == .ok)
            let heard = await preview.wait(upTo: heardPromptly + .seconds(3)) { _ in preview.screenChanges.count == 1 }
            #expect(heard.map { $0 < heardPromptly } == true, "the preview heard the draft promptly: \(String(describing: heard))")
            let drafted = try await raw(.get, root, "/admin/pages/shop/preview?platform=web", headers: [.cookie: session])
            #expect(drafted.text.contains(preview.screenChanges[0].etag.replacingOccurrences(of: "\"", with: "&quot;")), "the event's tag is the page's")

            // The publish and an experiment change: the preview and the reader both hear.
            #expect(try await AdminAPITests.call(.post, root, "pages/shop/publish", token: admin, json: "{}").status == .ok)
            #expect(await preview.wait(upTo: heardPromptly + .seconds(3)) { _ in preview.screenChanges.count == 2 } != nil)
            #expect(await reader.wait(upTo: heardPromptly + .seconds(3)) { _ in reader.screenChanges.count == 1 } != nil)
            #expect(reader.screenChanges.count == 1, "the draft was not announced to the public page: \(reader.screenChanges)")
            let experiment = #"{"key":"shop-free-shipping","variants":[{"name":"control","weight":0},{"name":"banner","weight":1}]}"#
            #expect(try await AdminAPITests.call(.put, root, "experiments/shop-free-shipping", token: admin, json: experiment).status == .ok)
            // Anonymous visitors take part in no experiment: the preview looked again, saw the
            // same page, and said nothing.
            try await Task.sleep(for: .milliseconds(300))
            let settled = preview.screenChanges.count
            #expect(settled == 2, "an experiment change that moves nothing shown is not announced: \(preview.screenChanges)")

            // Signed out: nothing more is said on the stream the session opened.
            _ = try await raw(
                .post, root, "/admin/logout", headers: [.contentType: "application/x-www-form-urlencoded", .cookie: session],
                body: Array("csrf=\(try #require(page.text.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)?.1))".utf8))
            #expect(try await raw(.get, root, "/admin/preview-events/shop", headers: [.cookie: session]).status == .unauthorized)
            template["title"] = "Summer shop"
            let again = String(decoding: try JSONEncoder().encode(JSONValue.object(template)), as: UTF8.self)
            #expect(try await AdminAPITests.call(.put, root, "pages/shop/draft", token: admin, json: again).status == .ok)
            // Its stream ends at the next look (its page then learns to sign in again), telling
            // nothing of what changed.
            let ended = await preview.wait(upTo: heardPromptly + .seconds(3)) { events in events.contains { $0.type == "end" } }
            #expect(ended != nil, "the signed-out session's stream ended: \(preview.events.map(\.type))")
            let end = try #require(preview.events.first { $0.type == "end" })
            #expect(await preview.waitForEnd(), "and the server closed it")
            #expect(EventStreamTests.data(end)["reason"] as? String == "identity")
            #expect(preview.screenChanges.count == settled, "a signed-out session hears nothing: \(preview.screenChanges)")
            await preview.close()
            await reader.close()
        }
    }
}

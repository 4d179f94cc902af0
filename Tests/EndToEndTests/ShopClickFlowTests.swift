import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import Testing

@testable import ScreenplayDemo

/// Following an offer on the shop, against the real server on loopback, the way each kind of
/// client does it: an app through the client runtime, an app that renders the shop's kinds
/// through their `open` field, a browser through the page's form. Each signed-in click is counted
/// in the experiment's results; an anonymous one goes to the work and is counted nowhere.
@Suite("End to end: clicks on the shop's offers", .serialized)
struct ShopClickFlowTests {
    @Test("an app following an offer through the client records the click, counted for the home experiment's variant")
    func appFollowsOffer() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let identity = try await demo.service.resolveIdentity(token: nil, creating: true)
            let client = DemoClient(root: root, token: identity.issuedToken)
            // Home shows the user their variant of the teaser experiment: their first exposure.
            await client.navigator.start(at: "screens/home")
            _ = try await client.navigator.snapshot.topScreen()
            let variant = try #require(try await demo.experiments.report(for: "home-shop-teaser").exposures.first { $0.value == 1 }?.key)

            await client.navigator.start(at: "screens/shop")
            let shop = try await client.navigator.snapshot.topScreen()
            let offers = shop.allComponents.compactMap { component -> (String, Action)? in
                guard case .listRow(let row) = component.content, let action = row.action else { return nil }
                return (row.title, action)
            }
            let (title, action) = try #require(offers.first)
            guard case .command(let command) = action else {
                Issue.record("the offer's action is \(action), not the command")
                return
            }
            #expect(command.url == "commands/shop/open")
            await client.navigator.perform(action)
            let work = try await client.navigator.snapshot.topScreen()
            #expect(work.title == title, "the work's screen, pushed over the shop")
            #expect(await client.navigator.snapshot.entries.map(\.url).first == "screens/shop")

            let clicks = try await demo.shopClicks.clicks(of: identity.user)
            #expect(clicks.map(\.widget) == ["recordingOffer"])
            #expect(clicks.map { DemoLinks.work($0.workID) } == [await client.navigator.snapshot.entries.last?.url])
            let results = try await demo.experiments.results(for: "home-shop-teaser", metric: DemoMetrics.shopClicks)
            let counted = try #require(results.variants.first { $0.name == variant })
            #expect(counted.users == 1 && counted.mean == 1, "\(results)")

            // The same offer from an app with no identity: the work, no token, nothing counted.
            let anonymous = DemoClient(root: root)
            await anonymous.navigator.start(at: "screens/shop")
            await anonymous.navigator.perform(action)
            #expect(try await anonymous.navigator.snapshot.topScreen().title == title)
            #expect(await anonymous.tokens.token() == nil, "no identity was made for following a link")
            #expect(
                try await demo.experiments.results(for: "home-shop-teaser", metric: DemoMetrics.shopClicks).variants.map(\.users).reduce(
                    0, +) == 1)
        }
    }

    @Test("an app that renders the shop's kinds posts the widget's `open` command and is taken to the work")
    func nativeRendererPostsOpen() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let identity = try await demo.service.resolveIdentity(token: nil, creating: true)
            let token = try #require(identity.issuedToken)
            let page = try await raw(
                .get, root, "/api/v5/screens/shop",
                headers: [
                    .authorization: "Bearer \(token)",
                    ScreenplayService.componentsHeader: "recordingOffer, priceTag, cartButton, promoBanner",
                ])
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(page.body))
            let components = (json["sections"]?.arrayValue ?? []).flatMap { $0["components"]?.arrayValue ?? [] }
            let buy = try #require(components.first { $0["type"] == "cartButton" })
            let open = try #require(buy["open"])
            let url = try #require(open["url"]?.stringValue)
            let answer = try await raw(
                .post, root, "/api/v5/" + url,
                headers: [
                    .authorization: "Bearer \(token)", .contentType: "application/json", ScreenplayService.idempotencyKeyHeader: "tap-1",
                ],
                body: Array(try JSONEncoder().encode(open["payload"] ?? [:])))
            #expect(answer.status == .ok)
            let result = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(CommandResult.self, from: Data(answer.body)).value
            guard case .navigate(let navigate) = result.outcome else {
                Issue.record("expected a navigation, got \(result.outcome)")
                return
            }
            #expect(navigate.url == buy["link"]?.stringValue)
            #expect(try await demo.shopClicks.clicks(of: identity.user).map(\.widget) == ["cartButton"])
        }
    }

    @Test("a browser without JavaScript posts the offer's form and lands on the work; without a session nothing is recorded or handed out")
    func browserPostsForm() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let cookie = try await WebPageTests.session(root)
            let page = try await raw(.get, root, "/screens/shop", headers: [.cookie: cookie])
            #expect(page.status == .ok)
            let fields = try #require(try Self.firstOfferForm(in: page.text), "no offer form on the shop page")
            #expect(fields["url"] == "commands/shop/open" && fields["back"] == "/screens/shop")
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
            var signedIn = headers
            signedIn[.cookie] = cookie
            let followed = try await raw(.post, root, "/web/command", headers: signedIn, body: WebPageTests.form(fields))
            #expect(followed.status == .seeOther)
            let location = try #require(followed.headers[.location])
            #expect(location.hasPrefix("/screens/work/"))
            #expect(try await raw(.get, root, location, headers: [.cookie: cookie]).status == .ok)
            let user = try await demo.service.resolveIdentity(token: String(cookie.dropFirst("screenplay_token=".count)), creating: false)
                .user
            #expect(try await demo.shopClicks.clicks(of: user).map { "/" + DemoLinks.work($0.workID) } == [location])

            let anonymous = try await raw(.post, root, "/web/command", headers: headers, body: WebPageTests.form(fields))
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == location)
            #expect(
                !anonymous.headers[values: .setCookie].contains { $0.hasPrefix("screenplay_token=") }, "no session for following a link")
            #expect(try await demo.shopClicks.clicks(of: user).count == 1)
        }
    }

    /// The hidden fields of the first form on `html` that posts `commands/shop/open`.
    static func firstOfferForm(in html: String) throws -> [String: String]? {
        for form in html.components(separatedBy: "<form ").dropFirst() {
            let body = form.components(separatedBy: "</form>")[0]
            guard body.contains(#"value="commands/shop/open""#) else { continue }
            var fields: [String: String] = [:]
            let pattern = try NSRegularExpression(pattern: #"<input type="hidden" name="([^"]+)" value="([^"]*)">"#)
            for match in pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                guard let name = Range(match.range(at: 1), in: body), let value = Range(match.range(at: 2), in: body) else { continue }
                fields[String(body[name])] = Self.unescaped(String(body[value]))
            }
            return fields
        }
        return nil
    }

    /// `text` with the five escapes the site's HTML uses undone (`&amp;` last).
    static func unescaped(_ text: String) -> String {
        var text = text
        for (escape, character) in [("&quot;", "\""), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: escape, with: character)
        }
        return text
    }
}

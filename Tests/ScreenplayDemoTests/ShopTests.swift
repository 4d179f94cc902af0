import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayDemo
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// Runs the promotions service on a loopback port for the length of `body`.
func withPromotions<Result: Sendable>(
    _ behaviour: PromotionsService.Behaviour, _ body: (String) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "promotions.test")
    logger.logLevel = .critical
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = PromotionsService(behaviour: behaviour, logger: logger).makeApplication(port: 0) { continuation.yield($0) }
    let server = BackgroundServer(app, whenEnded: { continuation.finish() })
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
        await server.stop()
        throw CancellationError()
    }
    let outcome: Swift.Result<Result, any Error>
    do {
        outcome = .success(try await body("http://127.0.0.1:\(port)/widgets"))
    } catch {
        outcome = .failure(error)
    }
    await server.stop()
    return try outcome.get()
}

@Suite("Demo shop: a composed page from three verticals")
struct ShopTests {
    static let kinds = "recordingOffer, priceTag, cartButton, promoBanner"

    /// `GET /api/v4/screens/shop` as an iOS app that renders the shop's kinds.
    static func shop(_ demo: DemoApp, token: String? = nil, kinds: String? = ShopTests.kinds) async -> ScreenplayService.Response {
        var headers: HTTPFields = [ScreenplayService.platformHeader: "ios"]
        if let kinds { headers[ScreenplayService.componentsHeader] = kinds }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return await demo.service.respond(
            to: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/api/v4/screens/shop", headerFields: headers),
            body: [])
    }

    static func ids(_ response: ScreenplayService.Response) throws -> [String] {
        let screen = try ScreenplayDecoder(
            mode: .strict, apiVersion: .v4, customKinds: ["recordingOffer", "priceTag", "cartButton", "promoBanner"]
        )
        .decode(Screen.self, from: Data(response.body))
        #expect(screen.issues.isEmpty, "\(screen.issues)")
        return screen.value.sections.flatMap { $0.components.compactMap(\.id) }
    }

    @Test("catalog, pricing and the remote promotions on one page; the deal's price is sent once for two widgets")
    func threeVerticals() async throws {
        try await withPromotions(.reliable) { url in
            try await withDemo(promotions: url) { demo, _ async throws in
                let response = await Self.shop(demo)
                #expect(response.head.status == .ok)
                let ids = try Self.ids(response)
                #expect(ids.starts(with: ["spring-sale", "deal-offer", "deal-price", "deal-buy"]), "\(ids)")
                #expect(ids.filter { $0.hasPrefix("offer-") }.count == 4 && ids.filter { $0.hasPrefix("buy-") }.count == 4)
                // Two widgets show the deal's price; the bytes hold it once, in the entity both bind to.
                let body = String(decoding: response.body, as: UTF8.self)
                let page = try #require(demo.pages.latestReport(for: "shop"))
                // All shown but the free-shipping banner, whose experiment an anonymous reader takes no part in.
                let notShown = page.widgets.filter { !$0.outcome.isShown }
                #expect(notShown.map(\.instanceID) == ["free-shipping"], "\(page.widgets.map(\.outcome))")
                let json = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
                let entities = try #require(json["entities"]?.objectValue)
                let dealPrice = try #require(entities.first { $0.key.hasPrefix("price/work-") }?.value["price"]?.stringValue)
                #expect(entities.count == 5, "one price per work on the page: \(entities.keys.sorted())")
                #expect(body.components(separatedBy: dealPrice).count - 1 == 1, "the price \(dealPrice) is in the bytes once")
            }
        }
    }

    @Test("a promotion reads what the layout wrote, in the reader's language; the service supplies no words; the web draws its picture and link")
    func promotionCopy() async throws {
        try await withPromotions(.reliable) { url in
            try await withDemo(promotions: url) { demo, _ async throws in
                var template = try #require(try await demo.layouts.published(route: "shop")).template
                template.sections[0].widgets.append(
                    WidgetInstance(
                        id: "winter", kind: "promoBanner", vertical: "promotions", parameters: ["slot": "top"],
                        content: [
                            "headline": ["en": "Winter recordings", "de": "Winteraufnahmen"],
                            "image": ["url": "/images/composer/bach.svg", "alt": ["en": "Bach", "de": "Bach"]],
                            "link": "screens/composer/bach", "linkTitle": ["en": "Listen", "de": "Anhören"], "tone": "accent",
                        ]))
                try await demo.layouts.saveDraft(template, by: "test")
                _ = try await demo.layouts.publish(route: "shop", by: "test", note: "winter")
                func banner(_ language: String, version: Int, kinds: String?, id: String = "winter") async throws -> JSONValue? {
                    var headers: HTTPFields = [ScreenplayService.platformHeader: "ios", .acceptLanguage: language]
                    if let kinds { headers[ScreenplayService.componentsHeader] = kinds }
                    let response = await demo.service.respond(
                        to: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/api/v\(version)/screens/shop", headerFields: headers),
                        body: [])
                    #expect(response.head.status == .ok)
                    let json = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
                    return json["sections"]?.arrayValue?.flatMap { $0["components"]?.arrayValue ?? [] }.first { $0["id"] == .string(id) }
                }
                let german = try #require(try await banner("de-DE", version: 6, kinds: Self.kinds))
                #expect(german["headline"] == "Winteraufnahmen")
                #expect(german["detail"] == nil, "the layout wrote no body, and the service writes no words")
                #expect(german["linkTitle"] == "Anhören")
                #expect(german["tone"] == "accent")
                #expect(try await banner("en-US", version: 6, kinds: Self.kinds)?["headline"] == "Winter recordings")
                // The seeded promotion's words are the layout's too, in either language.
                let seeded = try #require(try await banner("de-CH", version: 6, kinds: Self.kinds, id: "spring-sale"))
                #expect(seeded["headline"] == "Frühlingsangebot: 20 % auf alle Aufnahmen" && seeded["detail"] == "Bis Sonntag, solange der Vorrat reicht.")
                #expect(try await banner("en", version: 6, kinds: Self.kinds, id: "spring-sale")?["headline"] == "Spring sale: 20% off every recording")
                // Version 1 apps (no ids, no content fields of v6) get the words too.
                let v1 = try await demo.service.respond(
                    to: HTTPRequest(
                        method: .get, scheme: "http", authority: "localhost", path: "/api/v1/screens/shop",
                        headerFields: [ScreenplayService.platformHeader: "ios", .acceptLanguage: "de", ScreenplayService.componentsHeader: Self.kinds]),
                    body: [])
                #expect(String(decoding: v1.body, as: UTF8.self).contains("Frühlingsangebot: 20 % auf alle Aufnahmen"))
                // The web and apps without the kind: a picture with its alt text, the headline in
                // its colour, the detail and a button that opens the screen.
                let drawn = try #require(try await banner("de", version: 6, kinds: nil))
                let text = String(decoding: try JSONEncoder().encode(drawn), as: UTF8.self)
                for part in [#""url":"\/images\/composer\/bach.svg""#, #""alt":"Bach""#, #""text":"Winteraufnahmen""#, #""color":"accent""#, #""title":"Anhören""#, #""url":"screens\/composer\/bach""#] {
                    #expect(text.contains(part), "\(part) in \(text)")
                }
            }
        }
    }

    @Test("a data folder from before the banners' words moved into the layout: they get the words readers saw, published again; with a draft open, in the draft")
    func bannersFromBefore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-banners-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func withoutWords(_ template: PageTemplate, adding extra: Bool = false) -> PageTemplate {
            var template = template
            for section in template.sections.indices {
                for index in template.sections[section].widgets.indices where template.sections[section].widgets[index].kind == "promoBanner" {
                    template.sections[section].widgets[index].content = [:]
                }
            }
            if extra {
                template.sections[0].widgets += [
                    WidgetInstance(id: "winter", kind: "promoBanner", vertical: "promotions"),
                    // When the headline was optional: German words and a link, no English headline.
                    WidgetInstance(
                        id: "autumn", kind: "promoBanner", vertical: "promotions",
                        content: ["headline": ["de": "Herbstaufnahmen"], "link": "screens/shop"]),
                ]
            }
            return template
        }
        func banners(_ template: PageTemplate) -> [String: JSONValue] {
            Dictionary(uniqueKeysWithValues: template.instances.filter { $0.kind == "promoBanner" }.map { ($0.id, $0.content) })
        }
        // The shop as a server from before stored it: no words on its banners (written past
        // today's checks, which require a headline), one banner of the team's own among them.
        var demo = try await DemoApp.open(dataDirectory: folder, promotions: nil)
        let before = LayoutStore(store: demo.store)
        let seeded = try #require(try await demo.layouts.published(route: "shop"))
        _ = try await before.saveDraft(withoutWords(seeded.template, adding: true), by: "an older server")
        let old = try await before.publish(route: "shop", by: "an older server")
        try await demo.close()

        demo = try await DemoApp.open(dataDirectory: folder, promotions: nil)
        let now = try #require(try await demo.layouts.published(route: "shop"))
        #expect(now.revision == old.revision + 1 && now.publishedBy == "demo seed")
        #expect(banners(now.template)["spring-sale"]?["headline"]?["de"] == "Frühlingsangebot: 20 % auf alle Aufnahmen")
        #expect(banners(now.template)["winter"] == ["headline": ["en": "New this week"], "detail": ["en": "Fresh recordings from our labels."]])
        #expect(
            banners(now.template)["autumn"]
                == ["headline": ["de": "Herbstaufnahmen", "en": "New this week"], "detail": ["en": "Fresh recordings from our labels."], "link": "screens/shop"],
            "what the layout wrote stays; the English it lacked is added")
        // Opened again: nothing more to do; and the page saves through today's checks again.
        try await demo.close()
        demo = try await DemoApp.open(dataDirectory: folder, promotions: nil)
        #expect(try await demo.layouts.published(route: "shop")?.revision == now.revision)
        _ = try await demo.layouts.saveDraft(now.template, by: "an editor")

        // A draft from before: it gets the words (and publishes them); the live page waits for it.
        _ = try await LayoutStore(store: demo.store).saveDraft(withoutWords(now.template), by: "an older server")
        try await demo.close()
        demo = try await DemoApp.open(dataDirectory: folder, promotions: nil)
        let draft = try #require(try await demo.layouts.draft(of: "shop"))
        #expect(banners(draft.template)["free-shipping"]?["headline"]?["en"] == "Free shipping on your first order")
        #expect(try await demo.layouts.published(route: "shop")?.revision == now.revision)

        // A page today's checks refuse for another reason too (a kind no longer known): the
        // banners cannot be saved with their words, which is logged; the server still starts.
        var broken = withoutWords(now.template)
        broken.sections[0].widgets.append(WidgetInstance(id: "gone", kind: "noSuchKind", vertical: "promotions"))
        let unchecked = LayoutStore(store: demo.store)
        _ = try await unchecked.discardDraft(of: "shop", by: "an older server")
        _ = try await unchecked.saveDraft(broken, by: "an older server")
        let brokenLive = try await unchecked.publish(route: "shop", by: "an older server")
        try await demo.close()
        demo = try await DemoApp.open(dataDirectory: folder, promotions: nil)
        #expect(try await demo.layouts.published(route: "shop")?.revision == brokenLive.revision, "left as it was")
        #expect(try await demo.layouts.draft(of: "shop") == nil)
        try await demo.close()
    }

    @Test("every screen the content's link picker offers is one the demo serves: its example matches its pattern and answers 200")
    func linkPickerOpensRealScreens() async throws {
        try await withDemo { demo, _ async throws in
            let screens = demo.pages.composer.catalog.content.screens
            #expect(screens.count >= 8)
            for screen in screens {
                let segments = screen.example.dropFirst("screens/".count).split(separator: "/").map(String.init)
                #expect(screen.example.hasPrefix("screens/") && screen.pattern.matches(segments), "\(screen.example)")
                let response = await demo.service.respond(
                    to: HTTPRequest(
                        method: .get, scheme: "http", authority: "localhost", path: "/api/v6/" + screen.example,
                        headerFields: [ScreenplayService.platformHeader: "ios"]),
                    body: [])
                #expect(response.head.status == .ok, "\(screen.title): \(screen.example) answered \(response.head.status)")
            }
        }
    }

    @Test("a failing promotions service costs its widgets only; the page is served and says why")
    func failingVertical() async throws {
        try await withPromotions(.init(delay: .zero...(.zero), failureRate: 1)) { url in
            try await withDemo(promotions: url) { demo, _ async throws in
                let response = await Self.shop(demo)
                #expect(response.head.status == .ok)
                let ids = try Self.ids(response)
                #expect(
                    !ids.contains("spring-sale") && ids.contains("deal-offer")
                        && ids.contains("buy-\(ids.first { $0.hasPrefix("offer-") }?.dropFirst(6) ?? "")"))
                let report = try #require(demo.pages.latestReport(for: "shop")?.report(for: "spring-sale"))
                guard case .omitted(.providerFailed(let message)) = report.outcome else {
                    Issue.record("spring-sale: \(report.outcome)")
                    return
                }
                #expect(message.contains("503"), "\(message)")
            }
        }
    }

    @Test("a slow promotions service is cut at its timeout; the page does not wait for it")
    func slowVertical() async throws {
        try await withPromotions(.init(delay: .seconds(3)...(.seconds(3)), failureRate: 0)) { url in
            try await withDemo(promotions: url, shopTimeouts: .init(promotions: .milliseconds(300), inProcess: .seconds(10))) {
                demo, _ async throws in
                let response = await Self.shop(demo)
                #expect(response.head.status == .ok)
                #expect(try !Self.ids(response).contains("spring-sale"))
                let report = try #require(demo.pages.latestReport(for: "shop")?.report(for: "spring-sale"))
                #expect(report.outcome == .omitted(.timedOut(after: .milliseconds(300))), "\(report.outcome)")
            }
        }
    }

    @Test("no promotions service at all (none configured, or nothing listening): the rest of the shop is served")
    func absentVertical() async throws {
        try await withDemo(promotions: nil) { demo, _ async throws in
            #expect(try Self.ids(await Self.shop(demo)).contains("deal-offer"))
        }
        try await withDemo(promotions: "http://127.0.0.1:9/widgets") { demo, _ async throws in
            #expect(try Self.ids(await Self.shop(demo)).contains("deal-offer"))
            #expect(demo.pages.latestReport(for: "shop")?.isDegraded == true)
        }
    }

    @Test("apps without the shop's kinds, and the web pages, get every widget's fallback")
    func fallbacks() async throws {
        try await withPromotions(.reliable) { url in
            try await withDemo(promotions: url) { demo, _ async throws in
                let response = await Self.shop(demo, kinds: nil)
                let screen = try ScreenplayDecoder(mode: .strict, apiVersion: .v4).decode(Screen.self, from: Data(response.body)).value
                let buttons = screen.allComponents.compactMap { if case .button(let button) = $0.content { button.title } else { nil } }
                #expect(buttons.count == 5 && buttons.allSatisfy { $0.hasPrefix("Buy the recording · €") }, "\(buttons)")
                let user = UserIdentity.anonymous
                let page = try await demo.service.encodedScreen(path: "shop", apiVersion: .latest, user: user, platform: .web)
                #expect(String(decoding: page.bytes, as: UTF8.self).contains("Spring sale"))
            }
        }
    }

    @Test("publishing, rolling back and the kill switch show on the next request")
    func layoutChanges() async throws {
        try await withDemo { demo, _ async throws in
            #expect(try Self.ids(await Self.shop(demo)).contains("deal-price"))
            _ = try await demo.layouts.setEnabled(false, instance: "deal-price", route: "shop", by: "oncall")
            #expect(try !Self.ids(await Self.shop(demo)).contains("deal-price"))
            var template = try #require(try await demo.layouts.published(route: "shop")).template
            template.sections.removeAll { $0.id == "featured" }
            try await demo.layouts.saveDraft(template, by: "ada")
            _ = try await demo.layouts.publish(route: "shop", by: "ada")
            #expect(try !Self.ids(await Self.shop(demo)).contains { $0.hasPrefix("offer-") })
            _ = try await demo.layouts.rollback(route: "shop", to: 1, by: "ada")
            let ids = try Self.ids(await Self.shop(demo))
            #expect(ids.contains("deal-price") && ids.contains { $0.hasPrefix("offer-") })
            #expect(try await demo.layouts.history(of: "shop").map(\.revision) == [4, 3, 2, 1])
        }
    }

    @Test("the home experiment: each user's variant is stable, shows or hides the teaser, and is counted once")
    func homeExperiment() async throws {
        try await withDemo { demo, _ async throws in
            var seen: [String: Int] = [:]
            for _ in 0..<12 {
                let identity = try await demo.service.resolveIdentity(token: nil, creating: true)
                let variant = try #require(ShopPageProbe.variant(of: identity.user))
                seen[variant, default: 0] += 1
                for _ in 0..<2 {
                    let home = try await demo.service.encodedScreen(path: "home", apiVersion: .v4, user: identity.user)
                    let screen = try ScreenplayDecoder(apiVersion: .v4).decode(Screen.self, from: Data(home.bytes)).value
                    #expect(screen.sections.contains { $0.id == "shop-teaser" } == (variant == "teaser"), "user \(identity.user.id)")
                }
            }
            #expect(seen.count == 2, "12 users land in both variants: \(seen)")
            let report = try await demo.experiments.report(for: "home-shop-teaser")
            #expect(report.exposures == seen, "one exposure per user, whatever the number of visits")
        }
    }
}

/// The home experiment's bucketing, as the demo seeds it.
enum ShopPageProbe {
    static func variant(of user: UserIdentity) -> String? {
        Experiment(key: "home-shop-teaser", variants: [.init("control", weight: 1), .init("teaser", weight: 1)])
            .variant(for: String(user.id), segments: [], at: Date())
    }
}

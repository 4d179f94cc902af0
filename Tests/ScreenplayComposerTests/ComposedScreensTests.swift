import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayTestSupport
import Synchronization
import Testing

@testable import ScreenplayServer

/// Templates that tests can change between requests (as a publish would).
final class MutableTemplates: PageTemplateSource {
    private let state: Mutex<(templates: [String: PageTemplate], experiments: ExperimentCatalog)>

    init(_ templates: [PageTemplate], experiments: ExperimentCatalog = .init()) {
        state = Mutex((Dictionary(uniqueKeysWithValues: templates.map { ($0.route, $0) }), experiments))
    }

    func publish(_ template: PageTemplate) { state.withLock { $0.templates[template.route] = template } }

    func liveTemplate(for route: String) async throws -> PageTemplate? { state.withLock { $0.templates[route] } }
    func experiments() async throws -> ExperimentCatalog { state.withLock { $0.experiments } }
}

/// A widget kind whose data is the same for everyone.
private let sharedBanner = try! WidgetContract(
    type: "sharedBanner", summary: "A headline for everyone.", versioning: KindVersioning(introduced: .v1, fallback: "a text"),
    fields: [.required("headline", .string)], fallback: { json in [.text(.init(json["headline"]?.stringValue ?? ""))] },
    sharing: .everyone)

@Suite("Composed pages served as screens")
struct ComposedScreensTests {
    struct Setup {
        let service: ScreenplayService
        let templates: MutableTemplates
        let calls: Counter
        let recorder: InMemoryExposureRecorder
    }

    /// A service whose code defines `home`, serving `templates` through providers for `shop`
    /// (products, per user), `promo` (shared banners) and `down` (always failing).
    static func setup(
        _ templates: [PageTemplate], experiments: ExperimentCatalog = .init(), configuration: ComposedScreens.Configuration = .init(),
        bus: InProcessInvalidationBus? = nil
    ) -> Setup {
        let calls = Counter()
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(calls: calls) { instance in Fragments.product("P-\(instance.id)") },
            "promo": ScriptedProvider(calls: calls) { instance in
                .bytes(Array(#"{"type":"sharedBanner","headline":"Sale \#(instance.id)"}"#.utf8))
            },
            "down": FailingProvider(),
        ]
        let recorder = InMemoryExposureRecorder()
        let composer = Composer(
            catalog: try! WidgetCatalog([Widgets.productCard, Widgets.reviewSummary, Widgets.banner, sharedBanner]), providers: providers,
            exposureRecorder: recorder)
        let source = MutableTemplates(templates, experiments: experiments)
        var routes = ScreenplayRoutes()
        routes.screen("home", revision: { _ in "1" }, sharing: .everyone) { _ in
            Screen(id: "home", title: "Coded home") { Section("s") { Text("code") } }
        }
        let service = ScreenplayService(
            routes: routes, identity: CountingIdentities(),
            pages: ComposedScreens(composer: composer, templates: source, configuration: configuration), invalidations: bus)
        return Setup(service: service, templates: source, calls: calls, recorder: recorder)
    }

    static let allKinds = "productCard, reviewSummary, banner, sharedBanner"

    static func get(
        _ setup: Setup, _ path: String, version: Int = 4, user: Int? = 1, platform: String? = "ios", kinds: String? = allKinds,
        extra: HTTPFields = [:]
    ) async -> ScreenplayService.Response {
        var headers = extra
        if let user { headers[.authorization] = "Bearer token-\(user)" }
        if let platform { headers[ScreenplayService.platformHeader] = platform }
        if let kinds { headers[ScreenplayService.componentsHeader] = kinds }
        return await setup.service.respond(to: request(.get, "/api/v\(version)/screens/\(path)", headers: headers), body: [])
    }

    static func screen(
        _ response: ScreenplayService.Response, version: APIVersion = .v4,
        kinds: Set<String> = ["productCard", "reviewSummary", "banner", "sharedBanner"]
    ) throws -> Screen {
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: version, customKinds: kinds).decode(
            Screen.self, from: Data(response.body))
        #expect(decoded.issues.isEmpty, "\(decoded.issues)")
        return decoded.value
    }

    static let shop = PageTemplate(
        route: "shop", title: "Shop", revision: 1,
        sections: [
            .init(id: "main", widgets: [widget("p1", "productCard", vertical: "shop"), widget("b1", "sharedBanner", vertical: "promo")])
        ])

    @Test("a published template is a screen: 200 with an ETag, strictly decodable, then a 304 and no second composition")
    func servedAndRevalidated() async throws {
        let setup = Self.setup([Self.shop])
        let first = await Self.get(setup, "shop")
        #expect(first.head.status == .ok)
        let screen = try Self.screen(first)
        #expect(screen.id == "shop" && screen.title == "Shop")
        #expect(screen.allComponents.compactMap(\.id).contains("p1"))
        let etag = try #require(first.head.headerFields[.eTag])
        #expect(first.head.headerFields[.vary]?.contains("Screenplay-Platform") == true)
        #expect(setup.calls.count == 2, "one call per vertical")

        let again = await Self.get(setup, "shop", extra: [.ifNoneMatch: etag])
        #expect(again.head.status == .notModified)
        #expect(again.body.isEmpty)
        #expect(setup.calls.count == 2, "answered from the cache")
        #expect((setup.service.pages as? ComposedScreens)?.latestReport(for: "shop")?.report(for: "p1")?.outcome == .shown)
    }

    @Test("no template: a JSON 404; a coded route wins over a template at the same path")
    func routing() async throws {
        let setup = Self.setup([Self.shop, PageTemplate(route: "home", title: "Template home", revision: 1, sections: [])])
        let missing = await Self.get(setup, "nowhere")
        #expect(missing.head.status == .notFound)
        #expect(try decodeError(missing).error.path == "screens/nowhere")
        let home = try Self.screen(await Self.get(setup, "home"))
        #expect(home.title == "Coded home")
    }

    @Test("per-user widgets are composed per user; a page of shared widgets once for everyone")
    func sharing() async throws {
        let perUser = Self.setup([Self.shop])
        _ = await Self.get(perUser, "shop", user: 1)
        _ = await Self.get(perUser, "shop", user: 2)
        #expect(perUser.calls.count == 4, "productCard is per user by default: each user composes")

        let shared = Self.setup([
            PageTemplate(
                route: "sale", title: "Sale", revision: 1,
                sections: [.init(id: "m", widgets: [widget("b1", "sharedBanner", vertical: "promo")])])
        ])
        _ = await Self.get(shared, "sale", user: 1)
        _ = await Self.get(shared, "sale", user: 2)
        _ = await Self.get(shared, "sale", user: nil)
        #expect(shared.calls.count == 1, "shared widgets: one composition for every user")
    }

    @Test("a publish (a new revision) is served on the next request")
    func newRevision() async throws {
        let setup = Self.setup([Self.shop])
        #expect(try Self.screen(await Self.get(setup, "shop")).title == "Shop")
        var next = Self.shop
        next.revision = 2
        next.title = "Shop, rearranged"
        setup.templates.publish(next)
        #expect(try Self.screen(await Self.get(setup, "shop")).title == "Shop, rearranged")
    }

    @Test("entries expire after the freshness; a degraded page after the shorter degraded freshness")
    func freshness() async throws {
        // A second apart: two requests in a row land well inside it, even on a loaded machine.
        let fresh = Self.setup([Self.shop], configuration: .init(freshness: .seconds(1), staleWhileRecomposing: .zero))
        _ = await Self.get(fresh, "shop")
        _ = await Self.get(fresh, "shop")
        #expect(fresh.calls.count == 2)
        try await Task.sleep(for: .milliseconds(1_300))
        _ = await Self.get(fresh, "shop")
        #expect(fresh.calls.count == 4, "expired: composed again")

        var degradedTemplate = Self.shop
        degradedTemplate.sections[0].widgets.append(widget("r1", "reviewSummary", vertical: "down"))
        let degraded = Self.setup(
            [degradedTemplate], configuration: .init(freshness: .seconds(600), degradedFreshness: .seconds(1), staleWhileRecomposing: .zero)
        )
        let page = try Self.screen(await Self.get(degraded, "shop"))
        #expect(page.allComponents.contains { $0.id == "p1" }, "the failing vertical costs only its widget")
        #expect((degraded.service.pages as? ComposedScreens)?.latestReport(for: "shop")?.isDegraded == true)
        _ = await Self.get(degraded, "shop")
        #expect(degraded.calls.count == 2)
        try await Task.sleep(for: .milliseconds(1_300))
        _ = await Self.get(degraded, "shop")
        #expect(degraded.calls.count == 4, "a degraded page is recomposed soon, though the freshness is ten minutes")
    }

    @Test("a page is remembered until its providers' data goes stale, a window opens or closes, or an experiment starts or stops")
    func rememberedUntilItsNextChange() async throws {
        let now = Date()
        func until(
            _ template: PageTemplate, experiments: ExperimentCatalog = .init(), user: UserIdentity = UserIdentity(id: 1),
            segmentsAnnounced: Bool = true
        ) async throws -> PageAnswer.Remembered? {
            let setup = Self.setup(
                [template], experiments: experiments,
                configuration: .init(freshness: .seconds(3_600), segmentsChangeWithUserWrites: segmentsAnnounced))
            let pages = try #require(setup.service.pages as? ComposedScreens)
            let request = PageRequest(
                route: "shop", user: user, apiVersion: .v4, clientKinds: ["productCard", "sharedBanner", "reviewSummary"], platform: .iOS)
            return try #require(try await pages.answer(for: request)).remembered
        }
        let plain = try #require(try await until(Self.shop))
        let asked = Date()
        #expect(plain.until >= now + 3_599 && plain.until <= asked + 3_601, "the freshness: \(plain.until.timeIntervalSince(now)) s")
        #expect(plain.owner == UserIdentity(id: 1), "a signed-in user's page: their writes make it stale")
        #expect(try await until(Self.shop, user: .anonymous)?.owner == nil)
        // Segments the bus does not announce: only anonymous pages are remembered.
        #expect(try await until(Self.shop, segmentsAnnounced: false) == nil)
        #expect(try await until(Self.shop, user: .anonymous, segmentsAnnounced: false) != nil)

        var windowed = Self.shop
        let closes = now + 600
        windowed.sections[0].widgets.append(widget("w1", "sharedBanner", vertical: "promo", conditions: .init(window: .init(end: closes))))
        windowed.sections[0].widgets.append(
            widget("w2", "sharedBanner", vertical: "promo", conditions: .init(window: .init(start: now - 60, end: now - 30))))
        #expect(try await until(windowed)?.until == closes, "the window closing; a window over is no change ahead")

        let starts = now + 900
        let experiment = Experiment(key: "later", variants: [.init("a", weight: 1)], start: starts)
        #expect(try await until(Self.shop, experiments: ExperimentCatalog([experiment]))?.until == starts)

        var degraded = Self.shop
        degraded.sections[0].widgets.append(widget("r1", "reviewSummary", vertical: "down"))
        let soon = try #require(try await until(degraded))
        #expect(soon.until.timeIntervalSince(Date()) < 2, "a degraded page: the degraded freshness (1 s)")
    }

    @Test("a repeated request for a page is answered from memory; a publish is seen at once")
    func answeredFromMemory() async throws {
        let bus = InProcessInvalidationBus()
        let setup = Self.setup([Self.shop], configuration: .init(freshness: .seconds(60), segmentsChangeWithUserWrites: true), bus: bus)
        let memory = try #require(setup.service.revalidations)
        let first = await Self.get(setup, "shop")
        #expect(first.head.status == .ok)
        let headers: HTTPFields = [
            .authorization: "Bearer token-1", ScreenplayService.platformHeader: "ios", ScreenplayService.componentsHeader: Self.allKinds,
        ]
        let remembered = request(.get, "/api/v4/screens/shop", headers: headers)
        #expect(memory.answer(remembered) == .ok(first.head.headerFields, body: first.body))
        var android = remembered
        android.headerFields[ScreenplayService.platformHeader] = "android"
        #expect(memory.answer(android) == nil, "another platform is another page")
        var republished = Self.shop
        republished.revision = 2
        setup.templates.publish(republished)
        await bus.publish(.pagePublished(route: "shop"))
        #expect(memory.answer(remembered) == nil)
    }

    @Test("an expired page is answered at once while it is recomposed in the background; a new revision never is")
    func staleWhileRecomposing() async throws {
        // The provider answers its first call at once, and later ones only when the gate opens.
        let gate = StubbornProvider()
        let calls = Counter()
        let provider = ClosureWidgetProvider { request in
            calls.increment()
            if calls.count > 1 { _ = try await gate.fragments(for: request) }
            return WidgetResponse(fragments: [
                "b1": .bytes(Array(#"{"type":"sharedBanner","headline":"Sale \#(calls.count)"}"#.utf8))
            ])
        }
        let composer = Composer(
            catalog: try WidgetCatalog([sharedBanner]), providers: ["promo": provider], configuration: .init(defaultTimeout: .seconds(30)))
        let template = PageTemplate(
            route: "sale", title: "Sale", revision: 1,
            sections: [.init(id: "m", widgets: [widget("b1", "sharedBanner", vertical: "promo")])])
        let source = MutableTemplates([template])
        let service = ScreenplayService(
            routes: ScreenplayRoutes(), identity: CountingIdentities(),
            pages: ComposedScreens(
                composer: composer, templates: source,
                configuration: .init(freshness: .milliseconds(200), staleWhileRecomposing: .seconds(60))))
        let setup = Setup(service: service, templates: source, calls: calls, recorder: InMemoryExposureRecorder())
        func headline() async throws -> String {
            let screen = try Self.screen(await Self.get(setup, "sale"))
            for component in screen.allComponents {
                if case .unknown(let custom) = component.content, let text = custom.json["headline"]?.stringValue { return text }
            }
            return "?"
        }
        #expect(try await headline() == "Sale 1")
        try await Task.sleep(for: .milliseconds(400))
        // Expired, and the provider now hangs: the stale page comes back without waiting for it.
        #expect(try await headline() == "Sale 1")
        for _ in 0..<250 where calls.count < 2 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(calls.count == 2, "one recomposition started in the background")
        #expect(try await headline() == "Sale 1", "still stale while that recomposition runs")
        #expect(calls.count == 2, "and no second one")
        gate.release()
        var fresh = "Sale 1"
        for _ in 0..<100 where fresh == "Sale 1" {
            try await Task.sleep(for: .milliseconds(20))
            fresh = try await headline()
        }
        #expect(fresh == "Sale 2", "the recomposed page replaces the stale one")
        #expect((service.pages as? ComposedScreens)?.cacheStatistics.staleHits ?? 0 >= 2)

        // A publish is never answered from the old revision's page.
        var next = template
        next.revision = 2
        next.title = "Sale, rearranged"
        source.publish(next)
        let screen = try Self.screen(await Self.get(setup, "sale"))
        #expect(screen.title == "Sale, rearranged")
    }

    @Test("old clients and apps without the kinds get fallbacks; each shape is cached apart")
    func downgrade() async throws {
        let setup = Self.setup([Self.shop])
        let v1 = try Self.screen(await Self.get(setup, "shop", version: 1), version: .v1)
        #expect(v1.allComponents.contains { if case .listRow(let row) = $0.content { row.title == "P-p1" } else { false } })
        let noKinds = try Self.screen(await Self.get(setup, "shop", kinds: nil), kinds: [])
        #expect(noKinds.allComponents.contains { if case .text(let text) = $0.content { text.text == "Sale b1" } else { false } })
        let full = try Self.screen(await Self.get(setup, "shop"))
        #expect(full.allComponents.contains { if case .unknown(let custom) = $0.content { custom.type == "productCard" } else { false } })
        #expect(setup.calls.count == 6, "three shapes, two verticals each")
    }

    @Test("platform and locale conditions follow the request headers")
    func platformAndLocale() async throws {
        let setup = Self.setup([
            PageTemplate(
                route: "shop", title: "Shop", revision: 1,
                sections: [
                    .init(
                        id: "m",
                        widgets: [
                            widget("android-only", "sharedBanner", vertical: "promo", conditions: .init(platforms: [.android])),
                            widget("german", "sharedBanner", vertical: "promo", conditions: .init(locales: ["de"])),
                        ])
                ])
        ])
        func ids(_ response: ScreenplayService.Response) throws -> Set<String> {
            Set(try Self.screen(response).allComponents.compactMap(\.id))
        }
        let android = try ids(await Self.get(setup, "shop", platform: "android"))
        #expect(android.contains("android-only") && !android.contains("german"))
        let iosGerman = try ids(await Self.get(setup, "shop", platform: "ios", extra: [.acceptLanguage: "de-CH, en;q=0.5"]))
        #expect(!iosGerman.contains("android-only") && iosGerman.contains("german"))
        let unknown = try ids(await Self.get(setup, "shop", platform: nil))
        #expect(!unknown.contains("android-only"))
    }

    @Test("a user's first exposure is recorded even when the page came from the cache another user warmed")
    func exposuresOnHits() async throws {
        let experiment = Experiment(key: "sale", variants: [.init("on", weight: 1)])
        let setup = Self.setup(
            [
                PageTemplate(
                    route: "sale", title: "Sale", revision: 1,
                    sections: [
                        .init(
                            id: "m",
                            widgets: [
                                widget("b1", "sharedBanner", vertical: "promo", conditions: .init(experiment: .init("sale", is: "on")))
                            ])
                    ])
            ], experiments: ExperimentCatalog([experiment]))
        for user in 1...5 { _ = await Self.get(setup, "sale", user: user) }
        #expect(setup.calls.count == 1, "one composition shared by all five")
        #expect(setup.recorder.exposureCounts(for: "sale") == ["on": 5])
    }
}

import Foundation
import Logging
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

private func composer(
    _ providers: [String: any WidgetProvider], logs: CapturedLogs = CapturedLogs(), configuration: Composer.Configuration = relaxed,
    recorder: (any ExposureRecorder)? = nil
) -> Composer {
    Composer(catalog: Widgets.catalog, providers: providers, configuration: configuration, exposureRecorder: recorder, logger: logs.logger)
}

/// Tests that are not about timeouts give providers 10 s: the suite runs beside others that may
/// keep the machine's two cores busy for seconds, and a healthy widget must not time out then.
private let relaxed = Composer.Configuration(defaultTimeout: .seconds(10))

/// The standard healthy page: a banner (marketing, bytes with spaces), two product cards (shop,
/// bytes), a review summary (reviews, a JSON value).
private let healthyProviders: [String: any WidgetProvider] = [
    "marketing": ScriptedProvider { _ in Fragments.banner("Spring sale") },
    "shop": ScriptedProvider { instance in Fragments.product(instance.parameters["productID"]?.stringValue ?? "?") },
    "reviews": ScriptedProvider { _ in Fragments.review() },
]

private let healthyPage = template([
    .init(id: "top", widgets: [widget("hero", "banner", vertical: "marketing")]),
    .init(
        id: "products", title: "Products",
        widgets: [
            widget("tea", "productCard", vertical: "shop", parameters: ["productID": "Tea"]),
            widget("cup", "productCard", vertical: "shop", parameters: ["productID": "Cup"]),
            widget("reviews", "reviewSummary", vertical: "reviews"),
        ]),
])

/// The provider's fragment as a client of `version` that renders its kind decodes it, with the id
/// the composer gives it (v4).
private func expectedComponent(_ fragment: WidgetFragment, id: String, version: APIVersion) throws -> Component {
    let bytes: [UInt8]
    switch fragment {
    case .bytes(let raw): bytes = raw
    case .json(let value): bytes = Array(try ScreenplayEncoder().encode(value))
    }
    var component = try ScreenplayDecoder(mode: .strict, apiVersion: version, customKinds: Widgets.allKinds).decode(
        Component.self, from: Data(bytes)
    ).value
    guard version >= .v4, case .unknown(var unknown) = component.content, case .object(var members) = unknown.json else { return component }
    members["id"] = .string(id)
    unknown.json = .object(members)
    component.content = .unknown(unknown)
    component.id = id
    return component
}

@Suite("Composer: composition")
struct ComposerTests {
    // MARK: Splice

    @Test(
        "the composed page decodes strictly at every version, and each widget equals the decode of its provider's JSON",
        arguments: (APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue).map { APIVersion($0) })
    func spliceCorrectness(version: APIVersion) async throws {
        let page = await composer(healthyProviders).compose(template: healthyPage, context: context(version: version))
        let decoded = try decodeStrictly(page)
        #expect(decoded.issues.isEmpty, "\(decoded.issues)")
        let screen = decoded.value
        #expect(screen.id == "shop" && screen.title == "Shop")
        #expect(screen.sections.map(\.id) == ["top", "products"])
        #expect(screen.sections[1].header?.title == "Products")
        let components = screen.sections.flatMap(\.components)
        #expect(components.count == 4)
        #expect(components[0] == (try expectedComponent(Fragments.banner("Spring sale"), id: "hero", version: version)))
        #expect(components[3] == (try expectedComponent(Fragments.review(), id: "reviews", version: version)))
        if version >= .v2 {
            #expect(components[1] == (try expectedComponent(Fragments.product("Tea"), id: "tea", version: version)))
            #expect(components[2] == (try expectedComponent(Fragments.product("Cup"), id: "cup", version: version)))
            #expect(page.widgets.map(\.outcome) == [.shown, .shown, .shown, .shown])
        } else {
            // productCard needs v2: v1 clients get the contract's fallback, encoded normally.
            #expect(components[1] == .listRow(.init(title: "Tea", subtitle: "€12")))
            #expect(page.report(for: "tea")?.outcome == .fallback(.kindNotRendered))
        }
        if version >= .v4 { #expect(components.map(\.id) == ["hero", "tea", "cup", "reviews"]) }
    }

    @Test("the provider's bytes reach the client as they arrived, with only the id inserted (v4)")
    func bytesAreSpliced() async throws {
        let v4 = await composer(healthyProviders).compose(template: healthyPage, context: context(version: .v4))
        let text = String(decoding: v4.bytes, as: UTF8.self)
        // The spaces after the colons prove the banner was not decoded and re-encoded.
        #expect(text.contains(#"{"id":"hero","type": "banner", "headline": "Spring sale"}"#))
        #expect(text.contains(#"{"id":"tea","type":"productCard","title":"Tea","price":"€12","discount":false}"#))
        let v3 = await composer(healthyProviders).compose(template: healthyPage, context: context(version: .v3))
        #expect(String(decoding: v3.bytes, as: UTF8.self).contains(#"{"type": "banner", "headline": "Spring sale"}"#), "no id before v4")
    }

    @Test("clients that do not render a kind get its fallback; a kind without one is left out")
    func fallbacksForClients() async throws {
        let page = await composer(healthyProviders).compose(template: healthyPage, context: context(kinds: ["reviewSummary"]))
        let screen = try decodeStrictly(page, kinds: ["reviewSummary"]).value
        let components = screen.sections.flatMap(\.components)
        #expect(components.map(\.kind.rawValue) == ["text", "listRow", "listRow", "reviewSummary"])
        #expect(components[0] == Component.text(.init("Spring sale")).id("hero"))
        #expect(components.map(\.id) == ["hero", "tea", "cup", "reviews"], "a fallback takes its widget's id")
        #expect(
            page.widgets.map(\.outcome) == [.fallback(.kindNotRendered), .fallback(.kindNotRendered), .fallback(.kindNotRendered), .shown])

        let none = await composer(healthyProviders).compose(template: healthyPage, context: context(kinds: []))
        #expect(try decodeStrictly(none, kinds: []).issues.isEmpty)
        #expect(none.report(for: "reviews")?.outcome == .omitted(.noFallbackForClient))
    }

    @Test("a fallback of several components: the first takes the widget's id, the rest get derived unique ids")
    func multiComponentFallback() async throws {
        let stacked = try WidgetContract(
            type: "stackCard", summary: "", versioning: .init(introduced: .v1, fallback: "a stack and a text"),
            fields: [.required("title", .string)],
            fallback: { json in
                [
                    .verticalStack(.init(children: [.text(.init(json["title"]?.stringValue ?? "")), .spacer(.init(length: 4))])),
                    .text(.init("more")).id("tea"),  // an author id that would collide is replaced
                ]
            })
        let catalog = try WidgetCatalog([stacked, Widgets.productCard])
        let composer = Composer(
            catalog: catalog,
            providers: [
                "x": ScriptedProvider { _ in .json(["type": "stackCard", "title": "Hello"]) },
                "shop": ScriptedProvider { _ in Fragments.product("Tea") },
            ], logger: CapturedLogs().logger)
        let page = await composer.compose(
            template: template([
                .init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop"), widget("stack", "stackCard", vertical: "x")])
            ]), context: context(kinds: ["productCard"]))
        let screen = try decodeStrictly(page, kinds: ["productCard"]).value
        #expect(screen.duplicateComponentID == nil)
        #expect(screen.allComponents.compactMap(\.id).count == screen.allComponents.count)
        #expect(screen.allComponents.map(\.id).prefix(2) == ["tea", "stack"])
        #expect(page.report(for: "stack")?.bytes ?? 0 > 0)
    }

    // MARK: Failures cost only their own widgets

    @Test(
        "slow, failing, stubborn, malformed, contract-breaking and forgetful providers cost only their own widgets, each logged",
        .timeLimit(.minutes(1)))
    func failuresAreContained() async throws {
        let logs = CapturedLogs()
        let stubborn = StubbornProvider()
        defer { stubborn.release() }
        let providers: [String: any WidgetProvider] = [
            "marketing": ScriptedProvider { _ in Fragments.banner("Spring sale") },
            "slow": ScriptedProvider(delay: .seconds(60)) { _ in Fragments.banner("late") },
            "broken": FailingProvider(),
            "stubborn": stubborn,
            "garbled": ScriptedProvider { _ in .bytes(Array(#"{"type": "banner",\#n "headline": "x",}"#.utf8)) },
            "sloppy": ScriptedProvider { _ in .json(["type": "banner", "headline": 42]) },
            "forgetful": ScriptedProvider { instance in instance.id == "forgotten" ? nil : Fragments.banner("kept") },
            "reviews": FailingProvider(),
        ]
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("ok", "banner", vertical: "marketing"),
                    widget("slow", "banner", vertical: "slow"),
                    widget("broken", "banner", vertical: "broken"),
                    widget("stubborn", "banner", vertical: "stubborn"),
                    widget("garbled", "banner", vertical: "garbled"),
                    widget("sloppy", "banner", vertical: "sloppy"),
                    widget("remembered", "banner", vertical: "forgetful"),
                    widget("forgotten", "banner", vertical: "forgetful"),
                    widget("reviews", "reviewSummary", vertical: "reviews"),
                ])
        ])
        let configuration = Composer.Configuration(
            defaultTimeout: .seconds(10), verticalTimeouts: ["slow": .milliseconds(200), "stubborn": .milliseconds(200)])
        let started = ContinuousClock.now
        let composed = await composer(providers, logs: logs, configuration: configuration).compose(template: page, context: context())
        let elapsed = ContinuousClock.now - started
        // The stubborn provider ignores cancellation and has still not answered: the page did not wait for it.
        #expect(stubborn.heldCalls == 1)
        // Loose: 200 ms timeouts; a page held by the 60 s provider would take a minute.
        #expect(elapsed < .seconds(30), "\(elapsed)")

        let screen = try decodeStrictly(composed).value
        #expect(screen.allComponents.map(\.id) == ["ok", "remembered", "reviews"])
        #expect(screen.allComponents.last == Component.text(.init("Reviews are unavailable right now")).id("reviews"))

        let outcomes = Dictionary(uniqueKeysWithValues: composed.widgets.map { ($0.instanceID, $0.outcome) })
        #expect(outcomes["ok"] == .shown)
        #expect(outcomes["remembered"] == .shown)
        #expect(outcomes["slow"] == .omitted(.timedOut(after: .milliseconds(200))))
        #expect(outcomes["stubborn"] == .omitted(.timedOut(after: .milliseconds(200))))
        #expect(outcomes["broken"] == .omitted(.providerFailed("connection refused by inventory-db")))
        #expect(outcomes["forgotten"] == .omitted(.missingFromResponse))
        #expect(outcomes["reviews"] == .fallback(.unavailable(.providerFailed("connection refused by inventory-db"))))
        guard case .omitted(.malformedJSON(let syntax)) = outcomes["garbled"] else {
            Issue.record("garbled: \(String(describing: outcomes["garbled"]))")
            return
        }
        #expect(syntax.hasPrefix("line 2, column 18"), "\(syntax)")
        guard case .omitted(.contractViolation(let problems)) = outcomes["sloppy"] else {
            Issue.record("sloppy: \(String(describing: outcomes["sloppy"]))")
            return
        }
        #expect(problems.map(\.path) == ["$.headline"])

        // Each failure is logged with the instance id, its vertical and the reason.
        for (id, vertical, reason) in [
            ("slow", "slow", "timed out"), ("stubborn", "stubborn", "timed out"), ("broken", "broken", "inventory-db"),
            ("garbled", "garbled", "line 2, column 18"), ("sloppy", "sloppy", "$.headline"), ("forgotten", "forgetful", "left it out"),
            ("reviews", "reviews", "inventory-db"),
        ] {
            let records = logs.warnings(about: id)
            #expect(records.count == 1, "\(id): \(logs.all)")
            #expect(records.first?.metadata["vertical"] == vertical)
            #expect(records.first?.metadata["reason"]?.contains(reason) == true, "\(id): \(String(describing: records.first))")
        }
        #expect(logs.warnings(about: "ok").isEmpty && logs.warnings(about: "remembered").isEmpty)
    }

    @Test("answers for instances nobody asked about are ignored and logged; each instance takes only its own provider's answer")
    func strayAnswers() async throws {
        let logs = CapturedLogs()
        let providers: [String: any WidgetProvider] = [
            // Answers for its own widget and also, wrongly, for the shop's.
            "marketing": ClosureWidgetProvider { _ in
                WidgetResponse(fragments: [
                    "hero": Fragments.banner("Hello"), "tea": Fragments.product("Impostor"), "ghost": Fragments.banner("?"),
                ])
            },
            "shop": ScriptedProvider { _ in Fragments.product("Tea") },
        ]
        let page = await composer(providers, logs: logs).compose(
            template: template([
                .init(id: "s", widgets: [widget("hero", "banner", vertical: "marketing"), widget("tea", "productCard", vertical: "shop")])
            ]), context: context())
        let screen = try decodeStrictly(page).value
        #expect(screen.allComponents.count == 2)
        #expect(screen.allComponents[1] == (try expectedComponent(Fragments.product("Tea"), id: "tea", version: .latest)))
        #expect(page.problems.count == 2)
        #expect(page.problems.allSatisfy { $0.contains("not asked") })
        #expect(logs.all.filter { $0.message.contains("not asked") }.compactMap { $0.metadata["widget"] }.sorted() == ["ghost", "tea"])
    }

    @Test(
        "hostile or broken fragments are refused before they reach the page",
        arguments: [
            (#"["type", "banner"]"#, "not an object"),
            (#"{"type": "banner", "headline": "\ud800"}"#, "lone surrogate"),
            (#"{"type": "banner", "headline": "x", "object": {"n": 1e400}}"#, "number out of range"),
            (#"{"type": "banner", "headline": "x", "id": "someone-else"}"#, "foreign id"),
            (#"{"type": "banner", "headline": "x", "bind": {"headline": "nope"}}"#, "malformed binding"),
            (#"{"type": "banner", "headline": "x", "accessibility": {"headingLevel": 9}}"#, "bad attribute"),
            (#"{"type": "productCard", "title": "x", "price": "y", "discount": true}"#, "another kind"),
            (#"{"type": "text", "text": "x"}"#, "a built-in kind"),
            (String(repeating: #"{"a":"#, count: 80) + "1" + String(repeating: "}", count: 80), "too deep"),
            (#"{"type": "banner", "headline": "\#(String(repeating: "x", count: 300_000))"}"#, "too large"),
            ("", "empty"),
        ])
    func hostileFragments(json: String, what: String) async throws {
        let logs = CapturedLogs()
        let providers: [String: any WidgetProvider] = [
            "evil": ScriptedProvider { _ in .bytes(Array(json.utf8)) },
            "marketing": ScriptedProvider { _ in Fragments.banner("fine") },
        ]
        let page = await composer(providers, logs: logs).compose(
            template: template([
                .init(id: "s", widgets: [widget("bad", "banner", vertical: "evil"), widget("good", "banner", vertical: "marketing")])
            ]), context: context())
        #expect(try decodeStrictly(page).issues.isEmpty)
        #expect(page.report(for: "good")?.outcome == .shown)
        #expect(page.report(for: "bad")?.outcome.isShown == false, "\(what)")
        #expect(logs.warnings(about: "bad").count == 1, "\(what)")
    }

    @Test("invalid UTF-8 is refused as malformed")
    func invalidUTF8() async throws {
        let providers: [String: any WidgetProvider] = [
            "evil": ScriptedProvider { _ in .bytes(Array(#"{"type": "banner", "headline": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)) }
        ]
        let page = await composer(providers).compose(
            template: template([.init(id: "s", widgets: [widget("bad", "banner", vertical: "evil")])]), context: context())
        #expect(page.report(for: "bad")?.outcome == .omitted(.malformedJSON("not valid UTF-8")))
        #expect(try decodeStrictly(page).issues.isEmpty)
    }

    @Test("a widget with only warnings is shown, its warnings reported")
    func warningsDoNotOmit() async throws {
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider { _ in Fragments.product("Tea", extra: #","badge":"New","colour":"red""#) }
        ]
        let page = await composer(providers).compose(
            template: template([.init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop")])]), context: context())
        let report = try #require(page.report(for: "tea"))
        #expect(report.outcome == .shown)
        #expect(report.warnings.map(\.kind) == [.deprecatedField, .unknownField])
    }

    // MARK: Concurrency and timeouts

    @Test("30 widgets from 5 providers of 100 ms each compose in well under the sum of their latencies")
    func concurrency() async throws {
        let gauge = InFlightGauge()
        let verticals = (0..<5).map { "v\($0)" }
        var providers: [String: any WidgetProvider] = [:]
        for vertical in verticals {
            providers[vertical] = ClosureWidgetProvider { request in
                gauge.enter()
                defer { gauge.leave() }
                try await Task.sleep(for: .milliseconds(100))
                return WidgetResponse(
                    fragments: Dictionary(uniqueKeysWithValues: request.instances.map { ($0.id, Fragments.banner($0.id)) }))
            }
        }
        let widgets = (0..<30).map { widget("w\($0)", "banner", vertical: verticals[$0 % 5]) }
        let page = template([.init(id: "s", widgets: widgets)])
        let composed = await composer(providers, configuration: .init(fanOut: .perWidget, defaultTimeout: .seconds(30))).compose(
            template: page, context: context())
        #expect(composed.widgets.allSatisfy { $0.outcome.isShown })
        // The calls overlapped: nearly all were in flight at once.
        #expect(gauge.peak >= 25, "at most \(gauge.peak) calls ran at once")
        // From the first call's start to the last one's end took about one call, not thirty:
        // compared with the measured latencies rather than a fixed number, so a machine busy with
        // other suites (which stretches every latency alike) cannot make it fail, while calls made
        // one after another would span at least their sum.
        let sum = composed.widgets.reduce(Duration.zero) { $0 + ($1.providerLatency ?? .zero) }
        #expect(sum >= .seconds(3))
        #expect(gauge.span * 4 < sum, "the calls spanned \(gauge.span); together they took \(sum)")
    }

    @Test("per vertical, each provider is called once with all its widgets, in page order")
    func batching() async throws {
        let shopCalls = Counter()
        let asked = AskedInstances()
        let providers: [String: any WidgetProvider] = [
            "shop": ClosureWidgetProvider { request in
                shopCalls.increment()
                asked.record(request.instances.map(\.id))
                return WidgetResponse(
                    fragments: Dictionary(uniqueKeysWithValues: request.instances.map { ($0.id, Fragments.product($0.id)) }))
            },
            "marketing": ScriptedProvider { _ in Fragments.banner("x") },
        ]
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("a", "productCard", vertical: "shop"), widget("hero", "banner", vertical: "marketing"),
                    widget("off", "productCard", vertical: "shop", enabled: false),
                    widget("android-only", "productCard", vertical: "shop", conditions: .init(platforms: [.android])),
                    widget("b", "productCard", vertical: "shop"),
                ])
        ])
        let composed = await composer(providers).compose(template: page, context: context())
        #expect(shopCalls.count == 1)
        #expect(asked.all == [["a", "b"]], "widgets that are off or out of their conditions are not asked for")
        #expect(composed.report(for: "off")?.outcome == .omitted(.disabled))
        #expect(composed.report(for: "android-only")?.outcome == .omitted(.conditionNotMet(.platform(.iOS))))
        #expect(composed.report(for: "off")?.providerLatency == nil)
    }

    @Test("per widget, each instance has its own timeout: a slow widget does not hold back its siblings", .timeLimit(.minutes(1)))
    func perWidgetTimeouts() async throws {
        let stubborn = StubbornProvider()
        defer { stubborn.release() }
        let providers: [String: any WidgetProvider] = [
            "shop": ClosureWidgetProvider { request in
                let instance = request.instances[0]
                if instance.id == "slow" { _ = try await stubborn.fragments(for: request) }
                return WidgetResponse(fragments: [instance.id: Fragments.product(instance.id)])
            }
        ]
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("slow", "productCard", vertical: "shop", timeoutMilliseconds: 100),
                    widget("by-vertical", "productCard", vertical: "shop"),
                    widget("own-timeout", "productCard", vertical: "shop", timeoutMilliseconds: 20_000),
                ])
        ])
        let configuration = Composer.Configuration(
            fanOut: .perWidget, defaultTimeout: .milliseconds(1), verticalTimeouts: ["shop": .seconds(20)])
        let composed = await composer(providers, configuration: configuration).compose(template: page, context: context())
        #expect(composed.report(for: "slow")?.outcome == .omitted(.timedOut(after: .milliseconds(100))))
        #expect(composed.report(for: "by-vertical")?.outcome == .shown, "the vertical's 20 s, not the default 1 ms")
        #expect(composed.report(for: "own-timeout")?.outcome == .shown)
        #expect(stubborn.heldCalls == 1)
    }

    @Test("a cancelled composition returns without waiting for its providers, their widgets marked cancelled", .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let stubborn = StubbornProvider()
        defer { stubborn.release() }
        let page = template([.init(id: "s", widgets: [widget("w", "banner", vertical: "stubborn")])])
        let subject = composer(["stubborn": stubborn], configuration: .init(defaultTimeout: .seconds(600)))
        let task = Task { await subject.compose(template: page, context: context()) }
        while stubborn.heldCalls == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let composed = await task.value
        #expect(stubborn.heldCalls == 1, "the provider never answered; the page did not wait for it")
        #expect(composed.report(for: "w")?.outcome == .omitted(.cancelled))
        #expect(try decodeStrictly(composed).issues.isEmpty)
    }

    // MARK: Entities

    static let boundCard: @Sendable (WidgetInstance) -> WidgetFragment? = { instance in
        .bytes(
            Array(
                #"{"type":"productCard","title":"\#(instance.id)","discount":false,"bind":{"price":{"entity":"product/42","field":"price"}}}"#
                    .utf8))
    }

    @Test("a fact several widgets show is sent once, as an entity; disagreeing providers are logged and the first on the page wins")
    func sharedEntities() async throws {
        let logs = CapturedLogs()
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(entities: ["product/42": ["price": "€12", "name": "Tea"], "ad/1": ["x": 1]], answer: Self.boundCard),
            "deals": ScriptedProvider(entities: ["product/42": ["price": "€10"]], answer: Self.boundCard),
        ]
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("tea-1", "productCard", vertical: "shop"), widget("deal", "productCard", vertical: "deals"),
                    widget("tea-2", "productCard", vertical: "shop"),
                ])
        ])
        let composed = await composer(providers, logs: logs).compose(template: page, context: context(version: .v4))
        let screen = try decodeStrictly(composed).value
        #expect(screen.entities == ["product/42": ["price": "€12", "name": "Tea"]], "unreferenced entities are not sent")
        let text = String(decoding: composed.bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "€12").count == 2, "the price is in the page once")
        #expect(!text.contains("€10"))
        #expect(
            composed.entityConflicts == [
                EntityConflict(entity: "product/42", member: "price", kept: ("shop", "€12"), dropped: ("deals", "€10"))
            ])
        #expect(logs.all.contains { $0.level == .warning && $0.metadata["entity"] == "product/42" && $0.metadata["dropped"] == "deals" })
        // A v4 client resolves every bound widget to the one price.
        for component in screen.allComponents {
            let resolved = component.resolvingBindings(screen.entities)
            #expect(resolved.problems.isEmpty)
            guard case .unknown(let unknown) = resolved.component.content else { continue }
            #expect(unknown.json["price"] == "€12")
        }
    }

    @Test("clients before v4 get the bound values filled in and no v4 attributes", arguments: [APIVersion.v2, .v3])
    func bindingsForOldClients(version: APIVersion) async throws {
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(entities: ["product/42": ["price": "€12"]], answer: Self.boundCard)
        ]
        let composed = await composer(providers).compose(
            template: template([.init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop")])]),
            context: context(version: version))
        let screen = try decodeStrictly(composed).value
        #expect(screen.entities.isEmpty)
        #expect(screen.allComponents == [.custom("productCard", fields: ["title": "tea", "price": "€12", "discount": false])])
        #expect(!String(decoding: composed.bytes, as: UTF8.self).contains("bind"))
    }

    @Test("a binding to an entity nobody sent omits the widget; an entity with a bad id is dropped")
    func unresolvedBindings() async throws {
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(entities: ["bad id": ["price": "€1"]], answer: Self.boundCard),
            "marketing": ScriptedProvider { _ in Fragments.banner("still here") },
        ]
        let composed = await composer(providers).compose(
            template: template([
                .init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop"), widget("hero", "banner", vertical: "marketing")])
            ]), context: context())
        guard case .omitted(.unresolvedBinding(let message)) = composed.report(for: "tea")?.outcome else {
            Issue.record("\(String(describing: composed.report(for: "tea")))")
            return
        }
        #expect(message.contains("product/42"))
        #expect(composed.problems.contains { $0.contains("'bad id'") })
        #expect(composed.report(for: "hero")?.outcome == .shown)
        #expect(try decodeStrictly(composed).issues.isEmpty)
    }

    @Test("only a field the contract declares bindable may be left out when bound")
    func unbindableField() async throws {
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(entities: ["product/42": ["price": "€12", "name": "Tea"]]) { _ in
                .bytes(
                    Array(
                        #"{"type":"productCard","price":"€12","discount":false,"bind":{"title":{"entity":"product/42","field":"name"}}}"#
                            .utf8))
            }
        ]
        let composed = await composer(providers).compose(
            template: template([.init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop")])]), context: context(version: .v4))
        guard case .omitted(.contractViolation(let problems)) = composed.report(for: "tea")?.outcome else {
            Issue.record("\(String(describing: composed.report(for: "tea")))")
            return
        }
        #expect(problems.map(\.path) == ["$.bind.title"])
        #expect(problems.first?.message.contains("does not declare it bindable") == true)
    }

    @Test("a bound value that breaks the contract is a violation, found after resolution")
    func boundValueChecked() async throws {
        let providers: [String: any WidgetProvider] = [
            "shop": ScriptedProvider(entities: ["product/42": ["price": 12]], answer: Self.boundCard)
        ]
        let composed = await composer(providers).compose(
            template: template([.init(id: "s", widgets: [widget("tea", "productCard", vertical: "shop")])]), context: context())
        guard case .omitted(.contractViolation(let problems)) = composed.report(for: "tea")?.outcome else {
            Issue.record("\(String(describing: composed.report(for: "tea")))")
            return
        }
        #expect(problems.map(\.path) == ["$.price"])
    }

    // MARK: Report and budget

    @Test("each widget's bytes and share of the page are reported; the page over budget names its heaviest widgets")
    func budget() async throws {
        let logs = CapturedLogs()
        let providers: [String: any WidgetProvider] = [
            "marketing": ScriptedProvider { instance in
                Fragments.banner(instance.id == "huge" ? String(repeating: "x", count: 5_000) : "hi")
            }
        ]
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("small", "banner", vertical: "marketing"), widget("huge", "banner", vertical: "marketing"),
                    widget("off", "banner", vertical: "marketing", enabled: false),
                ])
        ])
        let composed = await composer(
            providers, logs: logs,
            configuration: .init(defaultTimeout: .seconds(10), budget: .init(maximumBytes: 2_000, maximumDuration: .nanoseconds(1)))
        ).compose(template: page, context: context())
        let huge = try #require(composed.report(for: "huge"))
        let small = try #require(composed.report(for: "small"))
        #expect(huge.bytes > 5_000 && small.bytes > 0 && small.bytes < 100)
        #expect(composed.report(for: "off")?.bytes == 0)
        #expect(abs(huge.share - Double(huge.bytes) / Double(composed.bytes.count)) < 1e-9)
        #expect(huge.share > 0.9 && huge.share + small.share < 1)
        #expect(composed.isOverBudget)
        #expect(composed.overruns.count == 2)
        guard case .bytes(let bytes, 2_000, let heaviest) = composed.overruns.first else {
            Issue.record("\(composed.overruns)")
            return
        }
        #expect(bytes == composed.bytes.count)
        #expect(heaviest == ["huge", "small"])
        let logged = logs.all.filter { $0.message == "composed page over budget" }
        #expect(logged.count == 2)
        #expect(logged.first?.metadata["overrun"]?.contains("heaviest: huge, small") == true)

        let roomy = await composer(providers, configuration: .init(defaultTimeout: .seconds(10), budget: .init(maximumBytes: 1_000_000)))
            .compose(
                template: page, context: context())
        #expect(!roomy.isOverBudget)
    }

    // MARK: Experiments

    @Test("a widget conditioned on a variant shows to that variant's users; first exposures are recorded once")
    func experiments() async throws {
        let recorder = InMemoryExposureRecorder()
        let experiment = Experiment(key: "hero", variants: [.init("a", weight: 1), .init("b", weight: 1)])
        let catalog = ExperimentCatalog([experiment])
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("hero-a", "banner", vertical: "marketing", conditions: .init(experiment: .init("hero", is: "a"))),
                    widget("hero-b", "banner", vertical: "marketing", conditions: .init(experiment: .init("hero", is: "b"))),
                ])
        ])
        let subject = composer(["marketing": ScriptedProvider { instance in Fragments.banner(instance.id) }], recorder: recorder)
        for user in (0..<20).map({ "user-\($0)" }) {
            let variant = try #require(experiment.bucket(of: user))
            let composed = await subject.compose(template: page, context: context(user: user, experiments: catalog))
            #expect(try decodeStrictly(composed).value.allComponents.map(\.id) == ["hero-\(variant)"])
            #expect(composed.exposures == [ExposedVariant(experiment: "hero", variant: variant)])
            _ = await subject.compose(template: page, context: context(user: user, experiments: catalog))
        }
        let counts = recorder.exposureCounts(for: "hero")
        #expect(counts.values.reduce(0, +) == 20, "each user once, however many pages they open: \(counts)")
        let anonymous = await subject.compose(template: page, context: context(user: nil, experiments: catalog))
        #expect(anonymous.exposures.isEmpty)
        #expect(try decodeStrictly(anonymous).value.allComponents.isEmpty)
    }

    @Test("the same page twice gives the same bytes")
    func deterministic() async throws {
        let first = await composer(healthyProviders).compose(template: healthyPage, context: context())
        let second = await composer(healthyProviders).compose(template: healthyPage, context: context())
        #expect(first.bytes == second.bytes)
        #expect(first.body.etag == second.body.etag)
    }

    @Test("an instance whose kind or vertical is unknown, or whose id repeats, is left out and reported")
    func malformedInstances() async throws {
        let page = template([
            .init(
                id: "s",
                widgets: [
                    widget("a", "banner", vertical: "marketing"), widget("a", "banner", vertical: "marketing"),
                    widget("b", "confetti", vertical: "marketing"), widget("c", "banner", vertical: "astrology"),
                    widget("not an id", "banner", vertical: "marketing"),
                ])
        ])
        let composed = await composer(["marketing": ScriptedProvider { _ in Fragments.banner("x") }]).compose(
            template: page, context: context())
        #expect(composed.widgets.map(\.outcome.isShown) == [true, false, false, false, false])
        #expect(composed.widgets[2].outcome == .omitted(.unknownKind))
        #expect(composed.widgets[3].outcome == .omitted(.noProvider))
        #expect(try decodeStrictly(composed).value.allComponents.map(\.id) == ["a"])
    }
}

/// The instance ids of each call a provider received.
private final class AskedInstances: Sendable {
    private let calls = Mutex<[[String]]>([])
    func record(_ ids: [String]) { calls.withLock { $0.append(ids) } }
    var all: [[String]] { calls.withLock { $0 } }
}

import Foundation
import ScreenplayComposer
import ScreenplayComposerNIO
import ScreenplayContract
import ScreenplayServer
import Synchronization
import Testing

/// The reference questions a provider service received, in order.
final class AskedQuestions: Sendable {
    private let questions = Mutex<[WidgetReferenceCall]>([])

    init() {}

    func record(_ question: WidgetReferenceCall) { questions.withLock { $0.append(question) } }

    var all: [WidgetReferenceCall] { questions.withLock { $0 } }
}

extension RemoteProviderTests {
    /// A vertical served over HTTP owns the checks of what its widgets name: the template is
    /// checked by asking the service (``WidgetReferenceCall``), a failed question only warns, and
    /// a provider given no references URL is never asked.
    @Suite("Reference checks over HTTP")
    struct References {
        /// `banner` names a promotion through `promotion`.
        static let catalog = try! WidgetCatalog([
            WidgetContract(
                type: "banner", summary: "A promotion.", versioning: KindVersioning(introduced: .v1, fallback: "nothing"),
                fields: [.required("headline", .string)], parameters: [.optional("promotion", .string)],
                references: [WidgetReference(parameter: "promotion", names: "promotion")], fallback: { _ in [] })
        ])

        static func template(_ promotions: [JSONValue]) -> PageTemplate {
            PageTemplate(
                route: "shop", title: "Shop", revision: 0,
                sections: [
                    .init(
                        id: "main",
                        widgets: promotions.enumerated().map { index, promotion in
                            WidgetInstance(id: "w\(index)", kind: "banner", vertical: "promotions", parameters: ["promotion": promotion])
                        })
                ])
        }

        static func problems(_ template: PageTemplate, provider: RemoteWidgetProvider) async -> [TemplateProblem] {
            await template.referenceProblems(catalog: catalog, providers: ["promotions": provider])
        }

        @Test(
            "values the service does not know are errors at their paths; known ones pass; the question is as documented")
        func missingValues() async throws {
            let asked = AskedQuestions()
            try await RemoteProviderTests.withProviderServer(asked: asked) { root in
                let provider = RemoteWidgetProvider(
                    url: root + "/ok", transport: PlainHTTPWidgetTransport(), referencesURL: root + "/references", referencesTimeout: .seconds(5))
                #expect(provider.checksReferences)
                let problems = await Self.problems(Self.template(["spring-sale", "ghost", "summer-sale", "ghost", 7]), provider: provider)
                #expect(
                    problems.map(\.path) == [
                        "$.sections[0].widgets[1].parameters.promotion", "$.sections[0].widgets[3].parameters.promotion",
                        "$.sections[0].widgets[4].parameters.promotion",
                    ])
                #expect(problems.map(\.message).first == "no promotion “ghost”: the promotions vertical knows none")
                #expect(problems.map(\.message).last == "no promotion 7: the promotions vertical knows none")
                #expect(problems.filter(\.isWarning).isEmpty)
                // One question for the vertical, each value once, in the order of their JSON text.
                #expect(
                    asked.all == [
                        WidgetReferenceCall(
                            names: "promotion", values: ["ghost", "spring-sale", "summer-sale", 7], timeoutMilliseconds: 5_000)
                    ])
            }
        }

        @Test(
            "a service that fails, answers something unreadable or answers another question gives warnings naming the vertical, not errors")
        func failuresWarn() async throws {
            try await RemoteProviderTests.withProviderServer { root in
                func warnings(_ path: String, timeout: Duration = .seconds(5)) async -> [TemplateProblem] {
                    let provider = RemoteWidgetProvider(
                        url: root + "/ok", transport: PlainHTTPWidgetTransport(), maximumResponseBytes: 1 << 20, referencesURL: root + path,
                        referencesTimeout: timeout)
                    return await Self.problems(Self.template(["spring-sale", "ghost"]), provider: provider)
                }
                let expectations: [(path: String, says: String)] = [
                    ("/fail", "the provider answered 500: db down"),
                    ("/garbage", "the provider's answer about references cannot be used: $: malformed JSON at line 1"),
                    ("/huge", "larger than 1048576 bytes"),
                    ("/references-stranger", "cannot be used: $.missing[1]: “elsewhere” was not asked about"),
                    ("/ok", "cannot be used: $.missing: missing required member 'missing'"),
                    ("/missing", "the provider answered 404"),
                ]
                for (path, says) in expectations {
                    let problems = await warnings(path)
                    #expect(problems.count == 2, "\(path): one warning per value it could not check")
                    #expect(problems.filter(\.isWarning).count == 2, "\(path): a save is not blocked by another team's outage")
                    #expect(
                        problems.first?.message.hasPrefix("could not check promotion “spring-sale” with the promotions vertical: ") == true,
                        "\(path)")
                    #expect(problems.filter { $0.message.contains(says) }.count == 2, "\(path): \(problems.map(\.message))")
                }
                let started = ContinuousClock.now
                let late = await warnings("/slow", timeout: .milliseconds(200))
                let timedOut = late.filter { $0.isWarning && $0.message.contains("did not answer in time") }
                #expect(late.count == 2 && timedOut.count == 2, "\(late)")
                #expect(ContinuousClock.now - started < .milliseconds(2_800), "gave up at the deadline, before the service answered (3 s)")
            }
        }

        @Test("asked for names (an editor shown), the service names what it knows within the naming wait, one question per vertical")
        func names() async throws {
            let asked = AskedQuestions()
            try await RemoteProviderTests.withProviderServer(asked: asked) { root in
                let provider = RemoteWidgetProvider(
                    url: root + "/ok", transport: PlainHTTPWidgetTransport(), referencesURL: root + "/references", referencesTimeout: .seconds(9),
                    namingTimeout: .seconds(5))
                #expect(RemoteWidgetProvider(url: root, transport: PlainHTTPWidgetTransport()).namingTimeout == .seconds(1), "the editor's wait by default")
                let named = await Self.template(["spring-sale", "ghost", "summer-sale"]).referenceNames(
                    catalog: Self.catalog, providers: ["promotions": provider], timeout: .seconds(5))
                #expect(
                    named == [
                        WidgetParameterKey(instance: "w0", parameter: "promotion"): "Spring sale · 20 % off shipping",
                        WidgetParameterKey(instance: "w2", parameter: "promotion"): "Summer sale",
                    ], "known values named (trimmed), the unknown one not")
                #expect(
                    asked.all == [
                        WidgetReferenceCall(
                            names: "promotion", values: ["ghost", "spring-sale", "summer-sale"], timeoutMilliseconds: 5_000, wantsNames: true)
                    ], "the service is told the naming wait (5 s), not the save's (9 s)")
            }
        }

        @Test("names that are not one line of at most 200 characters for a value asked about are refused at their JSON path; the editor shows the values unnamed")
        func badNames() async throws {
            try await RemoteProviderTests.withProviderServer { root in
                let provider = RemoteWidgetProvider(
                    url: root + "/ok", transport: PlainHTTPWidgetTransport(), referencesURL: root + "/references-named",
                    referencesTimeout: .seconds(5), namingTimeout: .seconds(10))
                let unnamed = try await provider.referenceNames("none", for: ["spring-sale"])
                #expect(unnamed.isEmpty, "an answer without names names nothing")
                let longest = try await provider.referenceNames("longest", for: ["spring-sale"])
                #expect(longest["spring-sale"]?.unicodeScalars.count == 200, "200 scalars (100 letters with accents) are the most a name holds")
                let refusals: [(names: String, says: String)] = [
                    ("not-an-array", "$.names: 'names' must be an array"),
                    ("not-an-object", "$.names[0]: must be an object"),
                    ("no-value", "$.names[0].value: missing required member 'value'"),
                    ("stranger", "$.names[1].value: “elsewhere” was not asked about"),
                    ("number", "$.names[0].name: must be a string"),
                    ("empty", "$.names[0].name: must not be empty"),
                    ("long", "$.names[0].name: is 201 characters; at most 200"),
                    ("two-lines", "$.names[0].name: must be one line"),
                    ("combining", "$.names[0].name: is 501 characters; at most 200"),
                    ("override", "$.names[0].name: must not hold a direction override"),
                    ("invisible", "$.names[0].name: must not be empty"),
                    ("twice", "$.names[1].value: “spring-sale” is named twice (first at $.names[0])"),
                ]
                for (names, says) in refusals {
                    do {
                        let named = try await provider.referenceNames(names, for: ["spring-sale"])
                        Issue.record("\(names): accepted as \(named)")
                    } catch {
                        #expect("\(error)".contains("the provider's answer about references cannot be used: " + says), "\(names): \(error)")
                    }
                }
                let template = PageTemplate(
                    route: "shop", title: "Shop", revision: 0,
                    sections: [.init(id: "main", widgets: [WidgetInstance(id: "w0", kind: "banner", vertical: "promotions", parameters: ["promotion": "x"])])])
                #expect(await template.referenceNames(catalog: Self.catalog, providers: ["promotions": provider]).isEmpty)
            }
        }

        @Test("a remote provider without a references URL is not asked: what its widgets name is taken on trust")
        func unconfiguredNotAsked() async throws {
            let asked = AskedQuestions()
            try await RemoteProviderTests.withProviderServer(asked: asked) { root in
                // Any request it made would reach the recording route.
                let provider = RemoteWidgetProvider(url: root + "/references", transport: PlainHTTPWidgetTransport())
                #expect(provider.checksReferences == false)
                #expect(await Self.problems(Self.template(["ghost"]), provider: provider).isEmpty)
                let answer = try await provider.missingReferences("promotion", among: ["ghost"])
                #expect(answer.isEmpty)
                #expect(try await provider.referenceNames("promotion", for: ["ghost"]).isEmpty)
                #expect(await Self.template(["ghost"]).referenceNames(catalog: Self.catalog, providers: ["promotions": provider]).isEmpty)
                #expect(asked.all.isEmpty)
            }
        }
    }
}

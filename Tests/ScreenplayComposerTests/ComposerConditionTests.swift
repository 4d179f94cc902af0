import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

private let instant = Date(timeIntervalSince1970: 1_750_000_000)
private let hour: TimeInterval = 3600

/// 50/50 between `a` and `b`, for everyone, always.
private let heroExperiment = ExperimentCatalog([Experiment(key: "hero", variants: [.init("a", weight: 1), .init("b", weight: 1)])])

/// A context: iOS, v4, de-CH, segment `beta`, at `instant`; user `user-1`.
private func base(
    platform: Platform = .iOS, version: APIVersion = .v4, locale: String? = "de-CH", segments: Set<String> = ["beta"],
    now: Date = instant, user: String? = "user-1", overrides: [String: String] = [:]
) -> CompositionContext {
    CompositionContext(
        route: "shop", userID: user, platform: platform, apiVersion: version, locale: locale, segments: segments, now: now,
        experiments: heroExperiment, variantOverrides: overrides)
}

@Suite("Composer: conditions")
struct ComposerConditionTests {
    @Test("no conditions hold for everyone")
    func always() {
        #expect(WidgetConditions.always.evaluate(in: base()).isMet)
        #expect(WidgetConditions.always.evaluate(in: base(locale: nil, segments: [], user: nil)).isMet)
    }

    @Test(
        "each condition alone",
        arguments: [
            // Platforms.
            (WidgetConditions(platforms: [.iOS, .android]), base(), true),
            (WidgetConditions(platforms: [.android]), base(), false),
            (WidgetConditions(platforms: [.web]), base(platform: .web), true),
            // API versions, inclusive at both ends, open when unset.
            (WidgetConditions(apiVersions: .init(minimum: .v2, maximum: .v4)), base(version: .v2), true),
            (WidgetConditions(apiVersions: .init(minimum: .v2, maximum: .v3)), base(version: .v3), true),
            (WidgetConditions(apiVersions: .init(minimum: .v2, maximum: .v3)), base(version: .v4), false),
            (WidgetConditions(apiVersions: .init(minimum: .v3)), base(version: .v2), false),
            (WidgetConditions(apiVersions: .init(maximum: .v1)), base(version: .v1), true),
            // Locales: language prefix or language-region, case and separator blind.
            (WidgetConditions(locales: ["de"]), base(locale: "de-CH"), true),
            (WidgetConditions(locales: ["de"]), base(locale: "de"), true),
            (WidgetConditions(locales: ["de-CH"]), base(locale: "de_ch"), true),
            (WidgetConditions(locales: ["de-AT"]), base(locale: "de-CH"), false),
            (WidgetConditions(locales: ["de"]), base(locale: "den"), false),
            (WidgetConditions(locales: ["fr", "de"]), base(locale: "de-CH"), true),
            (WidgetConditions(locales: ["de"]), base(locale: nil), false),
            // Segments: any one listed.
            (WidgetConditions(segments: ["beta", "staff"]), base(segments: ["beta"]), true),
            (WidgetConditions(segments: ["staff"]), base(segments: ["beta"]), false),
            (WidgetConditions(segments: ["staff"]), base(segments: []), false),
            // Date window: start inclusive, end exclusive.
            (WidgetConditions(window: .init(start: instant, end: instant + hour)), base(now: instant), true),
            (WidgetConditions(window: .init(start: instant, end: instant + hour)), base(now: instant - 1), false),
            (WidgetConditions(window: .init(start: instant, end: instant + hour)), base(now: instant + hour), false),
            (WidgetConditions(window: .init(start: instant, end: instant + hour)), base(now: instant + hour - 1), true),
            (WidgetConditions(window: .init(end: instant)), base(now: instant - hour), true),
            (WidgetConditions(window: .init(start: instant + hour)), base(now: instant), false),
            // Experiment variant, with an override as the admin's preview sets it.
            (WidgetConditions(experiment: .init("hero", is: "b")), base(overrides: ["hero": "b"]), true),
            (WidgetConditions(experiment: .init("hero", is: "a")), base(overrides: ["hero": "b"]), false),
            (WidgetConditions(experiment: .init(key: "hero", variants: ["a", "b"])), base(), true),
            (WidgetConditions(experiment: .init("hero", is: "a")), base(user: nil), false),
            (WidgetConditions(experiment: .init("missing", is: "a")), base(), false),
        ] as [(WidgetConditions, CompositionContext, Bool)])
    func single(conditions: WidgetConditions, context: CompositionContext, shown: Bool) {
        #expect(conditions.evaluate(in: context).isMet == shown)
    }

    @Test("an experiment condition follows the user's bucket")
    func bucketed() throws {
        let experiment = try #require(heroExperiment["hero"])
        for user in (0..<40).map({ "user-\($0)" }) {
            let bucket = try #require(experiment.bucket(of: user))
            let condition = WidgetConditions(experiment: .init("hero", is: "a"))
            let verdict = condition.evaluate(in: base(user: user))
            #expect(verdict.isMet == (bucket == "a"))
            #expect(verdict.exposure == ExposedVariant(experiment: "hero", variant: bucket), "shown or not, the user was exposed")
        }
    }

    @Test("combined conditions must all hold, and the first that fails is named")
    func combined() {
        let conditions = WidgetConditions(
            platforms: [.iOS], apiVersions: .init(minimum: .v3), locales: ["de"], segments: ["beta"],
            experiment: .init("hero", is: "b"), window: .init(start: instant - hour, end: instant + hour))
        #expect(conditions.evaluate(in: base(overrides: ["hero": "b"])).isMet)
        let cases: [(CompositionContext, ConditionMismatch)] = [
            (base(platform: .android, overrides: ["hero": "b"]), .platform(.android)),
            (base(version: .v2, overrides: ["hero": "b"]), .apiVersion(.v2)),
            (base(locale: "fr-CH", overrides: ["hero": "b"]), .locale("fr-CH")),
            (base(segments: ["staff"], overrides: ["hero": "b"]), .segment),
            (base(now: instant + hour, overrides: ["hero": "b"]), .ended(instant + hour)),
            (base(now: instant - 2 * hour, overrides: ["hero": "b"]), .notYetStarted(instant - hour)),
            (base(overrides: ["hero": "a"]), .experiment(key: "hero", variant: "a")),
            // Platform and locale both fail: the platform, checked first, is named.
            (base(platform: .web, locale: "fr", overrides: ["hero": "b"]), .platform(.web)),
        ]
        for (context, mismatch) in cases {
            #expect(conditions.evaluate(in: context).mismatch == mismatch)
        }
    }

    @Test("the experiment is consulted last: no exposure when another condition already fails")
    func exposureOnlyWhenDecisive() {
        let conditions = WidgetConditions(platforms: [.android], experiment: .init("hero", is: "a"))
        let verdict = conditions.evaluate(in: base(overrides: ["hero": "a"]))
        #expect(verdict.mismatch == .platform(.iOS))
        #expect(verdict.exposure == nil)
    }

    @Test("evaluation is pure: the same context gives the same verdict")
    func pure() {
        let conditions = WidgetConditions(locales: ["de"], experiment: .init(key: "hero", variants: ["a"]))
        let context = base(user: "user-77")
        let verdicts = (0..<20).map { _ in conditions.evaluate(in: context) }
        #expect(Set(verdicts).count == 1)
    }

    @Test(
        "locale matching",
        arguments: [
            ("de-CH", "de", true), ("de-CH", "DE", true), ("de_CH", "de-ch", true), ("de", "de-CH", false), ("deu", "de", false),
            ("en-Latn-US", "en-Latn", true), ("en", "", false),
        ])
    func locale(locale: String, prefix: String, matches: Bool) {
        #expect(WidgetConditions.locale(locale, matches: prefix) == matches)
    }

    @Test("conditions nobody can meet are problems with paths")
    func problems() {
        let conditions = WidgetConditions(
            platforms: [], apiVersions: .init(minimum: .v4, maximum: .v2), locales: ["de", "not a locale"], segments: [],
            experiment: .init(key: "hero", variants: ["c"]), window: .init(start: instant, end: instant))
        let paths = conditions.problems(at: "$.c", experiments: heroExperiment).map(\.path)
        #expect(
            paths == ["$.c.platforms", "$.c.segments", "$.c.locales[1]", "$.c.apiVersions", "$.c.window", "$.c.experiment.variants"])
        // Times in the form every admin page writes them, not Foundation's description.
        let window = try? #require(conditions.problems(at: "$.c", experiments: heroExperiment).first { $0.path == "$.c.window" }?.message)
        #expect(window?.contains(/ends \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\) before or when it starts/) == true, "\(window ?? "")")
        let unknown = WidgetConditions(experiment: .init("nope", is: "a")).problems(at: "$", experiments: heroExperiment)
        #expect(unknown.map(\.path) == ["$.experiment.key"])
        #expect(WidgetConditions(experiment: .init("nope", is: "a")).problems(at: "$", experiments: nil).isEmpty)
    }

    @Test("a platform this build does not name is a warning; one no client could send (a space, markup) is an error")
    func platformNames() {
        let conditions = WidgetConditions(platforms: [Platform("tvos"), Platform("web "), Platform("<script>"), .web])
        let problems = conditions.problems(at: "$.c", experiments: nil)
        #expect(problems.filter(\.isWarning).map(\.message) == ["'tvos' is no platform this server knows (android, ios, web): no such client will see it"])
        #expect(
            problems.filter { !$0.isWarning }.map(\.message).sorted() == [
                "'<script>' is not a platform name: 1 to 32 of a-z, 0-9 and -", "'web ' is not a platform name: 1 to 32 of a-z, 0-9 and -",
            ])
        #expect(problems.allSatisfy { $0.path == "$.c.platforms" })
        #expect(WidgetConditions(platforms: [Platform(String(repeating: "a", count: 33))]).problems(at: "$", experiments: nil).first?.isWarning == false)
    }

    @Test("conditions round-trip through JSON, dates as ISO 8601, sets sorted")
    func coding() throws {
        let conditions = WidgetConditions(
            platforms: [.web, .android, .iOS], apiVersions: .init(minimum: .v2), locales: ["de"], segments: ["z", "a"],
            experiment: .init(key: "hero", variants: ["b", "a"]), window: .init(start: instant, end: instant + hour))
        let data = try ScreenplayEncoder().encode(conditions)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""platforms":["android","ios","web"]"#))
        #expect(text.contains(#""segments":["a","z"]"#))
        #expect(text.contains(#""variants":["a","b"]"#))
        #expect(text.contains(#""start":"2025-06-15T15:06:40Z""#))
        #expect(try JSONDecoder().decode(WidgetConditions.self, from: data) == conditions)
        #expect(try ScreenplayEncoder().encode(WidgetConditions.always) == Data("{}".utf8))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DateWindow.self, from: Data(#"{"start": "yesterday"}"#.utf8))
        }
    }
}

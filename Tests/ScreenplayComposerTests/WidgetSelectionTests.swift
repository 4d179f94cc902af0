import Foundation
@testable import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import Testing

/// ``Composer/selection(_:context:)``, what a served page's cache key is made of on every request,
/// decides exactly what planning decides: the same widgets asked for, their verticals, per-user
/// data, and the same exposures, whatever the conditions, ids and kinds.
@Suite("Composer: the widgets a request selects")
struct WidgetSelectionTests {
    static let experiments = ExperimentCatalog([Experiment(key: "hero", variants: [.init("a", weight: 1), .init("b", weight: 1)])])

    static let template = PageTemplate(
        route: "shop", title: "Shop", revision: 4,
        sections: [
            .init(
                id: "top",
                widgets: [
                    WidgetInstance(id: "card", kind: "productCard", vertical: "shop"),
                    WidgetInstance(id: "android-only", kind: "banner", vertical: "promo", conditions: WidgetConditions(platforms: [.android])),
                    WidgetInstance(id: "off", kind: "banner", vertical: "promo", isEnabled: false),
                    WidgetInstance(id: "card", kind: "banner", vertical: "promo"),
                    WidgetInstance(id: "not an id!", kind: "banner", vertical: "promo"),
                ]),
            .init(
                id: "more",
                widgets: [
                    WidgetInstance(id: "unknown", kind: "nope", vertical: "promo"),
                    WidgetInstance(id: "nobody-provides", kind: "banner", vertical: "elsewhere"),
                    WidgetInstance(id: "hero-b", kind: "banner", vertical: "promo", conditions: WidgetConditions(experiment: .init("hero", is: "b"))),
                    WidgetInstance(id: "hero-a", kind: "banner", vertical: "promo", conditions: WidgetConditions(experiment: .init("hero", is: "a"))),
                    WidgetInstance(id: "beta", kind: "banner", vertical: "promo", conditions: WidgetConditions(segments: ["beta"])),
                    WidgetInstance(id: "reviews", kind: "reviewSummary", vertical: "promo"),
                ]),
        ])

    @Test(
        "selection and plan agree",
        arguments: [
            (Platform.iOS, "user-1" as String?, [String](), [String: String]()),
            (.android, "user-2", ["beta"], [:]),
            (.android, nil, ["beta"], [:]),
            (.web, "user-3", [], ["hero": "b"]),
            (.iOS, "user-4", ["beta"], ["hero": "a"]),
        ])
    func agreesWithPlan(platform: Platform, user: String?, segmentList: [String], overrides: [String: String]) {
        let segments = Set(segmentList)
        let composer = Composer(
            catalog: Widgets.catalog,
            providers: ["shop": ScriptedProvider { _ in nil }, "promo": ScriptedProvider { _ in nil }])
        let context = CompositionContext(
            route: "shop", userID: user, platform: platform, apiVersion: .v6, segments: segments, now: Date(), experiments: Self.experiments,
            variantOverrides: overrides)
        let plans = composer.plan(Self.template, context: context)
        let pending = plans.filter { if case .pending = $0.stage { true } else { false } }
        let selection = composer.selection(Self.template, context: context)
        #expect(selection.shown == pending.map(\.instance.id))
        #expect(selection.verticals == pending.map(\.instance.vertical))
        #expect(selection.perUser == pending.contains { $0.contract?.sharing != .everyone })
        #expect(selection.exposures == plans.compactMap(\.exposure).uniqued())
        #expect(selection.shown.contains("card") && !selection.shown.contains("off") && !selection.shown.contains("unknown"))
        #expect(selection.exposures.isEmpty == (user == nil), "a user in the experiment is exposed; an anonymous reader never")
    }
}

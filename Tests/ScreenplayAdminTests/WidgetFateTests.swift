import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import Testing

@testable import ScreenplayAdmin

/// What became of a widget, in the words the admin shows: the condition's own values, what an
/// older app sees instead, and failures told apart from decisions.
@Suite("Widget fates in words")
struct WidgetFateTests {
    static let banner = try! WidgetContract(
        type: "banner", summary: "A banner.", versioning: KindVersioning(introduced: .v4, fallback: "a bold line of text"),
        fields: [.required("text", .string)], fallback: { _ in [] })

    static func report(_ outcome: WidgetOutcome) -> WidgetReport {
        WidgetReport(instanceID: "promo", kind: "banner", vertical: "promotions", outcome: outcome, providerLatency: nil, bytes: 0, share: 0)
    }

    static func instance(_ conditions: WidgetConditions) -> WidgetInstance {
        WidgetInstance(id: "promo", kind: "banner", vertical: "promotions", conditions: conditions)
    }

    @Test("hidden by a condition: said with the condition's values")
    func conditions() {
        let versions = Self.instance(WidgetConditions(apiVersions: APIVersionRange(minimum: .v4)))
        #expect(
            WidgetFate.words(for: Self.report(.omitted(.conditionNotMet(.apiVersion(.v3)))), instance: versions, contract: Self.banner)
                == "hidden: on app versions before 4 (this is 3)")
        let platforms = Self.instance(WidgetConditions(platforms: [.android, .web]))
        #expect(
            WidgetFate.words(for: Self.report(.omitted(.conditionNotMet(.platform(.iOS)))), instance: platforms, contract: nil)
                == "hidden: not shown on ios (only on android and web)")
        let segments = Self.instance(WidgetConditions(segments: ["beta", "premium"]))
        #expect(
            WidgetFate.words(for: Self.report(.omitted(.conditionNotMet(.segment))), instance: segments, contract: nil)
                == "hidden: for users outside the segments beta, premium")
        let start = Date(timeIntervalSince1970: 1_796_112_000)  // 2026-12-01 08:00 UTC
        #expect(
            WidgetFate.words(for: Self.report(.omitted(.conditionNotMet(.notYetStarted(start)))), instance: nil, contract: nil)
                == "hidden: until 2026-12-01 08:00 UTC (scheduled)")
    }

    @Test("an app that cannot draw the kind: what it sees instead, from the contract")
    func fallback() {
        #expect(
            WidgetFate.words(for: Self.report(.fallback(.kindNotRendered)), instance: nil, contract: Self.banner, context: "iOS at API 3")
                == "shown as a bold line of text: iOS at API 3 cannot draw a banner")
        #expect(WidgetFate.words(for: Self.report(.shown), instance: nil, contract: Self.banner) == "shown")
        #expect(WidgetFate.words(for: Self.report(.omitted(.disabled)), instance: nil, contract: nil) == "left out: switched off")
    }

    @Test("provider failures are failures; conditions and switches are decisions")
    func failures() {
        #expect(WidgetFate.isProviderFailure(.omitted(.timedOut(after: .milliseconds(250)))))
        #expect(WidgetFate.isProviderFailure(.fallback(.unavailable(.providerFailed("refused")))))
        #expect(!WidgetFate.isProviderFailure(.omitted(.disabled)))
        #expect(!WidgetFate.isProviderFailure(.omitted(.conditionNotMet(.segment))))
        #expect(!WidgetFate.isProviderFailure(.fallback(.kindNotRendered)))
        #expect(
            WidgetFate.words(for: Self.report(.omitted(.timedOut(after: .milliseconds(250)))), instance: nil, contract: nil)
                == "left out: its provider took longer than 250 ms")
    }
}

import Foundation
@testable import ScreenplayAdmin
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import Testing

/// The device preview's reading of a composed page: a failed widget is a box where it would be,
/// a fallback is labelled before it with why, in words that depend on the version and the kind.
@Suite("Device previews")
struct DevicePreviewTests {
    static let banner = try! WidgetContract(
        type: "banner", summary: "A banner.", versioning: KindVersioning(introduced: .v5, fallback: "a bold line of text"),
        fields: [.required("text", .string)], fallback: { _ in [] })

    static func report(_ id: String, _ outcome: WidgetOutcome) -> WidgetReport {
        WidgetReport(instanceID: id, kind: "banner", vertical: "promotions", outcome: outcome, providerLatency: nil, bytes: 0, share: 0)
    }

    static let template = PageTemplate(
        route: "shop", title: "Shop", revision: 3,
        sections: [
            .init(
                id: "top", title: "Top",
                widgets: [
                    WidgetInstance(id: "a", kind: "banner", vertical: "promotions"),
                    WidgetInstance(id: "b", kind: "banner", vertical: "promotions"),
                    WidgetInstance(id: "c", kind: "banner", vertical: "promotions"),
                ]),
            .init(id: "lonely", title: "Only a failure", widgets: [WidgetInstance(id: "d", kind: "banner", vertical: "promotions")]),
            .init(id: "end", widgets: [WidgetInstance(id: "e", kind: "banner", vertical: "promotions")]),
        ])

    /// The page as composed: a and c shown, b and d failed (d alone in its section), e shown.
    static let screen = Screen(
        id: "shop", title: "Shop",
        sections: [
            ScreenSection(id: "top", components: [Component.text(.init("A")).id("a"), Component.text(.init("C")).id("c")]),
            ScreenSection(id: "end", components: [Component.text(.init("E")).id("e")]),
        ])

    @Test("a failed widget is a box where it would be, in its own section when the failure was all the section held")
    func failuresInPlace() {
        let reports = [
            Self.report("a", .shown), Self.report("b", .omitted(.timedOut(after: .milliseconds(300)))), Self.report("c", .shown),
            Self.report("d", .omitted(.providerFailed("db down"))), Self.report("e", .omitted(.disabled)),
        ]
        let shown = AdminSite.showingFailures(in: Self.screen, template: Self.template, reports: reports)
        #expect(shown.sections.map(\.id) == ["top", "lonely", "end"])
        #expect(shown.sections[0].components.compactMap(\.id) == ["a", "preview failure b", "c"])
        #expect(shown.sections[1].components.compactMap(\.id) == ["preview failure d"])
        #expect(shown.sections[1].header?.title == "Only a failure")
        // Switched off is a decision, not a failure: no box.
        #expect(shown.sections[2].components.compactMap(\.id) == ["e"])
        guard case .text(let box) = shown.sections[0].components[1].content else {
            Issue.record("the box is a text")
            return
        }
        #expect(box.text == "Provider failure: b (banner) — its provider took longer than 300 ms")
        // Nothing failed: the screen as it was.
        #expect(AdminSite.showingFailures(in: Self.screen, template: Self.template, reports: [Self.report("a", .shown)]) == Self.screen)
    }

    @Test("a fallback is labelled before it: a version before the kind cannot draw it; a later one that draws it itself shows its own")
    func fallbackLabels() throws {
        let catalog = try WidgetCatalog([Self.banner])
        let reports = [Self.report("a", .fallback(.kindNotRendered)), Self.report("c", .fallback(.unavailable(.providerFailed("down"))))]
        func labels(version: Int) -> [String] {
            let labelled = AdminSite.labellingFallbacks(
                in: Self.screen, reports: reports, catalog: catalog, version: version, context: "Android at API version \(version)")
            return labelled.sections[0].components.compactMap { component in
                guard case .text(let text) = component.content, component.id?.hasPrefix("preview fallback ") == true else { return nil }
                return "\(component.id ?? ""): \(text.text)"
            }
        }
        #expect(
            labels(version: 4) == [
                "preview fallback a: Fallback: Android at API version 4 cannot draw banner; shown as a bold line of text",
                "preview fallback c: Provider failure: its provider failed (down); a stand-in shown",
            ])
        #expect(labels(version: 6).first == "preview fallback a: Fallback: an app that draws banner itself shows its own here; shown as a bold line of text")
        // Each label comes right before its widget.
        let labelled = AdminSite.labellingFallbacks(in: Self.screen, reports: reports, catalog: catalog, version: 6, context: "iOS")
        #expect(labelled.sections[0].components.compactMap(\.id) == ["preview fallback a", "a", "preview fallback c", "c"])
        let css = AdminSite.fateMarks(column: "draft", reports: reports)
        #expect(css.contains(#"#preview-draft .rendered [data-node="id:a"]{outline:2px dotted"#))
        #expect(css.contains(#"#preview-draft .rendered [data-node="id:c"]{outline:2px dashed"#))
        // A stand-in for a reason that is no provider's failure (the request was cancelled) is not called one.
        let cancelled = [Self.report("a", .fallback(.unavailable(.cancelled)))]
        let standIn = AdminSite.labellingFallbacks(in: Self.screen, reports: cancelled, catalog: catalog, version: 6, context: "iOS")
        guard case .text(let words) = standIn.sections[0].components[0].content else {
            Issue.record("a label first")
            return
        }
        #expect(words.text == "A stand-in shown: the request was cancelled")
        #expect(AdminSite.fateMarks(column: "live", reports: cancelled).contains(#"[data-node="id:a"]{outline:2px dotted"#))
    }

    @Test("the appearance is light unless dark is asked for")
    func appearance() {
        #expect(AdminSite.appearance(["appearance": "dark"]) == "dark")
        #expect(AdminSite.appearance(["appearance": "DARK<script>"]) == "light")
        #expect(AdminSite.appearance([:]) == "light")
    }
}

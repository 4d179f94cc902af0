import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import Testing

@testable import ScreenplayAdmin

/// A value pasted whole (a 10 000-character title, a long experiment definition, a long
/// parameter) is cut where the admin lists it, the whole of it a click away where it matters.
@Suite("Admin: long values elided")
struct LongValueTests {
    static func page(title: String) -> PageTemplate {
        PageTemplate(
            route: "shop", title: title, revision: 1,
            sections: [.init(id: "top", widgets: [WidgetInstance(id: "a", kind: "promo", vertical: "marketing")])])
    }

    @Test("a change list cuts a long line at 300 characters and keeps the whole of it in a disclosure; short lines stay whole")
    func changeLists() throws {
        let long = String(repeating: "Spring sale ", count: 900)
        let html = AdminSite.changeList(TemplateDiff(from: Self.page(title: "Shop"), to: Self.page(title: long)), id: "changes", caption: "What will change")
        let item = try #require(html.firstMatch(of: /<li class="change changed">(.*?)<details class="whole">/)).output.1
        #expect(item.count < 400 && item.hasSuffix("…"), "\(item.count) characters before the disclosure")
        #expect(html.contains("The whole of it ("), "the whole a click away")
        let short = AdminSite.changeList(TemplateDiff(from: Self.page(title: "Shop"), to: Self.page(title: "Store")), id: "changes", caption: "c")
        #expect(!short.contains("<details"), "\(short)")
    }

    @Test("an audit detail's summary is cut like any value, and a long definition says it shows only its beginning")
    func auditDetails() {
        let definition = "{\"variants\":[" + String(repeating: "{\"name\":\"x\",\"weight\":1},", count: 400) + "]}"
        let html = AdminSite.auditDetail(String(repeating: "word ", count: 400) + " — " + definition)
        #expect(html.contains("The definition (its first 4000 of \(definition.count) characters)"), "\(html.prefix(200))")
        #expect(html.contains("The whole of it (2000 characters)"))
        let small = AdminSite.auditDetail("started cta-test — {\"variants\":[]}")
        #expect(small.contains("<summary>The definition</summary>") && !small.contains("first 4000"))
        let before = AdminSite.auditDetail("changed cta-test — was " + definition)
        #expect(before.contains("<summary>The definition before (its first 4000 of \(definition.count) characters)</summary>"), "\(before.prefix(200))")
    }

    @Test("a card's parameter line cuts a value over 60 characters with an ellipsis")
    func parameterLines() {
        let widget = WidgetInstance(id: "a", kind: "promo", vertical: "marketing", parameters: ["slot": .string(String(repeating: "x", count: 100)), "n": 3])
        #expect(AdminSite.parameterSummary(widget) == "n 3; slot " + String(repeating: "x", count: 59) + "…")
        let exact = WidgetInstance(id: "a", kind: "promo", vertical: "marketing", parameters: ["slot": .string(String(repeating: "x", count: 60))])
        #expect(AdminSite.parameterSummary(exact) == "slot " + String(repeating: "x", count: 60))
    }
}

import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import Testing

/// What a publish, a rollback or an audit row says changed between two layouts.
@Suite("TemplateDiff")
struct TemplateDiffTests {
    static func widget(_ id: String, _ kind: String = "banner", parameters: JSONValue = [:]) -> WidgetInstance {
        WidgetInstance(id: id, kind: kind, vertical: "shop", parameters: parameters)
    }

    static func page(_ sections: [(String, [WidgetInstance])], title: String = "Shop") -> PageTemplate {
        PageTemplate(route: "shop", title: title, revision: 1, sections: sections.map { .init(id: $0.0, widgets: $0.1) })
    }

    static let base = page([("top", [widget("a"), widget("b"), widget("c"), widget("d")]), ("deals", [widget("e"), widget("f")])])

    @Test("the same layout has no changes")
    func identical() {
        let diff = TemplateDiff(from: Self.base, to: Self.base)
        #expect(diff.isEmpty)
        #expect(diff.summary() == "no change")
    }

    @Test("a change to a widget's content alone is a change, named by field and locale")
    func contentChanges() {
        var changed = Self.widget("a")
        changed.content = ["headline": ["en": "Deal of the week", "de": "Angebot"], "link": "screens/shop"]
        var before = Self.widget("a")
        before.content = ["headline": ["en": "Deal of the week", "de": "Angebot der Woche"]]
        let diff = TemplateDiff(from: Self.page([("top", [before])]), to: Self.page([("top", [changed])]))
        #expect(!diff.isEmpty)
        #expect(diff.lines == ["Changed a: content: headline (de) “Angebot der Woche” → “Angebot”, link none → “screens/shop”"], "\(diff.lines)")
    }

    @Test("one widget dragged to the top is the one named as moved, not the three it passed")
    func fewestMoves() {
        let new = Self.page([("top", [Self.widget("d"), Self.widget("a"), Self.widget("b"), Self.widget("c")]), ("deals", [Self.widget("e"), Self.widget("f")])])
        let diff = TemplateDiff(from: Self.base, to: new)
        #expect(diff.changes == [.movedWidget(id: "d", fromSection: "top", fromPosition: 4, toSection: "top", toPosition: 1)])
        #expect(diff.movedWidgets == ["d"])
        #expect(diff.lines == ["Moved d in top from position 4 to 1"])
    }

    @Test("of two that swapped below an added widget, the one whose place changed is named, not the one still at its position")
    func movedIsTheOneThatMoved() {
        let old = Self.page([("top", [Self.widget("a"), Self.widget("b")])])
        let new = Self.page([("top", [Self.widget("new"), Self.widget("b"), Self.widget("a")])])
        let diff = TemplateDiff(from: old, to: new)
        #expect(diff.movedWidgets == ["a"], "b is at position 2 before and after")
        #expect(diff.lines.contains("Moved a in top from position 1 to 3"))
        // Neighbours swapped: the one moved up with "Move up", the one moved down with "Move down".
        let three = Self.page([("top", [Self.widget("a"), Self.widget("b"), Self.widget("c")])])
        #expect(TemplateDiff(from: three, to: Self.page([("top", [Self.widget("a"), Self.widget("c"), Self.widget("b")])])).movedWidgets == ["c"])
        #expect(TemplateDiff(from: three, to: Self.page([("top", [Self.widget("b"), Self.widget("a"), Self.widget("c")])])).movedWidgets == ["a"])
        // Long sections keep the fewest moves (the tie-break is skipped past a thousand).
        let many = (0..<1_500).map { Self.widget("w\($0)") }
        let rotated = Self.page([("top", Array(many.dropFirst()) + [many[0]])])
        #expect(TemplateDiff(from: Self.page([("top", many)]), to: rotated).movedWidgets == ["w0"])
    }

    @Test("a changed widget says what each setting was and is, in words, long values cut")
    func settingsInWords() {
        var before = Self.widget("offer", parameters: ["workID": 21, "title": .string(String(repeating: "x", count: 100))])
        var after = Self.widget("offer", parameters: ["workID": 6, "title": "Spring", "tags": ["a", "b"]])
        before.conditions.experiment = ExperimentCondition(key: "shop", variants: ["banner"])
        before.conditions.window = DateWindow(start: Date(timeIntervalSince1970: 1_800_000_000), end: nil)
        after.conditions.platforms = [Platform("android"), Platform("web")]
        after.conditions.apiVersions = APIVersionRange(minimum: APIVersion(4), maximum: nil)
        after.conditions.segments = ["beta"]
        let diff = TemplateDiff(from: Self.page([("top", [before])]), to: Self.page([("top", [after])]))
        #expect(
            diff.lines == [
                "Changed offer: tags none → [\"a\",\"b\"], title “\(String(repeating: "x", count: 38))… → “Spring”, workID 21 → 6, "
                    + "who sees it: platforms every → android, web, app versions every → 4 and later, segments everyone → beta, "
                    + "experiment shop: banner → none, schedule 2027-01-15T08:00:00Z to no end → always"
            ])
    }

    @Test("removing a widget shifts the others' positions without calling them moved")
    func removalIsNotAMove() {
        let new = Self.page([("top", [Self.widget("a"), Self.widget("c"), Self.widget("d")]), ("deals", [Self.widget("e"), Self.widget("f")])])
        #expect(TemplateDiff(from: Self.base, to: new).changes == [.removedWidget(id: "b", kind: "banner", section: "top")])
    }

    @Test("added, removed, moved across sections and changed, each named once, in reading order")
    func everyKind() {
        var changedC = Self.widget("c", parameters: ["title": "Sale", "count": 3])
        changedC.conditions.platforms = [.iOS]
        changedC.isEnabled = false
        let new = Self.page(
            [
                ("top", [Self.widget("a"), Self.widget("new", "carousel"), changedC]),
                ("deals", [Self.widget("e"), Self.widget("b"), Self.widget("f")]),
            ], title: "Shop!")
        let diff = TemplateDiff(from: Self.base, to: new)
        #expect(
            diff.changes == [
                .retitledPage(from: "Shop", to: "Shop!"),
                .addedWidget(id: "new", kind: "carousel", section: "top", position: 2),
                .changedWidget(
                    id: "c",
                    aspects: [
                        .parameters([.init(name: "count", from: "none", to: "3"), .init(name: "title", from: "none", to: "“Sale”")]),
                        .conditions([.init(name: "platforms", from: "every", to: "ios")]), .switched(on: false),
                    ]),
                .movedWidget(id: "b", fromSection: "top", fromPosition: 2, toSection: "deals", toPosition: 2),
                .removedWidget(id: "d", kind: "banner", section: "top"),
            ])
        #expect(diff.addedWidgets == ["new"])
        #expect(diff.changedWidgets == ["c"])
        #expect(diff.removedWidgets == ["d"])
        #expect(diff.lines[2] == "Changed c: count none → 3, title none → “Sale”, who sees it: platforms every → ios, switched off")
        #expect(diff.lines[3] == "Moved b from top (position 2) to deals (position 2)")
    }

    @Test("sections added, removed, reordered and retitled")
    func sections() {
        let deals = PageTemplate.Section(id: "deals", title: "Today only", widgets: [Self.widget("e"), Self.widget("f")])
        let new = PageTemplate(
            route: "shop", title: "Shop", revision: 2,
            sections: [deals, .init(id: "fresh", widgets: [])] + [.init(id: "top", widgets: Self.base.sections[0].widgets)])
        let diff = TemplateDiff(from: Self.base, to: new)
        #expect(diff.changes.contains(.retitledSection(id: "deals", from: nil, to: "Today only")))
        #expect(diff.changes.contains(.addedSection(id: "fresh", position: 2, widgets: [])))
        // Two sections swapped: one of them moved, not both.
        #expect(diff.changes.filter { if case .movedSection = $0 { true } else { false } }.count == 1)
        #expect(!diff.changes.contains { if case .movedWidget = $0 { true } else { false } })
    }

    @Test("a section removed with its widgets is one change naming them; a widget moved out of it first is a move")
    func removedSectionWithWidgets() {
        let new = Self.page([("top", [Self.widget("a"), Self.widget("b"), Self.widget("c"), Self.widget("d"), Self.widget("f")])])
        let diff = TemplateDiff(from: Self.base, to: new)
        #expect(
            diff.changes == [
                .removedSection(id: "deals", widgets: ["e"]),
                .movedWidget(id: "f", fromSection: "deals", fromPosition: 2, toSection: "top", toPosition: 5),
            ])
        #expect(diff.removedWidgets == ["e"])
        #expect(diff.lines[0] == "Removed section deals and its 1 widget: e")
    }

    @Test("against nothing, everything is added; the summary is cut at its limit")
    func fromNothingAndCut() {
        let diff = TemplateDiff(from: nil, to: Self.base)
        #expect(diff.addedWidgets == ["a", "b", "c", "d", "e", "f"])
        #expect(diff.changes == [.addedSection(id: "top", position: 1, widgets: ["a", "b", "c", "d"]), .addedSection(id: "deals", position: 2, widgets: ["e", "f"])])
        #expect(diff.lines[0] == "Added section top (position 1) with 4 widgets: a, b, c, d")
        let summary = diff.summary(limit: 40)
        #expect(summary.count == 40)
        #expect(summary.hasSuffix("…"))
    }
}

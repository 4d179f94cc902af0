import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import Testing

/// Layout edits as data: each edit on a template, its label, its refusals, and its JSON.
@Suite("DraftEdit")
struct DraftEditTests {
    static func widget(_ id: String, kind: String = "banner") -> WidgetInstance { WidgetInstance(id: id, kind: kind, vertical: "shop") }

    static let page = PageTemplate(
        route: "shop", title: "Shop", revision: 3,
        sections: [
            .init(id: "top", title: "Top", widgets: [widget("a"), widget("b")]), .init(id: "deals", widgets: [widget("c")]),
            .init(id: "empty", widgets: []),
        ])

    /// Each section's widget ids, in order: `top: a b | deals: c | empty:`.
    static func layout(_ template: PageTemplate) -> String {
        template.sections.map { "\($0.id):" + $0.widgets.map { " " + $0.id }.joined() }.joined(separator: " | ")
    }

    @Test("insert at a place, at the end, and past the end (the end)")
    func insert() throws {
        let placed = try DraftEdit.insert(Self.widget("n"), section: "top", index: 1).applied(to: Self.page)
        #expect(Self.layout(placed.template) == "top: a n b | deals: c | empty:")
        #expect(placed.label == "Added n (banner) to top")
        #expect(Self.layout(try DraftEdit.insert(Self.widget("n"), section: "deals", index: nil).applied(to: Self.page).template) == "top: a b | deals: c n | empty:")
        #expect(Self.layout(try DraftEdit.insert(Self.widget("n"), section: "top", index: 99).applied(to: Self.page).template) == "top: a b n | deals: c | empty:")
        #expect(Self.layout(try DraftEdit.insert(Self.widget("n"), section: "top", index: -4).applied(to: Self.page).template) == "top: n a b | deals: c | empty:")
    }

    @Test("change replaces the widget in its place; remove takes it off")
    func changeAndRemove() throws {
        var changed = Self.widget("b", kind: "promoBanner")
        changed.isEnabled = false
        let outcome = try DraftEdit.change(changed).applied(to: Self.page)
        #expect(outcome.template.sections[0].widgets[1] == changed)
        #expect(outcome.label == "Changed b's settings")
        let removed = try DraftEdit.remove(widget: "a").applied(to: Self.page)
        #expect(Self.layout(removed.template) == "top: b | deals: c | empty:")
        #expect(removed.label == "Removed a")
    }

    @Test("move to a place counted without the widget, across sections, clamped to the section")
    func move() throws {
        let across = try DraftEdit.move(widget: "a", section: "deals", index: 1).applied(to: Self.page)
        #expect(Self.layout(across.template) == "top: b | deals: c a | empty:")
        #expect(across.label == "Moved a to deals, position 2")
        #expect(Self.layout(try DraftEdit.move(widget: "a", section: "top", index: 1).applied(to: Self.page).template) == "top: b a | deals: c | empty:")
        let clamped = try DraftEdit.move(widget: "c", section: "empty", index: 7).applied(to: Self.page)
        #expect(Self.layout(clamped.template) == "top: a b | deals: | empty: c")
        #expect(clamped.label == "Moved c to empty, position 1")
    }

    @Test("nudge: one place within the section; past its end, to the neighbouring section's near end; at the page's ends, nowhere")
    func nudge() throws {
        #expect(Self.layout(try DraftEdit.nudge(widget: "a", by: 1).applied(to: Self.page).template) == "top: b a | deals: c | empty:")
        let down = try DraftEdit.nudge(widget: "b", by: 1).applied(to: Self.page)
        #expect(Self.layout(down.template) == "top: a | deals: b c | empty:")
        #expect(down.label == "Moved b down")
        #expect(Self.layout(try DraftEdit.nudge(widget: "c", by: -1).applied(to: Self.page).template) == "top: a b c | deals: | empty:")
        #expect(Self.layout(try DraftEdit.nudge(widget: "a", by: -1).applied(to: Self.page).template) == "top: a b | deals: c | empty:")
        #expect(Self.layout(try DraftEdit.nudge(widget: "c", by: 1).applied(to: Self.page).template) == "top: a b | deals: | empty: c")
        #expect(throws: DraftEdit.Refusal.self) { try DraftEdit.nudge(widget: "a", by: 2).applied(to: Self.page) }
    }

    @Test("sections: add at the end, retitle, move (not past the ends), remove only when empty")
    func sections() throws {
        let added = try DraftEdit.addSection(id: "more", title: "More").applied(to: Self.page)
        #expect(added.template.sections.last == .init(id: "more", title: "More", widgets: []))
        #expect(added.label == "Added section more")
        #expect(try DraftEdit.retitleSection(id: "top", title: nil).applied(to: Self.page).template.sections[0].title == nil)
        #expect(Self.layout(try DraftEdit.moveSection(id: "deals", by: -1).applied(to: Self.page).template) == "deals: c | top: a b | empty:")
        #expect(try DraftEdit.moveSection(id: "top", by: -1).applied(to: Self.page).template == Self.page)
        #expect(Self.layout(try DraftEdit.removeSection(id: "empty").applied(to: Self.page).template) == "top: a b | deals: c")
        do {
            _ = try DraftEdit.removeSection(id: "deals").applied(to: Self.page)
            Issue.record("a section with a widget was removed")
        } catch {
            #expect(error.description == "$.sections[1]: section 'deals' still has 1 widget(s); move or remove them first")
        }
    }

    @Test("an edit naming a widget or section the page does not have is refused, saying what the page has")
    func refusals() {
        for edit in [
            DraftEdit.remove(widget: "zz"), .change(Self.widget("zz")), .move(widget: "zz", section: "top", index: 0), .nudge(widget: "zz", by: 1),
        ] {
            #expect(throws: DraftEdit.Refusal(path: "$", message: "the page has no widget 'zz'")) { try edit.applied(to: Self.page) }
        }
        #expect(throws: DraftEdit.Refusal(path: "$", message: "the page has no section 'nope' (it has top, deals, empty)")) {
            try DraftEdit.insert(Self.widget("n"), section: "nope", index: 0).applied(to: Self.page)
        }
        #expect(throws: DraftEdit.Refusal.self) { try DraftEdit.move(widget: "a", section: "nope", index: 0).applied(to: Self.page) }
    }

    @Test("a list applies in order, labels joined; its first refusal names the edit's place and nothing is half done")
    func lists() throws {
        let both = try DraftEdit.applied([.nudge(widget: "a", by: 1), .remove(widget: "c")], to: Self.page)
        #expect(Self.layout(both.template) == "top: b a | deals: | empty:")
        #expect(both.label == "Moved a down; Removed c")
        #expect(throws: DraftEdit.Refusal(path: "edits[1]: $", message: "the page has no widget 'a'")) {
            try DraftEdit.applied([.remove(widget: "a"), .remove(widget: "a")], to: Self.page)
        }
    }

    @Test("JSON: every operation round-trips; an unknown op or a missing field is an error naming it")
    func json() throws {
        let edits: [DraftEdit] = [
            .insert(Self.widget("n"), section: "top", index: 0), .insert(Self.widget("m"), section: "top", index: nil), .change(Self.widget("a")),
            .remove(widget: "a"), .move(widget: "a", section: "deals", index: 2), .nudge(widget: "b", by: -1), .addSection(id: "more", title: nil),
            .retitleSection(id: "top", title: "Top"), .moveSection(id: "top", by: 1), .removeSection(id: "empty"),
        ]
        let data = try JSONEncoder().encode(edits)
        #expect(try JSONDecoder().decode([DraftEdit].self, from: data) == edits)
        #expect(Set(edits.map { try! JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) as! [String: Any] }.compactMap { $0["op"] as? String }) == Set(DraftEdit.operations))
        #expect(try JSONDecoder().decode(DraftEdit.self, from: Data(#"{"op": "nudge", "id": "a", "by": 1}"#.utf8)) == .nudge(widget: "a", by: 1))
        do {
            _ = try JSONDecoder().decode(DraftEdit.self, from: Data(#"{"op": "explode", "id": "a"}"#.utf8))
            Issue.record("an unknown op was read")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.map(\.stringValue) == ["op"])
            #expect(context.debugDescription.contains("no edit 'explode'"))
        }
        do {
            _ = try JSONDecoder().decode(DraftEdit.self, from: Data(#"{"op": "move", "id": "a", "section": "top"}"#.utf8))
            Issue.record("a move without its index was read")
        } catch let DecodingError.keyNotFound(key, _) {
            #expect(key.stringValue == "index")
        }
    }
}

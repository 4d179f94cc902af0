import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

/// A migrated store with a layout store over it; the shop live at revision 1 with sections
/// `main` (a, b, c) and `side` (d), every widget with a parameter `x`.
private func withShop<Result>(_ backend: StoreBackend, _ body: (LayoutStore) async throws -> Result) async throws -> Result {
    try await withStore(backend) { store async throws in
        try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
        let layouts = LayoutStore(store: store)
        try await layouts.saveDraft(shop(main: ["a", "b", "c"], side: ["d"]), by: "setup")
        _ = try await layouts.publish(route: "shop", by: "setup")
        return try await body(layouts)
    }
}

private func shop(main: [String], side: [String], x: [String: Int] = [:]) -> PageTemplate {
    func widget(_ id: String) -> WidgetInstance {
        WidgetInstance(id: id, kind: "banner", vertical: "promotions", parameters: ["x": .integer(x[id] ?? 0)])
    }
    return PageTemplate(
        route: "shop", title: "Shop", revision: 0,
        sections: [.init(id: "main", widgets: main.map(widget)), .init(id: "side", widgets: side.map(widget))])
}

/// The draft (or the live page) as the editor reads it.
private func current(_ layouts: LayoutStore) async throws -> PageTemplate {
    if let draft = try await layouts.draft(of: "shop") { return draft.template }
    return try #require(try await layouts.published(route: "shop")).template
}

/// One editor action: what `change` does to the page as read, saved as `actor`'s step `label`.
private func act(_ layouts: LayoutStore, _ actor: String, _ label: String, _ change: (inout PageTemplate) -> Void) async throws {
    var template = try await current(layouts)
    let read = template
    change(&template)
    try await layouts.saveDraft(template, by: actor, replacing: read, step: label)
}

private func order(_ template: PageTemplate, _ section: String = "main") -> [String] {
    template.sections.first { $0.id == section }?.widgets.map(\.id) ?? []
}

private func x(_ template: PageTemplate, _ id: String) -> Int? {
    template.instances.first { $0.id == id }?.parameters["x"]?.integerValue
}

private func move(_ id: String, by step: Int) -> (inout PageTemplate) -> Void {
    { template in
        for section in template.sections.indices {
            guard let index = template.sections[section].widgets.firstIndex(where: { $0.id == id }) else { continue }
            let widget = template.sections[section].widgets.remove(at: index)
            template.sections[section].widgets.insert(widget, at: max(0, min(index + step, template.sections[section].widgets.count)))
            return
        }
    }
}

private func set(_ id: String, x value: Int) -> (inout PageTemplate) -> Void {
    { template in
        for section in template.sections.indices {
            for index in template.sections[section].widgets.indices where template.sections[section].widgets[index].id == id {
                template.sections[section].widgets[index].parameters = ["x": .integer(value)]
            }
        }
    }
}

/// Tests of logic above the store run on SQLite only; those that run SQL of their own (the
/// shared key's insert, the history's queries) run on PostgreSQL too, keeping the suite's
/// connections to the test cluster down.
@Suite("Undo and redo, each editor's own")
struct DraftStepsTests {
    @Test("each editor undoes only their own change, named for the widget it moved, and others' changes stay", arguments: StoreBackend.allCases)
    func ownSteps(backend: StoreBackend) async throws {
        try await withShop(backend) { layouts in
            try await act(layouts, "ada", "Moved a down", move("a", by: 1))
            try await act(layouts, "bob", "Changed d's settings", set("d", x: 7))
            #expect(try await layouts.steps(of: "shop", by: "ada").undo?.label == "Moved a down")
            #expect(try await layouts.steps(of: "shop", by: "bob").undo?.label == "Changed d's settings")

            // Ada's undo takes back her move, not bob's newer change.
            let undone = try await layouts.undo(route: "shop", by: "ada")
            #expect(undone.label == "Moved a down")
            var page = try await current(layouts)
            #expect(order(page) == ["a", "b", "c"])
            #expect(x(page, "d") == 7, "bob's change stays")
            #expect(try await layouts.steps(of: "shop", by: "ada").redo?.label == "Moved a down")
            #expect(try await layouts.steps(of: "shop", by: "bob").redo == nil)
            #expect(try await layouts.auditLog(subject: "shop").first?.detail.hasPrefix("undid “Moved a down”") == true)

            // Bob's undo takes back his, and leaves ada's redo to her.
            #expect(try await layouts.undo(route: "shop", by: "bob").label == "Changed d's settings")
            page = try await current(layouts)
            #expect(x(page, "d") == 0)
            #expect(try await layouts.redo(route: "shop", by: "ada").label == "Moved a down")
            page = try await current(layouts)
            #expect(order(page) == ["b", "a", "c"] && x(page, "d") == 0)
            await #expect(throws: LayoutError.self) { try await layouts.redo(route: "shop", by: "ada") }
        }
    }

    @Test("an undo someone has since built on is refused in words and changes nothing; one beside their change goes through", arguments: [StoreBackend.sqlite])
    func builtOn(backend: StoreBackend) async throws {
        try await withShop(backend) { layouts in
            try await act(layouts, "ada", "Changed a's settings", set("a", x: 1))
            try await act(layouts, "bob", "Changed a's settings", set("a", x: 2))
            do {
                try await layouts.undo(route: "shop", by: "ada")
                Issue.record("ada's undo took back bob's change to the same widget")
            } catch {
                guard case .stepRefused(_, let reason)? = error as? LayoutError else { throw error }
                #expect(reason.contains("“Changed a's settings”") && reason.contains("widget a") && reason.contains("bob"), "\(reason)")
            }
            #expect(x(try await current(layouts), "a") == 2, "nothing changed")

            // A widget bob adds to the section ada reordered stays, beside its neighbour.
            try await act(layouts, "ada", "Moved b down", move("b", by: 1))
            try await act(layouts, "bob", "Added z (banner) to main") { template in
                template.sections[0].widgets.append(WidgetInstance(id: "z", kind: "banner", vertical: "promotions"))
            }
            #expect(try await layouts.undo(route: "shop", by: "ada").label == "Moved b down")
            #expect(order(try await current(layouts)) == ["a", "b", "c", "z"])

            // Bob moving the widget ada moved is building on it: her redo is refused.
            try await act(layouts, "bob", "Moved b up", move("b", by: -1))
            await #expect(throws: LayoutError.self) { try await layouts.redo(route: "shop", by: "ada") }
            #expect(order(try await current(layouts)) == ["b", "a", "c", "z"])
        }
    }

    @Test("25 steps each way, newest first; a new step empties the redo stack; the Undo button's step or nothing", arguments: StoreBackend.allCases)
    func manySteps(backend: StoreBackend) async throws {
        try await withShop(backend) { layouts in
            for value in 1...25 { try await act(layouts, "ada", "Changed c's settings to \(value)", set("c", x: value)) }
            #expect(try await layouts.steps(of: "shop", by: "ada").undoCount == 25)
            let stale = try #require(try await layouts.steps(of: "shop", by: "ada").undo)
            for value in stride(from: 25, through: 1, by: -1) {
                #expect(try await layouts.undo(route: "shop", by: "ada").label == "Changed c's settings to \(value)")
                #expect(x(try await current(layouts), "c") == value - 1)
            }
            #expect(try await layouts.draft(of: "shop") == nil, "back to the live page: no draft")
            await #expect(throws: LayoutError.self) { try await layouts.undo(route: "shop", by: "ada") }
            // An Undo form showing a step that is not the newest any more does nothing.
            for _ in 1...3 { try await layouts.redo(route: "shop", by: "ada") }
            await #expect(throws: LayoutError.self) { try await layouts.undo(route: "shop", by: "ada", step: stale.id) }
            #expect(x(try await current(layouts), "c") == 3)
            for value in 4...25 {
                #expect(try await layouts.redo(route: "shop", by: "ada").label == "Changed c's settings to \(value)")
            }
            #expect(x(try await current(layouts), "c") == 25)
            for _ in 1...5 { try await layouts.undo(route: "shop", by: "ada") }
            try await act(layouts, "ada", "Moved a down", move("a", by: 1))
            let steps = try await layouts.steps(of: "shop", by: "ada")
            #expect(steps.redo == nil && steps.undoCount == 21 && steps.undo?.label == "Moved a down")
            // Publishing ends every step: the draft they were made on is gone.
            _ = try await layouts.publish(route: "shop", by: "ada")
            #expect(try await layouts.steps(of: "shop", by: "ada") == EditorSteps.none)
        }
    }

    @Test("a draft's version moves with every change; a write naming an older one is refused saying who changed what since", arguments: StoreBackend.allCases)
    func versions(backend: StoreBackend) async throws {
        try await withShop(backend) { layouts in
            try await act(layouts, "ada", "Moved a down", move("a", by: 1))
            let read = try #require(try await layouts.draft(of: "shop"))
            try await act(layouts, "bob", "Changed d's settings", set("d", x: 9))
            let now = try #require(try await layouts.draft(of: "shop"))
            #expect(now.version != read.version)
            do {
                try await layouts.saveDraft(read.template, by: "ada", expecting: .version(read.version))
                Issue.record("a save naming an older version of the draft went through")
            } catch {
                guard case .stale(let stale)? = error as? LayoutError else { throw error }
                #expect(stale.currentVersion == now.version && stale.changedBy == "bob")
                #expect(stale.changes?.contains("bob: Changed d's settings") == true, "\(stale.changes ?? "")")
                #expect(stale.changes?.contains("x 0 → 9") == true, "\(stale.changes ?? "")")
            }
            #expect(x(try await current(layouts), "d") == 9)
            try await layouts.saveDraft(read.template, by: "ada", expecting: .version(now.version))
            await #expect(throws: LayoutError.self) { try await layouts.publish(route: "shop", by: "ada", expecting: .version(now.version)) }
            await #expect(throws: LayoutError.self) { try await layouts.saveDraft(read.template, by: "ada", expecting: .absent) }
            let live = try #require(try await layouts.published(route: "shop"))
            let published = try await layouts.publish(route: "shop", by: "ada", expecting: .present)
            #expect(published.version != live.version)
            do {
                _ = try await layouts.rollback(route: "shop", to: 1, by: "ada", expecting: .version(live.version))
                Issue.record("a rollback naming an older live revision went through")
            } catch {
                guard case .stale(let stale)? = error as? LayoutError else { throw error }
                #expect(stale.changes?.hasPrefix("revision 2 is live now, not 1") == true, "\(stale.changes ?? "")")
            }
            _ = try await layouts.setEnabled(false, instance: "d", route: "shop", by: "ada", expecting: .version(published.version))
        }
    }

    @Test("merging a step: someone else's widget stays after the neighbour it had")
    func reorder() {
        #expect(DraftMergeProbe.reorder(old: ["a", "b", "c"], new: ["b", "a", "c"], now: ["a", "z", "b", "c"]) == ["b", "a", "z", "c"])
        #expect(DraftMergeProbe.reorder(old: ["a", "b"], new: ["b", "a"], now: ["y", "z", "a", "b"]) == ["y", "z", "b", "a"])
        #expect(DraftMergeProbe.reorder(old: ["a", "b"], new: ["b", "a"], now: ["b", "a"]) == nil, "someone already moved them")
    }
}

/// The merge's reordering, through its public entry point (one section, only the order changes).
private enum DraftMergeProbe {
    static func reorder(old: [String], new: [String], now: [String]) -> [String]? {
        func page(_ ids: [String]) -> PageTemplate {
            PageTemplate(
                route: "p", title: "P", revision: 0,
                sections: [.init(id: "s", widgets: ids.map { WidgetInstance(id: $0, kind: "k", vertical: "v") })])
        }
        guard case .success(let merged) = DraftMerge.apply(from: page(old), to: page(new), onto: page(now)) else { return nil }
        return merged.sections[0].widgets.map(\.id)
    }
}

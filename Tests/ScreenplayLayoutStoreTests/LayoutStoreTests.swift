import Foundation
import SQLKit
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayStore

/// Runs `body` with a migrated in-memory store and a layout store over it whose validator
/// refuses widgets of kind `broken` (at their JSON path) and warns about kind `old`.
private func withLayouts<Result>(
    _ backend: StoreBackend, limits: LayoutStore.Limits = .init(), _ body: (any SQLStore, LayoutStore) async throws -> Result
) async throws -> Result {
    try await withStore(backend) { store async throws in
        try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
        let layouts = LayoutStore(store: store, limits: limits) { template in
            var problems: [TemplateProblem] = []
            for (s, section) in template.sections.enumerated() {
                for (w, widget) in section.widgets.enumerated() where widget.kind == "broken" || widget.kind == "old" {
                    problems.append(
                        .init(
                            path: "$.sections[\(s)].widgets[\(w)].kind", message: "kind '\(widget.kind)'", isWarning: widget.kind == "old"))
                }
            }
            return problems
        }
        return try await body(store, layouts)
    }
}

private func template(_ route: String = "shop", title: String = "Shop", widgets: [String], kind: String = "banner") -> PageTemplate {
    PageTemplate(
        route: route, title: title, revision: 0,
        sections: [.init(id: "main", widgets: widgets.map { WidgetInstance(id: $0, kind: kind, vertical: "promotions") })])
}

private struct Interrupted: Error {}

@Suite("LayoutStore")
struct LayoutStoreTests {
    @Test("a draft is invisible until published; publishing makes revision 1 live, clears the draft and is audited", arguments: StoreBackend.allCases)
    func draftThenPublish(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template(widgets: ["a", "b"]), by: "ada")
            #expect(try await layouts.published(route: "shop") == nil)
            #expect(try await layouts.draft(of: "shop")?.template.instances.map(\.id) == ["a", "b"])

            let published = try await layouts.publish(route: "shop", by: "ada", note: "first")
            #expect(published.revision == 1)
            #expect(published.template.revision == 1)
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.revision == 1 && live.publishedBy == "ada" && live.note == "first")
            #expect(live.template.instances.map(\.id) == ["a", "b"])
            #expect(try await layouts.draft(of: "shop") == nil)
            let audit = try await layouts.auditLog(subject: "shop")
            #expect(audit.map(\.action) == ["publish", "save draft"])
            #expect(audit.first?.revision == 1 && audit.first?.actor == "ada")
            // Every row says what changed: the first save against nothing, the publish its note and changes.
            #expect(audit[1].detail == "Added section main (position 1) with 2 widgets: a, b", "\(audit[1].detail)")
            #expect(audit[0].detail.hasPrefix("first — Added section main"), "\(audit[0].detail)")

            // A second save says what it changed against the draft it replaced, not the live page.
            try await layouts.saveDraft(template(widgets: ["b", "a"]), by: "ada")
            try await layouts.saveDraft(template(widgets: ["b", "a", "c"]), by: "ada")
            #expect(try await layouts.auditLog(subject: "shop").first?.detail == "Added c (banner) to main, position 3")
        }
    }

    @Test("discarding says what was thrown away, against the live page", arguments: StoreBackend.allCases)
    func discard(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            #expect(try await layouts.discardDraft(of: "shop", by: "ada") == false, "no draft, nothing to discard")
            try await layouts.saveDraft(template(widgets: ["a", "b"]), by: "ada")
            try await layouts.discardDraft(of: "shop", by: "ada")
            let discarded = try #require(try await layouts.auditLog(subject: "shop").first)
            #expect(discarded.action == "discard draft")
            #expect(discarded.detail == "threw away: Added b (banner) to main, position 2", "\(discarded.detail)")
            #expect(try await layouts.published(route: "shop")?.template.instances.map(\.id) == ["a"])
        }
    }

    @Test("a save naming what it changed, or a publish naming the draft it reviewed, is refused once someone else saved", arguments: StoreBackend.allCases)
    func optimisticChecks(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            let live = try #require(try await layouts.published(route: "shop")).template
            // Before there is a draft, the change is made to the live page.
            try await layouts.saveDraft(template(widgets: ["a", "b"]), by: "ada", replacing: live)
            let read = try #require(try await layouts.draft(of: "shop")).template
            try await layouts.saveDraft(template(widgets: ["a", "b", "c"]), by: "bob", replacing: read)
            await #expect(throws: LayoutError.draftChanged(route: "shop")) {
                try await layouts.saveDraft(template(widgets: ["b", "a"]), by: "ada", replacing: read)
            }
            #expect(try await layouts.draft(of: "shop")?.template.instances.map(\.id) == ["a", "b", "c"], "bob's save kept")
            await #expect(throws: LayoutError.draftChanged(route: "shop")) {
                try await layouts.publish(route: "shop", by: "ada", expectedDraft: read.digest)
            }
            #expect(try await layouts.published(route: "shop")?.revision == 1)
            let current = try #require(try await layouts.draft(of: "shop")).template
            #expect(try await layouts.publish(route: "shop", by: "ada", expectedDraft: current.digest).revision == 2)
        }
    }

    @Test("publishing without a draft, or an unknown revision, is a clear error", arguments: StoreBackend.allCases)
    func missing(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            await #expect(throws: LayoutError.noDraft(route: "shop")) { try await layouts.publish(route: "shop", by: "ada") }
            await #expect(throws: LayoutError.noSuchRevision(route: "shop", revision: 3)) {
                try await layouts.rollback(route: "shop", to: 3, by: "ada")
            }
            await #expect(throws: LayoutError.notPublished(route: "shop")) {
                try await layouts.setEnabled(false, instance: "a", route: "shop", by: "ada")
            }
        }
    }

    @Test("a template with errors is refused with their JSON paths; warnings pass", arguments: StoreBackend.allCases)
    func validation(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            do {
                try await layouts.saveDraft(
                    PageTemplate(
                        route: "shop", title: "Shop", revision: 0,
                        sections: [
                            .init(
                                id: "main",
                                widgets: [.init(id: "ok", kind: "banner", vertical: "v"), .init(id: "x", kind: "broken", vertical: "v")])
                        ]), by: "ada")
                Issue.record("a broken widget was saved")
            } catch LayoutError.invalid(let problems) {
                #expect(problems.map(\.path) == ["$.sections[0].widgets[1].kind"])
            }
            #expect(try await layouts.draft(of: "shop") == nil)
            try await layouts.saveDraft(template(widgets: ["w"], kind: "old"), by: "ada")
            #expect(try await layouts.publish(route: "shop", by: "ada").revision == 1)
        }
    }

    @Test("the limits: widgets per page, bytes, route length", arguments: StoreBackend.allCases)
    func limits(backend: StoreBackend) async throws {
        try await withLayouts(backend, limits: .init(templateBytes: 2_000, widgets: 5, routeCharacters: 10)) { _, layouts in
            for (candidate, path) in [
                (template(widgets: (0..<6).map { "w\($0)" }), "$.sections"),
                (template(title: String(repeating: "T", count: 3_000), widgets: ["a"]), "$"),
                (template("a-very-long-route", widgets: ["a"]), "$.route"),
            ] {
                do {
                    try await layouts.saveDraft(candidate, by: "ada")
                    Issue.record("saved a template over the limits (\(path))")
                } catch LayoutError.invalid(let problems) {
                    #expect(problems.map(\.path) == [path], "\(problems)")
                }
            }
            #expect(try await layouts.pages().isEmpty)
        }
    }

    @Test("a failure in the middle of publishing leaves the old revision live and the draft in place", arguments: StoreBackend.allCases)
    func interruptedPublish(backend: StoreBackend) async throws {
        try await withLayouts(backend) { store, layouts in
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.saveDraft(template(title: "New shop", widgets: ["a", "b"]), by: "bob")
            let auditBefore = try await rowCount(of: "screenplay_layout_audit", in: store)

            await #expect(throws: LayoutError.self) {
                try await layouts.publish(route: "shop", by: "bob") { throw Interrupted() }
            }
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.revision == 1 && live.template.title == "Shop")
            #expect(try await layouts.draft(of: "shop")?.template.title == "New shop")
            #expect(try await layouts.history(of: "shop").map(\.revision) == [1])
            #expect(try await rowCount(of: "screenplay_layout_audit", in: store) == auditBefore)

            #expect(try await layouts.publish(route: "shop", by: "bob").revision == 2)
            #expect(try await layouts.published(route: "shop")?.template.title == "New shop")
        }
    }

    @Test("a publish over a revision the editor did not see is a conflict and changes nothing", arguments: StoreBackend.allCases)
    func conflict(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada", expectedLive: 0)
            try await layouts.saveDraft(template(widgets: ["b"]), by: "bob")
            await #expect(throws: LayoutError.conflict(route: "shop", expected: 0, live: 1)) {
                try await layouts.publish(route: "shop", by: "bob", expectedLive: 0)
            }
            #expect(try await layouts.published(route: "shop")?.revision == 1)
            #expect(try await layouts.publish(route: "shop", by: "bob", expectedLive: 1).revision == 2)
        }
    }

    @Test("rollback publishes a copy of any older revision as the newest; history keeps everything", arguments: StoreBackend.allCases)
    func rollback(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            for (title, widgets) in [("One", ["a"]), ("Two", ["a", "b"]), ("Three", ["c"])] {
                try await layouts.saveDraft(template(title: title, widgets: widgets), by: "ada")
                _ = try await layouts.publish(route: "shop", by: "ada")
            }
            try await layouts.saveDraft(template(title: "Draft", widgets: ["d"]), by: "ada")
            let rolledBack = try await layouts.rollback(route: "shop", to: 1, by: "bob")
            #expect(rolledBack.revision == 4)
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.revision == 4 && live.template.title == "One" && live.template.instances.map(\.id) == ["a"])
            #expect(try await layouts.history(of: "shop").map(\.revision) == [4, 3, 2, 1])
            #expect(try await layouts.history(of: "shop").first?.note == "rollback to revision 1")
            #expect(try await layouts.revision(2, of: "shop").template.title == "Two")
            #expect(try await layouts.draft(of: "shop")?.template.title == "Draft", "a rollback leaves the draft alone")
            #expect(try await layouts.auditLog(subject: "shop").first?.action == "rollback")
            // From "Three" (c) back to "One" (a).
            #expect(
                try await layouts.auditLog(subject: "shop").first?.detail
                    == "rollback to revision 1 — Page title “Three” → “One”; Added a (banner) to main, position 1; Removed c (banner) from main")
        }
    }

    @Test("the kill switch publishes at once, follows into the draft, and works even on a template that no longer validates", arguments: StoreBackend.allCases)
    func killSwitch(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template(widgets: ["a", "b"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.saveDraft(template(title: "Draft", widgets: ["b", "c"]), by: "ada")

            let killed = try await layouts.setEnabled(false, instance: "b", route: "shop", by: "oncall")
            #expect(killed.revision == 2)
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.template.instances.map(\.isEnabled) == [true, false])
            let draft = try #require(try await layouts.draft(of: "shop"))
            #expect(draft.template.title == "Draft")
            #expect(draft.template.instances.map(\.isEnabled) == [false, true], "the draft's b is off too; c untouched")
            await #expect(throws: LayoutError.noSuchWidget(route: "shop", instance: "zzz")) {
                try await layouts.setEnabled(false, instance: "zzz", route: "shop", by: "oncall")
            }
            #expect(try await layouts.auditLog(subject: "shop").first?.action == "disable widget")
            #expect(try await layouts.auditLog(subject: "shop").first?.detail == "b switched off")
            // Switching it off again changes nothing: no new revision, no audit entry.
            #expect(try await layouts.setEnabled(false, instance: "b", route: "shop", by: "oncall").revision == 2)
            #expect(try await layouts.history(of: "shop").count == 2)
            #expect(try await layouts.auditLog(subject: "shop").filter { $0.action == "disable widget" }.count == 1)
        }
    }

    @Test("the kill switch works on a live template that no longer validates (its kind was removed)", arguments: StoreBackend.allCases)
    func killSwitchSkipsValidation(backend: StoreBackend) async throws {
        try await withLayouts(backend) { store, strict in
            // Published while the kind still existed (a validator that accepted it).
            let lenient = LayoutStore(store: store)
            try await lenient.saveDraft(template(widgets: ["a", "b"], kind: "broken"), by: "ada")
            _ = try await lenient.publish(route: "shop", by: "ada")
            await #expect(throws: LayoutError.self) { try await strict.rollback(route: "shop", to: 1, by: "ada") }
            let killed = try await strict.setEnabled(false, instance: "a", route: "shop", by: "oncall")
            #expect(killed.revision == 2 && killed.template.instances.map(\.isEnabled) == [false, true])
        }
    }

    @Test("kill switches and publishes racing each other all land, one revision each, none lost", arguments: StoreBackend.allCases)
    func concurrentSwitches(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            let ids = (0..<12).map { "w\($0)" }
            try await layouts.saveDraft(template(widgets: ids), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids {
                    group.addTask { _ = try await layouts.setEnabled(false, instance: id, route: "shop", by: "oncall") }
                }
                try await group.waitForAll()
            }
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.revision == 13)
            #expect(live.template.instances.allSatisfy { !$0.isEnabled })
            #expect(try await layouts.history(of: "shop").map(\.revision) == Array((1...13).reversed()))
        }
    }

    @Test("pages lists published routes and drafts, with titles and revisions", arguments: StoreBackend.allCases)
    func pages(backend: StoreBackend) async throws {
        try await withLayouts(backend) { _, layouts in
            try await layouts.saveDraft(template("shop", widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.saveDraft(template("home", title: "Home", widgets: ["a"]), by: "bob")
            let pages = try await layouts.pages()
            #expect(pages.map(\.route) == ["home", "shop"])
            #expect(pages[0].liveRevision == nil && pages[0].draftUpdatedBy == "bob")
            #expect(pages[1].liveRevision == 1 && pages[1].title == "Shop" && pages[1].draftUpdatedBy == nil)
        }
    }

    @Test("revisions survive reopening the database file")
    func persisted() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("layouts.sqlite").path
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try await withFileStore(at: path) { store in
                try await Migrator(LayoutStore.migrations).run(on: store)
                let layouts = LayoutStore(store: store)
                try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
                _ = try await layouts.publish(route: "shop", by: "ada")
            }
            try await withFileStore(at: path) { store in
                try await Migrator(LayoutStore.migrations).run(on: store)
                #expect(try await LayoutStore(store: store).published(route: "shop")?.template.instances.map(\.id) == ["a"])
            }
        }
    }
}

@Suite("ExperimentStore")
struct ExperimentStoreTests {
    private func withExperiments<Result>(
        _ backend: StoreBackend, _ body: (any SQLStore, ExperimentStore, LayoutStore) async throws -> Result
    ) async throws -> Result {
        try await withStore(backend) { store async throws in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
            return try await body(store, ExperimentStore(store: store), LayoutStore(store: store))
        }
    }

    @Test("experiments are saved, read back whole, changed and deleted, each change audited", arguments: StoreBackend.allCases)
    func lifecycle(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, layouts in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let banner = Experiment(
                key: "home-banner", variants: [.init("control", weight: 1), .init("treatment", weight: 3)], targetSegment: "beta",
                start: start, stop: start.addingTimeInterval(86_400))
            try await experiments.save(banner, by: "ada")
            #expect(try await experiments.experiment("home-banner") == banner)
            var changed = banner
            changed.variants[1].weight = 1
            try await experiments.save(changed, by: "bob")
            #expect(try await experiments.catalog()["home-banner"]?.variants.map(\.weight) == [1, 1])
            #expect(try await experiments.delete("home-banner", by: "bob"))
            #expect(try await experiments.all().isEmpty)
            #expect(try await experiments.delete("home-banner", by: "bob") == false)
            let audit = try await layouts.auditLog(subject: "experiment:home-banner")
            #expect(audit.map(\.action) == ["delete experiment", "change experiment", "create experiment"])
            // Each row says what happened in words, then keeps the JSON.
            #expect(
                audit[2].detail.hasPrefix(
                    "created: variants control 1, treatment 3; segment beta; runs from 2026-09-21 14:13:20 UTC until 2026-09-22 14:13:20 UTC — {"))
            #expect(audit[1].detail.hasPrefix("weight treatment 3 → 1 — was {"), "\(audit[1].detail)")
            #expect(audit[1].detail.contains(#""weight":3"#), "a change records what it replaced")
            #expect(audit[0].detail.hasPrefix("deleted: it had variants control 1, treatment 1; segment beta; ran from 2026-09-21 14:13:20 UTC"))
            #expect(audit[0].detail.contains(#"— was {"key":"home-banner""#), "a deletion records what it removed")
        }
    }

    @Test("a change's audit row summarises it before the JSON it replaced; saving the same definition again says no change",
          arguments: StoreBackend.allCases)
    func changeSummaryInAudit(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, layouts in
            let old = Experiment(key: "teaser", variants: [.init("control", weight: 2), .init("banner", weight: 1)])
            try await experiments.save(old, by: "ada")
            let december = Date(timeIntervalSince1970: 1_796_083_200)
            // A fraction of a second is not stored, so it is not a change either.
            let new = Experiment(
                key: "teaser", variants: [.init("control", weight: 1), .init("banner", weight: 3)], targetSegment: "beta-testers",
                start: december.addingTimeInterval(0.25), stop: december.addingTimeInterval(7 * 86_400))
            try await experiments.save(new, by: "bob")
            try await experiments.save(new, by: "bob")
            let audit = try await layouts.auditLog(subject: "experiment:teaser")
            #expect(audit.map(\.action) == ["change experiment", "change experiment", "create experiment"])
            #expect(audit.map(\.actor) == ["bob", "bob", "ada"])
            let previous = #"{"key":"teaser","variants":[{"name":"control","weight":2},{"name":"banner","weight":1}]}"#
            #expect(
                audit[1].detail
                    == "weights control 2 → 1, banner 1 → 3; segment none → beta-testers; starts at once → 2026-12-01 00:00 UTC; "
                    + "stops never → 2026-12-08 00:00 UTC — was \(previous)")
            #expect(audit[0].detail.hasPrefix("no change — was {"))
        }
    }

    @Test("an experiment that a live page or a draft names cannot be deleted; once no page names it, it can", arguments: StoreBackend.allCases)
    func deleteInUse(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, layouts in
            try await experiments.save(Experiment(key: "teaser", variants: [.init("a", weight: 1), .init("b", weight: 1)]), by: "ada")
            let named = WidgetInstance(
                id: "t", kind: "banner", vertical: "promotions", conditions: WidgetConditions(experiment: .init("teaser", is: "b")))
            var page = template(widgets: [])
            page.sections[0].widgets = [named]
            try await layouts.saveDraft(page, by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            var sale = template("sale", widgets: [])
            sale.sections[0].widgets = [named]
            try await layouts.saveDraft(sale, by: "ada")
            do {
                try await experiments.delete("teaser", by: "bob")
                Issue.record("deleted an experiment two pages name")
            } catch LayoutError.experimentInUse(let key, let routes) {
                #expect(key == "teaser" && routes == ["sale", "shop"])
            }
            #expect(try await experiments.experiment("teaser") != nil, "nothing deleted")
            // The live page stops naming it; an older revision that does is history, not in use.
            try await layouts.saveDraft(template(widgets: ["plain"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.discardDraft(of: "sale", by: "ada")
            #expect(try await experiments.delete("teaser", by: "bob"))
        }
    }

    @Test("a variant a page names cannot be renamed or removed (the widget would never show); weights and other variants can change", arguments: StoreBackend.allCases)
    func variantInUse(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, layouts in
            try await experiments.save(Experiment(key: "teaser", variants: [.init("a", weight: 1), .init("b", weight: 1)]), by: "ada")
            var page = template(widgets: [])
            page.sections[0].widgets = [
                WidgetInstance(id: "t", kind: "banner", vertical: "promotions", conditions: WidgetConditions(experiment: .init("teaser", is: "b")))
            ]
            try await layouts.saveDraft(page, by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            // Renaming b (the live page shows widget t to it) is refused at the variants box.
            do {
                try await experiments.save(Experiment(key: "teaser", variants: [.init("a", weight: 1), .init("bee", weight: 1)]), by: "bob")
                Issue.record("renamed a variant the live page names")
            } catch LayoutError.invalid(let problems) {
                #expect(problems.map(\.path) == ["$.variants"])
                #expect(problems.first?.message.contains("variant 'b' is shown by widget t on shop (live)") == true, "\(problems)")
            }
            #expect(try await experiments.experiment("teaser")?.variants.map(\.name) == ["a", "b"], "nothing saved")
            // Turning b off (weight 0), or removing a, is fine: the widget's variant still exists.
            try await experiments.save(Experiment(key: "teaser", variants: [.init("b", weight: 0), .init("c", weight: 1)]), by: "bob")
            // A draft naming it counts too, and says so.
            page.sections[0].widgets[0].conditions = WidgetConditions(experiment: .init("teaser", is: "c"))
            try await layouts.saveDraft(page, by: "ada")
            do {
                try await experiments.save(Experiment(key: "teaser", variants: [.init("b", weight: 1)]), by: "bob")
                Issue.record("removed a variant a draft names")
            } catch LayoutError.invalid(let problems) {
                #expect(problems.map(\.message).contains { $0.contains("variant 'c' is shown by widget t on shop (draft)") }, "\(problems)")
            }
            // Once the live page and the draft name neither, both may go.
            try await layouts.saveDraft(template(widgets: ["plain"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await experiments.save(Experiment(key: "teaser", variants: [.init("z", weight: 1)]), by: "bob")
        }
    }

    @Test("the segments in use: named by live and draft widgets and targeted by experiments, each with where", arguments: StoreBackend.allCases)
    func segmentsInUse(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, layouts in
            #expect(try await experiments.segmentsInUse().isEmpty)
            var page = template(widgets: [])
            page.sections[0].widgets = [
                WidgetInstance(id: "t", kind: "banner", vertical: "promotions", conditions: WidgetConditions(segments: ["beta-testers", "vip"])),
                WidgetInstance(id: "u", kind: "banner", vertical: "promotions", conditions: WidgetConditions(segments: ["vip"])),
            ]
            try await layouts.saveDraft(page, by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            var sale = template("sale", widgets: [])
            sale.sections[0].widgets = [WidgetInstance(id: "s", kind: "banner", vertical: "promotions", conditions: WidgetConditions(segments: ["staff"]))]
            try await layouts.saveDraft(sale, by: "ada")
            try await experiments.save(
                Experiment(key: "teaser", variants: [.init("a", weight: 1)], targetSegment: "beta-testers"), by: "ada")
            let inUse = try await experiments.segmentsInUse()
            #expect(inUse == ["beta-testers": ["experiment teaser", "shop: t"], "vip": ["shop: t", "shop: u"], "staff": ["sale: s"]])
        }
    }

    @Test("an experiment with problems is refused with their JSON paths", arguments: StoreBackend.allCases)
    func invalid(backend: StoreBackend) async throws {
        try await withExperiments(backend) { _, experiments, _ in
            do {
                try await experiments.save(
                    Experiment(key: "bad key!", variants: [.init("a", weight: -1), .init("a", weight: 0)]), by: "ada")
                Issue.record("saved a broken experiment")
            } catch LayoutError.invalid(let problems) {
                #expect(Set(problems.map(\.path)) == ["$.key", "$.variants[0].weight", "$.variants[1].name", "$.variants"])
            }
            #expect(try await experiments.all().isEmpty)
        }
    }

    @Test("only the first exposure of a (user, experiment, variant) counts, across recorders sharing the database", arguments: StoreBackend.allCases)
    func firstExposures(backend: StoreBackend) async throws {
        try await withExperiments(backend) { store, experiments, _ in
            try await experiments.save(
                Experiment(key: "e", variants: [.init("a", weight: 1), .init("b", weight: 1), .init("c", weight: 1)]), by: "ada")
            let other = ExperimentStore(store: store)  // another replica: remembers nothing yet
            let now = Date()
            var firsts = 0
            for user in 0..<30 {
                let exposure = Exposure(userID: "\(user)", experiment: "e", variant: user % 2 == 0 ? "a" : "b", at: now)
                if try await experiments.recordFirstExposure(exposure) { firsts += 1 }
                #expect(try await experiments.recordFirstExposure(exposure) == false)
                #expect(try await other.recordFirstExposure(exposure) == false)
            }
            #expect(firsts == 30)
            #expect(try await rowCount(of: "screenplay_exposures", in: store) == 30)
            let report = try await experiments.report(for: "e")
            #expect(report.exposures == ["a": 15, "b": 15, "c": 0])
            #expect(report.total == 30)
        }
    }

    @Test("concurrent first exposures of one user from many pages count once", arguments: StoreBackend.allCases)
    func concurrentExposures(backend: StoreBackend) async throws {
        try await withExperiments(backend) { store, _, _ in
            let recorders = (0..<4).map { _ in ExperimentStore(store: store) }
            let exposure = Exposure(userID: "7", experiment: "e", variant: "a", at: Date())
            let firsts = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<40 { group.addTask { try await recorders[index % 4].recordFirstExposure(exposure) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(firsts == 1)
            #expect(try await rowCount(of: "screenplay_exposures", in: store) == 1)
        }
    }
}

@Suite("LiveTemplates")
struct LiveTemplatesTests {
    @Test("serves the live template from memory and follows publishes, rollbacks, switches and experiment changes", arguments: StoreBackend.allCases)
    func followsTheBus(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
            let bus = InProcessInvalidationBus()
            let layouts = LayoutStore(store: store, bus: bus)
            let experiments = ExperimentStore(store: store, bus: bus)
            let live = LiveTemplates(layouts: layouts, experiments: experiments, bus: bus)

            #expect(try await live.liveTemplate(for: "shop") == nil)
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            #expect(try await live.liveTemplate(for: "shop") == nil, "a draft is not live")
            _ = try await layouts.publish(route: "shop", by: "ada")
            #expect(try await live.liveTemplate(for: "shop")?.revision == 1, "a route published after the first read is found")

            try await layouts.saveDraft(template(title: "Two", widgets: ["a", "b"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            #expect(try await live.liveTemplate(for: "shop")?.title == "Two")
            _ = try await layouts.setEnabled(false, instance: "b", route: "shop", by: "oncall")
            #expect(try await live.liveTemplate(for: "shop")?.instances.map(\.isEnabled) == [true, false])
            _ = try await layouts.rollback(route: "shop", to: 1, by: "ada")
            #expect(try await live.liveTemplate(for: "shop")?.title == "Shop")

            #expect(try await live.experiments().experiments.isEmpty)
            try await experiments.save(Experiment(key: "e", variants: [.init("a", weight: 1)]), by: "ada")
            #expect(try await live.experiments()["e"] != nil)
        }
    }

    /// A store with the shop published (one widget, `a`) and live templates over it.
    static func withPublishedShop(_ backend: StoreBackend, _ body: (LayoutStore, LiveTemplates) async throws -> Void) async throws {
        try await withStore(backend) { store in
            try await Migrator(LayoutStore.migrations).run(on: store)
            let bus = InProcessInvalidationBus()
            let layouts = LayoutStore(store: store, bus: bus)
            let live = LiveTemplates(layouts: layouts, experiments: nil, bus: bus)
            try await layouts.saveDraft(template(widgets: ["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await body(layouts, live)
        }
    }

    @Test("after a publish, a hundred requests that miss at once share one read of the new template", arguments: StoreBackend.allCases)
    func missesShareOneRead(backend: StoreBackend) async throws {
        try await Self.withPublishedShop(backend) { layouts, live in
            _ = try await live.liveTemplate(for: "shop")
            _ = try await layouts.setEnabled(false, instance: "a", route: "shop", by: "oncall")
            let before = live.templatesRead
            let read = try await withThrowingTaskGroup(of: PageTemplate?.self) { group in
                for _ in 0..<100 { group.addTask { try await live.liveTemplate(for: "shop") } }
                return try await group.reduce(into: [PageTemplate?]()) { $0.append($1) }
            }
            #expect(Set(read.map { $0?.revision }) == [2], "every request got the new revision")
            #expect(live.templatesRead - before == 1, "one read for all: \(live.templatesRead - before)")
        }
    }

    @Test("a read that raced a publish is not kept", arguments: StoreBackend.allCases)
    func race(backend: StoreBackend) async throws {
        try await Self.withPublishedShop(backend) { layouts, live in
            // Many readers while many publishes land: once quiet, memory agrees with the store.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        if index % 2 == 0 {
                            _ = try await live.liveTemplate(for: "shop")
                        } else {
                            _ = try await layouts.setEnabled(index % 4 == 1, instance: "a", route: "shop", by: "x")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = try #require(try await layouts.published(route: "shop"))
            #expect(try await live.liveTemplate(for: "shop") == stored.template)
        }
    }
}

import Foundation
import SQLKit
import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// Runs `body` with a migrated store and a layout store that refuses widgets of kind `broken`.
private func withLayouts<Result>(_ backend: StoreBackend, _ body: (LayoutStore) async throws -> Result) async throws -> Result {
    try await withStore(backend) { store async throws in
        try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
        let layouts = LayoutStore(store: store) { template in
            template.instances.enumerated().compactMap { index, widget in
                widget.kind == "broken" ? TemplateProblem(path: "$.sections[0].widgets[\(index)].kind", message: "kind 'broken'") : nil
            }
        }
        return try await body(layouts)
    }
}

private func page(_ widgets: [String], kind: String = "banner") -> PageTemplate {
    PageTemplate(
        route: "shop", title: "Shop", revision: 0,
        sections: [.init(id: "main", widgets: widgets.map { WidgetInstance(id: $0, kind: kind, vertical: "promotions") })])
}

@Suite("LayoutStore: scheduled publishes")
struct ScheduledPublishTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("the draft as reviewed goes live at its time, not before, and not what was edited after scheduling", arguments: StoreBackend.allCases)
    func publishesWhatWasReviewed(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            try await layouts.saveDraft(page(["a"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.saveDraft(page(["a", "launch"]), by: "ada")
            let reviewed = try #require(try await layouts.draft(of: "shop")).template.digest
            let at = Self.now.addingTimeInterval(3_600)
            let schedule = try await layouts.schedulePublish(route: "shop", at: at, by: "ada", expectedDraft: reviewed, note: "launch", now: Self.now)
            #expect(schedule.at == at && schedule.scheduledBy == "ada")
            #expect(try await layouts.scheduledPublish(route: "shop")?.template.instances.map(\.id) == ["a", "launch"])
            // Edited on after scheduling: not part of the launch, and kept as the draft.
            try await layouts.saveDraft(page(["a", "launch", "later"]), by: "bob")

            #expect(try await layouts.publishDue(now: at.addingTimeInterval(-1)).isEmpty, "not before its time")
            #expect(try await layouts.published(route: "shop")?.revision == 1)
            let made = try await layouts.publishDue(now: at)
            #expect(made.map(\.revision) == [2])
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.template.instances.map(\.id) == ["a", "launch"])
            #expect(live.publishedBy == "ada")
            #expect(live.note == "scheduled for 2027-01-15T09:00:00Z: launch", "\(live.note)")
            #expect(try await layouts.draft(of: "shop")?.template.instances.map(\.id) == ["a", "launch", "later"], "the later edit stays a draft")
            #expect(try await layouts.scheduledPublish(route: "shop") == nil)
            #expect(try await layouts.publishDue(now: at.addingTimeInterval(60)).isEmpty, "published once")
            let actions = try await layouts.auditLog(subject: "shop").map(\.action)
            // Newest first: the publish as ada's, bob's later edit, the schedule.
            #expect(actions.prefix(3) == ["publish", "save draft", "schedule publish"], "\(actions)")
        }
    }

    @Test("a draft left as it was reviewed is cleared by the scheduled publish, as a publish clears it", arguments: StoreBackend.allCases)
    func clearsAnUnchangedDraft(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            try await layouts.saveDraft(page(["a"]), by: "ada")
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            #expect(try await layouts.publishDue(now: Self.now.addingTimeInterval(61)).map(\.revision) == [1])
            #expect(try await layouts.draft(of: "shop") == nil)
        }
    }

    @Test("a time not in the future, a draft changed since the review or no draft at all are refused; nothing is scheduled", arguments: StoreBackend.allCases)
    func refusals(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            await #expect(throws: LayoutError.noDraft(route: "shop")) {
                try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            }
            try await layouts.saveDraft(page(["a"]), by: "ada")
            do {
                _ = try await layouts.schedulePublish(route: "shop", at: Self.now, by: "ada", now: Self.now)
                Issue.record("a time that is now was accepted")
            } catch {
                guard case LayoutError.invalid(let problems)? = error as? LayoutError else { throw error }
                #expect(problems.map(\.path) == ["$.at"])
                #expect(problems.first?.message.contains("not in the future") == true)
            }
            await #expect(throws: LayoutError.draftChanged(route: "shop")) {
                try await layouts.schedulePublish(
                    route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", expectedDraft: page(["b"]).digest, now: Self.now)
            }
            #expect(try await layouts.scheduledPublishes().isEmpty)
        }
    }

    @Test("scheduling again replaces; a cancelled schedule publishes nothing; both are in the audit log", arguments: StoreBackend.allCases)
    func replaceAndCancel(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            try await layouts.saveDraft(page(["a"]), by: "ada")
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(120), by: "bob", now: Self.now)
            #expect(try await layouts.scheduledPublishes().map(\.scheduledBy) == ["bob"])
            #expect(try await layouts.publishDue(now: Self.now.addingTimeInterval(90)).isEmpty, "the first time was replaced")
            #expect(try await layouts.cancelScheduledPublish(route: "shop", by: "carol")?.scheduledBy == "bob")
            #expect(try await layouts.cancelScheduledPublish(route: "shop", by: "carol") == nil)
            #expect(try await layouts.publishDue(now: Self.now.addingTimeInterval(3_600)).isEmpty)
            #expect(try await layouts.published(route: "shop") == nil)
            let audit = try await layouts.auditLog(subject: "shop")
            #expect(audit.first?.action == "cancel scheduled publish" && audit.first?.actor == "carol")
            #expect(audit.first?.detail == "was to publish at 2027-01-15T08:02:00Z", "\(audit.first?.detail ?? "")")
        }
    }

    @Test("a schedule the live page moved on from (a kill switch since) is refused when due, said once, not published over it", arguments: StoreBackend.allCases)
    func liveMovedOn(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            try await layouts.saveDraft(page(["a", "b"]), by: "ada")
            _ = try await layouts.publish(route: "shop", by: "ada")
            try await layouts.saveDraft(page(["a", "b", "launch"]), by: "ada")
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            _ = try await layouts.setEnabled(false, instance: "b", route: "shop", by: "oncall")
            let looks = try await withThrowingTaskGroup(of: [PublishedRevision].self) { group in
                for _ in 0..<4 { group.addTask { try await layouts.publishDue(now: Self.now.addingTimeInterval(61)) } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(looks.isEmpty)
            let live = try #require(try await layouts.published(route: "shop"))
            #expect(live.revision == 2 && live.template.instances.first { $0.id == "b" }?.isEnabled == false, "the kill switch holds")
            #expect(try await layouts.scheduledPublishes().isEmpty)
            let refusals = try await layouts.auditLog(subject: "shop").filter { $0.action == "scheduled publish refused" }
            #expect(refusals.count == 1, "said once, whichever replica looked")
            #expect(refusals.first?.detail.contains("revision 2 went live after it was scheduled (against revision 1)") == true, "\(refusals)")
        }
    }

    @Test("replicas looking at once publish a due schedule once", arguments: StoreBackend.allCases)
    func onceAcrossReplicas(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            try await layouts.saveDraft(page(["a"]), by: "ada")
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            let made = try await withThrowingTaskGroup(of: [PublishedRevision].self) { group in
                for _ in 0..<6 { group.addTask { try await layouts.publishDue(now: Self.now.addingTimeInterval(61)) } }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(made.map(\.revision) == [1])
            #expect(try await layouts.history(of: "shop").map(\.revision) == [1])
        }
    }

    @Test("a schedule whose template is refused when due is removed and said, not retried forever", arguments: StoreBackend.allCases)
    func refusedWhenDue(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations).run(on: store)
            let refuses = RefusalSwitch()
            let layouts = LayoutStore(store: store) { _ in
                refuses.on ? [TemplateProblem(path: "$.sections[0].widgets[0].kind", message: "no widget kind 'banner'")] : []
            }
            try await layouts.saveDraft(page(["a"]), by: "ada")
            _ = try await layouts.schedulePublish(route: "shop", at: Self.now.addingTimeInterval(60), by: "ada", now: Self.now)
            refuses.on = true
            #expect(try await layouts.publishDue(now: Self.now.addingTimeInterval(61)).isEmpty)
            #expect(try await layouts.scheduledPublishes().isEmpty)
            #expect(try await layouts.published(route: "shop") == nil)
            let audit = try #require(try await layouts.auditLog(subject: "shop").first)
            #expect(audit.action == "scheduled publish refused" && audit.detail.contains("no widget kind 'banner'"), "\(audit)")
        }
    }
}

/// A validator's switch a test flips.
private final class RefusalSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var on: Bool {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

@Suite("LayoutStore: the audit log's filters and pages")
struct AuditQueryTests {
    @Test("filtered by page, person and action, searched by every word (any case, % and _ taken literally), read a page at a time", arguments: StoreBackend.allCases)
    func filtersAndPages(backend: StoreBackend) async throws {
        try await withLayouts(backend) { layouts in
            for index in 0..<7 {
                try await layouts.saveDraft(page(["w\(index)"]), by: index.isMultiple(of: 2) ? "ada" : "bob")
            }
            _ = try await layouts.publish(route: "shop", by: "bob", note: "Spring_sale 100% launch")
            var home = page(["h"])
            home.route = "home"
            try await layouts.saveDraft(home, by: "ada")

            let all = try await layouts.auditLog(AuditQuery(limit: 50))
            #expect(all.entries.count == 9 && all.next == nil)
            #expect(try await layouts.auditLog(AuditQuery(subject: "shop", limit: 50)).entries.count == 8)
            #expect(try await layouts.auditLog(AuditQuery(subject: "home")).entries.map(\.subject) == ["home"])
            #expect(try await layouts.auditLog(AuditQuery(actor: "bob")).entries.count == 4)
            #expect(try await layouts.auditLog(AuditQuery(actor: "bob", action: "publish")).entries.map(\.action) == ["publish"])
            // Words: all must appear, in any case; % and _ are themselves, not wildcards.
            #expect(try await layouts.auditLog(AuditQuery(text: "SPRING_SALE launch")).entries.map(\.action) == ["publish"])
            #expect(try await layouts.auditLog(AuditQuery(text: "100%")).entries.count == 1)
            #expect(try await layouts.auditLog(AuditQuery(text: "spring%sale")).entries.isEmpty)
            #expect(try await layouts.auditLog(AuditQuery(text: "w_")).entries.isEmpty, "_ is not any one character")
            #expect(try await layouts.auditLog(AuditQuery(text: "spring nothing")).entries.isEmpty)

            // Pages of four: newest first, each starting where the last ended, none twice, none lost.
            var seen: [Int64] = []
            var before: Int64?
            repeat {
                let page = try await layouts.auditLog(AuditQuery(before: before, limit: 4))
                seen += page.entries.map(\.id)
                before = page.next
            } while before != nil
            #expect(seen == all.entries.map(\.id))
            let facets = try await layouts.auditFacets()
            #expect(facets.subjects == ["home", "shop"] && facets.actors == ["ada", "bob"])
            #expect(facets.actions == ["publish", "save draft"])
            // Beyond ASCII, a word matches as it is written.
            try await layouts.saveDraft(page(["w0", "Änderung"]), by: "ada")
            #expect(try await layouts.auditLog(AuditQuery(text: "Änderung")).entries.count == 1)
        }
    }
}

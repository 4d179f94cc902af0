public import Foundation
import SQLKit
public import ScreenplayComposer
import ScreenplayStore

/// A reviewed draft to publish at a time: the launch at nine, the notice at midnight.
///
/// What is published is the draft as it was reviewed when the publish was scheduled, kept whole
/// here, not whatever the draft holds at the time: editing on after scheduling never slips an
/// unreviewed change into the launch. One per route; scheduling again replaces it. Every replica
/// runs a ``PublishScheduler``; the publish takes the route's turn, so exactly one of them makes it.
public struct ScheduledPublish: Sendable, Hashable {
    /// The page.
    public let route: String
    /// When it goes live (to the second).
    public let at: Date
    /// The reviewed draft.
    public let template: PageTemplate
    /// Who scheduled it: the publish is theirs in the history and the audit log.
    public let scheduledBy: String
    /// When it was scheduled (ISO 8601, UTC).
    public let scheduledAt: String
    /// The history's note for the revision.
    public let note: String
    /// The revision live when it was scheduled (0: none): if another goes live before its time (a
    /// publish, a rollback, a kill switch), it is not published over it unseen, but refused and said.
    public let liveRevision: Int

    /// The table.
    static let table = "screenplay_publish_schedules"

    static let migration = Migration(id: "screenplay-layout-0008-publish-schedules") { database in
        try await database.create(table: table)
            .column("route", type: .text, .primaryKey(autoIncrement: false))
            .column("at", type: .text, .notNull)
            .column("template", type: .text, .notNull)
            .column("scheduled_by", type: .text, .notNull)
            .column("scheduled_at", type: .text, .notNull)
            .column("note", type: .text, .notNull)
            .column("live_revision", type: .bigint, .notNull)
            .run()
    }

    init(row: any SQLRow) throws {
        route = try row.decode(column: "route", as: String.self)
        let text = try row.decode(column: "at", as: String.self)
        guard let moment = try? Date(text, strategy: .iso8601) else { throw LayoutError.store("a schedule's time '\(text)' is not ISO 8601") }
        at = moment
        template = try LayoutStore.decodeTemplate(try row.decode(column: "template", as: String.self))
        scheduledBy = try row.decode(column: "scheduled_by", as: String.self)
        scheduledAt = try row.decode(column: "scheduled_at", as: String.self)
        note = try row.decode(column: "note", as: String.self)
        liveRevision = try row.decode(column: "live_revision", as: Int.self)
    }

    /// The time as stored and compared (`2026-12-01T09:00:00Z`): strings of this one form sort
    /// as times do. Also how pages write it.
    public static func stored(_ date: Date) -> String { ISO8601.string(seconds: Int(date.timeIntervalSince1970.rounded(.down))) }
}

extension LayoutStore {
    /// Schedules the draft of `route` to be published at `at`, as reviewed: `expectedDraft` is
    /// the digest of the draft the review showed (``PageTemplate/digest``), and a draft saved
    /// since is ``LayoutError/draftChanged(route:)``. The draft is checked as a publish checks
    /// it. A time not in the future is refused at `$.at`. Replaces the route's schedule, if any;
    /// the audit log says who scheduled what for when.
    public func schedulePublish(
        route: String, at: Date, by actor: String, expectedDraft: String? = nil, note: String = "", now: Date = Date()
    ) async throws(LayoutError) -> ScheduledPublish {
        guard at.timeIntervalSince(now) >= 1 else {
            throw .invalid([TemplateProblem(path: "$.at", message: "\(ScheduledPublish.stored(at)) is not in the future (it is \(ScheduledPublish.stored(now)) now)")])
        }
        return try await guarded {
            try await store.transaction { [self] database in
                try await database.serializeTransactions(on: Self.lockKey(route))
                guard let draft = try await Self.draft(route: route, on: database) else { throw LayoutError.noDraft(route: route) }
                if let expectedDraft, draft.template.digest != expectedDraft { throw LayoutError.draftChanged(route: route) }
                var template = draft.template
                template.route = route
                let json = try checked(template)
                let when = ScheduledPublish.stored(at)
                let scheduledAt = ISO8601.now()
                let live = try await Self.newestNumber(route: route, on: database) ?? 0
                try await database.delete(from: ScheduledPublish.table).where("route", .equal, route).run()
                try await database.insert(into: ScheduledPublish.table)
                    .columns("route", "at", "template", "scheduled_by", "scheduled_at", "note", "live_revision")
                    .values(SQLBind(route), SQLBind(when), SQLBind(json), SQLBind(actor), SQLBind(scheduledAt), SQLBind(note), SQLBind(live))
                    .run()
                try await Self.audit(
                    actor: actor, action: "schedule publish", subject: route, revision: nil,
                    detail: "to publish at \(when)" + (note.isEmpty ? "" : " — \(note)"), on: database)
                guard let row = try await database.select().columns("*").from(ScheduledPublish.table).where("route", .equal, route).first() else {
                    throw LayoutError.store("the schedule of '\(route)' was not written")
                }
                return try ScheduledPublish(row: row)
            }
        }
    }

    /// The publish scheduled for `route`, if any.
    public func scheduledPublish(route: String) async throws(LayoutError) -> ScheduledPublish? {
        try await guarded {
            try await store.read { database in
                try await database.select().columns("*").from(ScheduledPublish.table).where("route", .equal, route).first()
                    .map(ScheduledPublish.init(row:))
            }
        }
    }

    /// Every scheduled publish, soonest first.
    public func scheduledPublishes() async throws(LayoutError) -> [ScheduledPublish] {
        try await guarded {
            try await store.read { database in
                try await database.select().columns("*").from(ScheduledPublish.table).orderBy("at").orderBy("route").all()
                    .map(ScheduledPublish.init(row:))
            }
        }
    }

    /// Cancels the publish scheduled for `route`; `nil` when there was none (cancelled or
    /// published meanwhile). Said in the audit log.
    @discardableResult
    public func cancelScheduledPublish(route: String, by actor: String) async throws(LayoutError) -> ScheduledPublish? {
        try await guarded {
            try await store.transaction { database in
                try await database.serializeTransactions(on: Self.lockKey(route))
                guard let row = try await database.select().columns("*").from(ScheduledPublish.table).where("route", .equal, route).first() else {
                    return nil
                }
                let schedule = try ScheduledPublish(row: row)
                try await database.delete(from: ScheduledPublish.table).where("route", .equal, route).run()
                try await Self.audit(
                    actor: actor, action: "cancel scheduled publish", subject: route, revision: nil,
                    detail: "was to publish at \(ScheduledPublish.stored(schedule.at))", on: database)
                return schedule
            }
        }
    }

    /// Publishes every schedule due at `now`, each as its scheduler's publish of the reviewed
    /// draft (the draft is cleared only if it is still that one); returns the revisions made.
    /// Replicas calling this at once take turns per route: the first publishes and removes the
    /// schedule, the others find it gone. A schedule the store refuses now (its kind removed
    /// since) is removed and said in the audit log, so it is not retried forever.
    public func publishDue(now: Date = Date()) async throws(LayoutError) -> [PublishedRevision] {
        let due = try await guarded {
            try await store.read { database in
                try await database.select().column("route").from(ScheduledPublish.table)
                    .where("at", .lessThanOrEqual, ScheduledPublish.stored(now)).orderBy("at").all()
                    .map { try $0.decode(column: "route", as: String.self) }
            }
        }
        var published: [PublishedRevision] = []
        var firstFailure: LayoutError?
        // Each schedule on its own: one that fails does not hold back the others.
        for route in due {
            do {
                if let revision = try await publishScheduled(route: route, now: now) { published.append(revision) }
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure, published.isEmpty { throw firstFailure }
        return published
    }

    /// Publishes the schedule of `route` if it is due and still the one read, as its scheduler's
    /// publish; `nil` when there is nothing to do (published or changed meanwhile). A schedule
    /// the live page moved on from, or the store refuses now, is removed and said in the audit log.
    private func publishScheduled(route: String, now: Date) async throws(LayoutError) -> PublishedRevision? {
        guard let schedule = try await scheduledPublish(route: route), schedule.at <= now else { return nil }
        let gone = "\u{0}the schedule is gone"
        do {
            let note = "scheduled for \(ScheduledPublish.stored(schedule.at))" + (schedule.note.isEmpty ? "" : ": \(schedule.note)")
            return try await commit(
                route: route, by: schedule.scheduledBy, action: "publish", note: note, clearsDraft: true, onlyDraft: schedule.template.digest
            ) { live, database in
                // Read again in the publishing transaction: gone (or made anew) means another
                // replica published it or someone changed it meanwhile; the next look sees what is.
                guard
                    let row = try await database.select().column("scheduled_at").from(ScheduledPublish.table).where("route", .equal, route)
                        .first(),
                    try row.decode(column: "scheduled_at", as: String.self) == schedule.scheduledAt
                else { throw LayoutError.stepRefused(route: route, reason: gone) }
                // Published over only the revision it was reviewed against.
                let current = live?.revision ?? 0
                guard current == schedule.liveRevision else {
                    throw LayoutError.stepRefused(
                        route: route,
                        reason: "revision \(current) went live after it was scheduled (against revision \(schedule.liveRevision)): review and schedule it again")
                }
                try await database.delete(from: ScheduledPublish.table).where("route", .equal, route).run()
                return (schedule.template, true)
            }
        } catch {
            // A switch, not `catch .invalid(…)` patterns: those crashed the compiler on typed throws.
            let reason: String
            switch error {
            case .stepRefused(_, let words) where words == gone: return nil
            case .stepRefused(_, let words): reason = words
            case .invalid(let problems): reason = problems.map(\.description).joined(separator: "; ")
            default: throw error
            }
            try await refuse(schedule, because: reason)
            return nil
        }
    }

    /// Removes `schedule` and says why in the audit log, once: under the route's turn, and only
    /// while it is still there (replicas looking at once find it gone).
    private func refuse(_ schedule: ScheduledPublish, because reason: String) async throws(LayoutError) {
        try await guarded {
            try await store.transaction { database in
                try await database.serializeTransactions(on: Self.lockKey(schedule.route))
                guard
                    try await database.select().column("route").from(ScheduledPublish.table).where("route", .equal, schedule.route)
                        .where("scheduled_at", .equal, schedule.scheduledAt).first() != nil
                else { return }
                try await database.delete(from: ScheduledPublish.table).where("route", .equal, schedule.route).run()
                try await Self.audit(
                    actor: schedule.scheduledBy, action: "scheduled publish refused", subject: schedule.route, revision: nil, detail: reason,
                    on: database)
            }
        }
    }
}

/// Publishes scheduled publishes when they fall due: every replica runs one (a publish takes the
/// route's turn, so one replica makes it and the others find it done). It looks every
/// `interval`, so a publish lands within that of its time; the look is one indexed read.
public struct PublishScheduler: Sendable {
    let layouts: LayoutStore
    let interval: Duration
    let published: @Sendable (PublishedRevision) -> Void
    let failed: @Sendable (LayoutError) -> Void

    /// A scheduler over `layouts` looking every `interval` (a second by default); `published`
    /// hears each revision it makes, `failed` each look that failed (the next look tries again).
    public init(
        layouts: LayoutStore, interval: Duration = .seconds(1), published: @escaping @Sendable (PublishedRevision) -> Void = { _ in },
        failed: @escaping @Sendable (LayoutError) -> Void = { _ in }
    ) {
        self.layouts = layouts
        self.interval = interval
        self.published = published
        self.failed = failed
    }

    /// Looks until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            do {
                for revision in try await layouts.publishDue() { published(revision) }
            } catch {
                failed(error)
            }
            try? await Task.sleep(for: interval)
        }
    }
}

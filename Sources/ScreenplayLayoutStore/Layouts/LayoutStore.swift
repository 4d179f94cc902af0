import Foundation
import SQLKit
public import ScreenplayComposer
public import ScreenplayServer
public import ScreenplayStore

/// Page templates in the store: one draft per route that editors change freely, and the
/// published revisions, every one kept with who published it and when.
///
/// The live template of a route is its newest revision. Publishing inserts a revision, writes
/// the audit entry and clears the draft in one transaction, so a crash or an error at any point
/// leaves the previous revision live and the draft intact. Rolling back publishes a copy of an
/// older revision as the newest (history only grows, and the audit log says whose rollback it
/// was); the instant kill of a widget publishes the live template with that one switch flipped,
/// without touching anyone's draft beyond the same switch.
///
/// Templates are validated by the `validator` given at creation (the composer's catalog and
/// providers, see ``PageTemplate/validate(catalog:verticals:experiments:)``): a draft or a
/// publish with errors is refused with every problem's JSON path; warnings pass.
public struct LayoutStore: Sendable {
    /// Sizes that keep one hostile or mistaken editor from filling the database.
    public struct Limits: Sendable, Hashable {
        /// The largest template, as stored JSON.
        public var templateBytes: Int
        /// The most widget instances in one template.
        public var widgets: Int
        /// The longest route.
        public var routeCharacters: Int

        /// 256 KiB, 200 widgets, 128-character routes.
        public init(templateBytes: Int = 256 * 1024, widgets: Int = 200, routeCharacters: Int = 128) {
            self.templateBytes = templateBytes
            self.widgets = widgets
            self.routeCharacters = routeCharacters
        }
    }

    /// The tables: drafts, revisions, the audit log.
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0002-layouts") { database in
            try await database.create(table: "screenplay_page_drafts")
                .column("route", type: .text, .primaryKey(autoIncrement: false))
                .column("template", type: .text, .notNull)
                .column("based_on", type: .bigint, .notNull)
                .column("updated_by", type: .text, .notNull)
                .column("updated_at", type: .text, .notNull)
                .run()
            try await database.create(table: "screenplay_page_revisions")
                .column("route", type: .text, .notNull)
                .column("revision", type: .bigint, .notNull)
                .column("template", type: .text, .notNull)
                .column("published_by", type: .text, .notNull)
                .column("published_at", type: .text, .notNull)
                .column("note", type: .text, .notNull)
                .primaryKey("route", "revision")
                .run()
            try await database.create(table: "screenplay_layout_audit")
                .column("id", type: .bigint, .primaryKey(autoIncrement: true))
                .column("at", type: .text, .notNull)
                .column("actor", type: .text, .notNull)
                .column("action", type: .text, .notNull)
                .column("subject", type: .text, .notNull)
                .column("revision", type: .bigint)
                .column("detail", type: .text, .notNull)
                .run()
        },
        // The draft as it was before its last save: what "undo" restores ('' for "no draft").
        Migration(id: "screenplay-0006-draft-undo") { database in
            try await database.alter(table: "screenplay_page_drafts").column("previous", type: .text).run()
        },
    ]

    let store: any SQLStore
    /// Where publishes are announced (``Invalidation/pagePublished(route:)``), so every server's
    /// ``LiveTemplates`` drops the route.
    public let bus: (any InvalidationBus)?
    let validator: @Sendable (PageTemplate) -> [TemplateProblem]
    /// The limits in force.
    public let limits: Limits

    /// A layout store over `store` (run ``migrations`` first), checking templates with
    /// `validator` (by default only the store's own limits) and announcing publishes on `bus`.
    public init(
        store: any SQLStore, bus: (any InvalidationBus)? = nil, limits: Limits = Limits(),
        validator: @escaping @Sendable (PageTemplate) -> [TemplateProblem] = { _ in [] }
    ) {
        self.store = store
        self.bus = bus
        self.limits = limits
        self.validator = validator
    }

    // MARK: Reading

    /// Everything the validator says of `template`, warnings included: what an editor sees
    /// beside the fields before saving.
    public func problems(in template: PageTemplate) -> [TemplateProblem] { validator(template) }

    /// The live template of `route` (its newest revision), or `nil` when it was never published.
    public func published(route: String) async throws -> PublishedRevision? {
        try await store.read { database in try await Self.newest(route: route, on: database) }
    }

    /// Revision `number` of `route`.
    public func revision(_ number: Int, of route: String) async throws(LayoutError) -> PublishedRevision {
        let found = try await guarded {
            try await store.read { database in
                try await database.select().columns("*").from("screenplay_page_revisions")
                    .where("route", .equal, route).where("revision", .equal, number).first()
                    .map(PublishedRevision.init(row:))
            }
        }
        guard let found else { throw .noSuchRevision(route: route, revision: number) }
        return found
    }

    /// Every revision of `route`, newest first, without their templates.
    public func history(of route: String) async throws -> [RevisionSummary] {
        try await store.read { database in
            try await database.select().columns("revision", "published_by", "published_at", "note").from("screenplay_page_revisions")
                .where("route", .equal, route).orderBy("revision", .descending).all()
                .map(RevisionSummary.init(row:))
        }
    }

    /// The draft of `route`, if someone started one.
    public func draft(of route: String) async throws -> Draft? {
        try await store.read { database in
            try await database.select().columns("*").from("screenplay_page_drafts").where("route", .equal, route).first()
                .map(Draft.init(row:))
        }
    }

    /// Every route with a draft or a published revision, by route.
    public func pages() async throws -> [PageSummary] {
        try await store.read { database in
            let live = try await database.raw(
                """
                SELECT r.route AS route, r.revision AS revision, r.published_at AS published_at, r.template AS template
                FROM screenplay_page_revisions r
                WHERE r.revision = (SELECT MAX(revision) FROM screenplay_page_revisions WHERE route = r.route)
                """
            ).all()
            let drafts = try await database.select().columns("route", "updated_by", "updated_at").from("screenplay_page_drafts").all()
            var pages: [String: PageSummary] = [:]
            for row in live {
                let route = try row.decode(column: "route", as: String.self)
                let template = try Self.decodeTemplate(try row.decode(column: "template", as: String.self))
                pages[route] = PageSummary(
                    route: route, title: template.title, liveRevision: try row.decode(column: "revision", as: Int.self),
                    publishedAt: try row.decode(column: "published_at", as: String.self), draftUpdatedBy: nil, draftUpdatedAt: nil)
            }
            for row in drafts {
                let route = try row.decode(column: "route", as: String.self)
                var page = pages[route] ?? PageSummary(route: route, title: nil, liveRevision: nil, publishedAt: nil)
                page.draftUpdatedBy = try row.decode(column: "updated_by", as: String.self)
                page.draftUpdatedAt = try row.decode(column: "updated_at", as: String.self)
                pages[route] = page
            }
            return pages.values.sorted { $0.route < $1.route }
        }
    }

    /// The newest `limit` audit entries, newest first; only those about `subject` (a route or
    /// `experiment:KEY`) when given.
    public func auditLog(subject: String? = nil, limit: Int = 100) async throws -> [AuditEntry] {
        try await store.read { database in
            var query = database.select().columns("*").from("screenplay_layout_audit")
            if let subject { query = query.where("subject", .equal, subject) }
            return try await query.orderBy("id", .descending).limit(max(0, limit)).all().map(AuditEntry.init(row:))
        }
    }

    // MARK: Changing

    /// Saves `template` as the draft of its route, replacing any draft. `basedOn` is the live
    /// revision the editor started from (`nil`: the current one), so a publish can tell that
    /// someone else published in between. Refused when the template has errors.
    ///
    /// `replacing`: the template the change was made to (the draft, or the live page before
    /// there is one), as the editor read it. When the stored one differs by then, someone else
    /// saved meanwhile and the save is refused with ``LayoutError/draftChanged(route:)``, rather
    /// than writing over their change; `nil` replaces whatever is there.
    @discardableResult
    public func saveDraft(_ template: PageTemplate, by actor: String, replacing expected: PageTemplate? = nil) async throws(LayoutError) -> Draft {
        let json = try checked(template)
        let saved = try await guarded {
            try await store.transaction { database in
                try await database.serializeTransactions(on: Self.lockKey(template.route))
                let live = try await Self.newestNumber(route: template.route, on: database) ?? 0
                let existing = try await database.select().columns("based_on", "template").from("screenplay_page_drafts")
                    .where("route", .equal, template.route).first()
                // What undo goes back to: the draft this save replaces, or none ('').
                let undo = try existing?.decode(column: "template", as: String.self) ?? ""
                let basedOn = try existing?.decode(column: "based_on", as: Int.self) ?? live
                // What this save changed: against the draft it replaces, or the live page.
                let previous: PageTemplate? =
                    if let existing {
                        try Self.decodeTemplate(existing.decode(column: "template", as: String.self))
                    } else {
                        try await Self.newest(route: template.route, on: database)?.template
                    }
                if let expected, previous != expected { throw LayoutError.draftChanged(route: template.route) }
                let changes = TemplateDiff(from: previous, to: template).summary()
                let now = ISO8601.now()
                try await database.delete(from: "screenplay_page_drafts").where("route", .equal, template.route).run()
                try await database.insert(into: "screenplay_page_drafts")
                    .columns("route", "template", "based_on", "updated_by", "updated_at", "previous")
                    .values(SQLBind(template.route), SQLBind(json), SQLBind(basedOn), SQLBind(actor), SQLBind(now), SQLBind(undo))
                    .run()
                try await Self.audit(actor: actor, action: "save draft", subject: template.route, revision: nil, detail: changes, on: database)
                try await self.bus?.announce(.draftChanged(route: template.route), in: database)
                return Draft(template: template, basedOn: basedOn, updatedBy: actor, updatedAt: now, canUndo: true)
            }
        }
        return saved
    }

    /// Takes back the last save of `route`'s draft: the draft as it was before it, or no draft
    /// when that save started it. One step: the undone save cannot be redone, and a second undo
    /// has nothing to take back. Returns whether there was a save to undo.
    @discardableResult
    public func undoDraft(of route: String, by actor: String) async throws -> Bool {
        let undone = try await store.transaction { database in
            try await database.serializeTransactions(on: Self.lockKey(route))
            guard
                let row = try await database.select().columns("template", "previous").from("screenplay_page_drafts")
                    .where("route", .equal, route).first(),
                try !row.decodeNil(column: "previous")
            else { return false }
            let current = try Self.decodeTemplate(row.decode(column: "template", as: String.self))
            let previous = try row.decode(column: "previous", as: String.self)
            let restored: PageTemplate?
            if previous.isEmpty {
                restored = try await Self.newest(route: route, on: database)?.template
                try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run()
            } else {
                restored = try Self.decodeTemplate(previous)
                try await database.update("screenplay_page_drafts").set("template", to: previous).set("previous", to: SQLLiteral.null)
                    .set("updated_by", to: actor).set("updated_at", to: ISO8601.now())
                    .where("route", .equal, route).run()
            }
            let changes = restored.map { TemplateDiff(from: current, to: $0).summary() } ?? "back to no page"
            try await Self.audit(
                actor: actor, action: "undo draft", subject: route, revision: nil,
                detail: previous.isEmpty ? "draft discarded — \(changes)" : changes, on: database)
            try await self.bus?.announce(.draftChanged(route: route), in: database)
            return true
        }
        return undone
    }

    /// Throws the draft of `route` away (the live revision is untouched). Returns whether there was one.
    @discardableResult
    public func discardDraft(of route: String, by actor: String) async throws -> Bool {
        let discarded = try await store.transaction { database in
            try await database.serializeTransactions(on: Self.lockKey(route))
            guard
                let draft = try await database.select().column("template").from("screenplay_page_drafts").where("route", .equal, route)
                    .first()?.decode(column: "template", as: String.self)
            else { return false }
            try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run()
            // What was thrown away, against the live page it would have replaced.
            let live = try await Self.newest(route: route, on: database)?.template
            let thrown = (try? Self.decodeTemplate(draft)).map { TemplateDiff(from: live, to: $0).summary() } ?? "a draft that could not be read"
            try await Self.audit(
                actor: actor, action: "discard draft", subject: route, revision: nil, detail: "threw away: \(thrown)", on: database)
            try await self.bus?.announce(.draftChanged(route: route), in: database)
            return true
        }
        return discarded
    }

    /// Publishes the draft of `route` as its next revision and clears the draft, atomically.
    ///
    /// - Parameters:
    ///   - expectedLive: The revision the publisher saw live; when another publish happened
    ///     since, nothing changes and ``LayoutError/conflict(route:expected:live:)`` says so.
    ///     `nil` publishes over whatever is live.
    ///   - note: Why, for the history.
    ///   - interruption: Called inside the transaction after the revision row is written and
    ///     before the audit entry and the draft's removal: tests throw from it to show that a
    ///     failure there leaves the old revision live.
    public func publish(
        route: String, by actor: String, expectedLive: Int? = nil, expectedDraft: String? = nil, note: String = "",
        interruption: (@Sendable () throws -> Void)? = nil
    ) async throws(LayoutError) -> PublishedRevision {
        // The draft is read in the publishing transaction: a save landing meanwhile is either
        // published whole or kept as the draft, never lost. With `expectedDraft` (the
        // ``PageTemplate/digest`` of the draft someone reviewed), a draft changed since is refused.
        try await commit(route: route, by: actor, action: "publish", note: note, clearsDraft: true, interruption: interruption) {
            live, database in
            try Self.expect(expectedLive, live: live, route: route)
            guard let row = try await database.select().columns("*").from("screenplay_page_drafts").where("route", .equal, route).first()
            else { throw LayoutError.noDraft(route: route) }
            let draft = try Draft(row: row).template
            if let expectedDraft, draft.digest != expectedDraft { throw LayoutError.draftChanged(route: route) }
            return (draft, true)
        }
    }

    /// Makes revision `number` live again by publishing a copy of it as the newest revision.
    /// The draft, if any, stays as it is.
    public func rollback(
        route: String, to number: Int, by actor: String, expectedLive: Int? = nil
    ) async throws(LayoutError)
        -> PublishedRevision
    {
        try await commit(route: route, by: actor, action: "rollback", note: "rollback to revision \(number)", clearsDraft: false) {
            live, database in
            try Self.expect(expectedLive, live: live, route: route)
            guard
                let row = try await database.select().columns("*").from("screenplay_page_revisions").where("route", .equal, route)
                    .where("revision", .equal, number).first()
            else { throw LayoutError.noSuchRevision(route: route, revision: number) }
            return (try PublishedRevision(row: row).template, true)
        }
    }

    /// The instant kill (or revival) of one widget: publishes the live template with
    /// `instanceID`'s switch set to `enabled`, effective on the next request, and flips the same
    /// switch in the draft so the next publish does not undo it. Nothing else in the draft moves.
    ///
    /// A kill must work in an emergency: it applies to whatever is live when it commits, and the
    /// template is not re-validated (the widget's kind may be what was removed).
    public func setEnabled(
        _ enabled: Bool, instance instanceID: String, route: String, by actor: String
    ) async throws(LayoutError)
        -> PublishedRevision
    {
        // Already so: nothing to publish (a second click, or two admins at once, adds no revision).
        if let live = try await guarded({ try await published(route: route) }),
            live.template.instances.first(where: { $0.id == instanceID })?.isEnabled == enabled
        {
            return live
        }
        return try await commit(
            route: route, by: actor, action: enabled ? "enable widget" : "disable widget",
            note: "\(instanceID) switched \(enabled ? "on" : "off")", clearsDraft: false, detailsChanges: false
        ) { live, database in
            guard let live else { throw LayoutError.notPublished(route: route) }
            guard let template = Self.flipping(live.template, instanceID, enabled) else {
                throw LayoutError.noSuchWidget(route: route, instance: instanceID)
            }
            if let row = try await database.select().columns("*").from("screenplay_page_drafts").where("route", .equal, route).first(),
                let flipped = Self.flipping(try Draft(row: row).template, instanceID, enabled)
            {
                try await database.update("screenplay_page_drafts").set("template", to: try Self.encodeTemplate(flipped))
                    .where("route", .equal, route).run()
            }
            return (template, false)
        }
    }

    // MARK: Internals

    /// Publishes the next revision of `route`, in one transaction: `make` sees the live revision
    /// and returns the template to publish (and whether to validate it); then the revision row,
    /// the audit entry and, for a publish, the draft's removal. The audit entry's detail is the
    /// note and, when `detailsChanges`, what changed against the live revision.
    private func commit(
        route: String, by actor: String, action: String, note: String, clearsDraft: Bool, detailsChanges: Bool = true,
        interruption: (@Sendable () throws -> Void)? = nil,
        make: @escaping @Sendable (PublishedRevision?, any SQLDatabase) async throws -> (PageTemplate, validates: Bool)
    ) async throws(LayoutError) -> PublishedRevision {
        let published = try await guarded {
            try await store.transaction { [self] database in
                // Replicas publishing one route at once take turns: each sees the other's revision.
                try await database.serializeTransactions(on: Self.lockKey(route))
                let live = try await Self.newest(route: route, on: database)
                let (template, validates) = try await make(live, database)
                let number = (live?.revision ?? 0) + 1
                var stored = template
                stored.route = route
                stored.revision = number
                let json = try checked(stored, validates: validates)
                let now = ISO8601.now()
                try await database.insert(into: "screenplay_page_revisions")
                    .columns("route", "revision", "template", "published_by", "published_at", "note")
                    .values(SQLBind(route), SQLBind(number), SQLBind(json), SQLBind(actor), SQLBind(now), SQLBind(note))
                    .run()
                try interruption?()
                var detail = note
                if detailsChanges {
                    let changes = TemplateDiff(from: live?.template, to: stored).summary()
                    detail = note.isEmpty ? changes : "\(note) — \(changes)"
                }
                try await Self.audit(actor: actor, action: action, subject: route, revision: number, detail: detail, on: database)
                if clearsDraft { try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run() }
                try await self.bus?.announce(.pagePublished(route: route), in: database)
                return PublishedRevision(template: stored, revision: number, publishedBy: actor, publishedAt: now, note: note)
            }
        }
        return published
    }

    /// What writers of `route` take turns under (``SQLDatabase/serializeTransactions(on:)``).
    static func lockKey(_ route: String) -> String { "screenplay-layout:" + route }

    /// Throws ``LayoutError/conflict(route:expected:live:)`` unless `expected` is `nil` or the live revision.
    static func expect(_ expected: Int?, live: PublishedRevision?, route: String) throws(LayoutError) {
        if let expected, expected != (live?.revision ?? 0) {
            throw .conflict(route: route, expected: expected, live: live?.revision ?? 0)
        }
    }

    /// The stored JSON of `template`, or every reason it cannot be stored.
    private func checked(_ template: PageTemplate, validates: Bool = true) throws(LayoutError) -> String {
        var problems: [TemplateProblem] = []
        if template.route.count > limits.routeCharacters {
            problems.append(.init(path: "$.route", message: "\(template.route.count) characters; at most \(limits.routeCharacters)"))
        } else if let problem = PageTemplate.routeProblem(template.route) {
            // Checked even when nothing else is (a kill switch): a route is a URL and a link.
            problems.append(problem)
        }
        let widgets = template.instances.count
        if widgets > limits.widgets {
            problems.append(.init(path: "$.sections", message: "\(widgets) widgets; at most \(limits.widgets) on one page"))
        }
        let json: String
        do {
            json = try Self.encodeTemplate(template)
        } catch {
            throw .invalid([.init(path: "$", message: "the template cannot be encoded: \(error)")])
        }
        if json.utf8.count > limits.templateBytes {
            problems.append(.init(path: "$", message: "\(json.utf8.count) bytes as JSON; at most \(limits.templateBytes)"))
        }
        if validates {
            // The validator checks the route too; each problem is reported once.
            let reported = Set(problems)
            problems += validator(template).filter { !$0.isWarning && !reported.contains($0) }
        }
        guard problems.isEmpty else { throw .invalid(problems) }
        return json
    }

    /// Runs `body`, passing ``LayoutError``s through and wrapping anything else as `.store`.
    private func guarded<Result>(_ body: () async throws -> Result) async throws(LayoutError) -> Result {
        do {
            return try await body()
        } catch {
            throw LayoutError(wrapping: error)
        }
    }

    static func flipping(_ template: PageTemplate, _ instanceID: String, _ enabled: Bool) -> PageTemplate? {
        var template = template
        for section in template.sections.indices {
            if let index = template.sections[section].widgets.firstIndex(where: { $0.id == instanceID }) {
                template.sections[section].widgets[index].isEnabled = enabled
                return template
            }
        }
        return nil
    }

    static func newest(route: String, on database: any SQLDatabase) async throws -> PublishedRevision? {
        try await database.select().columns("*").from("screenplay_page_revisions").where("route", .equal, route)
            .orderBy("revision", .descending).limit(1).first()
            .map(PublishedRevision.init(row:))
    }

    static func newestNumber(route: String, on database: any SQLDatabase) async throws -> Int? {
        let row = try await database.select().column(SQLFunction("MAX", args: SQLIdentifier("revision")), as: "n")
            .from("screenplay_page_revisions").where("route", .equal, route).first()
        return try row?.decodeNil(column: "n") == false ? row?.decode(column: "n", as: Int.self) : nil
    }

    static func audit(
        actor: String, action: String, subject: String, revision: Int?, detail: String, on database: any SQLDatabase
    ) async throws {
        try await database.insert(into: "screenplay_layout_audit")
            .columns("at", "actor", "action", "subject", "revision", "detail")
            .values(SQLBind(ISO8601.now()), SQLBind(actor), SQLBind(action), SQLBind(subject), SQLBind(revision), SQLBind(detail))
            .run()
    }

    static func encodeTemplate(_ template: PageTemplate) throws -> String {
        try PageTemplate.canonicalJSON(template)
    }

    static func decodeTemplate(_ json: String) throws -> PageTemplate {
        try JSONDecoder().decode(PageTemplate.self, from: Data(json.utf8))
    }
}

/// Why the layout store refused a change or a lookup.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The template breaks its contract or the store's limits; every problem with its JSON path.
    case invalid([TemplateProblem])
    /// Publishing a route that has no draft.
    case noDraft(route: String)
    /// A revision that does not exist.
    case noSuchRevision(route: String, revision: Int)
    /// Switching a widget on a route that was never published.
    case notPublished(route: String)
    /// Switching a widget the live template does not have.
    case noSuchWidget(route: String, instance: String)
    /// Someone else published since the editor loaded the page.
    case conflict(route: String, expected: Int, live: Int)
    /// Someone else saved the draft since the editor read it (a save or publish naming what it
    /// read): reading it again and redoing the change keeps both.
    case draftChanged(route: String)
    /// Deleting an experiment that live pages or drafts still name in their conditions: they
    /// would stop saving (a condition naming no experiment is an error), so they change first.
    case experimentInUse(key: String, routes: [String])
    /// The database failed.
    case store(String)
    /// The database could not be reached (``StoreUnavailable``): a 503 to retry, not a failure.
    /// `wroteNothing` as the store said: whether the change certainly did not land.
    case unavailable(wroteNothing: Bool)

    /// `error` as a layout error: itself when it is one, ``unavailable(wroteNothing:)`` for an
    /// unreachable database, ``store(_:)`` for anything else.
    public init(wrapping error: any Error) {
        switch error {
        case let error as LayoutError: self = error
        case let error as StoreUnavailable: self = .unavailable(wroteNothing: error.wroteNothing)
        default: self = .store(String(describing: error))
        }
    }

    /// The same 503 the public API gives when the database is away.
    public var unavailableError: ScreenplayError? {
        guard case .unavailable(let wroteNothing) = self else { return nil }
        return StoreUnavailable("", wroteNothing: wroteNothing).screenplayError
    }

    /// One line naming the route and what went wrong.
    public var description: String {
        switch self {
        case .invalid(let problems): "the template has \(problems.count) problem(s): " + problems.map(\.description).joined(separator: "; ")
        case .noDraft(let route): "page '\(route)' has no draft to publish"
        case .noSuchRevision(let route, let revision): "page '\(route)' has no revision \(revision)"
        case .notPublished(let route): "page '\(route)' was never published"
        case .noSuchWidget(let route, let instance): "page '\(route)' has no widget '\(instance)' live"
        case .conflict(let route, let expected, let live):
            "page '\(route)' is at revision \(live) now, not \(expected): someone published meanwhile; reload and try again"
        case .draftChanged(let route): "the draft of '\(route)' changed since you read it: someone else saved meanwhile; reload and try again"
        case .experimentInUse(let key, let routes):
            "experiment '\(key)' is still named by the conditions of \(routes.map { "'\($0)'" }.joined(separator: ", ")); change those pages first"
        case .store(let message): "the layout store failed: \(message)"
        case .unavailable(let wroteNothing):
            wroteNothing
                ? "the database is unavailable; nothing was changed, try again in a moment"
                : "the database became unavailable while this was being saved; reload to see whether it was"
        }
    }
}

/// A template as published: one revision of one route.
/// Encodable: the admin API sends it as it is, member for member.
public struct PublishedRevision: Sendable, Hashable, Encodable {
    /// The template, its `revision` set.
    public var template: PageTemplate
    /// The revision number, from 1.
    public var revision: Int
    /// Who published it.
    public var publishedBy: String
    /// When (ISO 8601, UTC).
    public var publishedAt: String
    /// Why (for rollbacks and switches, what was done).
    public var note: String

    init(template: PageTemplate, revision: Int, publishedBy: String, publishedAt: String, note: String) {
        self.template = template
        self.revision = revision
        self.publishedBy = publishedBy
        self.publishedAt = publishedAt
        self.note = note
    }

    init(row: any SQLRow) throws {
        let summary = try RevisionSummary(row: row)
        var template = try LayoutStore.decodeTemplate(try row.decode(column: "template", as: String.self))
        template.revision = summary.revision
        self.init(
            template: template, revision: summary.revision, publishedBy: summary.publishedBy, publishedAt: summary.publishedAt,
            note: summary.note)
    }
}

/// One line of a page's history.
/// Encodable: the admin API sends it as it is, member for member.
public struct RevisionSummary: Sendable, Hashable, Encodable {
    /// The revision number.
    public var revision: Int
    /// Who published it.
    public var publishedBy: String
    /// When (ISO 8601, UTC).
    public var publishedAt: String
    /// Why.
    public var note: String

    init(row: any SQLRow) throws {
        revision = try row.decode(column: "revision", as: Int.self)
        publishedBy = try row.decode(column: "published_by", as: String.self)
        publishedAt = try row.decode(column: "published_at", as: String.self)
        note = try row.decode(column: "note", as: String.self)
    }
}

/// The work in progress on one page.
public struct Draft: Sendable, Hashable {
    /// The template as last saved.
    public var template: PageTemplate
    /// The live revision when the draft was started (0: none was live).
    public var basedOn: Int
    /// Who saved it last.
    public var updatedBy: String
    /// When (ISO 8601, UTC).
    public var updatedAt: String
    /// Whether its last save can be taken back (``LayoutStore/undoDraft(of:by:)``).
    public var canUndo: Bool

    init(template: PageTemplate, basedOn: Int, updatedBy: String, updatedAt: String, canUndo: Bool = false) {
        self.template = template
        self.basedOn = basedOn
        self.updatedBy = updatedBy
        self.updatedAt = updatedAt
        self.canUndo = canUndo
    }

    init(row: any SQLRow) throws {
        template = try LayoutStore.decodeTemplate(try row.decode(column: "template", as: String.self))
        basedOn = try row.decode(column: "based_on", as: Int.self)
        updatedBy = try row.decode(column: "updated_by", as: String.self)
        updatedAt = try row.decode(column: "updated_at", as: String.self)
        canUndo = (try? row.decodeNil(column: "previous")) == false
    }
}

/// One page in the admin's list.
/// Encodable: the admin API sends it as it is, member for member.
public struct PageSummary: Sendable, Hashable, Encodable {
    /// The route.
    public var route: String
    /// The live template's title (`nil`: never published).
    public var title: String?
    /// The live revision (`nil`: never published).
    public var liveRevision: Int?
    /// When it went live.
    public var publishedAt: String?
    /// Who last saved the draft, when there is one.
    public var draftUpdatedBy: String?
    /// When.
    public var draftUpdatedAt: String?

    init(
        route: String, title: String?, liveRevision: Int?, publishedAt: String?, draftUpdatedBy: String? = nil,
        draftUpdatedAt: String? = nil
    ) {
        self.route = route
        self.title = title
        self.liveRevision = liveRevision
        self.publishedAt = publishedAt
        self.draftUpdatedBy = draftUpdatedBy
        self.draftUpdatedAt = draftUpdatedAt
    }
}

/// One change to layouts or experiments: who did what to which page, when.
/// Encodable: the admin API sends it as it is, member for member.
public struct AuditEntry: Sendable, Hashable, Encodable {
    /// Increasing.
    public var id: Int64
    /// When (ISO 8601, UTC).
    public var at: String
    /// The admin who did it.
    public var actor: String
    /// `save draft`, `publish`, `rollback`, `disable widget`, `save experiment`…
    public var action: String
    /// The route, or `experiment:KEY`.
    public var subject: String
    /// The revision it produced, for publishes.
    public var revision: Int?
    /// What else there is to say (the note, the widget).
    public var detail: String

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: Int64.self)
        at = try row.decode(column: "at", as: String.self)
        actor = try row.decode(column: "actor", as: String.self)
        action = try row.decode(column: "action", as: String.self)
        subject = try row.decode(column: "subject", as: String.self)
        revision = try row.decode(column: "revision", as: Int?.self)
        detail = try row.decode(column: "detail", as: String.self)
    }
}

extension PageTemplate {
    /// The template as stored: JSON with sorted keys.
    static func canonicalJSON(_ template: PageTemplate) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(template), as: UTF8.self)
    }

    /// A digest of the template's content: what a form that showed it sends back (a publish
    /// review), so the store can tell that the draft changed since (``LayoutStore/publish(route:by:expectedLive:expectedDraft:note:interruption:)``).
    public var digest: String { ETag.strong(for: Array(((try? Self.canonicalJSON(self)) ?? "").utf8)) }
}

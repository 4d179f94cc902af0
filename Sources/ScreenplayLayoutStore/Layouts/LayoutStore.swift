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
        // The draft as it was before its last save: what "undo" restored ('' for "no draft").
        // (Unused since undo became each editor's own, from the draft history below; kept, as
        // migrations are, so databases it ran on and new ones have one schema.)
        Migration(id: "screenplay-0006-draft-undo") { database in
            try await database.alter(table: "screenplay_page_drafts").column("previous", type: .text).run()
        },
        // Every change to a draft: each editor's undo and redo steps, and what changed since a version.
        DraftHistory.migration,
        // A reviewed draft to publish at a time, one per route (``ScheduledPublish``).
        ScheduledPublish.migration,
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
        try await store.read { database in try await Self.draft(route: route, on: database) }
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
    /// - Parameters:
    ///   - expected: The template the change was made to (the draft, or the live page before
    ///     there is one), as the editor read it. When the stored one differs by then, someone
    ///     else saved meanwhile and the save is refused with ``LayoutError/draftChanged(route:)``,
    ///     rather than writing over their change; `nil` replaces whatever is there.
    ///   - version: The draft's version the writer read (the JSON API's `If-Match`); when the
    ///     draft is at another by then, ``LayoutError/stale(_:)`` says what changed since.
    ///   - step: What the editor did, in words naming the widget (`Moved deal-buy down`): the
    ///     save becomes a step of `actor`'s own, which ``undo(route:by:step:)`` can take back
    ///     and which empties their redo stack. `nil` (the JSON API): a change on nobody's stack.
    @discardableResult
    public func saveDraft(
        _ template: PageTemplate, by actor: String, replacing expected: PageTemplate? = nil, expecting version: ExpectedVersion = .any,
        step: String? = nil
    ) async throws(LayoutError) -> Draft {
        let json = try checked(template)
        let saved = try await guarded {
            try await store.transaction { database in
                try await database.serializeTransactions(on: Self.lockKey(template.route))
                let live = try await Self.newestNumber(route: template.route, on: database) ?? 0
                let existing = try await Self.draft(route: template.route, on: database)
                try await Self.expect(version, draft: existing, route: template.route, on: database)
                let basedOn = existing?.basedOn ?? live
                // What this save changed: against the draft it replaces, or the live page.
                let previous: PageTemplate? =
                    if let existing { existing.template } else { try await Self.newest(route: template.route, on: database)?.template }
                if let expected, previous != expected { throw LayoutError.draftChanged(route: template.route) }
                let changes = TemplateDiff(from: previous, to: template).summary()
                let now = ISO8601.now()
                try await database.delete(from: "screenplay_page_drafts").where("route", .equal, template.route).run()
                try await database.insert(into: "screenplay_page_drafts")
                    .columns("route", "template", "based_on", "updated_by", "updated_at")
                    .values(SQLBind(template.route), SQLBind(json), SQLBind(basedOn), SQLBind(actor), SQLBind(now))
                    .run()
                try await Self.audit(actor: actor, action: "save draft", subject: template.route, revision: nil, detail: changes, on: database)
                let id = try await DraftHistory.record(
                    route: template.route, actor: actor, label: step ?? "Saved the draft: \(changes)",
                    before: try previous.map(Self.encodeTemplate) ?? "", after: json, state: step == nil ? .fixed : .done, on: database)
                try await self.bus?.announce(.draftChanged(route: template.route), in: database)
                return Draft(template: template, basedOn: basedOn, updatedBy: actor, updatedAt: now, version: Self.draftVersion(id: id))
            }
        }
        return saved
    }

    /// Throws the draft of `route` away (the live revision is untouched); with `version`, only the
    /// draft the discarder saw (``LayoutError/stale(_:)`` otherwise). Every editor's undo and redo
    /// steps on it end with it. Returns whether there was one.
    @discardableResult
    public func discardDraft(of route: String, by actor: String, expecting version: ExpectedVersion = .any) async throws -> Bool {
        let discarded = try await store.transaction { database in
            try await database.serializeTransactions(on: Self.lockKey(route))
            let existing = try await Self.draft(route: route, on: database)
            if version != .any { try await Self.expect(version, draft: existing, route: route, on: database) }
            guard let existing else { return false }
            try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run()
            // What was thrown away, against the live page it would have replaced.
            let live = try await Self.newest(route: route, on: database)?.template
            let thrown = TemplateDiff(from: live, to: existing.template).summary()
            try await Self.audit(
                actor: actor, action: "discard draft", subject: route, revision: nil, detail: "threw away: \(thrown)", on: database)
            try await DraftHistory.closeSteps(route: route, on: database)
            try await DraftHistory.record(
                route: route, actor: actor, label: "Discarded the draft", before: try Self.encodeTemplate(existing.template), after: "",
                state: .fixed, on: database)
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
    ///   - expectedDraft: The ``PageTemplate/digest`` of the draft someone reviewed: a draft
    ///     changed since is refused with ``LayoutError/draftChanged(route:)``.
    ///   - version: The draft's version the publisher read (``Draft/version``, the API's
    ///     `If-Match`): another is ``LayoutError/stale(_:)``, saying what changed.
    ///   - note: Why, for the history.
    ///   - interruption: Called inside the transaction after the revision row is written and
    ///     before the audit entry and the draft's removal: tests throw from it to show that a
    ///     failure there leaves the old revision live.
    public func publish(
        route: String, by actor: String, expectedLive: Int? = nil, expectedDraft: String? = nil, expecting version: ExpectedVersion = .any,
        note: String = "", interruption: (@Sendable () throws -> Void)? = nil
    ) async throws(LayoutError) -> PublishedRevision {
        // The draft is read in the publishing transaction: a save landing meanwhile is either
        // published whole or kept as the draft, never lost.
        try await commit(route: route, by: actor, action: "publish", note: note, clearsDraft: true, interruption: interruption) {
            live, database in
            try Self.expect(expectedLive, live: live, route: route)
            let draft = try await Self.draft(route: route, on: database)
            if version != .any { try await Self.expect(version, draft: draft, route: route, on: database) }
            guard let draft else { throw LayoutError.noDraft(route: route) }
            if let expectedDraft, draft.template.digest != expectedDraft { throw LayoutError.draftChanged(route: route) }
            return (draft.template, true)
        }
    }

    /// Makes revision `number` live again by publishing a copy of it as the newest revision.
    /// The draft, if any, stays as it is. `version`: the live revision's version the writer read
    /// (``PublishedRevision/version``).
    public func rollback(
        route: String, to number: Int, by actor: String, expectedLive: Int? = nil, expecting version: ExpectedVersion = .any
    ) async throws(LayoutError)
        -> PublishedRevision
    {
        try await commit(route: route, by: actor, action: "rollback", note: "rollback to revision \(number)", clearsDraft: false) {
            live, database in
            try Self.expect(expectedLive, live: live, route: route)
            try await Self.expect(version, live: live, route: route, on: database)
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
    /// template is not re-validated (the widget's kind may be what was removed). `version` (the
    /// JSON API's `If-Match` on the live revision) is there for scripts that want the switch only
    /// on the revision they read; the pages send none, since "off" means off on whatever is live.
    public func setEnabled(
        _ enabled: Bool, instance instanceID: String, route: String, by actor: String, expecting version: ExpectedVersion = .any
    ) async throws(LayoutError)
        -> PublishedRevision
    {
        // Already so: nothing to publish (a second click, or two admins at once, adds no revision).
        if version == .any, let live = try await guarded({ try await published(route: route) }),
            live.template.instances.first(where: { $0.id == instanceID })?.isEnabled == enabled
        {
            return live
        }
        return try await commit(
            route: route, by: actor, action: enabled ? "enable widget" : "disable widget",
            note: "\(instanceID) switched \(enabled ? "on" : "off")", clearsDraft: false, detailsChanges: false
        ) { live, database in
            try await Self.expect(version, live: live, route: route, on: database)
            guard let live else { throw LayoutError.notPublished(route: route) }
            guard let template = Self.flipping(live.template, instanceID, enabled) else {
                throw LayoutError.noSuchWidget(route: route, instance: instanceID)
            }
            if let draft = try await Self.draft(route: route, on: database), let flipped = Self.flipping(draft.template, instanceID, enabled),
                flipped != draft.template
            {
                let json = try Self.encodeTemplate(flipped)
                try await database.update("screenplay_page_drafts").set("template", to: json).where("route", .equal, route).run()
                try await DraftHistory.record(
                    route: route, actor: actor, label: "Switched \(instanceID) \(enabled ? "on" : "off") (the kill switch)",
                    before: try Self.encodeTemplate(draft.template), after: json, state: .fixed, on: database)
            }
            return (template, false)
        }
    }

    // MARK: Internals

    /// Publishes the next revision of `route`, in one transaction: `make` sees the live revision
    /// and returns the template to publish (and whether to validate it); then the revision row,
    /// the audit entry and, for a publish, the draft's removal (when `onlyDraft` is given, only of
    /// the draft with that digest). The audit entry's detail is the
    /// note and, when `detailsChanges`, what changed against the live revision.
    func commit(
        route: String, by actor: String, action: String, note: String, clearsDraft: Bool, onlyDraft: String? = nil,
        detailsChanges: Bool = true, interruption: (@Sendable () throws -> Void)? = nil,
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
                // `onlyDraft`: the draft is cleared only when it is still that one (a scheduled
                // publish leaves a draft changed since it was scheduled).
                if clearsDraft, let draft = try await Self.draft(route: route, on: database), onlyDraft.map({ $0 == draft.template.digest }) ?? true {
                    try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run()
                    try await DraftHistory.closeSteps(route: route, on: database)
                    try await DraftHistory.record(
                        route: route, actor: actor, label: "Published the draft as revision \(number)",
                        before: try Self.encodeTemplate(draft.template), after: "", state: .fixed, on: database)
                }
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
    func checked(_ template: PageTemplate, validates: Bool = true) throws(LayoutError) -> String {
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
    func guarded<Result>(_ body: () async throws -> Result) async throws(LayoutError) -> Result {
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

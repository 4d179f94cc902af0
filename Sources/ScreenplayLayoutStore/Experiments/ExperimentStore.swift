import Foundation
import SQLKit
public import ScreenplayComposer
public import ScreenplayServer
public import ScreenplayStore
import Synchronization

/// Experiments and their first exposures, in the store.
///
/// Experiments are JSON documents keyed by ``Experiment/key``; every change is in the layout
/// audit log. Exposures are rows keyed by (user, experiment, variant), inserted with "on
/// conflict do nothing", so the first one wins whatever the number of replicas recording at
/// once, and the report is a `GROUP BY` over them. As the composer's ``ExposureRecorder`` it
/// remembers which exposures it already wrote, so a user reloading the page costs no query.
public final class ExperimentStore: ExposureRecorder {
    /// The tables: experiments and exposures.
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0003-experiments") { database in
            try await database.create(table: "screenplay_experiments")
                .column("key", type: .text, .primaryKey(autoIncrement: false))
                .column("definition", type: .text, .notNull)
                .column("updated_by", type: .text, .notNull)
                .column("updated_at", type: .text, .notNull)
                .run()
            try await database.create(table: "screenplay_exposures")
                .column("user_id", type: .text, .notNull)
                .column("experiment", type: .text, .notNull)
                .column("variant", type: .text, .notNull)
                .column("at", type: .text, .notNull)
                .primaryKey("user_id", "experiment", "variant")
                .run()
            try await database.create(index: "screenplay_exposures_by_experiment").on("screenplay_exposures")
                .column("experiment").column("variant").run()
        }
    ]

    let store: any SQLStore
    /// Where experiment changes are announced (``Invalidation/experimentsChanged``).
    public let bus: (any InvalidationBus)?
    /// Exposures this process wrote (or found already written), so repeats skip the database.
    private let written = Mutex<Set<ExposureKey>>([])
    private let rememberedLimit = 200_000

    /// Experiments and exposures over `store` (run ``migrations`` first), announcing changes on `bus`.
    public init(store: any SQLStore, bus: (any InvalidationBus)? = nil) {
        self.store = store
        self.bus = bus
    }

    // MARK: Experiments

    /// Every experiment, for the composer.
    public func catalog() async throws -> ExperimentCatalog {
        ExperimentCatalog(try await all())
    }

    /// Every experiment, by key.
    public func all() async throws -> [Experiment] {
        try await store.read { database in
            try await database.select().column("definition").from("screenplay_experiments").orderBy("key").all().map { row in
                try Self.decode(try row.decode(column: "definition", as: String.self))
            }
        }
    }

    /// The experiment with `key`.
    public func experiment(_ key: String) async throws -> Experiment? {
        try await stored(key)?.experiment
    }

    /// The experiment with `key` as stored: its definition, the JSON it is kept as, its version
    /// and who saved it last. What a form or an API client reads before changing it.
    public func stored(_ key: String) async throws -> StoredExperiment? {
        try await store.read { database in try await Self.stored(key, on: database) }
    }

    static func stored(_ key: String, on database: any SQLDatabase) async throws -> StoredExperiment? {
        guard
            let row = try await database.select().columns("definition", "updated_by", "updated_at").from("screenplay_experiments")
                .where("key", .equal, key).first()
        else { return nil }
        let json = try row.decode(column: "definition", as: String.self)
        return StoredExperiment(
            experiment: try Self.decode(json), json: json, updatedBy: try row.decode(column: "updated_by", as: String.self),
            updatedAt: try row.decode(column: "updated_at", as: String.self))
    }

    /// Creates or replaces an experiment; refused (with each problem's JSON path) when it has
    /// problems. Changing the variants of a running experiment moves users between them, which is
    /// why every save is in the audit log: what changed in words (``ExperimentChange``), then the
    /// definition it replaced as JSON (`weights control 2 → 1 — was {…}`), or for a new one the
    /// definition saved.
    ///
    /// A variant that a live page or a draft names in a widget's condition cannot be renamed or
    /// removed: the widget would silently never show. The refusal is an ``LayoutError/invalid(_:)``
    /// problem at `$.variants` naming the pages and widgets, so the form shows it beside the box.
    ///
    /// `version`: what the writer read (``StoredExperiment/version``; `.absent` to create only).
    /// When the experiment is at another version by then, nothing is saved and
    /// ``LayoutError/stale(_:)`` says who changed it and how since the version read.
    public func save(_ experiment: Experiment, by actor: String, expecting version: ExpectedVersion = .any) async throws(LayoutError) {
        let problems = experiment.problems
        guard problems.isEmpty else { throw .invalid(problems) }
        let json: String
        do {
            json = try Self.encode(experiment)
        } catch {
            throw .invalid([.init(path: "$", message: "the experiment cannot be encoded: \(error)")])
        }
        do {
            try await store.transaction { database in
                try await database.serializeTransactions(on: Self.lockKey)
                let current = try await Self.stored(experiment.key, on: database)
                try await Self.expect(version, current: current, key: experiment.key, on: database)
                let previous = current?.json
                let kept = Set(experiment.variants.map(\.name))
                let stranded = try await Self.widgets(naming: experiment.key, on: database).filter { !kept.contains($0.variant) }
                guard stranded.isEmpty else { throw LayoutError.invalid(Self.strandedProblems(stranded)) }
                try await database.delete(from: "screenplay_experiments").where("key", .equal, experiment.key).run()
                try await database.insert(into: "screenplay_experiments").columns("key", "definition", "updated_by", "updated_at")
                    .values(SQLBind(experiment.key), SQLBind(json), SQLBind(actor), SQLBind(ISO8601.now())).run()
                let change = Self.summary(replacing: previous, with: json)
                try await LayoutStore.audit(
                    actor: actor, action: previous == nil ? "create experiment" : "change experiment",
                    subject: "experiment:\(experiment.key)",
                    revision: nil, detail: previous.map { "\(change) — was \($0)" } ?? "\(change) — \(json)", on: database)
                try await self.bus?.announce(.experimentsChanged, in: database)
            }
        } catch {
            throw LayoutError(wrapping: error)
        }
    }

    /// Removes an experiment (its exposures stay for the report). Returns whether it existed.
    /// The audit row says what it was, in words and as JSON (`deleted: it had variants … — was {…}`).
    ///
    /// - Throws: ``LayoutError/experimentInUse(key:routes:)`` when a live page or a draft still
    ///   names it in a condition (checked in the same transaction as the delete).
    /// - Parameter version: What the deleter read; another version is ``LayoutError/stale(_:)``.
    @discardableResult
    public func delete(_ key: String, by actor: String, expecting version: ExpectedVersion = .any) async throws -> Bool {
        return try await store.transaction { database in
            try await database.serializeTransactions(on: Self.lockKey)
            let current = try await Self.stored(key, on: database)
            if version != .any { try await Self.expect(version, current: current, key: key, on: database) }
            guard let previous = current?.json else { return false }
            let users = try await Self.routes(naming: key, on: database)
            guard users.isEmpty else { throw LayoutError.experimentInUse(key: key, routes: users) }
            try await database.delete(from: "screenplay_experiments").where("key", .equal, key).run()
            let change = Self.summary(replacing: previous, with: nil)
            try await LayoutStore.audit(
                actor: actor, action: "delete experiment", subject: "experiment:\(key)", revision: nil,
                detail: "\(change) — was \(previous)", on: database)
            try await self.bus?.announce(.experimentsChanged, in: database)
            return true
        }
    }

    /// The routes whose live template or draft names experiment `key` in a condition, sorted:
    /// what stands in the way of deleting it.
    public func routes(naming key: String) async throws -> [String] {
        try await store.read { database in try await Self.routes(naming: key, on: database) }
    }

    /// The routes whose live template or draft names experiment `key` in a condition, sorted.
    static func routes(naming key: String, on database: any SQLDatabase) async throws -> [String] {
        var routes: Set<String> = []
        for (template, _) in try await liveAndDraftTemplates(on: database)
        where template.instances.contains(where: { $0.conditions.experiment?.key == key }) {
            routes.insert(template.route)
        }
        return routes.sorted()
    }

    /// Every route's live template ("live") and every draft ("draft").
    static func liveAndDraftTemplates(on database: any SQLDatabase) async throws -> [(PageTemplate, place: String)] {
        let live = try await database.raw(
            """
            SELECT route, template FROM screenplay_page_revisions AS r
            WHERE revision = (SELECT MAX(revision) FROM screenplay_page_revisions WHERE route = r.route)
            """
        ).all()
        let drafts = try await database.select().columns("route", "template").from("screenplay_page_drafts").all()
        return try live.map { (try LayoutStore.decodeTemplate(try $0.decode(column: "template", as: String.self)), "live") }
            + drafts.map { (try LayoutStore.decodeTemplate(try $0.decode(column: "template", as: String.self)), "draft") }
    }

    /// One widget condition naming a variant: where it is (route, widget id, and whether in the
    /// live page, the draft or both).
    struct VariantUse: Hashable {
        var variant: String
        var route: String
        var widget: String
        var place: String
    }

    /// Every (variant, route, widget) that a live page or a draft names for experiment `key`.
    static func widgets(naming key: String, on database: any SQLDatabase) async throws -> [VariantUse] {
        var places: [VariantUse: Set<String>] = [:]
        for (template, place) in try await liveAndDraftTemplates(on: database) {
            for instance in template.instances {
                guard let condition = instance.conditions.experiment, condition.key == key else { continue }
                for variant in condition.variants {
                    places[VariantUse(variant: variant, route: template.route, widget: instance.id, place: ""), default: []].insert(place)
                }
            }
        }
        return places.map { use, seenIn in
            var use = use
            use.place = seenIn.count == 2 ? "live and draft" : seenIn.first ?? ""
            return use
        }.sorted { ($0.variant, $0.route, $0.widget) < ($1.variant, $1.route, $1.widget) }
    }

    /// One problem per variant a save would strand, naming where it is used.
    static func strandedProblems(_ stranded: [VariantUse]) -> [TemplateProblem] {
        Dictionary(grouping: stranded, by: \.variant).sorted { $0.key < $1.key }.map { variant, uses in
            let places = uses.prefix(5).map { "widget \($0.widget) on \($0.route) (\($0.place))" }.joined(separator: ", ")
            let more = uses.count > 5 ? " and \(uses.count - 5) more" : ""
            return TemplateProblem(
                path: "$.variants",
                message: "variant '\(variant)' is shown by \(places)\(more); "
                    + (uses.count == 1 ? "change that widget's condition first, or it would never show"
                        : "change those widgets' conditions first, or they would never show"))
        }
    }

    /// What experiment writers take turns under: a save checks the pages naming the key and
    /// replaces the row, which two replicas must not interleave.
    static let lockKey = "screenplay-experiments"

    // MARK: Exposures

    /// Whether this process wrote (or found) `exposure`'s (user, experiment, variant) already.
    public func isKnownRecorded(_ exposure: Exposure) -> Bool {
        written.withLock { $0.contains(ExposureKey(userID: exposure.userID, experiment: exposure.experiment, variant: exposure.variant)) }
    }

    /// Records the first exposure of its (user, experiment, variant); later ones change nothing.
    public func recordFirstExposure(_ exposure: Exposure) async throws -> Bool {
        let key = ExposureKey(userID: exposure.userID, experiment: exposure.experiment, variant: exposure.variant)
        if written.withLock({ $0.contains(key) }) { return false }
        let at = Self.timestamp(exposure.at)
        let inserted = try await store.transaction { database in
            try await database.insert(into: "screenplay_exposures").columns("user_id", "experiment", "variant", "at")
                .values(SQLBind(key.userID), SQLBind(key.experiment), SQLBind(key.variant), SQLBind(at))
                .ignoringConflicts(with: ["user_id", "experiment", "variant"])
                .returning("user_id")
                .first() != nil
        }
        written.withLock { written in
            if written.count >= rememberedLimit { written.removeAll(keepingCapacity: true) }
            written.insert(key)
        }
        return inserted
    }

    /// How many users were first exposed to each variant of `experiment`; variants nobody saw
    /// yet are listed with 0 when the experiment is still defined.
    public func report(for experiment: String) async throws -> ExposureReport {
        let definition = try await self.experiment(experiment)
        let counts = try await store.read { database in
            try await database.select().column("variant").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("screenplay_exposures").where("experiment", .equal, experiment).groupBy("variant").all()
                .map { (try $0.decode(column: "variant", as: String.self), try $0.decode(column: "n", as: Int.self)) }
        }
        var byVariant = Dictionary(counts, uniquingKeysWith: +)
        for variant in definition?.variants ?? [] where byVariant[variant.name] == nil { byVariant[variant.name] = 0 }
        return ExposureReport(experiment: experiment, exposures: byVariant, definition: definition)
    }

    private struct ExposureKey: Hashable {
        let userID: String
        let experiment: String
        let variant: String
    }

    /// What an audit row says first: the change between two stored definitions (JSON), both
    /// read back as stored so what the JSON cannot hold (a fraction of a second) is not a change.
    /// A stored definition that cannot be read does not stop its replacement or removal: the row
    /// says so, and keeps its JSON after the summary like any other.
    static func summary(replacing previous: String?, with new: String?) -> String {
        let before = previous.flatMap { try? decode($0) }
        let after = new.flatMap { try? decode($0) }
        if previous != nil && before == nil {
            return new == nil ? "deleted: its definition cannot be read" : "replaced a definition that cannot be read"
        }
        return ExperimentChange(from: before, to: after).summary()
    }

    static func encode(_ experiment: Experiment) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(experiment), as: UTF8.self)
    }

    static func decode(_ json: String) throws -> Experiment {
        try JSONDecoder().decode(Experiment.self, from: Data(json.utf8))
    }

    static func timestamp(_ date: Date) -> String { ISO8601.string(seconds: Int(date.timeIntervalSince1970.rounded(.down))) }
}

/// First exposures per variant of one experiment.
public struct ExposureReport: Sendable, Hashable {
    /// The experiment's key.
    public var experiment: String
    /// Users first exposed, by variant.
    public var exposures: [String: Int]
    /// The experiment as defined now (`nil` once deleted).
    public var definition: Experiment?

    /// Every user exposed to any variant.
    public var total: Int { exposures.values.reduce(0, +) }
}

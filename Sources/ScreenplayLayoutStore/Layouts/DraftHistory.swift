import Foundation
import SQLKit
import ScreenplayStore

/// Every change to a page's draft, kept for a while in `screenplay_draft_history`: who, what in
/// words, the draft before and after, and whether the change is on its editor's undo stack, on
/// their redo stack, or on nobody's.
///
/// Rows are written in the transaction of the change they record, under the route's lock, so
/// their ids increase in the order the draft changed: the newest id names the draft's version
/// (its ETag, ``LayoutStore/draftVersion(id:)``), and the rows after a version are exactly what
/// changed since. Each editor's steps are theirs: undo takes their newest `done` row back, redo
/// their newest `undone` one; a new step of theirs empties their redo stack. Publishing or
/// discarding the draft closes every step (nothing is left to take back). Kept: the newest
/// ``keptChanges`` rows a route has that are on nobody's stack, and at most ``keptSteps`` steps
/// per editor and route.
enum DraftHistory {
    static let table = "screenplay_draft_history"

    /// Where a recorded change stands.
    enum State: String {
        /// On its editor's undo stack.
        case done
        /// Undone: on its editor's redo stack.
        case undone
        /// On nobody's stack: a save through the API, a kill switch, an undo or redo itself, a
        /// publish, a discard, a step closed by them or pushed past the limit.
        case fixed
    }

    /// The most steps an editor keeps per page (undo and redo together).
    static let keptSteps = 50
    /// The most other changes a route keeps, for saying what changed since an older version.
    static let keptChanges = 200

    static let migration = Migration(id: "screenplay-layout-0007-draft-history") { database in
        try await database.create(table: table)
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("route", type: .text, .notNull)
            .column("actor", type: .text, .notNull)
            .column("label", type: .text, .notNull)
            .column("before", type: .text, .notNull)
            .column("after", type: .text, .notNull)
            .column("state", type: .text, .notNull)
            .column("at", type: .text, .notNull)
            .run()
        try await database.create(index: "screenplay_draft_history_by_route").on(table).column("route").column("actor").run()
    }

    /// One row.
    struct Row {
        let id: Int64
        let route: String
        let actor: String
        let label: String
        /// The draft before (`""`: none).
        let before: String
        /// The draft after (`""`: none).
        let after: String
        let state: State
        let at: String

        init(_ row: any SQLRow) throws {
            id = try row.decode(column: "id", as: Int64.self)
            route = try row.decode(column: "route", as: String.self)
            actor = try row.decode(column: "actor", as: String.self)
            label = try row.decode(column: "label", as: String.self)
            before = try row.decode(column: "before", as: String.self)
            after = try row.decode(column: "after", as: String.self)
            state = State(rawValue: try row.decode(column: "state", as: String.self)) ?? .fixed
            at = try row.decode(column: "at", as: String.self)
        }
    }

    /// Records a change inside the transaction that made it, and keeps the history bounded. A new
    /// step (`.done`) empties its editor's redo stack first.
    @discardableResult
    static func record(
        route: String, actor: String, label: String, before: String, after: String, state: State, on database: any SQLDatabase
    ) async throws -> Int64 {
        if state == .done {
            try await database.update(table).set("state", to: State.fixed.rawValue)
                .where("route", .equal, route).where("actor", .equal, actor).where("state", .equal, State.undone.rawValue).run()
        }
        try await database.insert(into: table).columns("route", "actor", "label", "before", "after", "state", "at")
            .values(
                SQLBind(route), SQLBind(actor), SQLBind(String(label.prefix(300))), SQLBind(before), SQLBind(after), SQLBind(state.rawValue),
                SQLBind(ISO8601.now())
            )
            .run()
        try await prune(route: route, actor: actor, on: database)
        return try await newestID(route: route, on: database)
    }

    /// The newest row's id for `route` (0: none yet).
    static func newestID(route: String, on database: any SQLDatabase) async throws -> Int64 {
        let row = try await database.select().column(SQLFunction("MAX", args: SQLIdentifier("id")), as: "n").from(table)
            .where("route", .equal, route).first()
        return try row?.decodeNil(column: "n") == false ? row?.decode(column: "n", as: Int64.self) ?? 0 : 0
    }

    /// The row with `id` on `route`.
    static func row(_ id: Int64, route: String, on database: any SQLDatabase) async throws -> Row? {
        try await database.select().columns("*").from(table).where("route", .equal, route).where("id", .equal, id).first().map(Row.init)
    }

    /// `actor`'s newest row on `route` in `state` (`newest: false`: the oldest). Undo takes the
    /// newest `done` step; redo the oldest `undone` one, which is the one undone last (undone
    /// steps are always the newest of an editor's steps: a new step empties the redo stack).
    static func edge(_ state: State, newest: Bool = true, route: String, actor: String, on database: any SQLDatabase) async throws -> Row? {
        try await database.select().columns("*").from(table).where("route", .equal, route).where("actor", .equal, actor)
            .where("state", .equal, state.rawValue).orderBy("id", newest ? .descending : .ascending).limit(1).first().map(Row.init)
    }

    /// How many of `actor`'s rows on `route` are in `state`.
    static func count(_ state: State, route: String, actor: String, on database: any SQLDatabase) async throws -> Int {
        let row = try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .where("route", .equal, route).where("actor", .equal, actor).where("state", .equal, state.rawValue).first()
        return try row?.decode(column: "n", as: Int.self) ?? 0
    }

    /// The rows of `route` after `id`, oldest first (at most `limit`): what changed since.
    static func rows(after id: Int64, route: String, limit: Int = 50, on database: any SQLDatabase) async throws -> [Row] {
        try await database.select().columns("*").from(table).where("route", .equal, route).where("id", .greaterThan, id)
            .orderBy("id", .ascending).limit(limit).all().map(Row.init)
    }

    /// Sets one row's state (an undo or a redo moving its step between the stacks).
    static func set(_ state: State, id: Int64, on database: any SQLDatabase) async throws {
        try await database.update(table).set("state", to: state.rawValue).where("id", .equal, id).run()
    }

    /// Takes every step of `route` off every stack: the draft they were made on is gone.
    static func closeSteps(route: String, on database: any SQLDatabase) async throws {
        try await database.update(table).set("state", to: State.fixed.rawValue).where("route", .equal, route)
            .where("state", .notEqual, State.fixed.rawValue).run()
    }

    /// Keeps `actor`'s steps on `route` within ``keptSteps`` (the oldest leave the stacks) and the
    /// route's other rows within ``keptChanges`` (the oldest are deleted).
    static func prune(route: String, actor: String, on database: any SQLDatabase) async throws {
        let steps = try await database.select().column("id").from(table).where("route", .equal, route).where("actor", .equal, actor)
            .where("state", .notEqual, State.fixed.rawValue).orderBy("id", .descending).limit(1).offset(keptSteps).first()
            .map { try $0.decode(column: "id", as: Int64.self) }
        if let newestDropped = steps {
            try await database.update(table).set("state", to: State.fixed.rawValue).where("route", .equal, route)
                .where("actor", .equal, actor).where("id", .lessThanOrEqual, newestDropped).run()
        }
        let old = try await database.select().column("id").from(table).where("route", .equal, route)
            .where("state", .equal, State.fixed.rawValue).orderBy("id", .descending).offset(keptChanges).limit(1).first()
        if let old {
            try await database.delete(from: table).where("route", .equal, route).where("state", .equal, State.fixed.rawValue)
                .where("id", .lessThanOrEqual, try old.decode(column: "id", as: Int64.self)).run()
        }
    }
}

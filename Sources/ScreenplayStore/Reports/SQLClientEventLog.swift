public import Foundation
public import ScreenplayContract
public import ScreenplayServer
import SQLKit

/// The events apps report (``ClientEvent``), in the database: the same SQL on SQLite and
/// PostgreSQL, one statement per batch.
///
/// A row per (user, event id), so a batch sent again stores nothing twice: the insert skips ids
/// the user already sent (`ON CONFLICT DO NOTHING`) and returns the ones it wrote, which is how
/// the receipt tells stored from repeated, exactly, even when two replicas take the same retry at
/// once.
///
/// Times are UTC text to the second (`2026-11-28T05:40:12Z`), as the experiments' exposures are,
/// so a metric compares an event with an exposure in SQL.
public struct SQLClientEventLog: ClientEventSink {
    /// The table's migration; run it with the app's own.
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0007-client-events") { database in
            try await database.create(table: "screenplay_client_events")
                .column("user_id", type: .bigint, .notNull)
                .column("event_id", type: .text, .notNull)
                .column("kind", type: .text, .notNull)
                .column("key", type: .text, .notNull)
                .column("screen", type: .text)
                .column("at", type: .text, .notNull)
                .column("received_at", type: .text, .notNull)
                .primaryKey("user_id", "event_id")
                .run()
            // "What did this user last play", and a metric's events of one kind per exposed user.
            try await database.create(index: "screenplay_client_events_by_user").on("screenplay_client_events")
                .column("user_id").column("kind").column("at").run()
        }
    ]

    let store: any SQLStore

    /// A log in `store` (run ``migrations`` first).
    public init(store: any SQLStore) {
        self.store = store
    }

    /// Inserts the events the user has not sent before, in one statement.
    public func store(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> (stored: Int, repeated: Int) {
        let stored = try await storeReturningIDs(events, from: user, receivedAt: receivedAt).count
        return (stored, events.count - stored)
    }

    /// Inserts the events the user has not sent before, in one statement; returns the ids this
    /// call stored (what a caller reacts to, such as a new play).
    public func storeReturningIDs(_ events: [ClientEvent], from user: UserIdentity, receivedAt: Date) async throws -> Set<String> {
        guard !events.isEmpty else { return [] }
        let received = Self.timestamp(receivedAt)
        return try await store.transaction { database in
            var insert = database.insert(into: "screenplay_client_events")
                .columns("user_id", "event_id", "kind", "key", "screen", "at", "received_at")
            for event in events {
                insert = insert.values(
                    SQLBind(user.id), SQLBind(event.id), SQLBind(event.kind.rawValue), SQLBind(event.key), SQLBind(event.screen),
                    SQLBind(Self.timestamp(event.at)), SQLBind(received))
            }
            return Set(
                try await insert.ignoringConflicts(with: ["user_id", "event_id"]).returning("event_id").all()
                    .map { try $0.decode(column: "event_id", as: String.self) })
        }
    }

    /// The keys of `user`'s events of `kind`, the most recent first, each once with when it last
    /// happened: "what did this listener play lately".
    public func latest(_ kind: ClientEvent.Kind, of user: UserIdentity, limit: Int) async throws -> [(key: String, at: String)] {
        try await store.read { database in
            try await database.select().column("key").column(SQLFunction("MAX", args: SQLColumn("at")), as: "last")
                .from("screenplay_client_events").where("user_id", .equal, user.id).where("kind", .equal, kind.rawValue)
                .groupBy("key").orderBy("last", .descending).orderBy("key").limit(limit).all()
                .map { (key: try $0.decode(column: "key", as: String.self), at: try $0.decode(column: "last", as: String.self)) }
        }
    }

    /// How many events `user` reported in all (each id once).
    public func count(of user: UserIdentity) async throws -> Int {
        try await store.read { database in
            try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("screenplay_client_events")
                .where("user_id", .equal, user.id).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// `date` as the table keeps it: UTC to the second.
    static func timestamp(_ date: Date) -> String { ISO8601.string(seconds: Int(date.timeIntervalSince1970.rounded(.down))) }
}

public import SQLKit

/// A database the Screenplay store runs on, reached through SQLKit.
///
/// Everything above this protocol (migrations, users, the demo's catalog) is written once
/// against `any SQLDatabase` and runs unchanged on the embedded SQLite default and on
/// PostgreSQL. Implementations decide how sessions and concurrency work.
public protocol SQLStore: Sendable {
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws,
    /// so a failed command never leaves half its writes behind.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs read-only queries.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body`, which sends one statement, as that statement's own transaction: on
    /// PostgreSQL in autocommit, one round trip where a transaction takes at least three (BEGIN,
    /// the statement, COMMIT). A connection lost once the statement was sent may have committed it
    /// (``StoreUnavailable/wroteNothing`` is then `false`). Inside a transaction of this store, it
    /// joins that transaction.
    func statement<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body` while no other process sharing the database runs a body under the same
    /// `name`: replicas starting together migrate and seed once, one after the other. `body` uses
    /// the store as usual (its own transactions). A single-process store only runs `body`.
    func exclusively<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result

    /// Releases the connection(s). Calls after this fail.
    func close() async throws
}

extension SQLStore {
    /// Runs `body` in a transaction: for stores whose transactions cost no round trips (SQLite).
    public func statement<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await transaction(body)
    }

    /// Runs `body`: one process owns the database, and its writes already take turns.
    public func exclusively<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        try await body()
    }
}

extension SQLDatabase {
    /// Makes the transaction this database is in wait for every other transaction that named the
    /// same `key`, until it ends: on PostgreSQL, where writers run side by side, two publishes of
    /// one route or two writes of one user's data then take turns rather than both reading the
    /// same "newest" and colliding. SQLite writes one transaction at a time already: nothing to do.
    /// The key is scoped to the session's schema, so deployments in schemas of their own never wait
    /// for each other.
    public func serializeTransactions(on key: String) async throws {
        guard dialect.name == "postgresql" else { return }
        try await raw("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || \(bind: key), 0))").run()
    }
}

public import SQLKit
import Synchronization

/// The transaction the current task runs in: what makes a store's transactions compose.
///
/// A store's ``SQLStore/transaction(_:)`` called while the task already runs in one of that
/// store's transactions does not open a second one (which on SQLite would wait for itself, and on
/// PostgreSQL would commit apart from the first): it runs as a savepoint of the first, on its
/// connection, and ``SQLStore/read(_:)`` reads there too, seeing what the transaction wrote. So a
/// command and the record of its answer (``SQLIdempotencyStore``) commit together or not at all,
/// however the command's own code opens its transactions.
///
/// What must happen only once the data is committed (telling this process's caches) is handed to
/// ``afterCommit(_:)``: it runs after the outermost commit, and never when that rolls back, so
/// callers never pair an announcement with a commit by hand.
///
/// Stores implement their transactions with ``transaction(on:database:_:)`` and ``savepoint(_:)``;
/// code above the stores needs only ``afterCommit(_:)``.
///
/// Inside one transaction, run its queries one after another: a connection serves one query at a
/// time, and two savepoints opened side by side by child tasks would interleave.
public final class SQLTransaction: Sendable {
    /// The innermost transaction the current task runs in, if any.
    @TaskLocal static var current: SQLTransaction?

    /// Whose transaction this is (a store's `ObjectIdentifier`).
    let owner: ObjectIdentifier
    /// The connection the transaction runs on.
    public let database: any SQLDatabase
    /// The transaction this one runs inside, when a task opened transactions on two stores.
    let enclosing: SQLTransaction?

    private struct State {
        var savepoints = 0
        var committed: [@Sendable () async -> Void] = []
    }

    private let state = Mutex(State())

    private init(owner: ObjectIdentifier, database: any SQLDatabase, enclosing: SQLTransaction?) {
        self.owner = owner
        self.database = database
        self.enclosing = enclosing
    }

    /// Whether the current task runs in a transaction: what it reads may not be committed yet,
    /// so caches must not remember it.
    public static var isActive: Bool { current != nil }

    /// The transaction of `store` the current task runs in, if any: a store's `transaction` then
    /// runs ``savepoint(_:)`` and its `read` uses ``database``.
    public static func active(on store: AnyObject) -> SQLTransaction? {
        let owner = ObjectIdentifier(store)
        var transaction = current
        while let candidate = transaction {
            if candidate.owner == owner { return candidate }
            transaction = candidate.enclosing
        }
        return nil
    }

    /// For stores: runs `body` as the outermost transaction of `store` on `database`, which the
    /// store has begun and will commit once this returns; then call ``committed()`` on what it
    /// returns. Whatever `body` calls on the store joins this transaction.
    public static func transaction<Result: Sendable>(
        on store: AnyObject, database: any SQLDatabase, _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> (Result, SQLTransaction) {
        let transaction = SQLTransaction(owner: ObjectIdentifier(store), database: database, enclosing: current)
        let result = try await $current.withValue(transaction) { try await body(database) }
        return (result, transaction)
    }

    /// Runs `body` inside this transaction as a savepoint: released when it returns, rolled back
    /// (with what it handed to ``afterCommit(_:)``) when it throws, leaving the transaction
    /// usable, as a transaction of its own would leave the database.
    public func savepoint<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let (name, kept) = state.withLock { state -> (String, Int) in
            state.savepoints += 1
            return ("screenplay_savepoint_\(state.savepoints)", state.committed.count)
        }
        try await database.raw("SAVEPOINT \(unsafeRaw: name)").run()
        do {
            let result = try await body(database)
            try await database.raw("RELEASE SAVEPOINT \(unsafeRaw: name)").run()
            return result
        } catch {
            // What the savepoint asked to run after the commit goes with its writes.
            state.withLock { $0.committed.removeSubrange(min(kept, $0.committed.count)...) }
            try? await database.raw("ROLLBACK TO SAVEPOINT \(unsafeRaw: name)").run()
            try? await database.raw("RELEASE SAVEPOINT \(unsafeRaw: name)").run()
            throw error
        }
    }

    /// For stores: once the transaction committed, runs what was handed to ``afterCommit(_:)``,
    /// in order.
    public func committed() async {
        let actions = state.withLock { state in
            defer { state.committed.removeAll() }
            return state.committed
        }
        for action in actions { await action() }
    }

    /// Runs `action` once the transaction the current task runs in has committed (never when it
    /// rolls back); at once when the task runs in none, as what it wrote is already committed.
    public static func afterCommit(_ action: @escaping @Sendable () async -> Void) async {
        guard let transaction = current else { return await action() }
        transaction.state.withLock { $0.committed.append(action) }
    }
}

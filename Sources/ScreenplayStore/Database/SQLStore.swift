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

    /// Releases the connection(s). Calls after this fail.
    func close() async throws
}

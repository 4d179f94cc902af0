import Foundation
public import Logging
public import SQLKit
import SQLiteKit
public import ScreenplayStore

/// The embedded default store: one SQLite file, no server to run.
///
/// One connection, shared: transactions take turns through an ``AsyncSerialLock`` (SQLite
/// writes one transaction at a time anyway), so two commands never interleave their writes.
/// WAL journaling keeps a crash from leaving a half-written transaction behind.
///
/// Not re-entrant: inside a `transaction` or `read` body, use the database it hands you; calling
/// `read` or `transaction` on the store again from there waits for itself forever.
public final class SQLiteStore: SQLStore {
    private let connection: SQLiteConnection
    private let database: any SQLDatabase
    private let lock = AsyncSerialLock()

    /// The file, or `nil` for an in-memory database.
    public let path: String?

    private init(connection: SQLiteConnection, path: String?, logger: Logger) {
        self.connection = connection
        self.database = connection.sql(queryLogLevel: .trace)
        self.path = path
    }

    /// Opens (creating if needed) the database at `path`, creating its folder too.
    public static func open(path: String, logger: Logger = Logger(label: "screenplay.store.sqlite")) async throws -> SQLiteStore {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        let store = SQLiteStore(connection: connection, path: path, logger: logger)
        try await store.configure()
        return store
    }

    /// Opens a private in-memory database (tests).
    public static func inMemory(logger: Logger = Logger(label: "screenplay.store.sqlite")) async throws -> SQLiteStore {
        let connection = try await SQLiteConnection.open(storage: .memory, logger: logger)
        let store = SQLiteStore(connection: connection, path: nil, logger: logger)
        try await store.configure()
        return store
    }

    private func configure() async throws {
        try await database.raw("PRAGMA foreign_keys = ON").run()
        if path != nil { try await database.raw("PRAGMA journal_mode = WAL").run() }
        try await database.raw("PRAGMA busy_timeout = 5000").run()
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await lock.withLock {
            try await database.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(database)
                try await database.raw("COMMIT").run()
                return result
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Runs `body` while no transaction is in progress, so reads never see half a transaction.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await lock.withLock { try await body(database) }
    }

    /// Closes the connection.
    public func close() async throws {
        try await lock.withLock { try await connection.close() }
    }
}

import Foundation
public import Logging
public import SQLKit
import SQLiteKit
public import ScreenplayStore
import Synchronization

/// The embedded default store: one SQLite file, no server to run.
///
/// One writer and a pool of readers (WAL lets readers run beside the writer, each on a snapshot):
/// - Transactions take turns on the writer connection through an ``AsyncSerialLock`` (SQLite
///   writes one transaction at a time anyway), so two commands never interleave their writes.
/// - Reads go to the reader connections in turn, each read in its own read transaction, so a
///   read sees one consistent snapshot, never half a transaction, and one slow read (a heavy
///   user's screen) no longer queues every other request behind it.
/// - An in-memory database (tests) cannot be shared between connections: it uses the writer.
/// WAL journaling keeps a crash from leaving a half-written transaction behind; ``Durability``
/// says whether each commit also waits for the disk.
///
/// Re-entrant within a task: a `transaction` or `read` called from inside a transaction's body
/// joins that transaction (``SQLTransaction``) rather than waiting for the writer it holds. A
/// `read` body must not open a transaction: it holds a reader, not the writer.
public final class SQLiteStore: SQLStore {
    private let connection: SQLiteConnection
    private let database: any SQLDatabase
    private let lock = AsyncSerialLock()
    private let readers: [Reader]
    private let nextReader = Atomic<Int>(0)

    /// One read-only connection and the lock that gives it to one read at a time.
    private struct Reader: Sendable {
        let connection: SQLiteConnection
        let database: any SQLDatabase
        let lock = AsyncSerialLock()
    }

    /// The file, or `nil` for an in-memory database.
    public let path: String?
    /// What a committed transaction survives.
    public let durability: Durability

    /// What a committed transaction survives: the trade between write latency and the last
    /// moments of data when the machine itself goes down.
    public enum Durability: Sendable, Hashable {
        /// A crash or `kill -9` of the process loses nothing committed; a power loss or kernel
        /// crash may roll back the last transactions (the database stays consistent). SQLite's
        /// `synchronous = NORMAL` in WAL mode: commits append to the log without waiting for the
        /// disk, which syncs at checkpoints. The default: a command no longer waits for an fsync.
        case processCrash
        /// Every commit waits until the log is on disk (`synchronous = FULL`): nothing answered
        /// is lost even on power loss, at the price of a disk flush per write.
        case powerLoss

        var synchronous: String { self == .processCrash ? "NORMAL" : "FULL" }
    }

    private init(
        connection: SQLiteConnection, readers: [SQLiteConnection], path: String?, durability: Durability = .processCrash, logger: Logger
    ) {
        self.durability = durability
        self.connection = connection
        self.database = connection.sql(queryLogLevel: .trace)
        self.readers = readers.map { Reader(connection: $0, database: $0.sql(queryLogLevel: .trace)) }
        self.path = path
    }

    /// Opens (creating if needed) the database at `path`, creating its folder too, with
    /// `readers` read-only connections beside the writer, committing with `durability`.
    public static func open(
        path: String, readers: Int = 4, durability: Durability = .processCrash, logger: Logger = Logger(label: "screenplay.store.sqlite")
    ) async throws -> SQLiteStore {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        // The writer first: it switches the file to WAL, which readers then share.
        let writer = SQLiteStore(connection: connection, readers: [], path: path, durability: durability, logger: logger)
        try await writer.configure()
        var readerConnections: [SQLiteConnection] = []
        for _ in 0..<max(0, readers) {
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            let database = reader.sql(queryLogLevel: .trace)
            try await database.raw("PRAGMA query_only = ON").run()
            try await database.raw("PRAGMA foreign_keys = ON").run()
            try await database.raw("PRAGMA busy_timeout = 5000").run()
            readerConnections.append(reader)
        }
        return SQLiteStore(connection: connection, readers: readerConnections, path: path, durability: durability, logger: logger)
    }

    /// Opens a private in-memory database (tests).
    public static func inMemory(logger: Logger = Logger(label: "screenplay.store.sqlite")) async throws -> SQLiteStore {
        let connection = try await SQLiteConnection.open(storage: .memory, logger: logger)
        let store = SQLiteStore(connection: connection, readers: [], path: nil, logger: logger)
        try await store.configure()
        return store
    }

    private func configure() async throws {
        try await database.raw("PRAGMA foreign_keys = ON").run()
        if path != nil {
            try await database.raw("PRAGMA journal_mode = WAL").run()
            try await database.raw(SQLQueryString("PRAGMA synchronous = \(unsafeRaw: durability.synchronous)")).run()
        }
        try await database.raw("PRAGMA busy_timeout = 5000").run()
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws; inside a
    /// transaction of this store, as a savepoint of it (``SQLTransaction``).
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        if let enclosing = SQLTransaction.active(on: self) { return try await enclosing.savepoint(body) }
        let (result, transaction) = try await lock.withLock {
            try await database.raw("BEGIN IMMEDIATE").run()
            do {
                let outcome = try await SQLTransaction.transaction(on: self, database: database, body)
                try await database.raw("COMMIT").run()
                return outcome
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
        await transaction.committed()
        return result
    }

    /// Runs `body` on the next reader connection in one read transaction (a consistent
    /// snapshot); without readers, on the writer while no transaction is in progress. Inside a
    /// transaction of this store, on its connection: it sees what the transaction wrote.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        if let enclosing = SQLTransaction.active(on: self) { return try await body(enclosing.database) }
        guard !readers.isEmpty else { return try await lock.withLock { try await body(database) } }
        let turn = UInt(bitPattern: nextReader.add(1, ordering: .relaxed).oldValue)
        let reader = readers[Int(turn % UInt(readers.count))]
        return try await reader.lock.withLock {
            try await reader.database.raw("BEGIN").run()
            do {
                let result = try await body(reader.database)
                try await reader.database.raw("COMMIT").run()
                return result
            } catch {
                try? await reader.database.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// How many reader connections serve reads (0 for an in-memory database).
    public var readerCount: Int { readers.count }

    /// Closes the connections.
    public func close() async throws {
        for reader in readers { try await reader.lock.withLock { try await reader.connection.close() } }
        try await lock.withLock { try await connection.close() }
    }
}

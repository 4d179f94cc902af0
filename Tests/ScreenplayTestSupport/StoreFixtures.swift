public import Foundation
import SQLKit
public import ScreenplayStore
public import ScreenplayStoreSQLite
import ScreenplayStorePostgres
import Synchronization

// Fixtures for the store tests. Every store a test opens is closed before the test returns:
// SQLiteNIO asserts in debug builds when a connection is deallocated while still open.

/// The databases the store runs on: every store test runs on each (`@Test(arguments: StoreBackend.allCases)`).
public enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The embedded default, in memory.
    case sqlite
    /// PostgreSQL, a fresh schema on the test cluster (``TestPostgres``).
    case postgres

    public var description: String { rawValue }
}

/// Runs `body` with a private, empty store on `backend`, closing (and for PostgreSQL dropping)
/// it afterwards whatever happens.
public func withStore<Result>(_ backend: StoreBackend, _ body: (any SQLStore) async throws -> Result) async throws -> Result {
    switch backend {
    case .sqlite:
        return try await withInMemoryStore { try await body($0) }
    case .postgres:
        let store = try await TestPostgres.openFreshStore()
        let result: Result
        do {
            result = try await body(store)
        } catch {
            try? await TestPostgres.dropSchema(of: store)
            try? await store.close()
            throw error
        }
        try await TestPostgres.dropSchema(of: store)
        try await store.close()
        return result
    }
}

/// Runs `body` with a private in-memory store, closing it afterwards whatever happens.
public func withInMemoryStore<Result>(_ body: (SQLiteStore) async throws -> Result) async throws -> Result {
    let store = try await SQLiteStore.inMemory()
    return try await closing(store, body)
}

/// Runs `body` with the file store at `path`, closing it afterwards whatever happens.
public func withFileStore<Result>(at path: String, _ body: (SQLiteStore) async throws -> Result) async throws -> Result {
    let store = try await SQLiteStore.open(path: path)
    return try await closing(store, body)
}

private func closing<Result>(_ store: SQLiteStore, _ body: (SQLiteStore) async throws -> Result) async throws -> Result {
    let result: Result
    do {
        result = try await body(store)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
    return result
}

/// Runs `body` with a fresh folder under the system's temporary directory, removed afterwards.
public func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("screenplay-store-tests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Whether a table named `name` exists.
public func tableExists(_ name: String, in store: any SQLStore) async throws -> Bool {
    try await store.read { database in
        if database.dialect.name == "postgresql" {
            return try await database.raw("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename = \(bind: name)")
                .first() != nil
        }
        return try await database.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name = \(bind: name)").first() != nil
    }
}

/// The number of rows in `table`.
public func rowCount(of table: String, in store: any SQLStore) async throws -> Int {
    try await store.read { database in
        let row = try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
        return try row?.decode(column: "n", as: Int.self) ?? -1
    }
}

/// The ids recorded in `screenplay_migrations`, in the order they were recorded.
public func recordedMigrations(in store: any SQLStore) async throws -> [String] {
    try await store.read { database in
        // PostgreSQL has no rowid; within one second, ctid follows insertion in a fresh table.
        let order = database.dialect.name == "postgresql" ? "applied_at, ctid" : "rowid"
        return try await database.raw("SELECT id FROM screenplay_migrations ORDER BY \(unsafeRaw: order)").all()
            .map { try $0.decode(column: "id", as: String.self) }
    }
}

/// A value shared between concurrent tasks of a test.
public final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) { storage = Mutex(value) }

    public var value: Value { storage.withLock { $0 } }

    @discardableResult
    public func update<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        storage.withLock { body(&$0) }
    }
}

/// A one-shot event tasks can wait for: `wait()` returns once `fire()` was called, even if
/// `fire()` came first.
public final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var hasFired: Bool { state.withLock { $0.fired } }

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if fired { continuation.resume() }
        }
    }
}

/// An error tests throw on purpose.
public struct IntendedFailure: Error, Equatable {
    public var reason: String

    public init(reason: String = "intended") { self.reason = reason }
}

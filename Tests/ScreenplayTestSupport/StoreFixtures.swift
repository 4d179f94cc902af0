public import Foundation
import SQLKit
public import ScreenplayStore
public import ScreenplayStoreSQLite
import ScreenplayStorePostgres
import Synchronization
public import Testing

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
///
/// A wait is bounded: a test whose `fire()` never comes (the operation that fires it threw
/// before reaching it) records an issue naming the wait and goes on, instead of holding the
/// whole test run until the run's own timeout ends it without naming the test.
public final class Signal: Sendable {
    private struct State {
        var fired = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        /// Waits whose limit passed before they were registered.
        var expired: Set<UInt64> = []
    }

    private let state = Mutex(State())

    public init() {}

    public var hasFired: Bool { state.withLock { $0.fired } }

    public func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.fired = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Returns once ``fire()`` was called, or after `limit`: then it records an issue at the
    /// caller's line and returns `false`.
    @discardableResult
    public func wait(limit: Duration = .seconds(120), sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [self] in
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { expire(id) }
        }
        let fired = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let outcome = state.withLock { state -> Bool? in
                if state.fired { return true }
                if state.expired.remove(id) != nil { return false }
                state.waiters[id] = continuation
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
        timer.cancel()
        if !fired { Issue.record("waited \(limit) for a signal that was never fired", sourceLocation: sourceLocation) }
        return fired
    }

    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            if !state.fired { state.expired.insert(id) }
            return nil
        }
        waiter?.resume(returning: false)
    }
}

/// An error tests throw on purpose.
public struct IntendedFailure: Error, Equatable {
    public var reason: String

    public init(reason: String = "intended") { self.reason = reason }
}

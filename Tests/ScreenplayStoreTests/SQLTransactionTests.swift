import Foundation
import SQLKit
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// Transactions compose: one opened inside another joins it as a savepoint, reads inside see its
/// writes, and what must wait for the commit runs after the outermost one, never after a rollback.
@Suite("SQLTransaction")
struct SQLTransactionTests {
    static func makeTable(_ store: any SQLStore) async throws {
        try await store.transaction { database in
            try await database.create(table: "notes").column("id", type: .bigint, .primaryKey(autoIncrement: false))
                .column("text", type: .text, .notNull).run()
        }
    }

    static func insert(_ id: Int64, _ text: String, on database: any SQLDatabase) async throws {
        try await database.insert(into: "notes").columns("id", "text").values(SQLBind(id), SQLBind(text)).run()
    }

    static func notes(_ store: any SQLStore) async throws -> [String] {
        try await store.read { database in
            try await database.select().column("text").from("notes").orderBy("id").all().map { try $0.decode(column: "text", as: String.self) }
        }
    }

    @Test("a transaction inside another joins it (no deadlock on SQLite's one writer): its reads see the writes, both commit together", arguments: StoreBackend.allCases)
    func nestedJoins(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Self.makeTable(store)
            let seen = try await withDeadline(.seconds(20)) {
                try await store.transaction { database in
                    try await Self.insert(1, "outer", on: database)
                    try await store.transaction { inner in try await Self.insert(2, "inner", on: inner) }
                    // A read inside sees what the transaction wrote, not yet committed.
                    return try await Self.notes(store)
                }
            }
            #expect(seen == ["outer", "inner"])
            #expect(try await Self.notes(store) == ["outer", "inner"])
        }
    }

    @Test("an inner transaction that throws rolls back only its own writes; the outer one goes on and commits", arguments: StoreBackend.allCases)
    func innerRollback(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Self.makeTable(store)
            try await store.transaction { database in
                try await Self.insert(1, "kept", on: database)
                await #expect(throws: IntendedFailure.self) {
                    try await store.transaction { inner in
                        try await Self.insert(2, "dropped", on: inner)
                        throw IntendedFailure()
                    }
                }
                try await Self.insert(3, "after", on: database)
            }
            #expect(try await Self.notes(store) == ["kept", "after"])
        }
    }

    @Test("afterCommit runs once the outermost transaction committed (another connection then sees the data), never after a rollback or for a rolled-back savepoint", arguments: StoreBackend.allCases)
    func afterCommit(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Self.makeTable(store)
            let log = Shared<[String]>([])
            try await store.transaction { database in
                try await store.transaction { inner in
                    try await Self.insert(1, "one", on: inner)
                    await SQLTransaction.afterCommit {
                        // Seen from outside the transaction (a detached task has none).
                        let outside = (try? await Task.detached { try await Self.notes(store) }.value) ?? []
                        log.update { $0.append("inner committed: \(outside)") }
                    }
                }
                #expect(log.value.isEmpty, "not before the outer commit")
                try? await store.transaction { inner in
                    await SQLTransaction.afterCommit { log.update { $0.append("rolled-back savepoint") } }
                    throw IntendedFailure()
                }
                try await Self.insert(2, "two", on: database)
            }
            #expect(log.value == [#"inner committed: ["one", "two"]"#])
            await #expect(throws: IntendedFailure.self) {
                try await store.transaction { database in
                    await SQLTransaction.afterCommit { log.update { $0.append("rolled back") } }
                    throw IntendedFailure()
                }
            }
            #expect(log.value.count == 1)
            // Outside any transaction it runs at once.
            await SQLTransaction.afterCommit { log.update { $0.append("at once") } }
            #expect(log.value.last == "at once")
        }
    }

    @Test("other tasks do not join: a task outside reads a snapshot without the open transaction's writes", arguments: StoreBackend.allCases)
    func otherTasksDoNotJoin(backend: StoreBackend) async throws {
        // SQLite from a file: its readers run beside the writer (an in-memory one has none).
        try await withStoreWithReaders(backend) { store in
            try await Self.makeTable(store)
            let inside = Signal()
            let release = Signal()
            async let first: Void = store.transaction { database in
                try await Self.insert(1, "first", on: database)
                inside.fire()
                await release.wait()
            }
            await inside.wait()
            // A detached task runs in no transaction.
            let outside = try await Task.detached { try await Self.notes(store) }.value
            release.fire()
            try await first
            #expect(outside.isEmpty)
            #expect(try await Self.notes(store) == ["first"])
        }
    }

    /// A store on `backend` whose reads run beside its writes: SQLite from a file, PostgreSQL.
    func withStoreWithReaders(_ backend: StoreBackend, _ body: (any SQLStore) async throws -> Void) async throws {
        switch backend {
        case .postgres: try await withStore(.postgres, body)
        case .sqlite:
            try await withTemporaryDirectory { folder in
                try await withFileStore(at: folder.appendingPathComponent("notes.sqlite").path) { try await body($0) }
            }
        }
    }
}

/// `body`, or a failure once `limit` passes: a deadlock fails the test instead of hanging the
/// suite (the body runs as a task of its own, left behind if it never ends).
func withDeadline<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let outcome = Shared<Result<Value, any Error>?>(nil)
    let finished = Signal()
    Task {
        do {
            let value = try await body()
            outcome.update { $0 = .success(value) }
        } catch {
            outcome.update { $0 = .failure(error) }
        }
        finished.fire()
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        finished.fire()
    }
    await finished.wait()
    timer.cancel()
    guard let result = outcome.value else { throw IntendedFailure(reason: "no answer within \(limit): a deadlock?") }
    return try result.get()
}

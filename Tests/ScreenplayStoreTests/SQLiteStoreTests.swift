import Foundation
import SQLKit
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

/// Creates `items (id INTEGER PRIMARY KEY, name TEXT)`.
private func createItems(in store: any SQLStore) async throws {
    try await store.transaction { database in
        try await database.raw("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)").run()
    }
}

@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Suite("Transactions")
    struct Transactions {
        @Test("a transaction that returns is committed and its result returned")
        func commitsOnReturn() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                let result = try await store.transaction { database in
                    try await database.raw("INSERT INTO items (name) VALUES ('one'), ('two')").run()
                    return "done"
                }
                #expect(result == "done")
                #expect(try await rowCount(of: "items", in: store) == 2)
            }
        }

        @Test("a transaction that throws is rolled back and its error rethrown")
        func rollsBackOnThrow() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                try await store.transaction { database in
                    try await database.raw("INSERT INTO items (name) VALUES ('kept')").run()
                }
                await #expect(throws: IntendedFailure(reason: "after writes")) {
                    try await store.transaction { database in
                        try await database.raw("INSERT INTO items (name) VALUES ('lost'), ('lost too')").run()
                        try await database.raw("UPDATE items SET name = 'changed'").run()
                        throw IntendedFailure(reason: "after writes")
                    }
                }
                #expect(try await rowCount(of: "items", in: store) == 1)
                let names = try await store.read { database in
                    try await database.raw("SELECT name FROM items").all().map { try $0.decode(column: "name", as: String.self) }
                }
                #expect(names == ["kept"])
            }
        }

        @Test("a failed SQL statement rolls back the writes before it")
        func sqlErrorRollsBack() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                await #expect(throws: (any Error).self) {
                    try await store.transaction { database in
                        try await database.raw("INSERT INTO items (name) VALUES ('first')").run()
                        try await database.raw("INSERT INTO items (name) VALUES (NULL)").run()  // NOT NULL violation
                    }
                }
                #expect(try await rowCount(of: "items", in: store) == 0)
            }
        }

        @Test("the store keeps working after a rolled-back transaction")
        func usableAfterRollback() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                for _ in 0..<3 {
                    await #expect(throws: IntendedFailure.self) {
                        try await store.transaction { _ in throw IntendedFailure() }
                    }
                }
                try await store.transaction { database in
                    try await database.raw("INSERT INTO items (name) VALUES ('after')").run()
                }
                #expect(try await rowCount(of: "items", in: store) == 1)
            }
        }

        @Test("50 concurrent read-modify-write transactions never lose an update")
        func concurrentIncrementsAreSerialized() async throws {
            try await withInMemoryStore { store async throws in
                try await store.transaction { database in
                    try await database.raw("CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)").run()
                    try await database.raw("INSERT INTO counter (id, value) VALUES (1, 0)").run()
                }
                let inside = Shared(0)
                let mostInside = Shared(0)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            try await store.transaction { database in
                                let now = inside.update { count in
                                    count += 1
                                    return count
                                }
                                mostInside.update { $0 = max($0, now) }
                                defer { inside.update { $0 -= 1 } }
                                let row = try await database.raw("SELECT value FROM counter WHERE id = 1").first()
                                let value = try #require(row).decode(column: "value", as: Int.self)
                                // Give another transaction every chance to interleave.
                                await Task.yield()
                                try await Task.sleep(for: .milliseconds(1))
                                try await database.raw("UPDATE counter SET value = \(bind: value + 1) WHERE id = 1").run()
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let final = try await store.read { database in
                    try await database.raw("SELECT value FROM counter WHERE id = 1").first()?.decode(column: "value", as: Int.self)
                }
                #expect(final == 50)
                #expect(mostInside.value == 1)
            }
        }
    }

    @Suite("Reads")
    struct Reads {
        @Test("a read sees what committed transactions wrote")
        func readSeesCommittedData() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                try await store.transaction { database in
                    try await database.raw("INSERT INTO items (id, name) VALUES (7, 'seven')").run()
                }
                let name = try await store.read { database in
                    try await database.raw("SELECT name FROM items WHERE id = 7").first()?.decode(column: "name", as: String.self)
                }
                #expect(name == "seven")
            }
        }

        @Test("a read waits for a transaction in progress and never sees half of it")
        func readWaitsForTransaction() async throws {
            try await withInMemoryStore { store async throws in
                try await createItems(in: store)
                let firstWritten = Signal()
                let finish = Signal()
                let writer = Task {
                    try await store.transaction { database in
                        try await database.raw("INSERT INTO items (name) VALUES ('a')").run()
                        firstWritten.fire()
                        await finish.wait()
                        try await database.raw("INSERT INTO items (name) VALUES ('b')").run()
                    }
                }
                await firstWritten.wait()
                let readDone = Signal()
                let reader = Task {
                    defer { readDone.fire() }
                    return try await rowCount(of: "items", in: store)
                }
                try await Task.sleep(for: .milliseconds(100))
                #expect(readDone.hasFired == false, "the read ran while a transaction held the connection")
                finish.fire()
                try await writer.value
                #expect(try await reader.value == 2)
            }
        }
    }

    @Suite("Opening")
    struct Opening {
        @Test("open(path:) creates missing parent folders and the file")
        func createsParentFolders() async throws {
            try await withTemporaryDirectory { folder async throws in
                let path = folder.appendingPathComponent("deeply/nested/folder/screenplay.sqlite").path
                #expect(FileManager.default.fileExists(atPath: folder.path) == false)
                try await withFileStore(at: path) { store async throws in
                    #expect(store.path == path)
                    try await createItems(in: store)
                }
                var isDirectory: ObjCBool = false
                #expect(
                    FileManager.default.fileExists(
                        atPath: folder.appendingPathComponent("deeply/nested/folder").path, isDirectory: &isDirectory))
                #expect(isDirectory.boolValue)
                #expect(FileManager.default.fileExists(atPath: path))
            }
        }

        @Test("a file store keeps its data after reopening")
        func fileStoreKeepsData() async throws {
            try await withTemporaryDirectory { folder async throws in
                let path = folder.appendingPathComponent("data.sqlite").path
                try await withFileStore(at: path) { store async throws in
                    try await createItems(in: store)
                    try await store.transaction { database in
                        try await database.raw("INSERT INTO items (name) VALUES ('persisted')").run()
                    }
                }
                try await withFileStore(at: path) { store async throws in
                    #expect(try await rowCount(of: "items", in: store) == 1)
                }
            }
        }

        @Test("a file store journals with WAL and enforces foreign keys")
        func fileStorePragmas() async throws {
            try await withTemporaryDirectory { folder async throws in
                try await withFileStore(at: folder.appendingPathComponent("pragmas.sqlite").path) { store async throws in
                    let (journal, foreignKeys) = try await store.read { database in
                        let journal = try await database.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
                        let keys = try await database.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int.self)
                        return (journal, keys)
                    }
                    #expect(journal?.lowercased() == "wal")
                    #expect(foreignKeys == 1)
                }
            }
        }

        @Test("commits wait for the disk only when asked: NORMAL by default, FULL for power-loss durability")
        func durability() async throws {
            try await withTemporaryDirectory { folder async throws in
                for (durability, expected) in [(SQLiteStore.Durability.processCrash, 1), (.powerLoss, 2)] {
                    let store = try await SQLiteStore.open(
                        path: folder.appendingPathComponent("\(expected).sqlite").path, durability: durability)
                    let synchronous = try await store.transaction { database in
                        try await database.raw("PRAGMA synchronous").first()?.decode(column: "synchronous", as: Int.self)
                    }
                    try await store.close()
                    #expect(synchronous == expected, "\(durability)")
                    #expect(store.durability == durability)
                }
            }
        }

        @Test("an in-memory store has no path, enforces foreign keys, and is private")
        func inMemoryStore() async throws {
            try await withInMemoryStore { first async throws in
                #expect(first.path == nil)
                try await first.transaction { database in
                    try await database.raw("CREATE TABLE parent (id INTEGER PRIMARY KEY)").run()
                    try await database.raw("CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id))").run()
                }
                await #expect(throws: (any Error).self, "foreign keys must be enforced") {
                    try await first.transaction { database in
                        try await database.raw("INSERT INTO child (parent) VALUES (99)").run()
                    }
                }
                try await withInMemoryStore { second async throws in
                    #expect(try await tableExists("parent", in: second) == false)
                }
            }
        }
    }

    @Suite("Readers beside the writer")
    struct Readers {
        static func path() -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-readers-\(UUID().uuidString)/db.sqlite").path
        }

        @Test("a slow read holds one reader; other reads go on, and a write commits meanwhile")
        func slowReadBlocksNobody() async throws {
            let path = Self.path()
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            try await withFileStore(at: path) { store async throws in
                #expect(store.readerCount == 4)
                try await createItems(in: store)
                let release = AsyncStream<Void>.makeStream()
                let started = AsyncStream<Void>.makeStream()
                let slow = Task {
                    try await store.read { database in
                        func count() async throws -> Int? {
                            try await database.raw("SELECT COUNT(*) AS n FROM items").first()?.decode(column: "n", as: Int.self)
                        }
                        let before = try await count()
                        started.continuation.yield()
                        var waiting = release.stream.makeAsyncIterator()
                        _ = await waiting.next()
                        return [before, try await count()]
                    }
                }
                var begun = started.stream.makeAsyncIterator()
                _ = await begun.next()
                // While the slow read holds its reader: a write commits and other readers see it.
                try await store.transaction { database in try await database.raw("INSERT INTO items (name) VALUES ('new')").run() }
                for _ in 0..<3 { #expect(try await rowCount(of: "items", in: store) == 1) }
                release.continuation.yield()
                // The slow read kept one snapshot, taken before the write, from start to end.
                #expect(try await slow.value == [0, 0])
            }
        }

        @Test("readers cannot write")
        func readOnly() async throws {
            let path = Self.path()
            defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
            try await withFileStore(at: path) { store async throws in
                try await createItems(in: store)
                await #expect(throws: (any Error).self) {
                    try await store.read { database in try await database.raw("INSERT INTO items (name) VALUES ('x')").run() }
                }
                #expect(try await rowCount(of: "items", in: store) == 0)
            }
        }
    }
}

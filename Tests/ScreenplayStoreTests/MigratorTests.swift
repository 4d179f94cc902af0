import Foundation
import SQLKit
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayStorePostgres
import ScreenplayTestSupport
import Testing

/// A migration that creates `table` with one integer column and logs its id when it runs.
private func creating(_ table: String, id: String, log: Shared<[String]>? = nil) -> Migration {
    Migration(id: id) { database in
        log?.update { $0.append(id) }
        try await database.create(table: table).column("value", type: .bigint).run()
    }
}

@Suite("Migrator")
struct MigratorTests {
    @Suite("Applying")
    struct Applying {
        @Test("applies every migration in order and returns their ids", arguments: StoreBackend.allCases)
        func appliesInOrder(backend: StoreBackend) async throws {
            let log = Shared<[String]>([])
            let migrations = [
                creating("first", id: "0001-first", log: log),
                // Depends on the first: fails unless it runs after it.
                Migration(id: "0002-seed-first") { database in
                    log.update { $0.append("0002-seed-first") }
                    try await database.raw("INSERT INTO first (value) VALUES (42)").run()
                },
                creating("third", id: "0003-third", log: log),
            ]
            try await withStore(backend) { store async throws in
                let applied = try await Migrator(migrations).run(on: store)
                #expect(applied == ["0001-first", "0002-seed-first", "0003-third"])
                #expect(log.value == ["0001-first", "0002-seed-first", "0003-third"])
                #expect(try await recordedMigrations(in: store) == ["0001-first", "0002-seed-first", "0003-third"])
                #expect(try await rowCount(of: "first", in: store) == 1)
                #expect(try await tableExists("third", in: store))
            }
        }

        @Test("a second run applies nothing and runs no migration body", arguments: StoreBackend.allCases)
        func secondRunAppliesNothing(backend: StoreBackend) async throws {
            let log = Shared<[String]>([])
            let migrator = Migrator([creating("a", id: "a", log: log), creating("b", id: "b", log: log)])
            try await withStore(backend) { store async throws in
                #expect(try await migrator.run(on: store) == ["a", "b"])
                #expect(try await migrator.run(on: store) == [])
                #expect(log.value == ["a", "b"])
                #expect(try await recordedMigrations(in: store) == ["a", "b"])
            }
        }

        @Test("a migration appended later is applied alone", arguments: StoreBackend.allCases)
        func appendedMigrationRunsAlone(backend: StoreBackend) async throws {
            let log = Shared<[String]>([])
            let first = [creating("a", id: "a", log: log), creating("b", id: "b", log: log)]
            try await withStore(backend) { store async throws in
                try await Migrator(first).run(on: store)
                let applied = try await Migrator(first + [creating("c", id: "c", log: log)]).run(on: store)
                #expect(applied == ["c"])
                #expect(log.value == ["a", "b", "c"])
                #expect(try await tableExists("c", in: store))
            }
        }

        @Test("an empty list still creates the bookkeeping table", arguments: StoreBackend.allCases)
        func emptyListCreatesBookkeeping(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                #expect(try await Migrator([]).run(on: store) == [])
                #expect(try await tableExists("screenplay_migrations", in: store))
                #expect(try await rowCount(of: "screenplay_migrations", in: store) == 0)
            }
        }

        @Test("records when each migration ran as ISO 8601 UTC text", arguments: StoreBackend.allCases)
        func recordsTimestamp(backend: StoreBackend) async throws {
            try await withStore(backend) { store async throws in
                try await Migrator([creating("a", id: "a")]).run(on: store)
                let appliedAt = try await store.read { database in
                    try await database.raw("SELECT applied_at FROM screenplay_migrations WHERE id = 'a'").first()?
                        .decode(column: "applied_at", as: String.self)
                }
                let text = try #require(appliedAt)
                #expect(text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil, "applied_at was '\(text)'")
                let year = try #require(Int(text.prefix(4)))
                #expect(year >= 2025)
            }
        }

        @Test("Migrator.timestamp() is ISO 8601 UTC to the second")
        func timestampFormat() {
            let text = Migrator.timestamp()
            #expect(
                text.wholeMatch(of: /\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-6]\dZ/) != nil, "got '\(text)'")
        }
    }

    @Suite("Replicas and builds")
    struct ReplicasAndBuilds {
        @Test("an older build refuses a database a newer build migrated, naming the migrations it lacks", arguments: StoreBackend.allCases)
        func olderBuildRefuses(backend: StoreBackend) async throws {
            let log = Shared<[String]>([])
            try await withStore(backend) { store async throws in
                try await Migrator([creating("a", id: "a"), creating("b", id: "b"), creating("c", id: "c")]).run(on: store)
                let older = Migrator([creating("a", id: "a", log: log), creating("b", id: "b", log: log), creating("d", id: "d", log: log)])
                await #expect(throws: MigrationError.schemaNewerThanBuild(unknown: ["c"])) { try await older.run(on: store) }
                // Refused before applying anything of its own.
                #expect(log.value == [])
                #expect(try await tableExists("d", in: store) == false)
                #expect(String(describing: MigrationError.schemaNewerThanBuild(unknown: ["c"])).contains("newer build"))
            }
        }

        @Test("replicas starting together on one PostgreSQL apply each migration once, one after the other")
        func replicasMigrateOnce() async throws {
            let log = Shared<[String]>([])
            let migrations = (1...4).map { creating("t\($0)", id: "000\($0)", log: log) }
            try await withStore(.postgres) { first async throws in
                let location = try #require(first as? PostgresStore).configuration.location
                var replicas: [PostgresStore] = []
                for _ in 0..<3 { replicas.append(try await PostgresStore.open(TestPostgres.configuration(location, maximumConnections: 3))) }
                let results = try await withThrowingTaskGroup(of: [String].self) { group in
                    for replica in replicas + [try #require(first as? PostgresStore)] {
                        group.addTask { try await Migrator(migrations).run(on: replica) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                for replica in replicas { try await replica.close() }
                #expect(results.flatMap { $0 }.sorted() == ["0001", "0002", "0003", "0004"], "each applied by exactly one replica")
                #expect(log.value.sorted() == ["0001", "0002", "0003", "0004"])
                #expect(try await recordedMigrations(in: first).sorted() == ["0001", "0002", "0003", "0004"])
            }
        }
    }

    @Suite("Failure")
    struct Failure {
        @Test("a migration that throws is rolled back: no table, no record, and the error propagates", arguments: StoreBackend.allCases)
        func throwingMigrationRollsBack(backend: StoreBackend) async throws {
            let failing = Migration(id: "0002-broken") { database in
                try await database.create(table: "half_done").column("value", type: .bigint).run()
                try await database.raw("INSERT INTO half_done (value) VALUES (1)").run()
                throw IntendedFailure(reason: "broken migration")
            }
            try await withStore(backend) { store async throws in
                await #expect(throws: IntendedFailure(reason: "broken migration")) {
                    try await Migrator([creating("good", id: "0001-good"), failing]).run(on: store)
                }
                #expect(try await tableExists("half_done", in: store) == false)
                #expect(try await recordedMigrations(in: store) == ["0001-good"])
                // The migration before the broken one stays applied: each has its own transaction.
                #expect(try await tableExists("good", in: store))
            }
        }

        @Test("migrations after a failing one do not run; fixing it applies the rest next time", arguments: StoreBackend.allCases)
        func laterMigrationsWaitForTheFix(backend: StoreBackend) async throws {
            let log = Shared<[String]>([])
            let broken = Migration(id: "b") { _ in throw IntendedFailure() }
            try await withStore(backend) { store async throws in
                await #expect(throws: IntendedFailure.self) {
                    try await Migrator([creating("a", id: "a", log: log), broken, creating("c", id: "c", log: log)]).run(on: store)
                }
                #expect(log.value == ["a"])
                #expect(try await tableExists("c", in: store) == false)

                let applied = try await Migrator([
                    creating("a", id: "a", log: log), creating("b", id: "b", log: log), creating("c", id: "c", log: log),
                ])
                .run(on: store)
                #expect(applied == ["b", "c"])
                #expect(log.value == ["a", "b", "c"])
            }
        }

        @Test("duplicate ids are refused when the migrator is made")
        func duplicateIDsTrap() async {
            await #expect(processExitsWith: .failure) {
                _ = Migrator([Migration(id: "same") { _ in }, Migration(id: "same") { _ in }])
            }
        }
    }

    @Suite("Persistence")
    struct Persistence {
        @Test("records survive reopening a file-backed store")
        func recordsSurviveReopening() async throws {
            try await withTemporaryDirectory { folder async throws in
                let path = folder.appendingPathComponent("screenplay.sqlite").path
                let log = Shared<[String]>([])
                let original = [creating("a", id: "a", log: log), creating("b", id: "b", log: log)]

                try await withFileStore(at: path) { store async throws in
                    #expect(try await Migrator(original).run(on: store) == ["a", "b"])
                    try await store.transaction { database in
                        try await database.raw("INSERT INTO a (value) VALUES (7)").run()
                    }
                }
                try await withFileStore(at: path) { store async throws in
                    #expect(try await Migrator(original).run(on: store) == [])
                    #expect(try await Migrator(original + [creating("c", id: "c", log: log)]).run(on: store) == ["c"])
                    #expect(try await recordedMigrations(in: store) == ["a", "b", "c"])
                    #expect(try await rowCount(of: "a", in: store) == 1)
                }
                #expect(log.value == ["a", "b", "c"])
            }
        }
    }
}

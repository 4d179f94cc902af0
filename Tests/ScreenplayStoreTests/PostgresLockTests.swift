import Logging
import SQLKit
import ScreenplayStore
import ScreenplayStorePostgres
import ScreenplayTestSupport
import Synchronization
import Testing

/// The advisory locks replicas take turns under: scoped to the store's schema, and held for as
/// long as their body takes, however long that is.
@Suite("PostgreSQL advisory locks")
struct PostgresLockTests {
    static func store(schema: String, operationTimeout: Duration = .seconds(15)) async throws -> PostgresStore {
        var location = try PostgresLocation(url: try TestPostgres.baseURL())
        location.schema = schema
        var logger = Logger(label: "lock-test")
        logger.logLevel = .critical
        return try await PostgresStore.open(TestPostgres.configuration(location, maximumConnections: 4, operationTimeout: operationTimeout), logger: logger)
    }

    static func closing(_ stores: [PostgresStore]) async {
        for store in stores {
            try? await TestPostgres.dropSchema(of: store)
            try? await store.close()
        }
    }

    @Test("the same name in two schemas does not wait; in one schema it does")
    func scopedToSchema() async throws {
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let a = try await Self.store(schema: "lock_a_" + suffix)
        let b = try await Self.store(schema: "lock_b_" + suffix)
        let a2 = try await Self.store(schema: "lock_a_" + suffix)
        let order = Shared<[String]>([])
        let held = Signal()
        let release = Signal()
        let holder = Task {
            try await a.exclusively("screenplay-migrations") {
                held.fire()
                await release.wait()
                order.update { $0.append("a released") }
            }
        }
        await held.wait()
        // Another schema: runs while a holds its lock.
        try await b.exclusively("screenplay-migrations") { order.update { $0.append("b ran") } }
        // The same schema: waits until a lets go.
        let waiter = Task { try await a2.exclusively("screenplay-migrations") { order.update { $0.append("a2 ran") } } }
        try await Task.sleep(for: .milliseconds(300))
        #expect(order.value == ["b ran"])
        release.fire()
        try await holder.value
        try await waiter.value
        #expect(order.value == ["b ran", "a released", "a2 ran"])
        await Self.closing([a, b, a2])
    }

    @Test("a body that runs past the operation limit keeps its lock and finishes (a long migration is not a dead connection)")
    func longBody() async throws {
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        // The limit is what the body outlasts; the read after it has the whole limit, which a
        // machine running the whole suite at once has needed more than 0.5 s for.
        let store = try await Self.store(schema: "lock_long_" + suffix, operationTimeout: .seconds(1))
        let result = try await store.exclusively("slow") {
            try await Task.sleep(for: .milliseconds(2_400))
            return try await store.read { database in try await database.raw("SELECT 1 AS one").first()?.decode(column: "one", as: Int.self) }
        }
        #expect(result == 1)
        await Self.closing([store])
    }
}

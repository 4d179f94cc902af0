import Logging
import SQLKit
import ScreenplayStore
@testable import ScreenplayStorePostgres
import ScreenplayTestSupport
import Testing

/// A connection PostgreSQL closes under a running transaction: the caller hears at once, not at
/// the operation limit. (A query sent on a closing connection is sometimes never answered; the
/// replica flow's restart under load saw requests wait the full 15 s until this watch.)
@Suite("PostgreSQL connection closed under a lease")
struct PostgresConnectionLossTests {
    static func store(schema: String) async throws -> PostgresStore {
        var location = try PostgresLocation(url: try TestPostgres.baseURL())
        location.schema = schema
        var logger = Logger(label: "connection-loss-test")
        logger.logLevel = .critical
        // An operation limit far longer than the test: only the close can end the wait early.
        return try await PostgresStore.open(.init(location: location, maximumConnections: 4, operationTimeout: .seconds(60)), logger: logger)
    }

    @Test("a transaction whose connection is terminated is StoreUnavailable before its body ends")
    func terminatedUnderABody() async throws {
        let store = try await Self.store(schema: "loss_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        let bodyEnded = Signal()
        let caught: (any Error)?
        do {
            try await store.transaction { database in
                let pid = try await database.raw("SELECT pg_backend_pid() AS pid").first()!.decode(column: "pid", as: Int.self)
                // From another connection of the pool, as a fast shutdown or an operator would (a
                // detached task: a read from this task would join the transaction).
                try await Task.detached {
                    try await store.read { other in
                        _ = try await other.raw("SELECT pg_terminate_backend(\(bind: pid)::integer)").all()
                    }
                }.value
                // Stands for a query that is never answered: nothing here notices the close.
                try? await Task.sleep(for: .seconds(4))
                bodyEnded.fire()
            }
            caught = nil
        } catch {
            caught = error
        }
        let unavailable = try #require(caught as? StoreUnavailable)
        #expect(unavailable.reason.contains("closed"))
        #expect(!bodyEnded.hasFired, "answered only when the body ended, not when its connection closed")
        // The pool goes on with new connections, and the watch holds no more than the pool.
        let one = try await store.read { try await $0.raw("SELECT 1 AS one").first()?.decode(column: "one", as: Int.self) }
        #expect(one == 1)
        #expect(store.closeWatch.watchedConnections <= store.configuration.maximumConnections)
        try? await TestPostgres.dropSchema(of: store)
        try await store.close()
    }

    @Test("many leases on a small pool leave one watch entry per live connection")
    func boundedRegistry() async throws {
        let store = try await Self.store(schema: "loss_many_" + String(UInt32.random(in: 0...UInt32.max), radix: 36))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<25 { _ = try await store.read { try await $0.raw("SELECT 1 AS one").all() } }
                }
            }
            try await group.waitForAll()
        }
        let watched = store.closeWatch.watchedConnections
        #expect(watched >= 1 && watched <= store.configuration.maximumConnections)
        try? await TestPostgres.dropSchema(of: store)
        try await store.close()
    }
}

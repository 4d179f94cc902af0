import SQLKit
import ScreenplayServer
import ScreenplayStore
@testable import ScreenplayStorePostgres
import ScreenplayTestSupport
import Testing

/// The invalidation bus between replicas: what a notification carries, and two buses on one
/// database standing in for two replicas.
@Suite("PostgresInvalidationBus")
struct PostgresInvalidationBusTests {
    static let every: [Invalidation] = [
        .userRevision(userID: 42), .userRevision(userID: -1), .tokenRevoked(tokenHash: "9f86d081884c7d65"),
        .pagePublished(route: "home"), .pagePublished(route: "composer/bach|dvořák ✓"), .pagePublished(route: ""),
        .draftChanged(route: "shop"), .experimentsChanged, .everything,
    ]

    @Test("every invalidation reads back as itself, a route with '|' and non-ASCII letters too")
    func roundTrip() {
        for invalidation in Self.every {
            let text = PostgresInvalidationBus.encode(invalidation)
            #expect(PostgresInvalidationBus.decode(Substring(text)) == invalidation, "\(text)")
        }
    }

    @Test("a text this build does not know decodes to nothing", arguments: ["", "x", "x:1", "u:", "u:forty-two", "t:", "ee", "u", ":1", "**"])
    func unknownText(text: String) {
        #expect(PostgresInvalidationBus.decode(Substring(text)) == nil)
    }

    @Test("a payload over the limit is sent as 'everything'; one at the limit as it is")
    func oversizedPayload() async throws {
        let store = try await TestPostgres.openFreshStore(maximumConnections: 2)
        let bus = PostgresInvalidationBus(store: store, replicaName: "a")
        let overhead = (bus.origin + "|p:").utf8.count
        let fits = String(repeating: "r", count: PostgresInvalidationBus.payloadLimit - overhead)
        #expect(bus.payload(for: .pagePublished(route: fits)) == bus.origin + "|p:" + fits)
        #expect(bus.payload(for: .pagePublished(route: fits + "r")) == bus.origin + "|*")
        // Counted in bytes, not characters: 'ř' is two.
        let wide = String(repeating: "ř", count: (PostgresInvalidationBus.payloadLimit - overhead) / 2 + 1)
        #expect(bus.payload(for: .pagePublished(route: wide)) == bus.origin + "|*")
        try await TestPostgres.dropSchema(of: store)
        try await store.close()
    }

    @Test("replica names are cut to letters, digits, '-' and '_' so they cannot forge the separator")
    func sanitizedNames() {
        #expect(PostgresInvalidationBus.sanitized("eu-west_1") == "eu-west_1")
        #expect(PostgresInvalidationBus.sanitized("a|u:1 b") == "au1b")
        #expect(PostgresInvalidationBus.sanitized(String(repeating: "n", count: 100)).count == 40)
    }

    /// Two buses on one fresh schema, both listening, each with a log of what its subscribers got
    /// (emptied once both listen: connecting announces `everything`).
    struct Replicas {
        let store: PostgresStore
        let a: PostgresInvalidationBus
        let b: PostgresInvalidationBus
        let heardByA = Shared<[Invalidation]>([])
        let heardByB = Shared<[Invalidation]>([])

        static func start() async throws -> Replicas {
            let store = try await TestPostgres.openFreshStore(maximumConnections: 4)
            let replicas = Replicas(
                store: store, a: PostgresInvalidationBus(store: store, replicaName: "a"), b: PostgresInvalidationBus(store: store, replicaName: "b"))
            replicas.a.subscribe { [heard = replicas.heardByA] invalidation in heard.update { $0.append(invalidation) } }
            replicas.b.subscribe { [heard = replicas.heardByB] invalidation in heard.update { $0.append(invalidation) } }
            #expect(await replicas.a.start())
            #expect(await replicas.b.start())
            replicas.heardByA.update { $0.removeAll() }
            replicas.heardByB.update { $0.removeAll() }
            return replicas
        }

        func stop() async throws {
            await a.stop()
            await b.stop()
            try await TestPostgres.dropSchema(of: store)
            try await store.close()
        }

        /// Waits up to two seconds for `log` to hold `expected`; returns what it holds.
        func waitFor(_ log: Shared<[Invalidation]>, toHold expected: [Invalidation]) async throws -> [Invalidation] {
            for _ in 0..<200 where log.value != expected {
                try await Task.sleep(for: .milliseconds(10))
            }
            return log.value
        }
    }

    @Test("an announcement made in a transaction reaches the other replica at commit, and not at all on rollback")
    func announcedAtCommit() async throws {
        let replicas = try await Replicas.start()
        struct Rollback: Error {}
        await #expect(throws: Rollback.self) {
            try await replicas.store.transaction { database in
                try await replicas.a.send(.userRevision(userID: 1), in: database)
                throw Rollback()
            }
        }
        let heard = Shared<[Invalidation]>([])
        try await replicas.store.transaction { database in
            try await replicas.a.send(.userRevision(userID: 2), in: database)
            // Not yet committed: B has heard nothing.
            try await Task.sleep(for: .milliseconds(200))
            heard.update { $0 = replicas.heardByB.value }
        }
        #expect(heard.value.isEmpty)
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: [.userRevision(userID: 2)]) == [.userRevision(userID: 2)])
        // A delivers its own after the commit (the write path calls deliverHere) and ignores its echo.
        try await Task.sleep(for: .milliseconds(100))
        #expect(replicas.heardByA.value.isEmpty)
        try await replicas.stop()
    }

    @Test("publish outside a transaction: here at once, there within a second; an oversized route arrives as 'everything'")
    func publishedEverywhere() async throws {
        let replicas = try await Replicas.start()
        await replicas.a.publish(.pagePublished(route: "home"))
        #expect(replicas.heardByA.value == [.pagePublished(route: "home")])
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: [.pagePublished(route: "home")]) == [.pagePublished(route: "home")])
        let huge = String(repeating: "x", count: 9_000)
        await replicas.a.publish(.pagePublished(route: huge))
        let expected: [Invalidation] = [.pagePublished(route: "home"), .everything]
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: expected) == expected)
        #expect(replicas.b.receivedCount == 2)
        try await replicas.stop()
    }

    @Test("a notification from a newer build drops everything; one without a sender is ignored")
    func foreignNotifications() async throws {
        let replicas = try await Replicas.start()
        let channel = replicas.b.channel
        try await replicas.store.transaction { database in
            try await database.raw("SELECT pg_notify(\(bind: channel), 'no sender at all')").run()
            try await database.raw("SELECT pg_notify(\(bind: channel), 'future-replica|q:something new')").run()
        }
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: [.everything]) == [.everything])
        try await Task.sleep(for: .milliseconds(100))
        #expect(replicas.heardByB.value == [.everything])
        try await replicas.stop()
    }

    @Test("the listening connection ended: memory off and everything dropped, then listening again with everything dropped once more")
    func listenerEnded() async throws {
        let replicas = try await Replicas.start()
        #expect(replicas.b.isDelivering)
        let name = "screenplay-bus " + replicas.b.origin
        try await replicas.store.transaction { database in
            try await database.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(bind: name)").run()
        }
        // Dropped once on losing the connection, once on listening again.
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: [.everything, .everything]) == [.everything, .everything])
        for _ in 0..<200 where !replicas.b.isDelivering { try await Task.sleep(for: .milliseconds(10)) }
        #expect(replicas.b.isDelivering)
        #expect(replicas.b.reconnectionCount == 1)
        // And it hears again.
        await replicas.a.publish(.experimentsChanged)
        let expected: [Invalidation] = [.everything, .everything, .experimentsChanged]
        #expect(try await replicas.waitFor(replicas.heardByB, toHold: expected) == expected)
        // A's connection was never touched.
        #expect(replicas.a.reconnectionCount == 0)
        try await replicas.stop()
    }

    @Test("a one-statement write commits the write, the bump and the notification together; one that changes nothing does none of them")
    func oneStatementWrite() async throws {
        let replicas = try await Replicas.start()
        do {
            try await Migrator(UserDirectory.migrations).run(on: replicas.store)
            try await replicas.store.transaction { database in
                try await database.raw("CREATE TABLE notes (user_id BIGINT NOT NULL, note TEXT NOT NULL, PRIMARY KEY (user_id, note))").run()
            }
            let directory = UserDirectory(store: replicas.store, bus: replicas.a)
            let user = try await directory.resolve(token: nil, creating: true).user
            let invalidation = Invalidation.userRevision(userID: user.id)
            replicas.heardByA.update { $0.removeAll() }
            replicas.heardByB.update { $0.removeAll() }
            @Sendable func note(_ text: String) async throws -> (echoed: String, wrote: Bool)? {
                guard
                    let (row, wrote) = try await directory.writeInOneStatement(
                        for: user,
                        with: "wrote AS (INSERT INTO notes (user_id, note) VALUES (\(bind: user.id), \(bind: text)) ON CONFLICT DO NOTHING RETURNING note)",
                        selecting: "\(bind: text)::text AS echoed")
                else { return nil }
                return (try row.decode(column: "echoed", as: String.self), wrote)
            }
            func revision() async throws -> Int64 {
                try await replicas.store.read { database in try await UserDirectory.revision(of: user, on: database) }
            }

            let first = try #require(try await note("a"))
            #expect(first.echoed == "a" && first.wrote)
            #expect(try await revision() == 1)
            #expect(try await replicas.waitFor(replicas.heardByB, toHold: [invalidation]) == [invalidation], "the other replica heard it")
            #expect(replicas.heardByA.value == [invalidation], "this one delivered it to its own subscribers")

            let again = try #require(try await note("a"))
            #expect(!again.wrote, "the same note again changes nothing")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await revision() == 1)
            #expect(replicas.heardByB.value == [invalidation], "nothing more was announced")

            // One user's writes side by side: each bumps once, none is lost.
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<16 { group.addTask { try await note("n\(index)")?.wrote ?? false } }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results == Array(repeating: true, count: 16))
            #expect(try await revision() == 17)
            #expect(try await rowCount(of: "notes", in: replicas.store) == 17)

            // Inside a transaction the caller writes with write(for:) instead.
            let inside = try await replicas.store.transaction { _ in try await note("t") == nil }
            #expect(inside)
        } catch {
            try? await replicas.stop()
            throw error
        }
        try await replicas.stop()
    }
}

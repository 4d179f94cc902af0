import Foundation
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// The log of reported events, on both backends: each (user, id) stored once however often it is
/// sent, even by two replicas at once; "what did this user play lately" newest first, one row per
/// key; nothing of one user in another's.
@Suite("SQLClientEventLog")
struct SQLClientEventLogTests {
    static let alice = UserIdentity(id: 41)
    static let bob = UserIdentity(id: 42)

    static func played(_ id: String, _ key: String, minutesAgo: Double) -> ClientEvent {
        ClientEvent(id: id, kind: .played, key: key, at: Date().addingTimeInterval(-minutesAgo * 60))
    }

    func withLog(_ backend: StoreBackend, _ body: (any SQLStore, SQLClientEventLog) async throws -> Void) async throws {
        try await withStore(backend) { store in
            try await Migrator(SQLClientEventLog.migrations).run(on: store)
            try await body(store, SQLClientEventLog(store: store))
        }
    }

    @Test("a batch sent twice is stored once; another user's same ids are theirs", arguments: StoreBackend.allCases)
    func once(_ backend: StoreBackend) async throws {
        try await withLog(backend) { _, log in
            let batch = [Self.played("a", "10", minutesAgo: 3), Self.played("b", "11", minutesAgo: 2)]
            let first = try await log.store(batch, from: Self.alice, receivedAt: Date())
            #expect(first.stored == 2 && first.repeated == 0)
            let again = try await log.store(batch + [Self.played("c", "12", minutesAgo: 1)], from: Self.alice, receivedAt: Date())
            #expect(again.stored == 1 && again.repeated == 2)
            #expect(try await log.count(of: Self.alice) == 3)
            #expect(try await log.store(batch, from: Self.bob, receivedAt: Date()).stored == 2)
            #expect(try await log.count(of: Self.bob) == 2)
        }
    }

    @Test("the same retry stored at once by several writers is stored once, and each receipt adds up", arguments: StoreBackend.allCases)
    func concurrent(_ backend: StoreBackend) async throws {
        try await withLog(backend) { _, log in
            let batch = (0..<50).map { Self.played("e\($0)", String($0), minutesAgo: Double($0)) }
            let receipts = try await withThrowingTaskGroup(of: (stored: Int, repeated: Int).self) { group in
                for _ in 0..<4 { group.addTask { try await log.store(batch, from: Self.alice, receivedAt: Date()) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(receipts.map(\.stored).reduce(0, +) == 50, "\(receipts)")
            #expect(receipts.allSatisfy { $0.stored + $0.repeated == 50 })
            #expect(try await log.count(of: Self.alice) == 50)
        }
    }

    @Test("latest: one row per key, the most recent first, only the kind and user asked for", arguments: StoreBackend.allCases)
    func latest(_ backend: StoreBackend) async throws {
        try await withLog(backend) { _, log in
            _ = try await log.store(
                [
                    Self.played("1", "10", minutesAgo: 30), Self.played("2", "11", minutesAgo: 20), Self.played("3", "10", minutesAgo: 5),
                    ClientEvent(id: "4", kind: .visible, key: "home/x", screen: "home", at: Date()),
                ], from: Self.alice, receivedAt: Date())
            _ = try await log.store([Self.played("5", "99", minutesAgo: 1)], from: Self.bob, receivedAt: Date())
            let played = try await log.latest(.played, of: Self.alice, limit: 10)
            #expect(played.map(\.key) == ["10", "11"])
            #expect(try await log.latest(.played, of: Self.alice, limit: 1).map(\.key) == ["10"])
            #expect(try await log.latest(.visible, of: Self.alice, limit: 10).map(\.key) == ["home/x"])
            #expect(try await log.latest(.played, of: Self.bob, limit: 10).map(\.key) == ["99"])
        }
    }
}

import HTTPTypes
import SQLKit
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// The ledger that lets a retry on another replica replay the first answer: claims, replays,
/// conflicts, lapsed claims and expired answers, on both backends.
@Suite("SQLIdempotencyStore")
struct SQLIdempotencyStoreTests {
    /// A clock the test moves (seconds since 1970).
    let clock = Shared<Int64>(1_000_000)
    let configuration = SQLIdempotencyStore.Configuration(claimLease: .seconds(120), retention: .seconds(86_400))
    let key = IdempotencyKey(scope: "user:7", key: "5f0c-retry")

    /// Runs `body` with two ledgers on one fresh database, as two replicas share it.
    func withLedgers(_ backend: StoreBackend, _ body: ([SQLIdempotencyStore]) async throws -> Void) async throws {
        try await withStore(backend) { store async throws in
            try await Migrator(SQLIdempotencyStore.migrations).run(on: store)
            let ledgers = (0..<2).map { _ in SQLIdempotencyStore(store: store, configuration: configuration, now: { [clock] in clock.value }) }
            try await body(ledgers)
        }
    }

    static func answer(_ status: HTTPResponse.Status, _ body: String) -> ScreenplayService.Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[HTTPField.Name("Screenplay-Token")!] = "tok-123"
        return ScreenplayService.Response(head: HTTPResponse(status: status, headerFields: fields), body: Array(body.utf8))
    }

    @Test("the first claim is fresh; the same key again is in progress until answered, then replays status, headers and body", arguments: StoreBackend.allCases)
    func claimThenReplay(backend: StoreBackend) async throws {
        try await withLedgers(backend) { ledgers in
            let (a, b) = (ledgers[0], ledgers[1])
            guard case .fresh = try await a.begin(key, fingerprint: "f1") else { Issue.record("first claim not fresh"); return }
            guard case .inProgress = try await b.begin(key, fingerprint: "f1") else { Issue.record("second claim not in progress"); return }
            try await a.finish(key, fingerprint: "f1", response: Self.answer(.ok, #"{"playlist":{"id":3}}"#))
            guard case .replay(let replayed) = try await b.begin(key, fingerprint: "f1") else { Issue.record("no replay"); return }
            #expect(replayed.head.status == .ok)
            #expect(replayed.head.headerFields[.contentType] == "application/json")
            #expect(replayed.head.headerFields[HTTPField.Name("Screenplay-Token")!] == "tok-123")
            #expect(String(decoding: replayed.body, as: UTF8.self) == #"{"playlist":{"id":3}}"#)
        }
    }

    @Test("the same key with another request is a conflict, answered or not; another scope's key is its own", arguments: StoreBackend.allCases)
    func conflictAndScopes(backend: StoreBackend) async throws {
        try await withLedgers(backend) { ledgers in
            let ledger = ledgers[0]
            _ = try await ledger.begin(key, fingerprint: "f1")
            guard case .conflict = try await ledger.begin(key, fingerprint: "f2") else { Issue.record("unanswered: no conflict"); return }
            try await ledger.finish(key, fingerprint: "f1", response: Self.answer(.ok, "{}"))
            guard case .conflict = try await ledger.begin(key, fingerprint: "f2") else { Issue.record("answered: no conflict"); return }
            let otherUser = IdempotencyKey(scope: "user:8", key: key.key)
            guard case .fresh = try await ledger.begin(otherUser, fingerprint: "f2") else { Issue.record("another scope shared the key"); return }
        }
    }

    @Test("an abandoned claim lets the retry run; an answered one cannot be abandoned", arguments: StoreBackend.allCases)
    func abandon(backend: StoreBackend) async throws {
        try await withLedgers(backend) { ledgers in
            let ledger = ledgers[0]
            _ = try await ledger.begin(key, fingerprint: "f1")
            try await ledger.abandon(key)
            guard case .fresh = try await ledger.begin(key, fingerprint: "f1") else { Issue.record("abandoned key not fresh"); return }
            try await ledger.finish(key, fingerprint: "f1", response: Self.answer(.created, "{}"))
            try await ledger.abandon(key)
            guard case .replay(let replayed) = try await ledger.begin(key, fingerprint: "f1") else { Issue.record("answer lost"); return }
            #expect(replayed.head.status == .created)
        }
    }

    @Test("a claim never answered is taken over once its lease ran out, by one replica only", arguments: StoreBackend.allCases)
    func lapsedClaimTakenOverOnce(backend: StoreBackend) async throws {
        try await withLedgers(backend) { ledgers in
            _ = try await ledgers[0].begin(key, fingerprint: "f1")
            clock.update { $0 += 119 }
            guard case .inProgress = try await ledgers[1].begin(key, fingerprint: "f1") else { Issue.record("taken within the lease"); return }
            clock.update { $0 += 2 }
            // Both replicas see the lapsed claim at once: exactly one runs the command again.
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for ledger in ledgers {
                    group.addTask {
                        switch try await ledger.begin(key, fingerprint: "f1") {
                        case .fresh: "fresh"
                        case .inProgress: "inProgress"
                        case .replay: "replay"
                        case .conflict: "conflict"
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted()
            }
            #expect(outcomes == ["fresh", "inProgress"])
        }
    }

    @Test("an answer older than the retention is not replayed: the key starts afresh with the new request", arguments: StoreBackend.allCases)
    func expiredAnswer(backend: StoreBackend) async throws {
        try await withLedgers(backend) { ledgers in
            let ledger = ledgers[0]
            _ = try await ledger.begin(key, fingerprint: "f1")
            try await ledger.finish(key, fingerprint: "f1", response: Self.answer(.ok, "old"))
            clock.update { $0 += 86_399 }
            guard case .replay = try await ledger.begin(key, fingerprint: "f1") else { Issue.record("forgotten within the retention"); return }
            clock.update { $0 += 2 }
            // Another body is no conflict once the first answer is gone.
            guard case .fresh = try await ledger.begin(key, fingerprint: "f2") else { Issue.record("expired answer replayed or refused"); return }
            try await ledger.finish(key, fingerprint: "f2", response: Self.answer(.ok, "new"))
            guard case .replay(let replayed) = try await ledger.begin(key, fingerprint: "f2") else { Issue.record("no replay"); return }
            #expect(String(decoding: replayed.body, as: UTF8.self) == "new")
        }
    }
}

import HTTPTypes
import SQLKit
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

/// The ledger that makes a retry change nothing, whatever died: the answer commits with the
/// command's writes, a failure records nothing and keeps nothing, two attempts at once run once,
/// and an attempt whose connection died holds its key no longer than that. On both backends.
@Suite("SQLIdempotencyStore")
struct SQLIdempotencyStoreTests {
    /// A clock the test moves (seconds since 1970).
    let clock = Shared<Int64>(1_000_000)
    let configuration = SQLIdempotencyStore.Configuration(retention: .seconds(86_400))
    let key = IdempotencyKey(scope: "user:7", key: "5f0c-retry")

    /// Runs `body` with a ledger per replica (`replicas` of them) on one fresh database, with a
    /// table `writes` a command writes to.
    func withLedgers(_ backend: StoreBackend, replicas: Int = 1, _ body: (any SQLStore, [SQLIdempotencyStore]) async throws -> Void)
        async throws
    {
        try await withStore(backend) { store async throws in
            try await Migrator(SQLIdempotencyStore.migrations).run(on: store)
            try await store.transaction { database in
                try await database.create(table: "writes").column("name", type: .text, .notNull).run()
            }
            let ledgers = (0..<replicas).map { _ in
                SQLIdempotencyStore(store: store, configuration: configuration, now: { [clock] in clock.value })
            }
            try await body(store, ledgers)
        }
    }

    static func answer(_ status: HTTPResponse.Status, _ body: String) -> ScreenplayService.Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[HTTPField.Name("Screenplay-Token")!] = "tok-123"
        return ScreenplayService.Response(head: HTTPResponse(status: status, headerFields: fields), body: Array(body.utf8))
    }

    /// A command as a handler writes: its own transaction (which joins the ledger's).
    static func write(_ name: String, in store: any SQLStore) async throws {
        try await store.transaction { database in
            try await database.insert(into: "writes").columns("name").values(SQLBind(name)).run()
        }
    }

    static func writes(in store: any SQLStore) async throws -> [String] {
        try await store.read { database in
            try await database.select().column("name").from("writes").all().map { try $0.decode(column: "name", as: String.self) }
        }
    }

    static func recordedAnswers(in store: any SQLStore) async throws -> Int {
        try await rowCount(of: "screenplay_idempotency", in: store)
    }

    /// The outcome's name, for comparing.
    static func name(_ outcome: IdempotencyOutcome) -> String {
        switch outcome {
        case .answered: "answered"
        case .replay: "replay"
        case .conflict: "conflict"
        case .inProgress: "inProgress"
        }
    }

    @Test("the first attempt runs and writes once; the retry replays status, headers and body and runs nothing", arguments: StoreBackend.allCases)
    func runOnceThenReplay(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            let runs = Shared(0)
            let command: @Sendable () async throws -> ScreenplayService.Response = {
                runs.update { $0 += 1 }
                try await Self.write("Once", in: store)
                return Self.answer(.ok, #"{"playlist":{"id":3}}"#)
            }
            guard case .answered = try await ledgers[0].once(key, fingerprint: "f1", command) else { Issue.record("not run"); return }
            guard case .replay(let replayed) = try await ledgers[0].once(key, fingerprint: "f1", command) else {
                Issue.record("no replay")
                return
            }
            #expect(runs.value == 1)
            #expect(try await Self.writes(in: store) == ["Once"])
            #expect(replayed.head.status == .ok)
            #expect(replayed.head.headerFields[.contentType] == "application/json")
            #expect(replayed.head.headerFields[HTTPField.Name("Screenplay-Token")!] == "tok-123")
            #expect(String(decoding: replayed.body, as: UTF8.self) == #"{"playlist":{"id":3}}"#)
        }
    }

    @Test("a command that throws keeps nothing and records nothing (a 503 is never the answer); the retry runs it", arguments: StoreBackend.allCases)
    func failureKeepsNothing(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            await #expect(throws: StoreUnavailable.self) {
                try await ledgers[0].once(key, fingerprint: "f1") {
                    try await Self.write("half-done", in: store)
                    throw StoreUnavailable("the database went away mid-command", wroteNothing: false)
                }
            }
            #expect(try await Self.writes(in: store).isEmpty, "the command's write was rolled back with it")
            #expect(try await Self.recordedAnswers(in: store) == 0)
            let outcome = try await ledgers[0].once(key, fingerprint: "f1") {
                try await Self.write("retried", in: store)
                return Self.answer(.ok, "{}")
            }
            #expect(Self.name(outcome) == "answered")
            #expect(try await Self.writes(in: store) == ["retried"])
        }
    }

    @Test("a refusal is an answer: recorded and replayed, while writes the command kept commit with it", arguments: StoreBackend.allCases)
    func refusalRecorded(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            let refused = Self.answer(.unprocessableContent, #"{"error":{"code":"invalidField"}}"#)
            _ = try await ledgers[0].once(key, fingerprint: "f1") {
                try await Self.write("noted", in: store)
                return refused
            }
            guard case .replay(let replayed) = try await ledgers[0].once(key, fingerprint: "f1", { Self.answer(.ok, "{}") }) else {
                Issue.record("no replay")
                return
            }
            #expect(replayed.head.status == .unprocessableContent)
            #expect(try await Self.writes(in: store) == ["noted"])
        }
    }

    @Test("the same key with another request is a conflict; another scope's key is its own", arguments: StoreBackend.allCases)
    func conflictAndScopes(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            let ledger = ledgers[0]
            _ = try await ledger.once(key, fingerprint: "f1") { Self.answer(.ok, "{}") }
            #expect(Self.name(try await ledger.once(key, fingerprint: "f2") { Self.answer(.ok, "{}") }) == "conflict")
            let otherUser = IdempotencyKey(scope: "user:8", key: key.key)
            #expect(Self.name(try await ledger.once(otherUser, fingerprint: "f2") { Self.answer(.ok, "{}") }) == "answered")
        }
    }

    @Test("two attempts at once (one process, or two replicas on PostgreSQL): one runs, the other is in progress at once", arguments: StoreBackend.allCases)
    func concurrentAttempts(backend: StoreBackend) async throws {
        try await withLedgers(backend, replicas: backend == .postgres ? 2 : 1) { store, ledgers in
            let started = Signal()
            let release = Signal()
            async let first = ledgers[0].once(key, fingerprint: "f1") {
                try await Self.write("first", in: store)
                started.fire()
                await release.wait()
                return Self.answer(.ok, "{}")
            }
            await started.wait()
            let second = try await withDeadline(.seconds(10)) { [key] in
                try await ledgers[ledgers.count - 1].once(key, fingerprint: "f1") {
                    try await Self.write("second", in: store)
                    return Self.answer(.ok, "{}")
                }
            }
            release.fire()
            #expect(Self.name(try await first) == "answered")
            #expect(Self.name(second) == "inProgress")
            #expect(try await Self.writes(in: store) == ["first"])
            #expect(Self.name(try await ledgers[ledgers.count - 1].once(key, fingerprint: "f1") { Self.answer(.ok, "{}") }) == "replay")
        }
    }

    @Test("an attempt whose connection dies holds its key no longer: the other replica runs the command at once, and nothing of the first is kept")
    func connectionDeathReleasesTheKey() async throws {
        try await withLedgers(.postgres, replicas: 2) { store, ledgers in
            let caught = Shared<(any Error)?>(nil)
            do {
                _ = try await ledgers[0].once(key, fingerprint: "f1") {
                    try await Self.write("lost", in: store)
                    // The replica's connection ends here, as a kill -9 or a network cut ends it.
                    try await store.read { database in
                        let pid = try await database.raw("SELECT pg_backend_pid() AS pid").first()!.decode(column: "pid", as: Int.self)
                        try await Task.detached {
                            try await store.read { other in _ = try await other.raw("SELECT pg_terminate_backend(\(bind: pid)::integer)").all() }
                        }.value
                    }
                    _ = try await store.read { try await $0.raw("SELECT 1").all() }
                    return Self.answer(.ok, "{}")
                }
            } catch {
                caught.update { $0 = error }
            }
            #expect(caught.value is StoreUnavailable)
            let started = ContinuousClock.now
            let retried = try await ledgers[1].once(key, fingerprint: "f1") {
                try await Self.write("retried", in: store)
                return Self.answer(.ok, "{}")
            }
            #expect(Self.name(retried) == "answered")
            #expect(ContinuousClock.now - started < .seconds(5), "no lease to wait out")
            #expect(try await Self.writes(in: store) == ["retried"])
        }
    }

    @Test("an answer older than the retention is not replayed: the key starts afresh with the new request", arguments: StoreBackend.allCases)
    func expiredAnswer(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            let ledger = ledgers[0]
            _ = try await ledger.once(key, fingerprint: "f1") { Self.answer(.ok, "old") }
            clock.update { $0 += 86_399 }
            #expect(Self.name(try await ledger.once(key, fingerprint: "f1") { Self.answer(.ok, "?") }) == "replay")
            clock.update { $0 += 2 }
            // Another body is no conflict once the first answer is gone.
            #expect(Self.name(try await ledger.once(key, fingerprint: "f2") { Self.answer(.ok, "new") }) == "answered")
            guard case .replay(let replayed) = try await ledger.once(key, fingerprint: "f2", { Self.answer(.ok, "?") }) else {
                Issue.record("no replay")
                return
            }
            #expect(String(decoding: replayed.body, as: UTF8.self) == "new")
        }
    }

    @Test("a claim an older version left unanswered is no answer: the key runs", arguments: StoreBackend.allCases)
    func oldClaimIsNoAnswer(backend: StoreBackend) async throws {
        try await withLedgers(backend) { store, ledgers in
            try await store.transaction { [key, clock] database in
                try await database.insert(into: "screenplay_idempotency").columns("scope", "key", "fingerprint", "claimed_at")
                    .values(SQLBind(key.scope), SQLBind(key.key), SQLBind("f1"), SQLBind(clock.value)).run()
            }
            #expect(Self.name(try await ledgers[0].once(key, fingerprint: "f1") { Self.answer(.ok, "{}") }) == "answered")
            #expect(try await Self.recordedAnswers(in: store) == 1)
        }
    }
}

import Foundation
import HTTPTypes
import SQLKit
import Synchronization
public import ScreenplayServer

/// The answers to `Idempotency-Key` commands in the database, recorded in the same transaction as
/// the command's writes: the same SQL on SQLite and PostgreSQL.
///
/// ``once(_:fingerprint:_:)`` opens one transaction of the store and runs the command inside it
/// (its own transactions join it, ``SQLTransaction``), then records the answer there. So whatever
/// dies when, a retry finds either the answer with the writes, or neither:
/// - the process killed (`kill -9`, a crash) or its connection lost before the commit: the
///   database rolls everything back, and the retry runs the command once;
/// - lost during the commit: the outcome is unknown to the client (a 503), and the retry replays
///   the answer if the commit landed, or runs the command if it did not;
/// - a command that throws (a server failure, the database gone) rolls back and records nothing:
///   a transient failure is never a key's answer.
///
/// Of two attempts with one key at once, one runs and the other is answered "in progress" (409)
/// at once: in this process through a set of keys in flight, across PostgreSQL replicas through a
/// transaction-scoped advisory lock, which the database releases the moment the transaction ends
/// or its connection dies, so there is no lease to wait out after a crash. SQLite's file belongs
/// to one process, so the set is enough there.
///
/// Answers are kept for ``Configuration/retention`` (a day by default): an older one is not
/// replayed, and older rows are deleted now and then as new answers are recorded.
public struct SQLIdempotencyStore: IdempotencyStore {
    /// How long answers are kept.
    public struct Configuration: Sendable {
        /// How long an answer is replayed.
        public var retention: Duration

        /// A day for an answer.
        public init(retention: Duration = .seconds(86_400)) {
            self.retention = retention
        }
    }

    /// The table's migration; run it with the app's own. (`claimed_at` is when the answer was
    /// recorded; rows with `answered = 0`, claims older versions left behind, count as absent.)
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0005-idempotency") { database in
            try await database.create(table: "screenplay_idempotency")
                .column("scope", type: .text, .notNull)
                .column("key", type: .text, .notNull)
                .column("fingerprint", type: .text, .notNull)
                .column("answered", type: .bigint, .notNull, .default(0))
                .column("status", type: .bigint, .notNull, .default(0))
                .column("headers", type: .text, .notNull, .default(""))
                .column("body", type: .text, .notNull, .default(""))
                .column("claimed_at", type: .bigint, .notNull)
                .primaryKey("scope", "key")
                .run()
            try await database.create(index: "screenplay_idempotency_claimed").on("screenplay_idempotency").column("claimed_at").run()
        }
    ]

    let store: any SQLStore
    let configuration: Configuration
    let now: @Sendable () -> Int64
    private let inFlight = KeysInFlight()

    /// A ledger in `store` (run ``migrations`` first). One per process and store: its set of keys
    /// in flight is what answers a concurrent retry "in progress" on SQLite.
    public init(store: any SQLStore, configuration: Configuration = Configuration()) {
        self.init(store: store, configuration: configuration, now: { Int64(Date().timeIntervalSince1970) })
    }

    /// A ledger whose clock is `now` (seconds since 1970): tests move time on.
    public init(store: any SQLStore, configuration: Configuration, now: @escaping @Sendable () -> Int64) {
        self.store = store
        self.configuration = configuration
        self.now = now
    }

    /// Runs `command` once for `key` in one transaction with its recorded answer (see the type's
    /// documentation), or says what became of an earlier attempt.
    public func once(
        _ key: IdempotencyKey, fingerprint: String, _ command: @escaping @Sendable () async throws -> ScreenplayService.Response
    ) async throws -> IdempotencyOutcome {
        guard inFlight.claim(key) else { return .inProgress }
        defer { inFlight.release(key) }
        let now = self.now()
        let retention = configuration.retention.components.seconds
        return try await store.transaction { database in
            guard try await Self.tryLock(key, on: database) else { return .inProgress }
            let row = try await database.select().columns("fingerprint", "status", "headers", "body", "claimed_at")
                .from("screenplay_idempotency").where("scope", .equal, key.scope).where("key", .equal, key.key)
                .where("answered", .equal, Int64(1)).first()
            // An answer past its retention (not yet deleted) is forgotten: the key starts afresh.
            if let row, try row.decode(column: "claimed_at", as: Int64.self) >= now - retention {
                guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .conflict }
                return .replay(try Self.response(from: row))
            }
            let response = try await command()
            try await Self.record(response, for: key, fingerprint: fingerprint, at: now, on: database)
            if Int.random(in: 0..<100) == 0 {
                try await database.delete(from: "screenplay_idempotency").where("claimed_at", .lessThan, now - retention).run()
            }
            return .answered(response)
        }
    }

    /// Takes `key` for the rest of the transaction `database` runs, or says another replica holds
    /// it. On PostgreSQL an advisory lock scoped to the schema and released with the transaction
    /// (its commit, its rollback, or its connection's death); SQLite runs one transaction at a time
    /// and its file has one process, whose keys in flight are already taken.
    static func tryLock(_ key: IdempotencyKey, on database: any SQLDatabase) async throws -> Bool {
        guard database.dialect.name == "postgresql" else { return true }
        let name = "screenplay-idempotency:\(key.scope):\(key.key)"
        let row = try await database.raw(
            "SELECT pg_try_advisory_xact_lock(hashtextextended(current_schema() || ':' || \(bind: name), 0)) AS taken"
        ).first()
        return try row?.decode(column: "taken", as: Bool.self) ?? false
    }

    /// Writes the answer, replacing what an expired answer or an old claim left under the key.
    static func record(
        _ response: ScreenplayService.Response, for key: IdempotencyKey, fingerprint: String, at now: Int64, on database: any SQLDatabase
    ) async throws {
        let headers = try encode(response.head.headerFields)
        let body = Data(response.body).base64EncodedString()
        try await database.delete(from: "screenplay_idempotency").where("scope", .equal, key.scope).where("key", .equal, key.key).run()
        try await database.insert(into: "screenplay_idempotency")
            .columns("scope", "key", "fingerprint", "answered", "status", "headers", "body", "claimed_at")
            .values(
                SQLBind(key.scope), SQLBind(key.key), SQLBind(fingerprint), SQLBind(Int64(1)), SQLBind(Int64(response.head.status.code)),
                SQLBind(headers), SQLBind(body), SQLBind(now)
            )
            .run()
    }

    // MARK: Encoding

    static func encode(_ fields: HTTPFields) throws -> String {
        let pairs = fields.map { [$0.name.rawName, $0.value] }
        return String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)
    }

    static func response(from row: any SQLRow) throws -> ScreenplayService.Response {
        let status = try row.decode(column: "status", as: Int64.self)
        let headersText = try row.decode(column: "headers", as: String.self)
        let bodyText = try row.decode(column: "body", as: String.self)
        var fields = HTTPFields()
        if let pairs = try JSONSerialization.jsonObject(with: Data(headersText.utf8)) as? [[String]] {
            for pair in pairs where pair.count == 2 {
                if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
            }
        }
        let head = HTTPResponse(status: HTTPResponse.Status(code: Int(status)), headerFields: fields)
        return ScreenplayService.Response(head: head, body: Array(Data(base64Encoded: bodyText) ?? Data()))
    }
}

/// The keys this process is running commands for: a second attempt with one of them is answered
/// "in progress" without waiting for the database.
private final class KeysInFlight: Sendable {
    private let keys = Mutex(Set<IdempotencyKey>())

    /// Takes `key`; false when an attempt with it is running.
    func claim(_ key: IdempotencyKey) -> Bool { keys.withLock { $0.insert(key).inserted } }

    /// Gives `key` back.
    func release(_ key: IdempotencyKey) { _ = keys.withLock { $0.remove(key) } }
}

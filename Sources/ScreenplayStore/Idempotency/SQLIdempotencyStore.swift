import Foundation
import HTTPTypes
import SQLKit
public import ScreenplayServer

/// The answers to `Idempotency-Key` commands in the database, so a retry that reaches another
/// replica gets the first answer too. The same SQL on SQLite and PostgreSQL.
///
/// - Claiming a key is one `INSERT … ON CONFLICT DO NOTHING`: of two replicas receiving the same
///   key at once, exactly one runs the command; the other answers "in progress" (409).
/// - A claim whose replica died mid-command (no answer after ``Configuration/claimLease``) may be
///   taken over: the command may or may not have committed, and a client waiting that long has
///   given up on the first attempt anyway.
/// - Answers are kept for ``Configuration/retention`` (a day by default): an older one is not
///   replayed, and older rows are deleted now and then as new keys are claimed.
public struct SQLIdempotencyStore: IdempotencyStore {
    /// How long claims and answers are kept.
    public struct Configuration: Sendable {
        /// How long a claim without an answer blocks its key.
        public var claimLease: Duration
        /// How long an answer is replayed.
        public var retention: Duration

        /// Two minutes for a claim, a day for an answer.
        public init(claimLease: Duration = .seconds(120), retention: Duration = .seconds(86_400)) {
            self.claimLease = claimLease
            self.retention = retention
        }
    }

    /// The table's migration; run it with the app's own.
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

    /// A ledger in `store` (run ``migrations`` first).
    public init(store: any SQLStore, configuration: Configuration = Configuration()) {
        self.init(store: store, configuration: configuration, now: { Int64(Date().timeIntervalSince1970) })
    }

    /// A ledger whose clock is `now` (seconds since 1970): tests move time on.
    public init(store: any SQLStore, configuration: Configuration, now: @escaping @Sendable () -> Int64) {
        self.store = store
        self.configuration = configuration
        self.now = now
    }

    /// Claims `key`, or says what became of an earlier claim.
    public func begin(_ key: IdempotencyKey, fingerprint: String) async throws -> IdempotencyBegin {
        let now = self.now()
        let lease = configuration.claimLease.components.seconds
        let retention = configuration.retention.components.seconds
        return try await store.transaction { database in
            if Int.random(in: 0..<100) == 0 {
                try await database.delete(from: "screenplay_idempotency").where("claimed_at", .lessThan, now - retention).run()
            }
            let claimed = try await database.insert(into: "screenplay_idempotency")
                .columns("scope", "key", "fingerprint", "claimed_at")
                .values(SQLBind(key.scope), SQLBind(key.key), SQLBind(fingerprint), SQLBind(now))
                .ignoringConflicts(with: ["scope", "key"])
                .returning("scope")
                .first()
            if claimed != nil { return .fresh }
            guard
                let row = try await database.select().columns("fingerprint", "answered", "status", "headers", "body", "claimed_at")
                    .from("screenplay_idempotency").where("scope", .equal, key.scope).where("key", .equal, key.key).first()
            else { return .inProgress }
            let claimedAt = try row.decode(column: "claimed_at", as: Int64.self)
            let answered = try row.decode(column: "answered", as: Int64.self) == 1
            // An answer past its retention (not yet deleted) is forgotten, and a claim whose
            // replica never answered is taken over once its lease ran out: the key starts afresh,
            // with this request's fingerprint. The update names the claim it read, so of two
            // replicas taking over at once only one gets the key.
            let expired = answered ? claimedAt < now - retention : claimedAt < now - lease
            if expired {
                let taken = try await database.update("screenplay_idempotency")
                    .set("claimed_at", to: now).set("fingerprint", to: fingerprint).set("answered", to: Int64(0))
                    .set("status", to: Int64(0)).set("headers", to: "").set("body", to: "")
                    .where("scope", .equal, key.scope).where("key", .equal, key.key).where("claimed_at", .equal, claimedAt)
                    .returning("scope")
                    .first()
                return taken == nil ? .inProgress : .fresh
            }
            guard try row.decode(column: "fingerprint", as: String.self) == fingerprint else { return .conflict }
            return answered ? .replay(try Self.response(from: row)) : .inProgress
        }
    }

    /// Records the answer a retry will be given.
    public func finish(_ key: IdempotencyKey, fingerprint: String, response: ScreenplayService.Response) async throws {
        let headers = try Self.encode(response.head.headerFields)
        let body = Data(response.body).base64EncodedString()
        let status = Int64(response.head.status.code)
        try await store.transaction { database in
            try await database.update("screenplay_idempotency")
                .set("answered", to: Int64(1)).set("status", to: status).set("headers", to: headers).set("body", to: body)
                .where("scope", .equal, key.scope).where("key", .equal, key.key).where("fingerprint", .equal, fingerprint)
                .run()
        }
    }

    /// Releases an unanswered claim.
    public func abandon(_ key: IdempotencyKey) async throws {
        try await store.transaction { database in
            try await database.delete(from: "screenplay_idempotency")
                .where("scope", .equal, key.scope).where("key", .equal, key.key).where("answered", .equal, Int64(0)).run()
        }
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

public import SQLKit
public import ScreenplayServer
import Synchronization

/// Users and their tokens, in the store: the server's ``IdentityResolver``.
///
/// A client without a token reads as ``UserIdentity/anonymous`` (no row); its first command
/// creates a user with a random 256-bit token, and later requests carry the token and resolve to
/// the same user. A token the directory does not know, or one that was revoked, is a 401. Each user has a revision counter that commands bump
/// in the same transaction as their writes, so a per-user route (the default sharing) can use it
/// as its revision and is never served stale. The counter is per user, not global: two users can
/// be at the same revision, which is why per-user routes key their cache by user too.
public struct UserDirectory: IdentityResolver {
    /// The migrations this directory needs; run them with the app's own.
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0001-users") { database in
            try await database.create(table: "screenplay_users")
                .column("id", type: .bigint, .primaryKey(autoIncrement: true))
                .column("token_hash", type: .text, .notNull, .unique)
                .column("revision", type: .bigint, .notNull, .default(0))
                .column("created_at", type: .text, .notNull)
                .run()
        }
    ]

    let store: any SQLStore
    private let known = KnownTokens()
    private let revisions = KnownRevisions()
    /// Where writes announce revisions and revocations; this directory listens to it too.
    public let bus: any InvalidationBus

    /// A directory over `store`, announcing changes on `bus` (and dropping what it caches when
    /// anyone announces one).
    public init(store: any SQLStore, bus: any InvalidationBus = InProcessInvalidationBus()) {
        self.store = store
        self.bus = bus
        let (known, revisions) = (known, revisions)
        bus.subscribe { invalidation in
            switch invalidation {
            case .userRevision(let id): revisions.forget(id)
            case .tokenRevoked(let hash): known.forget(hash: hash)
            case .everything:
                revisions.forgetAll()
                known.forgetAll()
            case .pagePublished, .experimentsChanged, .draftChanged: break
            }
        }
    }

    /// Resolves a token; without one, a read is anonymous and a write creates a user.
    public func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
        if let token {
            guard Self.isWellFormed(token) else {
                throw ScreenplayError.invalidToken("the token must be 64 lowercase hex digits, as the server issued it")
            }
            // While the bus delivers nothing, a revocation elsewhere could go unheard: ask the store.
            let delivering = bus.isDelivering
            if delivering, let user = known.user(for: token) { return ResolvedIdentity(user: user, issuedToken: nil) }
            // A revocation that lands while the row is read must win: remember only if none did.
            let epoch = known.epoch
            let row = try await store.read { database in
                try await database.select().column("id").from("screenplay_users").where("token_hash", .equal, Self.hash(token)).first()
            }
            guard let row else {
                throw ScreenplayError.unknownToken(
                    "this token is not known here (never issued, or revoked); drop it and send the next command without one")
            }
            let user = UserIdentity(id: try row.decode(column: "id", as: Int64.self))
            if delivering { known.remember(token, user, ifEpoch: epoch) }
            return ResolvedIdentity(user: user, issuedToken: nil)
        }
        guard creating else { return ResolvedIdentity(user: .anonymous, issuedToken: nil) }
        let newToken = Self.makeToken()
        let id = try await store.transaction { database in
            let row = try await database.insert(into: "screenplay_users")
                .columns("token_hash", "revision", "created_at")
                .values(SQLBind(Self.hash(newToken)), SQLBind(Int64(0)), SQLBind(ISO8601.now()))
                .returning("id")
                .first()
            guard let row else { throw ScreenplayError.internalError("creating a user returned no id") }
            return try row.decode(column: "id", as: Int64.self)
        }
        let user = UserIdentity(id: id)
        known.remember(newToken, user)
        return ResolvedIdentity(user: user, issuedToken: newToken)
    }

    /// Revokes a token: from now on it is a 401 everywhere this directory answers (other
    /// processes drop it from memory when the invalidation bus arrives; until then only this one
    /// does). The user's data stays. Returns whether the token was known.
    ///
    /// Returns after the revocation was announced, so nothing in this process (a remembered
    /// revalidation included) answers the token as valid once this returns.
    @discardableResult
    public func revoke(token: String) async throws -> Bool {
        guard Self.isWellFormed(token) else { return false }
        known.forget(token)
        do {
            return try await markRevoked(token)
        } catch {
            // Announced even so: the row may have changed before the failure.
            await bus.publish(.tokenRevoked(tokenHash: Self.hash(token)))
            throw error
        }
    }

    private func markRevoked(_ token: String) async throws -> Bool {
        let bus = self.bus
        return try await store.transaction { database in
            let row = try await database.select().column("id").from("screenplay_users").where("token_hash", .equal, Self.hash(token))
                .first()
            guard let row else { return false }
            let id = try row.decode(column: "id", as: Int64.self)
            // A value no hash of a token can equal (hex digests have no `:`), unique per user.
            try await database.update("screenplay_users").set("token_hash", to: "revoked:\(id)").where("id", .equal, id).run()
            try await bus.announce(.tokenRevoked(tokenHash: Self.hash(token)), in: database)
            return true
        }
    }

    /// How many users have a row: tests and operators check that reading creates none.
    public func userCount() async throws -> Int {
        try await store.read { database in
            let row = try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("screenplay_users")
                .first()
            return try row?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    /// The user's revision: changes whenever one of their commands changed data. From memory
    /// after the first read; a write through ``write(for:_:)`` (on any process sharing the bus)
    /// drops it.
    public func revision(of user: UserIdentity) async throws -> Int64 {
        if user.isAnonymous { return 0 }
        let delivering = bus.isDelivering
        // A cached value under the client's floor may predate a write another replica answered
        // (its announcement still on the way): the database says. (A floor above anything
        // committed asks the database every time: one indexed read, never a stale answer.)
        if delivering, let cached = revisions.revision(of: user.id), cached >= RevisionWatermark.floor ?? cached { return cached }
        // Remember only what was read before any invalidation arrived: a write that commits
        // while this read runs must not leave the older value cached.
        let generation = revisions.generation(of: user.id)
        let value = try await store.read { database in
            try await Self.revision(of: user, on: database)
        }
        // Inside a transaction the read may see its own uncommitted bump: never remembered, as a
        // rollback would leave memory ahead of the database.
        if delivering, !SQLTransaction.isActive { revisions.remember(value, for: user.id, ifStillAt: generation) }
        return value
    }

    /// Runs `body` in a transaction that also bumps the user's revision and announces it on the
    /// bus, heard once committed, so every cached copy is dropped. Inside a transaction already
    /// running (a command whose answer commits with it), it joins that one and is heard after its
    /// commit.
    ///
    /// The bump comes first: it locks the user's row, so one user's writes take turns even on
    /// replicas sharing a PostgreSQL (where transactions run side by side), and a per-user limit
    /// checked in `body` (at most 100 playlists) sees every write that committed before it.
    public func write<Result: Sendable>(
        for user: UserIdentity, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let bus = self.bus
        let (result, revision) = try await store.transaction { database in
            let revision = try await Self.bumpRevision(of: user, on: database)
            let result = try await body(database)
            try await bus.announce(.userRevision(userID: user.id), in: database)
            return (result, revision)
        }
        // Committed (or joined to a transaction whose failure fails the command): the answer may
        // say which revision the client has now seen.
        RevisionWatermark.record(revision, for: user)
        return result
    }

    /// One user's write as one statement, one round trip, where the store and its bus allow it
    /// (PostgreSQL, outside any transaction); `nil` elsewhere, and the caller writes with
    /// ``write(for:_:)``, which does the same in a transaction.
    ///
    /// `ctes` are the statement's common table expressions, one of them named `wrote`, which
    /// yields a row when the write changed something (an `INSERT … ON CONFLICT DO NOTHING
    /// RETURNING`, a `DELETE … RETURNING`). The directory adds the revision bump, only when
    /// `wrote` has a row, and the notification the other replicas hear when the statement
    /// commits, and selects `columns` (expressions over the CTEs) beside the new revision. A
    /// statement is atomic, so the write, the bump and the notification commit together; the bump
    /// takes the user's row lock as the transaction's does, so one user's writes still take
    /// turns. A per-user limit checked in the CTEs sees the statement's snapshot, which a
    /// concurrent write of the same user may have moved on: a limit that must hold exactly under
    /// concurrency is written with ``write(for:_:)``.
    public func writeInOneStatement(
        for user: UserIdentity, with ctes: SQLQueryString, selecting columns: SQLQueryString
    ) async throws -> (row: any SQLRow, wrote: Bool)? {
        let invalidation = Invalidation.userRevision(userID: user.id)
        guard !SQLTransaction.isActive, let bus = bus as? any SQLInvalidationBus, let note = bus.notification(for: invalidation) else {
            return nil
        }
        let statement: SQLQueryString = """
            WITH \(ctes),
            screenplay_bump AS (
                UPDATE screenplay_users SET revision = revision + 1 WHERE id = \(bind: user.id) AND EXISTS (SELECT 1 FROM wrote) RETURNING revision
            ),
            screenplay_notified AS (SELECT pg_notify(\(bind: note.channel), \(bind: note.payload)) FROM screenplay_bump)
            SELECT \(columns), (SELECT revision FROM screenplay_bump) AS screenplay_revision,
                (SELECT count(*) FROM screenplay_notified) AS screenplay_notified
            """
        guard let row = try await store.statement({ database in try await database.raw(statement).first() }) else {
            throw StoreUnavailable("a one-statement write returned no row", wroteNothing: false)
        }
        guard let revision = try row.decode(column: "screenplay_revision", as: Int64?.self) else { return (row, false) }
        await bus.deliverHere(invalidation)
        RevisionWatermark.record(revision, for: user)
        return (row, true)
    }

    /// Reads a revision inside a caller's session.
    public static func revision(of user: UserIdentity, on database: any SQLDatabase) async throws -> Int64 {
        let row = try await database.select().column("revision").from("screenplay_users").where("id", .equal, user.id).first()
        return try row?.decode(column: "revision", as: Int64.self) ?? 0
    }

    /// Bumps the user's revision, returning the new one; call it in the transaction that changes
    /// their data. One statement (`RETURNING`, which PostgreSQL and SQLite both have).
    @discardableResult
    public static func bumpRevision(of user: UserIdentity, on database: any SQLDatabase) async throws -> Int64 {
        let row = try await database.update("screenplay_users")
            .set(SQLIdentifier("revision"), to: SQLBinaryExpression(SQLIdentifier("revision"), .add, SQLLiteral.numeric("1")))
            .where("id", .equal, user.id)
            .returning("revision")
            .first()
        return try row?.decode(column: "revision", as: Int64.self) ?? 0
    }

    /// The SHA-256 of a token, as stored: a copy of the database (a backup, a dump, a query log)
    /// holds no token anyone could present.
    static func hash(_ token: String) -> String { SecretToken.digest(token) }

    static func isWellFormed(_ token: String) -> Bool { SecretToken.isWellFormed(token) }

    static func makeToken() -> String { SecretToken.make() }
}

/// Tokens already looked up, so a returning client costs no query and no hash: keyed by the
/// token itself, with its SHA-256 (what revocations announce) beside it, and guarded by an epoch
/// that every forget moves on, so a lookup that raced a revocation is never remembered.
private final class KnownTokens: Sendable {
    private struct State {
        var users: [String: UserIdentity] = [:]
        var tokensByHash: [String: String] = [:]
        var epoch = 0
    }

    private let state = Mutex(State())
    private let limit = 100_000

    var epoch: Int { state.withLock { $0.epoch } }

    func user(for token: String) -> UserIdentity? {
        state.withLock { $0.users[token] }
    }

    func remember(_ token: String, _ user: UserIdentity, ifEpoch epoch: Int? = nil) {
        let hash = UserDirectory.hash(token)
        state.withLock { state in
            if let epoch, epoch != state.epoch { return }
            if state.users.count >= limit {
                state.users.removeAll(keepingCapacity: true)
                state.tokensByHash.removeAll(keepingCapacity: true)
            }
            state.users[token] = user
            state.tokensByHash[hash] = token
        }
    }

    func forget(_ token: String) { forget(hash: UserDirectory.hash(token)) }

    /// Forgets every token (announcements may have been lost).
    func forgetAll() {
        state.withLock { state in
            state.users.removeAll(keepingCapacity: true)
            state.tokensByHash.removeAll(keepingCapacity: true)
            state.epoch += 1
        }
    }

    /// Forgets the token whose SHA-256 is `hash` (what another process announces on revocation).
    func forget(hash: String) {
        state.withLock { state in
            if let token = state.tokensByHash.removeValue(forKey: hash) { state.users[token] = nil }
            state.epoch += 1
        }
    }
}

/// Users' revisions read so far, dropped by invalidations. Each user has a generation that every
/// invalidation moves on, so a read that raced a write is never remembered.
private final class KnownRevisions: Sendable {
    private struct State {
        var revisions: [Int64: Int64] = [:]
        var generations: [Int64: Int] = [:]
        /// Moves on when everything is forgotten at once: part of every user's generation.
        var era = 0
    }

    private let state = Mutex(State())
    private let limit = 100_000

    func revision(of user: Int64) -> Int64? { state.withLock { $0.revisions[user] } }

    /// Where a user's memory stands: moved on by their invalidations and by forgetting everything.
    struct Generation: Equatable {
        let user: Int
        let era: Int
    }

    func generation(of user: Int64) -> Generation { state.withLock { Generation(user: $0.generations[user] ?? 0, era: $0.era) } }

    /// Remembers `revision` unless an invalidation moved the user's generation on since the read
    /// began. Revisions only grow: a read that began earlier and finished later (one without a
    /// floor, beside one under a floor) never lowers what the other stored.
    func remember(_ revision: Int64, for user: Int64, ifStillAt generation: Generation) {
        state.withLock { state in
            guard Generation(user: state.generations[user] ?? 0, era: state.era) == generation else { return }
            if state.revisions.count >= limit { state.revisions.removeAll(keepingCapacity: true) }
            state.revisions[user] = max(state.revisions[user] ?? revision, revision)
        }
    }

    /// Forgets every revision (announcements may have been lost).
    func forgetAll() {
        state.withLock { state in
            state.revisions.removeAll(keepingCapacity: true)
            state.era += 1
        }
    }

    func forget(_ user: Int64) {
        state.withLock { state in
            state.revisions[user] = nil
            state.generations[user, default: 0] += 1
            if state.generations.count > limit { state.generations.removeAll(keepingCapacity: true) }
        }
    }
}

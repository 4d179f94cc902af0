import Foundation
import SQLKit
public import ScreenplayServer
public import ScreenplayStore
import Synchronization

/// Layout admins, their API tokens and their browser sessions, in the store.
///
/// Passwords are scrypt hashes (``PasswordHasher``); API tokens and session ids are 256 random
/// bits, stored as their SHA-256, so a copy of the database opens nothing. A login for a name that
/// does not exist costs the same hash as a wrong password, so timing does not tell which names exist.
public struct AdminDirectory: Sendable {
    /// The tables.
    public static let migrations: [Migration] = [
        Migration(id: "screenplay-0004-admins") { database in
            try await database.create(table: "screenplay_admins")
                .column("name", type: .text, .primaryKey(autoIncrement: false))
                .column("password_hash", type: .text, .notNull)
                .column("created_at", type: .text, .notNull)
                .run()
            try await database.create(table: "screenplay_admin_tokens")
                .column("token_hash", type: .text, .primaryKey(autoIncrement: false))
                .column("admin", type: .text, .notNull)
                .column("label", type: .text, .notNull)
                .column("created_at", type: .text, .notNull)
                .run()
            try await database.create(table: "screenplay_admin_sessions")
                .column("session_hash", type: .text, .primaryKey(autoIncrement: false))
                .column("admin", type: .text, .notNull)
                .column("csrf", type: .text, .notNull)
                .column("expires", type: .bigint, .notNull)
                .run()
        }
    ]

    let store: any SQLStore
    let hasher: PasswordHasher
    /// A hash of a password nobody has, made with ``hasher``: verified for unknown names, so they
    /// cost what a wrong password costs.
    /// Made on the first sign-in with an unknown name, not when the directory is created: every
    /// server start (and every test that opens the demo) would otherwise pay a hash for it.
    let decoy: Decoy
    /// One password hash at a time: each takes 32 MiB (scrypt's point), so a flood of sign-ins
    /// queues here instead of multiplying the server's memory.
    let hashing = AsyncSerialLock()
    /// How long a browser session lasts.
    public let sessionLifetime: Duration
    /// Failed sign-in attempts per client address and per name: 10 at once, then one every 6
    /// seconds (an attempt is spent before the password is checked and given back if it was right).
    /// Guessing passwords is slow already (each try costs a hash); this makes it hopeless, and
    /// keeps one address from filling the hash queue for everyone.
    let signInAttempts: RateLimiter
    /// Sign-ins waiting for the hash right now; past ``maximumWaitingSignIns`` more are turned
    /// away at once, so an admin signing in during a flood waits seconds, not minutes.
    let waitingSignIns = WaitingCount()
    /// The most sign-ins that may wait for a hash at once.
    public static let maximumWaitingSignIns = 4

    /// A directory over `store` (run ``migrations`` first).
    public init(
        store: any SQLStore, hasher: PasswordHasher = .standard, sessionLifetime: Duration = .seconds(12 * 3600),
        signInAttempts: RateLimiter = RateLimiter(rate: 1.0 / 6, burst: 10)
    ) {
        self.store = store
        self.hasher = hasher
        self.sessionLifetime = sessionLifetime
        self.decoy = Decoy(hasher: hasher)
        self.signInAttempts = signInAttempts
    }

    /// How a sign-in attempt ended.
    public enum SignIn: Sendable, Hashable {
        /// The password is the admin's.
        case admin(String)
        /// Wrong name or password (which of the two is not said).
        case rejected
        /// Too many attempts from this address or for this name, or too many waiting at once:
        /// try again after the duration. No password was checked.
        case throttled(retryAfter: Duration)
    }

    /// Checks a sign-in, limited per client address and per name (see ``signInAttempts``) and by
    /// how many wait for a hash (``maximumWaitingSignIns``). `address` is the peer's IP address
    /// when the host knows it.
    public func signIn(name: String, password: String, address: String?) async throws -> SignIn {
        let now = ContinuousClock.now
        let keys = ["name:" + String(name.prefix(64))] + (address.map { ["address:" + $0] } ?? [])
        let waits = keys.compactMap { signInAttempts.spend($0, now: now) }
        if let longest = waits.max() { return .throttled(retryAfter: longest) }
        guard waitingSignIns.count.add(1, ordering: .relaxed).newValue <= Self.maximumWaitingSignIns else {
            waitingSignIns.count.subtract(1, ordering: .relaxed)
            return .throttled(retryAfter: .seconds(2))
        }
        defer { waitingSignIns.count.subtract(1, ordering: .relaxed) }
        guard let admin = try await authenticate(name: name, password: password) else { return .rejected }
        // Only failures count: an admin who signs in often (several browsers, a script) is never
        // throttled by their own successes, and a guesser still gets ten tries and one per 6 s.
        for key in keys { signInAttempts.refund(key) }
        return .admin(admin)
    }

    /// Why an account could not be made.
    public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
        case invalidName(String)
        case weakPassword(String)
        case exists(String)

        /// One line saying what to change.
        public var description: String {
            switch self {
            case .invalidName(let name): "'\(name.prefix(40))' is not an admin name: 1...64 of a-z 0-9 . _ -"
            case .weakPassword(let why): "the password is too weak: \(why)"
            case .exists(let name): "an admin named '\(name)' exists already"
            }
        }
    }

    /// Creates an admin. Names are 1...64 of `a-z 0-9 . _ -`; passwords at least 12 characters.
    public func createAdmin(name: String, password: String) async throws -> String {
        guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy({ Self.nameBytes.contains($0) }) else {
            throw AccountError.invalidName(name)
        }
        guard password.count >= 12 else { throw AccountError.weakPassword("\(password.count) characters; at least 12") }
        guard password.utf8.count <= 1024 else { throw AccountError.weakPassword("over 1 024 bytes") }
        let hash = try await hashing.withLock { try hasher.hash(password) }
        try await store.transaction { database in
            if try await database.select().column("name").from("screenplay_admins").where("name", .equal, name).first() != nil {
                throw AccountError.exists(name)
            }
            try await database.insert(into: "screenplay_admins").columns("name", "password_hash", "created_at")
                .values(SQLBind(name), SQLBind(hash), SQLBind(Migrator.timestamp())).run()
        }
        return name
    }

    /// The admin `name` when `password` is theirs.
    public func authenticate(name: String, password: String) async throws -> String? {
        guard name.utf8.count <= 64, password.utf8.count <= 1024 else { return nil }
        let stored = try await store.read { database in
            try await database.select().column("password_hash").from("screenplay_admins").where("name", .equal, name).first()?
                .decode(column: "password_hash", as: String.self)
        }
        // An unknown name costs a hash too.
        let candidate = stored ?? decoy.hash
        let matches = await hashing.withLock { PasswordHasher.verify(password, against: candidate) }
        return stored != nil && matches ? name : nil
    }

    /// Issues an API token for `admin` (shown once; stored as its SHA-256).
    public func createAPIToken(for admin: String, label: String) async throws -> String {
        let token = SecretToken.make()
        try await store.transaction { database in
            guard try await database.select().column("name").from("screenplay_admins").where("name", .equal, admin).first() != nil else {
                throw AccountError.invalidName(admin)
            }
            try await database.insert(into: "screenplay_admin_tokens").columns("token_hash", "admin", "label", "created_at")
                .values(
                    SQLBind(SecretToken.digest(token)), SQLBind(admin), SQLBind(String(label.prefix(128))), SQLBind(Migrator.timestamp())
                )
                .run()
        }
        return token
    }

    /// The admin an API token belongs to.
    public func admin(forAPIToken token: String) async throws -> String? {
        guard SecretToken.isWellFormed(token) else { return nil }
        return try await store.read { database in
            try await database.select().column("admin").from("screenplay_admin_tokens").where(
                "token_hash", .equal, SecretToken.digest(token)
            )
            .first()?.decode(column: "admin", as: String.self)
        }
    }

    /// A browser session: its id (the cookie) and its CSRF token (in every form).
    public struct Session: Sendable, Hashable {
        /// Who.
        public let admin: String
        /// The cookie's value.
        public let id: String
        /// What every state-changing form must carry.
        public let csrf: String
    }

    /// Starts a session for `admin`.
    public func startSession(for admin: String) async throws -> Session {
        let session = Session(admin: admin, id: SecretToken.make(), csrf: SecretToken.make())
        let expires = Int64(Date().timeIntervalSince1970) + sessionLifetime.components.seconds
        try await store.transaction { database in
            try await database.delete(from: "screenplay_admin_sessions").where("expires", .lessThan, Int64(Date().timeIntervalSince1970))
                .run()
            try await database.insert(into: "screenplay_admin_sessions").columns("session_hash", "admin", "csrf", "expires")
                .values(SQLBind(SecretToken.digest(session.id)), SQLBind(admin), SQLBind(session.csrf), SQLBind(expires)).run()
        }
        return session
    }

    /// The live session with cookie value `id`.
    public func session(id: String) async throws -> Session? {
        guard SecretToken.isWellFormed(id) else { return nil }
        return try await store.read { database in
            guard
                let row = try await database.select().columns("admin", "csrf", "expires").from("screenplay_admin_sessions")
                    .where("session_hash", .equal, SecretToken.digest(id)).first(),
                try row.decode(column: "expires", as: Int64.self) > Int64(Date().timeIntervalSince1970)
            else { return nil }
            return Session(
                admin: try row.decode(column: "admin", as: String.self), id: id, csrf: try row.decode(column: "csrf", as: String.self))
        }
    }

    /// Ends a session (logout).
    public func endSession(id: String) async throws {
        guard SecretToken.isWellFormed(id) else { return }
        try await store.transaction { database in
            try await database.delete(from: "screenplay_admin_sessions").where("session_hash", .equal, SecretToken.digest(id)).run()
        }
    }

    static let nameBytes = Set(Array("abcdefghijklmnopqrstuvwxyz0123456789._-".utf8))
}

/// A hash of a random password, made once, on first use.
final class Decoy: Sendable {
    private let hasher: PasswordHasher
    private let made = Mutex<String?>(nil)

    init(hasher: PasswordHasher) { self.hasher = hasher }

    var hash: String {
        made.withLock { made in
            if let made { return made }
            let hash = (try? hasher.hash(SecretToken.make())) ?? ""
            made = hash
            return hash
        }
    }
}

/// A count shared by every copy of a directory (the directory is a value; the count is not).
final class WaitingCount: Sendable {
    let count = Atomic<Int>(0)
}

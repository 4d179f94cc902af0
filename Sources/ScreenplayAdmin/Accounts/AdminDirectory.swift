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
///
/// Sessions and API tokens are looked up in the store on every request, never held in memory:
/// ending a session or revoking a token (``revokeAPIToken(_:)``) is refused on every replica from
/// the moment it commits, with no invalidation to wait for.
///
/// Sign-in attempts follow OWASP's device-cookie scheme: a browser that signed in to an account
/// before carries a ``DeviceCookie`` and is judged by its own failures only; every other attempt
/// counts against the account and the address (see ``signIn(name:password:address:device:)``).
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
        },
        // The key device cookies are signed with (``ServerSecret``), shared by every replica.
        Migration(id: "screenplay-admin-0002-device-secret") { database in
            try await database.create(table: ServerSecret.table)
                .column("name", type: .text, .primaryKey(autoIncrement: false))
                .column("value", type: .text, .notNull)
                .column("created_at", type: .text, .notNull)
                .run()
        },
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
    /// Failed sign-in attempts, per bucket: 10 at once, then one every 6 seconds (an attempt is
    /// spent before the password is checked and given back if it was right). An untrusted attempt
    /// spends from its account's bucket and its address's; an attempt with a sound device cookie
    /// from that device's bucket only. A bucket run dry is what "locked out" means here: its
    /// attempts are refused unchecked (429) until it refills. Guessing passwords is slow already
    /// (each try costs a hash); this makes it hopeless, and keeps one address from filling the
    /// hash queue for everyone.
    let signInAttempts: RateLimiter
    /// Untrusted sign-ins waiting for the hash right now; past ``maximumWaitingSignIns`` more are
    /// turned away at once, so an admin signing in during a flood waits seconds, not minutes.
    let waitingSignIns = WaitingCount()
    /// Sign-ins from trusted devices waiting for the hash: counted apart, so a flood of guesses
    /// (which has no device cookie to show) never turns a trusted browser away.
    let waitingTrustedSignIns = WaitingCount()
    /// The most sign-ins that may wait for a hash at once (untrusted ones; trusted ones as many again).
    public static let maximumWaitingSignIns = 4
    /// How long a device cookie keeps its browser trusted after the sign-in that issued it.
    public let deviceLifetime: Duration
    /// The key device cookies are signed with, shared through the store.
    let deviceKey: ServerSecret

    /// A directory over `store` (run ``migrations`` first). `deviceLifetime` is how long a
    /// browser stays trusted after signing in (90 days: a device cookie is renewed at every
    /// successful sign-in, so an admin who signs in monthly is never untrusted).
    public init(
        store: any SQLStore, hasher: PasswordHasher = .standard, sessionLifetime: Duration = .seconds(12 * 3600),
        signInAttempts: RateLimiter = RateLimiter(rate: 1.0 / 6, burst: 10), deviceLifetime: Duration = .seconds(90 * 24 * 3600)
    ) {
        self.store = store
        self.hasher = hasher
        self.sessionLifetime = sessionLifetime
        self.decoy = Decoy(hasher: hasher)
        self.signInAttempts = signInAttempts
        self.deviceLifetime = deviceLifetime
        self.deviceKey = ServerSecret(store: store, name: "device-cookie")
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

    /// Checks a sign-in (OWASP's device-cookie scheme). `address` is the peer's IP address when
    /// the host knows it; `device` the request's ``DeviceCookie`` value, if any.
    ///
    /// - A sound device cookie for `name` makes the attempt trusted: it spends from that device's
    ///   own bucket only, so failures from elsewhere (however many, from however many addresses)
    ///   never lock out a browser the admin signed in from before. A device that fails ten times
    ///   is locked like any bucket, and its cookie then buys nothing an untrusted browser lacks.
    /// - Any other attempt is untrusted: it spends from the name's bucket and the address's, and
    ///   is refused unchecked while either is empty. Failures therefore still slow everyone who
    ///   cannot show a device cookie, the guesser above all.
    ///
    /// Only failures use up a bucket: a successful attempt gives back what it spent. After a
    /// success, issue a fresh cookie with ``deviceCookie(for:)``.
    public func signIn(name: String, password: String, address: String?, device: String? = nil) async throws -> SignIn {
        let now = ContinuousClock.now
        let account = String(name.prefix(64))
        var trusted: DeviceCookie?
        if let device { trusted = try await trustedDevice(device, for: account) }
        let keys = trusted.map { ["device:" + $0.nonce] } ?? (["name:" + account] + (address.map { ["address:" + $0] } ?? []))
        var spent: [String] = []
        var longest: Duration?
        for key in keys {
            if let wait = signInAttempts.spend(key, now: now) {
                longest = max(longest ?? wait, wait)
            } else {
                spent.append(key)
            }
        }
        if let longest {
            // Refused unchecked: the buckets that did allow it are not charged for an attempt that never happened.
            for key in spent { signInAttempts.refund(key) }
            return .throttled(retryAfter: longest)
        }
        let waiting = trusted == nil ? waitingSignIns : waitingTrustedSignIns
        guard waiting.count.add(1, ordering: .relaxed).newValue <= Self.maximumWaitingSignIns else {
            waiting.count.subtract(1, ordering: .relaxed)
            for key in spent { signInAttempts.refund(key) }
            return .throttled(retryAfter: .seconds(2))
        }
        defer { waiting.count.subtract(1, ordering: .relaxed) }
        guard let admin = try await authenticate(name: name, password: password) else { return .rejected }
        // Only failures count: an admin who signs in often (several browsers, a script) is never
        // throttled by their own successes, and a guesser still gets ten tries and one per 6 s.
        for key in spent { signInAttempts.refund(key) }
        return .admin(admin)
    }

    /// A new device cookie's value for `admin`, to set after a successful sign-in (each success
    /// issues a fresh one, as OWASP's scheme has it, so a cookie's age is the time since its
    /// browser last signed in).
    public func deviceCookie(for admin: String) async throws -> String {
        let cookie = DeviceCookie(account: admin, issuedAt: Int64(Date().timeIntervalSince1970))
        return cookie.value(signedWith: try await deviceKey.key())
    }

    /// The device `value` names when it is a sound, unexpired device cookie for `account`.
    func trustedDevice(_ value: String, for account: String) async throws -> DeviceCookie? {
        guard !value.isEmpty, value.utf8.count <= DeviceCookie.maximumLength else { return nil }
        return DeviceCookie.verified(value, for: account, key: try await deviceKey.key(), lifetime: deviceLifetime)
    }

    /// Why an account could not be made.
    public enum AccountError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The name is not 1...64 of `a-z 0-9 . _ -`.
        case invalidName(String)
        /// The password is too short or too long (why, in words).
        case weakPassword(String)
        /// Another admin has the name.
        case exists(String)
        /// No admin has the name (a token for nobody, a listing of nobody's tokens).
        case noSuchAdmin(String)

        /// One line saying what to change.
        public var description: String {
            switch self {
            case .invalidName(let name): "'\(name.prefix(40))' is not an admin name: 1...64 of a-z 0-9 . _ -"
            case .weakPassword(let why): "the password is too weak: \(why)"
            case .exists(let name): "an admin named '\(name)' exists already"
            case .noSuchAdmin(let name):
                "no admin named '\(name.prefix(64))' (create one with `screenplay admin create-user \(name.prefix(64))`)"
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

import Foundation
import SQLKit
import ScreenplayStore

/// Admin API tokens: issued (shown once), listed by an id that reveals nothing, revoked.
///
/// A token is stored only as its SHA-256. Its public id is the first 12 hex digits of that digest:
/// enough to tell an admin's tokens apart and name one to revoke, useless for signing in (finding a
/// token with a given digest prefix is as hard as guessing a token). Every request looks its token
/// up in the store (``admin(forAPIToken:)``), so a revoked token is refused by every replica from
/// the moment the revocation commits: there is no cache to invalidate and no window to wait out.
extension AdminDirectory {
    /// One API token as listed: never the token itself.
    public struct APIToken: Sendable, Hashable, Encodable {
        /// The first 12 hex digits of the token's SHA-256: how listings and revocations name it.
        public let id: String
        /// The admin it acts as.
        public let admin: String
        /// What it is for, as given when it was made (`ci`, `deploy bot`).
        public let label: String
        /// When it was made (ISO 8601, UTC).
        public let createdAt: String
    }

    /// Why a token could not be revoked by its id.
    public enum TokenError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not 6...64 lowercase hex digits.
        case malformedID(String)
        /// None of the admin's tokens has this id.
        case unknownID(String, admin: String)
        /// Several of the admin's tokens start with this id: give more digits.
        case ambiguousID(String, admin: String)

        /// One line naming the id and what to do.
        public var description: String {
            switch self {
            case .malformedID(let id):
                "'\(id.prefix(70))' is not a token id: 6 to 64 lowercase hex digits, as `screenplay admin tokens NAME` lists them"
            case .unknownID(let id, let admin): "admin '\(admin)' has no token with id '\(id)' (see `screenplay admin tokens \(admin)`)"
            case .ambiguousID(let id, let admin): "several of admin '\(admin)''s tokens start with '\(id)': give more digits"
            }
        }
    }

    /// The length of a token's public id.
    static let tokenIDLength = 12

    /// Issues an API token for `admin` (shown once; stored as its SHA-256).
    public func createAPIToken(for admin: String, label: String) async throws -> String {
        let token = SecretToken.make()
        try await store.transaction { database in
            guard try await Self.exists(admin, on: database) else { throw AccountError.noSuchAdmin(admin) }
            try await database.insert(into: "screenplay_admin_tokens").columns("token_hash", "admin", "label", "created_at")
                .values(
                    SQLBind(SecretToken.digest(token)), SQLBind(admin), SQLBind(String(label.prefix(128))), SQLBind(Migrator.timestamp())
                )
                .run()
        }
        return token
    }

    /// The admin an API token belongs to, read from the store (a revoked token names nobody).
    public func admin(forAPIToken token: String) async throws -> String? {
        guard SecretToken.isWellFormed(token) else { return nil }
        return try await store.read { database in
            try await database.select().column("admin").from("screenplay_admin_tokens").where(
                "token_hash", .equal, SecretToken.digest(token)
            )
            .first()?.decode(column: "admin", as: String.self)
        }
    }

    /// `admin`'s API tokens, oldest first; every admin's when `admin` is `nil`.
    ///
    /// - Throws: ``AccountError/noSuchAdmin(_:)`` for a name nobody has, so a typo is not read as
    ///   "no tokens".
    public func apiTokens(of admin: String? = nil) async throws -> [APIToken] {
        try await store.read { database in
            var query = database.select().columns("token_hash", "admin", "label", "created_at").from("screenplay_admin_tokens")
            if let admin {
                guard try await Self.exists(admin, on: database) else { throw AccountError.noSuchAdmin(admin) }
                query = query.where("admin", .equal, admin)
            }
            return try await query.orderBy("created_at").orderBy("token_hash").all().map(Self.listing)
        }
    }

    /// Revokes the API token `token` (as its holder sends it). Returns what was revoked, or `nil`
    /// when it is no admin token (never issued, revoked already, or malformed).
    @discardableResult
    public func revokeAPIToken(_ token: String) async throws -> APIToken? {
        guard SecretToken.isWellFormed(token) else { return nil }
        let hash = SecretToken.digest(token)
        return try await store.transaction { database in
            guard
                let row = try await database.select().columns("token_hash", "admin", "label", "created_at").from("screenplay_admin_tokens")
                    .where("token_hash", .equal, hash).first()
            else { return nil }
            try await database.delete(from: "screenplay_admin_tokens").where("token_hash", .equal, hash).run()
            return try Self.listing(row)
        }
    }

    /// Revokes `admin`'s tokens with these ids (each a prefix of 6...64 hex digits of a listed id
    /// or digest), all or none: one unknown, ambiguous or malformed id revokes nothing and says which.
    /// With `all`, every token of `admin` (the ids are then ignored). Returns what was revoked.
    @discardableResult
    public func revokeAPITokens(of admin: String, ids: [String], all: Bool = false) async throws -> [APIToken] {
        if !all {
            for id in ids where !(6...64).contains(id.utf8.count) || !id.utf8.allSatisfy(DeviceCookie.isHexDigit) {
                throw TokenError.malformedID(id)
            }
        }
        return try await store.transaction { database in
            guard try await Self.exists(admin, on: database) else { throw AccountError.noSuchAdmin(admin) }
            let rows = try await database.select().columns("token_hash", "admin", "label", "created_at").from("screenplay_admin_tokens")
                .where("admin", .equal, admin).all()
            let tokens = try rows.map { (hash: try $0.decode(column: "token_hash", as: String.self), listing: try Self.listing($0)) }
            var chosen: [(hash: String, listing: APIToken)] = []
            if all {
                chosen = tokens
            } else {
                for id in ids {
                    let matching = tokens.filter { $0.hash.hasPrefix(id) }
                    guard !matching.isEmpty else { throw TokenError.unknownID(id, admin: admin) }
                    guard matching.count == 1 else { throw TokenError.ambiguousID(id, admin: admin) }
                    if !chosen.contains(where: { $0.hash == matching[0].hash }) { chosen.append(matching[0]) }
                }
            }
            for token in chosen {
                try await database.delete(from: "screenplay_admin_tokens").where("token_hash", .equal, token.hash).run()
            }
            return chosen.map { $0.listing }
        }
    }

    static func listing(_ row: any SQLRow) throws -> APIToken {
        APIToken(
            id: String(try row.decode(column: "token_hash", as: String.self).prefix(tokenIDLength)),
            admin: try row.decode(column: "admin", as: String.self), label: try row.decode(column: "label", as: String.self),
            createdAt: try row.decode(column: "created_at", as: String.self))
    }

    static func exists(_ admin: String, on database: any SQLDatabase) async throws -> Bool {
        try await database.select().column("name").from("screenplay_admins").where("name", .equal, admin).first() != nil
    }
}

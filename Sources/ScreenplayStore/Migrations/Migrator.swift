public import SQLKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One step of a database schema, applied once and recorded.
public struct Migration: Sendable {
    /// Unique and stable forever: the record that this step ran (`2026-11-22-users`).
    public let id: String
    /// Creates tables, indexes, seed rows. Runs inside a transaction with the record of it.
    public let apply: @Sendable (any SQLDatabase) async throws -> Void

    /// Creates a migration.
    public init(id: String, apply: @escaping @Sendable (any SQLDatabase) async throws -> Void) {
        self.id = id
        self.apply = apply
    }
}

/// Applies migrations that have not run yet, in order, each in its own transaction.
///
/// SQLKit has no migrations of its own; a `screenplay_migrations` table records what ran, so
/// a restart, or a second replica, applies nothing twice. Replicas starting together take turns
/// (``SQLStore/exclusively(_:_:)``: a PostgreSQL advisory lock), so one migrates and the others
/// find it done. A database that records a migration this build does not know was migrated by a
/// newer build: the run refuses (``MigrationError/schemaNewerThanBuild(unknown:)``) rather than
/// serve from tables it does not understand.
public struct Migrator: Sendable {
    /// The migrations, in the order they must run.
    public let migrations: [Migration]

    /// The name replicas take turns under while migrating.
    public static let lockName = "screenplay-migrations"

    /// Creates a migrator; ids must be unique.
    public init(_ migrations: [Migration]) {
        precondition(Set(migrations.map(\.id)).count == migrations.count, "migration ids must be unique")
        self.migrations = migrations
    }

    /// Applies what is missing; returns the ids it applied.
    ///
    /// - Throws: ``MigrationError/schemaNewerThanBuild(unknown:)`` before applying anything when
    ///   the database records migrations this build does not have.
    @discardableResult
    public func run(on store: any SQLStore) async throws -> [String] {
        let migrations = self.migrations
        return try await store.exclusively(Self.lockName) {
            try await store.transaction { database in
                try await database.create(table: "screenplay_migrations")
                    .ifNotExists()
                    .column("id", type: .text, .primaryKey(autoIncrement: false))
                    .column("applied_at", type: .text, .notNull)
                    .run()
            }
            let recorded = try await store.read { database in
                try await database.select().column("id").from("screenplay_migrations").all()
                    .map { try $0.decode(column: "id", as: String.self) }
            }
            let known = Set(migrations.map(\.id))
            let unknown = recorded.filter { !known.contains($0) }.sorted()
            guard unknown.isEmpty else { throw MigrationError.schemaNewerThanBuild(unknown: unknown) }
            var applied: [String] = []
            for migration in migrations {
                let ran = try await store.transaction { database -> Bool in
                    let existing = try await database.select().column("id").from("screenplay_migrations")
                        .where("id", .equal, migration.id).first()
                    guard existing == nil else { return false }
                    try await migration.apply(database)
                    try await database.insert(into: "screenplay_migrations")
                        .columns("id", "applied_at")
                        .values(SQLBind(migration.id), SQLBind(Self.timestamp()))
                        .run()
                    return true
                }
                if ran { applied.append(migration.id) }
            }
            return applied
        }
    }

    /// Now, as ISO 8601 text (portable across SQLite and PostgreSQL).
    public static func timestamp() -> String { ISO8601.now() }
}

/// Why a database cannot be migrated.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database records migrations this build does not have: a newer build migrated it.
    case schemaNewerThanBuild(unknown: [String])

    /// For the operator who started an older build.
    public var description: String {
        switch self {
        case .schemaNewerThanBuild(let unknown):
            "the database was migrated by a newer build of this server (migrations this build does not have: "
                + unknown.prefix(5).joined(separator: ", ") + (unknown.count > 5 ? ", …" : "")
                + "); start the newer build, or restore a backup taken before it ran"
        }
    }
}

/// A tiny ISO 8601 formatter that avoids Foundation's locale machinery (the stores' timestamps).
package enum ISO8601 {
    /// Now, to the second, in UTC.
    package static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return string(seconds: time.tv_sec)
    }

    /// A moment (seconds since 1970, as `Date.timeIntervalSince1970` gives), to the second, in UTC.
    package static func string(seconds: Int) -> String {
        var moment = time_t(seconds)
        var parts = tm()
        gmtime_r(&moment, &parts)
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return
            "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }
}

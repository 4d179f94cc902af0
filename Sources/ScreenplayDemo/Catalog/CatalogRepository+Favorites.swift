import Foundation
import ScreenplayServer
import ScreenplayStore
import SQLKit

/// What a listener may heart in the catalog, besides playlists: a composer, a work, a recording.
/// Each kind has its own pair of commands (`favorites/composers/add`, …), its own entity
/// (`composer/3`, whose `favorite` member every heart for it is bound to) and its own section of
/// the Favorites screen.
enum CatalogKind: String, CaseIterable, Sendable {
    case composer, work, recording

    /// Where its rows are.
    var table: String {
        switch self {
        case .composer: "composers"
        case .work: "works"
        case .recording: "recordings"
        }
    }

    /// What its name is, in its table (a recording is named by its performers).
    var nameColumn: String {
        switch self {
        case .composer: "name"
        case .work: "title"
        case .recording: "performers"
        }
    }

    /// The payload member that names one (`composerId`).
    var payloadKey: String { rawValue + "Id" }

    /// The path its commands are under (`favorites/composers`).
    var commandPath: String { "favorites/\(table)" }

    /// The entity that carries one's `favorite` flag for the user who sees it.
    func entity(_ id: Int64) -> String { "\(rawValue)/\(id)" }
}

extension CatalogRepository {
    /// The rows `query` reads, decoded with snake-case columns.
    private func rows<Row: Decodable & Sendable>(_ query: SQLQueryString, as type: Row.Type) async throws -> [Row] {
        try await store.read { database in
            try await database.raw(query).all(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// Which composers, works and recordings `user` has hearted.
    func catalogFavoriteIDs(of user: UserIdentity) async throws -> [CatalogKind: Set<Int64>] {
        guard !user.isAnonymous else { return [:] }
        return try await store.read { database in
            let rows = try await database.select().column("kind").column("item_id").from("catalog_favorites")
                .where("user_id", .equal, user.id).all()
            var favorites: [CatalogKind: Set<Int64>] = [:]
            for row in rows {
                guard let kind = CatalogKind(rawValue: try row.decode(column: "kind", as: String.self)) else { continue }
                favorites[kind, default: []].insert(try row.decode(column: "item_id", as: Int64.self))
            }
            return favorites
        }
    }

    /// The composers `user` has hearted, most recent first.
    func favoriteComposers(of user: UserIdentity) async throws -> [ComposerRecord] {
        try await rows(
            "SELECT c.* FROM catalog_favorites f JOIN composers c ON c.id = f.item_id WHERE f.user_id = \(bind: user.id) AND f.kind = 'composer' ORDER BY f.created_at DESC, c.id",
            as: ComposerRecord.self)
    }

    /// The works `user` has hearted, most recent first.
    func favoriteWorks(of user: UserIdentity) async throws -> [WorkRecord] {
        try await rows(
            "SELECT \(unsafeRaw: Self.workColumns) FROM catalog_favorites f JOIN works w ON w.id = f.item_id JOIN composers c ON c.id = w.composer_id WHERE f.user_id = \(bind: user.id) AND f.kind = 'work' ORDER BY f.created_at DESC, w.id",
            as: WorkRecord.self)
    }

    /// The recordings `user` has hearted, most recent first, each with its work.
    func favoriteRecordings(of user: UserIdentity) async throws -> [(recording: RecordingRecord, work: WorkRecord)] {
        let recordings = try await rows(
            "SELECT r.* FROM catalog_favorites f JOIN recordings r ON r.id = f.item_id WHERE f.user_id = \(bind: user.id) AND f.kind = 'recording' ORDER BY f.created_at DESC, r.id",
            as: RecordingRecord.self)
        var works: [Int64: WorkRecord] = [:]
        for id in Set(recordings.map(\.workId)) { works[id] = try await work(id: id) }
        return recordings.compactMap { recording in works[recording.workId].map { (recording, $0) } }
    }

    /// Hearts or un-hearts one composer, work or recording for `user`; returns what happened and
    /// its name (for the answer's message). On PostgreSQL one statement, one round trip, as a
    /// playlist's favorite is; elsewhere (SQLite) the same in a transaction.
    func setFavorite(_ favorite: Bool, _ kind: CatalogKind, id: Int64, user: UserIdentity) async throws -> (WriteOutcome, name: String?) {
        let target: SQLQueryString = """
            target AS (SELECT id, \(unsafeRaw: kind.nameColumn) AS name FROM \(unsafeRaw: kind.table) WHERE id = \(bind: id))
            """
        let wrote: SQLQueryString =
            favorite
            ? """
            wrote AS (
                INSERT INTO catalog_favorites (user_id, kind, item_id, created_at)
                SELECT \(bind: user.id), \(bind: kind.rawValue), target.id, \(bind: Migrator.timestamp()) FROM target
                ON CONFLICT DO NOTHING RETURNING item_id
            )
            """
            : """
            wrote AS (
                DELETE FROM catalog_favorites f USING target
                WHERE f.user_id = \(bind: user.id) AND f.kind = \(bind: kind.rawValue) AND f.item_id = target.id RETURNING f.item_id
            )
            """
        if let (row, changed) = try await users.writeInOneStatement(for: user, with: target + ", " + wrote, selecting: "(SELECT name FROM target) AS name") {
            guard let name = try row.decode(column: "name", as: String?.self) else { return (.notFound, nil) }
            return (changed ? .done : .alreadyDone, name)
        }
        return try await users.write(for: user) { database in
            guard
                let row = try await database.select().column(SQLIdentifier(kind.nameColumn)).from(kind.table).where("id", .equal, id).first()
            else { return (.notFound, nil) }
            let name = try row.decode(column: kind.nameColumn, as: String.self)
            let existing = try await database.select().column("item_id").from("catalog_favorites")
                .where("user_id", .equal, user.id).where("kind", .equal, kind.rawValue).where("item_id", .equal, id).first()
            if favorite {
                guard existing == nil else { return (.alreadyDone, name) }
                try await database.insert(into: "catalog_favorites").columns("user_id", "kind", "item_id", "created_at")
                    .values(SQLBind(user.id), SQLBind(kind.rawValue), SQLBind(id), SQLBind(Migrator.timestamp())).run()
            } else {
                guard existing != nil else { return (.alreadyDone, name) }
                try await database.delete(from: "catalog_favorites").where("user_id", .equal, user.id)
                    .where("kind", .equal, kind.rawValue).where("item_id", .equal, id).run()
            }
            return (.done, name)
        }
    }
}

import SQLKit
import ScreenplayStore

/// The demo's tables and first-start seed, as migrations.
///
/// Catalog tables are shared by everyone; `playlists` with a `user_id` and `favorites` belong to
/// one user each. Editorial playlists have no owner and are visible to all.
enum CatalogSchema {
    static let migrations: [Migration] =
        UserDirectory.migrations + [
            Migration(id: "demo-0001-catalog", apply: createCatalog),
            Migration(id: "demo-0002-seed", apply: seed),
        ]

    static func createCatalog(_ database: any SQLDatabase) async throws {
        try await database.create(table: "composers")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("slug", type: .text, .notNull, .unique)
            .column("name", type: .text, .notNull)
            .column("born", type: .int, .notNull)
            .column("died", type: .int, .notNull)
            .column("nationality", type: .text, .notNull)
            .column("period", type: .text, .notNull)
            .column("popularity", type: .int, .notNull)
            .column("biography", type: .text, .notNull)
            .run()
        try await database.create(table: "works")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("composer_id", type: .bigint, .notNull, .references("composers", "id"))
            .column("slug", type: .text, .notNull)
            .column("title", type: .text, .notNull)
            .column("catalogue", type: .text)
            .column("musical_key", type: .text)
            .column("year", type: .int, .notNull)
            .column("genre", type: .text, .notNull)
            .column("position", type: .int, .notNull)
            .run()
        try await database.create(table: "recordings")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("work_id", type: .bigint, .notNull, .references("works", "id"))
            .column("performers", type: .text, .notNull)
            .column("year", type: .int, .notNull)
            .column("label", type: .text, .notNull)
            .column("position", type: .int, .notNull)
            .run()
        try await database.create(table: "tracks")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("recording_id", type: .bigint, .notNull, .references("recordings", "id"))
            .column("title", type: .text, .notNull)
            .column("seconds", type: .int, .notNull)
            .column("position", type: .int, .notNull)
            .run()
        try await database.create(table: "playlists")
            .column("id", type: .bigint, .primaryKey(autoIncrement: true))
            .column("user_id", type: .bigint, .references("screenplay_users", "id"))
            .column("name", type: .text, .notNull)
            .column("description", type: .text)
            .column("created_at", type: .text, .notNull)
            .run()
        try await database.create(table: "playlist_works")
            .column("playlist_id", type: .bigint, .notNull, .references("playlists", "id"))
            .column("work_id", type: .bigint, .notNull, .references("works", "id"))
            .column("position", type: .int, .notNull)
            .primaryKey("playlist_id", "work_id")
            .run()
        try await database.create(table: "favorites")
            .column("user_id", type: .bigint, .notNull, .references("screenplay_users", "id"))
            .column("playlist_id", type: .bigint, .notNull, .references("playlists", "id"))
            .column("created_at", type: .text, .notNull)
            .primaryKey("user_id", "playlist_id")
            .run()
        try await database.create(index: "works_by_composer").on("works").column("composer_id").run()
        try await database.create(index: "recordings_by_work").on("recordings").column("work_id").run()
        try await database.create(index: "tracks_by_recording").on("tracks").column("recording_id").run()
        try await database.create(index: "playlists_by_user").on("playlists").column("user_id").run()
    }

    static func seed(_ database: any SQLDatabase) async throws {
        var workIDs: [String: Int64] = [:]
        let composers = try CatalogSeed.composers()
        for composer in composers {
            let composerID = try await insertReturningID(
                database.insert(into: "composers")
                    .columns("slug", "name", "born", "died", "nationality", "period", "popularity", "biography")
                    .values(
                        SQLBind(composer.slug), SQLBind(composer.name), SQLBind(composer.born), SQLBind(composer.died),
                        SQLBind(composer.nationality), SQLBind(composer.period), SQLBind(composer.popularity),
                        SQLBind(composer.biography.joined(separator: "\n\n"))))
            for (workIndex, work) in composer.works.enumerated() {
                let workID = try await insertReturningID(
                    database.insert(into: "works")
                        .columns("composer_id", "slug", "title", "catalogue", "musical_key", "year", "genre", "position")
                        .values(
                            SQLBind(composerID), SQLBind(work.slug), SQLBind(work.title), SQLBind(work.catalogue),
                            SQLBind(work.key), SQLBind(work.year), SQLBind(work.genre), SQLBind(workIndex)))
                workIDs["\(composer.slug)/\(work.slug)"] = workID
                for (recordingIndex, recording) in work.recordings.enumerated() {
                    let recordingID = try await insertReturningID(
                        database.insert(into: "recordings")
                            .columns("work_id", "performers", "year", "label", "position")
                            .values(
                                SQLBind(workID), SQLBind(recording.performers), SQLBind(recording.year),
                                SQLBind(recording.label), SQLBind(recordingIndex)))
                    var rows = database.insert(into: "tracks").columns("recording_id", "title", "seconds", "position")
                    for (trackIndex, track) in recording.tracks.enumerated() {
                        rows = rows.values(SQLBind(recordingID), SQLBind(track.title), SQLBind(track.seconds), SQLBind(trackIndex))
                    }
                    try await rows.run()
                }
            }
        }
        for playlist in EditorialPlaylists.all(from: composers) {
            let playlistID = try await insertReturningID(
                database.insert(into: "playlists")
                    .columns("user_id", "name", "description", "created_at")
                    .values(SQLBind(Int64?.none), SQLBind(playlist.name), SQLBind(playlist.description), SQLBind(Migrator.timestamp())))
            for (position, key) in playlist.works.enumerated() {
                guard let workID = workIDs[key] else { continue }
                try await database.insert(into: "playlist_works").columns("playlist_id", "work_id", "position")
                    .values(SQLBind(playlistID), SQLBind(workID), SQLBind(position)).run()
            }
        }
    }

    static func insertReturningID(_ insert: SQLInsertBuilder) async throws -> Int64 {
        guard let row = try await insert.returning("id").first() else {
            throw CatalogError.missingID
        }
        return try row.decode(column: "id", as: Int64.self)
    }

    enum CatalogError: Error { case missingID }
}

/// Playlists the demo's editors made: visible to every user, owned by none.
enum EditorialPlaylists {
    struct Playlist {
        let name: String
        let description: String
        /// `composer-slug/work-slug`; keys not in the seed are skipped.
        let works: [String]
    }

    static func all(from composers: [SeedComposer]) -> [Playlist] {
        func pick(_ period: (SeedComposer) -> Bool, _ count: Int) -> [String] {
            composers.filter(period).flatMap { composer in composer.works.prefix(1).map { "\(composer.slug)/\($0.slug)" } }
                .prefix(count).map { $0 }
        }
        func genre(_ match: (SeedWork) -> Bool, _ count: Int) -> [String] {
            composers.flatMap { composer in composer.works.filter(match).map { "\(composer.slug)/\($0.slug)" } }.prefix(count).map { $0 }
        }
        return [
            Playlist(
                name: "Baroque Essentials", description: "Where it all began: counterpoint, concertos and oratorio.",
                works: pick({ $0.period == "Baroque" }, 8)),
            Playlist(
                name: "Late Night Piano", description: "Solo piano for the quiet hours.",
                works: genre({ $0.genre.lowercased().contains("piano") }, 10)),
            Playlist(
                name: "Symphonic Giants", description: "The great symphonies, from Haydn to Shostakovich.",
                works: genre({ $0.genre.lowercased().contains("symphon") }, 10)),
        ]
    }
}

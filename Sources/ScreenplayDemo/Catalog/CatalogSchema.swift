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
            Migration(id: "demo-0003-catalog-favorites", apply: createCatalogFavorites),
            Migration(id: "demo-0004-playlist-share-tokens", apply: addShareTokens),
            Migration(id: "demo-0005-playlist-recordings", apply: addPlaylistRecordings),
        ]

    /// A playlist's entry is a work, played in the recording the listener chose when they added
    /// it from a recording (`recording_id`), else in the work's first. Entries made before have
    /// none, and play as they did.
    static func addPlaylistRecordings(_ database: any SQLDatabase) async throws {
        try await database.alter(table: "playlist_works").column("recording_id", type: .bigint).run()
    }

    /// A user's playlist is shared by a link that names an unguessable token (its capability:
    /// whoever has the link may see the playlist, read-only); playlists made before get theirs here.
    static func addShareTokens(_ database: any SQLDatabase) async throws {
        try await database.alter(table: "playlists").column("share_token", type: .text).run()
        let owned = try await database.select().column("id").from("playlists").where("user_id", .isNot, SQLLiteral.null).all()
        for row in owned {
            try await database.update("playlists").set("share_token", to: ShareToken.make())
                .where("id", .equal, try row.decode(column: "id", as: Int64.self)).run()
        }
        try await database.create(index: "playlists_by_share_token").on("playlists").column("share_token").unique().run()
    }

    /// Hearts on composers, works and recordings (``CatalogKind``): one table, the kind a column,
    /// so the Favorites screen reads every kind in one query.
    static func createCatalogFavorites(_ database: any SQLDatabase) async throws {
        try await database.create(table: "catalog_favorites")
            .column("user_id", type: .bigint, .notNull, .references("screenplay_users", "id"))
            .column("kind", type: .text, .notNull)
            .column("item_id", type: .bigint, .notNull)
            .column("created_at", type: .text, .notNull)
            .primaryKey("user_id", "kind", "item_id")
            .run()
    }

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

    /// Inserts the catalog a level at a time: one statement each for composers, works, recordings,
    /// tracks, playlists and their works (six round trips, not one per row: several replicas or
    /// test stores seeding at once on a busy PostgreSQL finish in well under a second each).
    /// Rows are inserted in the seed's order, so ids come out as a row-by-row insert gives them;
    /// each level's new ids are read back by natural key (`RETURNING`), never by position.
    static func seed(_ database: any SQLDatabase) async throws {
        let composers = try CatalogSeed.composers()
        let composerIDs = try await insertAll(
            composers, into: "composers", on: database, columns: ["slug", "name", "born", "died", "nationality", "period", "popularity", "biography"],
            values: { composer in
                [
                    SQLBind(composer.slug), SQLBind(composer.name), SQLBind(composer.born), SQLBind(composer.died),
                    SQLBind(composer.nationality), SQLBind(composer.period), SQLBind(composer.popularity),
                    SQLBind(composer.biography.joined(separator: "\n\n")),
                ]
            },
            key: ["slug"])

        let works = composers.flatMap { composer in composer.works.enumerated().map { (composer: composer, index: $0.offset, work: $0.element) } }
        let workIDs = try await insertAll(
            works, into: "works", on: database, columns: ["composer_id", "slug", "title", "catalogue", "musical_key", "year", "genre", "position"],
            values: { entry in
                [
                    SQLBind(composerIDs[entry.composer.slug]), SQLBind(entry.work.slug), SQLBind(entry.work.title),
                    SQLBind(entry.work.catalogue), SQLBind(entry.work.key), SQLBind(entry.work.year), SQLBind(entry.work.genre),
                    SQLBind(entry.index),
                ]
            },
            key: ["composer_id", "slug"])
        func workID(_ composer: SeedComposer, _ work: SeedWork) -> Int64? { workIDs["\(composerIDs[composer.slug] ?? -1)/\(work.slug)"] }

        let recordings = works.flatMap { entry in
            entry.work.recordings.enumerated().map { (workID: workID(entry.composer, entry.work), index: $0.offset, recording: $0.element) }
        }
        let recordingIDs = try await insertAll(
            recordings, into: "recordings", on: database, columns: ["work_id", "performers", "year", "label", "position"],
            values: { entry in
                [
                    SQLBind(entry.workID), SQLBind(entry.recording.performers), SQLBind(entry.recording.year),
                    SQLBind(entry.recording.label), SQLBind(entry.index),
                ]
            },
            key: ["work_id", "position"])

        let tracks = recordings.flatMap { entry in
            entry.recording.tracks.enumerated().map { (recordingID: recordingIDs["\(entry.workID ?? -1)/\(entry.index)"], index: $0.offset, track: $0.element) }
        }
        _ = try await insertAll(
            tracks, into: "tracks", on: database, columns: ["recording_id", "title", "seconds", "position"],
            values: { [SQLBind($0.recordingID), SQLBind($0.track.title), SQLBind($0.track.seconds), SQLBind($0.index)] })

        let playlists = EditorialPlaylists.all(from: composers)
        let created = Migrator.timestamp()
        let playlistIDs = try await insertAll(
            playlists, into: "playlists", on: database, columns: ["user_id", "name", "description", "created_at"],
            values: { [SQLBind(Int64?.none), SQLBind($0.name), SQLBind($0.description), SQLBind(created)] },
            key: ["name"])
        let workIDsByKey = Dictionary(
            uniqueKeysWithValues: works.compactMap { entry in workID(entry.composer, entry.work).map { ("\(entry.composer.slug)/\(entry.work.slug)", $0) } })
        let playlistWorks = playlists.flatMap { playlist in
            playlist.works.enumerated().compactMap { position, key in
                workIDsByKey[key].map { (playlistID: playlistIDs[playlist.name], workID: $0, position: position) }
            }
        }
        _ = try await insertAll(
            playlistWorks, into: "playlist_works", on: database, columns: ["playlist_id", "work_id", "position"],
            values: { [SQLBind($0.playlistID), SQLBind($0.workID), SQLBind($0.position)] })
    }

    /// Inserts `rows` into `table` in one statement, in order. Given `key` columns, it returns
    /// each new row's id under its key: the key columns' values as read back, joined with `/`
    /// (`"12/eine-kleine-nachtmusik"` for a work's composer id and slug).
    static func insertAll<Row>(
        _ rows: [Row], into table: String, on database: any SQLDatabase, columns: [String], values: (Row) -> [SQLBind],
        key: [String] = []
    ) async throws -> [String: Int64] {
        guard !rows.isEmpty else { return [:] }
        let insert = database.insert(into: table).columns(columns)
        for row in rows { insert.values(values(row)) }
        guard !key.isEmpty else {
            try await insert.run()
            return [:]
        }
        var ids: [String: Int64] = [:]
        for returned in try await insert.returning((["id"] + key).map { SQLColumn($0) }).all() {
            let parts = try key.map { column in
                // Integers first: PostgreSQL hands an integer column to a String decode as its raw bytes.
                try (try? returned.decode(column: column, as: Int64.self)).map(String.init) ?? returned.decode(column: column, as: String.self)
            }
            ids[parts.joined(separator: "/")] = try returned.decode(column: "id", as: Int64.self)
        }
        guard ids.count == rows.count else { throw CatalogError.missingID }
        return ids
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

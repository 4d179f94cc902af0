import Foundation
import SQLKit
import ScreenplayServer
import ScreenplayStore

/// A composer as stored.
struct ComposerRecord: Decodable, Sendable {
    let id: Int64
    let slug: String
    let name: String
    let born: Int
    let died: Int
    let nationality: String
    let period: String
    let popularity: Int
    let biography: String
}

/// A work as stored, with its composer's name and slug joined in.
struct WorkRecord: Decodable, Sendable {
    let id: Int64
    let composerId: Int64
    let composerSlug: String
    let composerName: String
    let slug: String
    let title: String
    let catalogue: String?
    let musicalKey: String?
    let year: Int
    let genre: String
    let recordingCount: Int
}

/// A recording as stored.
struct RecordingRecord: Decodable, Sendable {
    let id: Int64
    let workId: Int64
    let performers: String
    let year: Int
    let label: String
}

/// A track as stored.
struct TrackRecord: Decodable, Sendable {
    let id: Int64
    let recordingId: Int64
    let title: String
    let seconds: Int
}

/// A playlist as stored; `userId` is `nil` for editorial playlists.
struct PlaylistRecord: Decodable, Sendable {
    let id: Int64
    let userId: Int64?
    let name: String
    let description: String?
    let workCount: Int
}

/// Every query the demo's screens and commands make, in one place.
///
/// Ownership is enforced here, not in the screens: a user's playlist is only ever returned to
/// that user, so no screen or command can leak or change another user's data by mistake.
struct CatalogRepository: Sendable {
    let store: any SQLStore
    /// Writes go through the directory, which bumps the user's revision in the same transaction
    /// and announces it once committed.
    let users: UserDirectory

    static let workColumns = """
        w.id, w.composer_id, c.slug AS composer_slug, c.name AS composer_name, w.slug, w.title, w.catalogue, \
        w.musical_key, w.year, w.genre, (SELECT COUNT(*) FROM recordings r WHERE r.work_id = w.id) AS recording_count
        """

    private static let playlistColumns = """
        p.id, p.user_id, p.name, p.description, (SELECT COUNT(*) FROM playlist_works pw WHERE pw.playlist_id = p.id) AS work_count
        """

    // MARK: Catalog

    func composers() async throws -> [ComposerRecord] {
        try await store.read { database in
            try await database.select().column("*").from("composers").orderBy("popularity").all(
                decoding: ComposerRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func composer(slug: String) async throws -> ComposerRecord? {
        try await store.read { database in
            try await database.select().column("*").from("composers").where("slug", .equal, slug)
                .first(decoding: ComposerRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func works(composerID: Int64) async throws -> [WorkRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.workColumns) FROM works w JOIN composers c ON c.id = w.composer_id WHERE w.composer_id = \(bind: composerID) ORDER BY w.position"
            )
            .all(decoding: WorkRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func work(id: Int64) async throws -> WorkRecord? {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.workColumns) FROM works w JOIN composers c ON c.id = w.composer_id WHERE w.id = \(bind: id)"
            )
            .first(decoding: WorkRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// Of `ids`, those that are no work's id: one query for all of them.
    func missingWorks(among ids: Set<Int64>) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let known = try await store.read { database in
            Set(try await database.select().column("id").from("works").where("id", .in, Array(ids)).all().map { try $0.decode(column: "id", as: Int64.self) })
        }
        return ids.subtracting(known)
    }

    /// The works among `ids` by title and composer ("Cello Suite No. 1 · Johann Sebastian
    /// Bach"), for the layout admin's cards: one query for all of them.
    func workNames(ids: Set<Int64>) async throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try await store.read { database in
            try await database.select().column(SQLColumn("id", table: "works")).column("title").column(SQLColumn("name", table: "composers"))
                .from("works").join("composers", on: SQLColumn("composer_id", table: "works"), .equal, SQLColumn("id", table: "composers"))
                .where(SQLColumn("id", table: "works"), .in, SQLBind.group(Array(ids))).all()
                .reduce(into: [:]) { names, row in
                    names[try row.decode(column: "id", as: Int64.self)] =
                        "\(try row.decode(column: "title", as: String.self)) · \(try row.decode(column: "name", as: String.self))"
                }
        }
    }

    /// The track ids (as the player names them) of each work among `works` and of each recording
    /// among `recordings`, in order: what a list of works or recordings marks its playing row by
    /// (v6). One query for all of them.
    func trackIDs(works: Set<Int64> = [], recordings: Set<Int64> = []) async throws -> (works: [Int64: [String]], recordings: [Int64: [String]]) {
        guard !works.isEmpty || !recordings.isEmpty else { return ([:], [:]) }
        return try await store.read { database in
            var byWork: [Int64: [String]] = [:]
            var byRecording: [Int64: [String]] = [:]
            let query = database.select()
                .column(SQLColumn("id", table: "tracks")).column(SQLColumn("recording_id", table: "tracks")).column("work_id")
                .from("tracks").join("recordings", on: SQLColumn("recording_id", table: "tracks"), .equal, SQLColumn("id", table: "recordings"))
            // Only the non-empty sets: `IN ()` is SQLite's, a syntax error on PostgreSQL.
            if !works.isEmpty { query.orWhere(SQLColumn("work_id", table: "recordings"), .in, SQLBind.group(Array(works))) }
            if !recordings.isEmpty { query.orWhere(SQLColumn("recording_id", table: "tracks"), .in, SQLBind.group(Array(recordings))) }
            let rows = try await query.orderBy(SQLColumn("recording_id", table: "tracks")).orderBy(SQLColumn("position", table: "tracks")).all()
            for row in rows {
                let track = String(try row.decode(column: "id", as: Int64.self))
                let work = try row.decode(column: "work_id", as: Int64.self)
                let recording = try row.decode(column: "recording_id", as: Int64.self)
                if works.contains(work) { byWork[work, default: []].append(track) }
                if recordings.contains(recording) { byRecording[recording, default: []].append(track) }
            }
            return (byWork, byRecording)
        }
    }

    /// The recordings among `ids` by performers and year ("Yo-Yo Ma (1983)"): one query for all.
    func recordingNames(ids: Set<Int64>) async throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        return try await store.read { database in
            try await database.select().columns("id", "performers", "year").from("recordings").where("id", .in, Array(ids)).all()
                .reduce(into: [:]) { names, row in
                    names[try row.decode(column: "id", as: Int64.self)] =
                        "\(try row.decode(column: "performers", as: String.self)) (\(try row.decode(column: "year", as: Int.self)))"
                }
        }
    }

    /// Of `ids`, those that are no recording's id: one query for all of them.
    func missingRecordings(among ids: Set<Int64>) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let known = try await store.read { database in
            Set(
                try await database.select().column("id").from("recordings").where("id", .in, Array(ids)).all().map {
                    try $0.decode(column: "id", as: Int64.self)
                })
        }
        return ids.subtracting(known)
    }

    func recordings(workID: Int64) async throws -> [(RecordingRecord, [TrackRecord])] {
        try await store.read { database in
            let recordings = try await database.select().column("*").from("recordings").where("work_id", .equal, workID)
                .orderBy("position").all(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
            var result: [(RecordingRecord, [TrackRecord])] = []
            for recording in recordings {
                let tracks = try await database.select().column("*").from("tracks").where("recording_id", .equal, recording.id)
                    .orderBy("position").all(decoding: TrackRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
                result.append((recording, tracks))
            }
            return result
        }
    }

    func recording(id: Int64) async throws -> RecordingRecord? {
        try await store.read { database in
            try await database.select().column("*").from("recordings").where("id", .equal, id)
                .first(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func tracks(recordingID: Int64) async throws -> [TrackRecord] {
        try await store.read { database in
            try await database.select().column("*").from("tracks").where("recording_id", .equal, recordingID)
                .orderBy("position").all(decoding: TrackRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func track(id: Int64) async throws -> TrackRecord? {
        try await store.read { database in
            try await database.select().column("*").from("tracks").where("id", .equal, id)
                .first(decoding: TrackRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// Composers and works whose name or title contains `text` (case-insensitive for ASCII), most
    /// popular composers first, at most `limit` of each. `%`, `_` and a backslash in the text match
    /// themselves.
    /// Every work, in the catalog's order (composers by popularity, then each one's works): what
    /// search indexes.
    func allWorks() async throws -> [WorkRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.workColumns) FROM works w JOIN composers c ON c.id = w.composer_id ORDER BY c.popularity, w.position"
            )
            .all(decoding: WorkRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// Every recording, in the catalog's order.
    func allRecordings() async throws -> [RecordingRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT r.* FROM recordings r JOIN works w ON w.id = r.work_id JOIN composers c ON c.id = w.composer_id ORDER BY c.popularity, w.position, r.position"
            )
            .all(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    // MARK: Playlists (ownership enforced)

    /// Editorial playlists, visible to everyone.
    func editorialPlaylists() async throws -> [PlaylistRecord] {
        try await store.read { database in
            try await database.raw("SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists p WHERE p.user_id IS NULL ORDER BY p.id")
                .all(decoding: PlaylistRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// The user's own playlists, newest last.
    func playlists(of user: UserIdentity) async throws -> [PlaylistRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.playlistColumns) FROM playlists p WHERE p.user_id = \(bind: user.id) ORDER BY p.id"
            )
            .all(decoding: PlaylistRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// A playlist the user may see: editorial, or their own. Others' playlists are `nil`.
    func playlist(id: Int64, visibleTo user: UserIdentity) async throws -> PlaylistRecord? {
        try await store.read { database in
            try await Self.playlist(id: id, visibleTo: user, on: database)
        }
    }

    static func playlist(id: Int64, visibleTo user: UserIdentity, on database: any SQLDatabase) async throws -> PlaylistRecord? {
        try await database.raw(
            "SELECT \(unsafeRaw: playlistColumns) FROM playlists p WHERE p.id = \(bind: id) AND (p.user_id IS NULL OR p.user_id = \(bind: user.id))"
        )
        .first(decoding: PlaylistRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func works(inPlaylist id: Int64) async throws -> [WorkRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.workColumns) FROM playlist_works pw JOIN works w ON w.id = pw.work_id JOIN composers c ON c.id = w.composer_id WHERE pw.playlist_id = \(bind: id) ORDER BY pw.position"
            )
            .all(decoding: WorkRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    func favoritePlaylists(of user: UserIdentity) async throws -> [PlaylistRecord] {
        try await store.read { database in
            try await database.raw(
                "SELECT \(unsafeRaw: Self.playlistColumns) FROM favorites f JOIN playlists p ON p.id = f.playlist_id WHERE f.user_id = \(bind: user.id) AND (p.user_id IS NULL OR p.user_id = \(bind: user.id)) ORDER BY f.created_at, p.id"
            )
            .all(decoding: PlaylistRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
    }

    /// Which of `playlists` the user has favorited.
    func favoriteIDs(among playlists: [Int64], user: UserIdentity) async throws -> Set<Int64> {
        guard !playlists.isEmpty else { return [] }
        return try await store.read { database in
            let rows = try await database.select().column("playlist_id").from("favorites")
                .where("user_id", .equal, user.id).where("playlist_id", .in, playlists).all()
            return Set(try rows.map { try $0.decode(column: "playlist_id", as: Int64.self) })
        }
    }

    func isFavorite(playlistID: Int64, user: UserIdentity) async throws -> Bool {
        try await store.read { database in
            try await database.select().column("playlist_id").from("favorites")
                .where("user_id", .equal, user.id).where("playlist_id", .equal, playlistID).first() != nil
        }
    }

    // MARK: Writes (each in one transaction that also bumps the user's revision; a write that
    // turns out to change nothing still moves the revision on, which costs one rebuild)

    enum WriteOutcome: Sendable, Equatable { case done, alreadyDone, notFound }

    /// Sets or clears the user's favorite of a playlist they may see; returns what happened and
    /// the playlist's name (for the answer's message). On PostgreSQL one statement, one round trip
    /// (``UserDirectory/writeInOneStatement(for:with:selecting:)``): the playlist looked up, the
    /// favorite inserted (`ON CONFLICT DO NOTHING`) or deleted, the revision bumped and announced
    /// only when that changed something. Elsewhere (SQLite), the same in a transaction.
    func setFavorite(_ favorite: Bool, playlistID: Int64, user: UserIdentity) async throws -> (WriteOutcome, name: String?) {
        let target: SQLQueryString = """
            target AS (SELECT p.id, p.name FROM playlists p WHERE p.id = \(bind: playlistID) AND (p.user_id IS NULL OR p.user_id = \(bind: user.id)))
            """
        let wrote: SQLQueryString =
            favorite
            ? """
            wrote AS (
                INSERT INTO favorites (user_id, playlist_id, created_at) SELECT \(bind: user.id), target.id, \(bind: Migrator.timestamp()) FROM target
                ON CONFLICT DO NOTHING RETURNING playlist_id
            )
            """
            : """
            wrote AS (DELETE FROM favorites f USING target WHERE f.user_id = \(bind: user.id) AND f.playlist_id = target.id RETURNING f.playlist_id)
            """
        if let (row, changed) = try await users.writeInOneStatement(for: user, with: target + ", " + wrote, selecting: "(SELECT name FROM target) AS name") {
            guard let name = try row.decode(column: "name", as: String?.self) else { return (.notFound, nil) }
            return (changed ? .done : .alreadyDone, name)
        }
        return try await users.write(for: user) { database in
            guard let playlist = try await Self.playlist(id: playlistID, visibleTo: user, on: database) else { return (.notFound, nil) }
            let existing = try await database.select().column("playlist_id").from("favorites")
                .where("user_id", .equal, user.id).where("playlist_id", .equal, playlistID).first()
            if favorite {
                guard existing == nil else { return (.alreadyDone, playlist.name) }
                try await database.insert(into: "favorites").columns("user_id", "playlist_id", "created_at")
                    .values(SQLBind(user.id), SQLBind(playlistID), SQLBind(Migrator.timestamp())).run()
            } else {
                guard existing != nil else { return (.alreadyDone, playlist.name) }
                try await database.delete(from: "favorites").where("user_id", .equal, user.id).where("playlist_id", .equal, playlistID)
                    .run()
            }
            return (.done, playlist.name)
        }
    }

    /// The most playlists one user may own: per-user data is bounded, so one user cannot make
    /// their screens (and the memory that caches them) grow without end.
    static let maximumPlaylistsPerUser = 100
    /// The most works in one playlist.
    static let maximumWorksPerPlaylist = 200

    /// Creates a playlist owned by `user`, optionally with a first work (played in `recording`,
    /// when one was chosen); returns its id. A user at
    /// ``maximumPlaylistsPerUser`` gets a 422 (checked in the same transaction as the insert).
    func createPlaylist(named name: String, firstWork: Int64?, recording: Int64? = nil, user: UserIdentity) async throws -> Int64 {
        try await users.write(for: user) { database in
            let owned =
                try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("playlists")
                .where("user_id", .equal, user.id).first()?.decode(column: "n", as: Int.self) ?? 0
            guard owned < Self.maximumPlaylistsPerUser else {
                throw ScreenplayError.invalidField(
                    "name", "you have \(owned) playlists; the limit is \(Self.maximumPlaylistsPerUser). Delete one to make room")
            }
            guard
                let row = try await database.insert(into: "playlists").columns("user_id", "name", "description", "created_at", "share_token")
                    .values(SQLBind(user.id), SQLBind(name), SQLBind(String?.none), SQLBind(Migrator.timestamp()), SQLBind(ShareToken.make()))
                    .returning("id").first()
            else { throw ScreenplayError.internalError("creating a playlist returned no id") }
            let id = try row.decode(column: "id", as: Int64.self)
            if let firstWork {
                try await database.insert(into: "playlist_works").columns("playlist_id", "work_id", "position", "recording_id")
                    .values(SQLBind(id), SQLBind(firstWork), SQLBind(0), SQLBind(recording)).run()
            }
            return id
        }
    }

    /// Whether `playlistID` is one of `user`'s own (editorial playlists are nobody's), read on
    /// `database`: inside a write's transaction, so the answer holds for the write.
    static func owns(_ playlistID: Int64, _ user: UserIdentity, on database: any SQLDatabase) async throws -> Bool {
        try await database.select().column("id").from("playlists")
            .where("id", .equal, playlistID).where("user_id", .equal, user.id).first() != nil
    }

    /// Whether the playlist holds the work.
    static func holds(_ workID: Int64, inPlaylist playlistID: Int64, on database: any SQLDatabase) async throws -> Bool {
        try await database.select().column("work_id").from("playlist_works")
            .where("playlist_id", .equal, playlistID).where("work_id", .equal, workID).first() != nil
    }

    /// Appends a work to one of the user's own playlists.
    func add(work workID: Int64, toPlaylist playlistID: Int64, user: UserIdentity) async throws -> WriteOutcome {
        try await users.write(for: user) { database in
            guard try await Self.owns(playlistID, user, on: database) else { return .notFound }
            guard try await !Self.holds(workID, inPlaylist: playlistID, on: database) else { return .alreadyDone }
            try await Self.append(work: workID, recording: nil, toPlaylist: playlistID, on: database)
            return .done
        }
    }

    /// Appends an entry (a work not in the playlist, played in `recording` or its first) at the
    /// end of a playlist, within ``maximumWorksPerPlaylist``: inside a write's transaction.
    static func append(work workID: Int64, recording: Int64?, toPlaylist playlistID: Int64, on database: any SQLDatabase) async throws {
        let count =
            try await database.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("playlist_works")
            .where("playlist_id", .equal, playlistID).first()?.decode(column: "n", as: Int.self) ?? 0
        guard count < maximumWorksPerPlaylist else {
            throw ScreenplayError.invalidField("playlistId", "the playlist has \(count) works; the limit is \(maximumWorksPerPlaylist)")
        }
        let next = try await database.raw(
            "SELECT COALESCE(MAX(position), -1) + 1 AS next FROM playlist_works WHERE playlist_id = \(bind: playlistID)"
        ).first()
        let position = try next?.decode(column: "next", as: Int.self) ?? 0
        try await database.insert(into: "playlist_works").columns("playlist_id", "work_id", "position", "recording_id")
            .values(SQLBind(playlistID), SQLBind(workID), SQLBind(position), SQLBind(recording)).run()
    }

    func counts() async throws -> (composers: Int, works: Int, recordings: Int, tracks: Int) {
        try await store.read { database in
            func count(_ table: String) async throws -> Int {
                try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?.decode(column: "n", as: Int.self) ?? 0
            }
            return (try await count("composers"), try await count("works"), try await count("recordings"), try await count("tracks"))
        }
    }
}

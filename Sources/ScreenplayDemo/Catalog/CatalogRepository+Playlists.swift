import HTTPTypes
import Foundation
import ScreenplayServer
import ScreenplayStore
import SQLKit

/// A playlist's life beyond creating it and adding works (CatalogRepository.swift): what Play all
/// queues, renaming, taking a work out, deleting, and the link that shares it.
extension CatalogRepository {
    /// Each work's first recording (its `position` 0), in the order of `works`: what a playlist of
    /// works plays. One query however many works.
    func firstRecordings(of works: [Int64]) async throws -> [RecordingRecord] {
        guard !works.isEmpty else { return [] }
        let recordings = try await store.read { database in
            try await database.select().column("*").from("recordings").where("work_id", .in, works).where("position", .equal, 0)
                .all(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
        let byWork = Dictionary(recordings.map { ($0.workId, $0) }, uniquingKeysWith: { first, _ in first })
        return works.compactMap { byWork[$0] }
    }

    /// The recordings a playlist's works play in: the one chosen for each entry (added from a
    /// recording), else the work's first; in the order of `works`. Two queries however many works.
    func recordingsToPlay(_ works: [Int64], inPlaylist playlistID: Int64) async throws -> [RecordingRecord] {
        try await recordingsToPlay(works, chosen: try await chosenRecordings(inPlaylist: playlistID))
    }

    /// ``recordingsToPlay(_:inPlaylist:)`` with the playlist's chosen recordings already read
    /// (``chosenRecordings(inPlaylist:)``): one query more, for the works without one.
    func recordingsToPlay(_ works: [Int64], chosen: [Int64: RecordingRecord]) async throws -> [RecordingRecord] {
        let first = Dictionary(try await firstRecordings(of: works.filter { chosen[$0] == nil }).map { ($0.workId, $0) }, uniquingKeysWith: { a, _ in a })
        return works.compactMap { chosen[$0] ?? first[$0] }
    }

    /// The recording chosen for each of a playlist's entries that has one, by work.
    func chosenRecordings(inPlaylist playlistID: Int64) async throws -> [Int64: RecordingRecord] {
        let rows = try await store.read { database in
            try await database.raw(
                "SELECT r.* FROM playlist_works pw JOIN recordings r ON r.id = pw.recording_id AND r.work_id = pw.work_id WHERE pw.playlist_id = \(bind: playlistID)"
            ).all(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
        return Dictionary(rows.map { ($0.workId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What adding a recording to a playlist did.
    enum RecordingAdded: Equatable {
        /// Not one of the user's playlists.
        case notFound
        /// A new entry, its work played in this recording.
        case added
        /// The work was there already: it now plays in this recording instead of `previous`.
        case switched(previous: Int64?)
        /// The work was there already, in this recording.
        case alreadyThere
    }

    /// Adds `recording` (of `work`) to one of the user's own playlists: a new entry at the end, or,
    /// when the work is there already, that entry played in this recording (a playlist holds a
    /// work once; the listener's latest choice of recording is the one kept).
    func add(recording recordingID: Int64, of workID: Int64, toPlaylist playlistID: Int64, user: UserIdentity) async throws -> RecordingAdded {
        try await users.write(for: user) { database in
            guard try await Self.owns(playlistID, user, on: database) else { return .notFound }
            if let row = try await database.select().column("recording_id").from("playlist_works")
                .where("playlist_id", .equal, playlistID).where("work_id", .equal, workID).first()
            {
                let previous = try row.decode(column: "recording_id", as: Int64?.self)
                guard previous != recordingID else { return .alreadyThere }
                try await database.update("playlist_works").set("recording_id", to: recordingID)
                    .where("playlist_id", .equal, playlistID).where("work_id", .equal, workID).run()
                return .switched(previous: previous)
            }
            try await Self.append(work: workID, recording: recordingID, toPlaylist: playlistID, on: database)
            return .added
        }
    }

    /// The tracks of `recordings`, each recording's in order, the recordings in the order given
    /// (a recording named twice plays twice), with the recording and its work: a play queue.
    /// Works in `known` are not read again.
    func queue(
        of recordings: [Int64], known: [WorkRecord] = []
    ) async throws -> [(track: TrackRecord, recording: RecordingRecord, work: WorkRecord)] {
        let distinct = Array(Set(recordings))
        guard !distinct.isEmpty else { return [] }
        let (rows, tracks) = try await store.read { database in
            let rows = try await database.select().column("*").from("recordings").where("id", .in, distinct)
                .all(decoding: RecordingRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
            let tracks = try await database.select().column("*").from("tracks").where("recording_id", .in, distinct)
                .orderBy("recording_id").orderBy("position").all(decoding: TrackRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
            return (rows, tracks)
        }
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let tracksByRecording = Dictionary(grouping: tracks, by: \.recordingId)
        var works = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for workID in Set(rows.map(\.workId)) where works[workID] == nil { works[workID] = try await work(id: workID) }
        return recordings.flatMap { id -> [(track: TrackRecord, recording: RecordingRecord, work: WorkRecord)] in
            guard let recording = byID[id], let work = works[recording.workId] else { return [] }
            return (tracksByRecording[id] ?? []).map { (track: $0, recording: recording, work: work) }
        }
    }
}

extension CatalogRepository {
    /// Renames one of the user's own playlists.
    func rename(playlist playlistID: Int64, to name: String, user: UserIdentity) async throws -> WriteOutcome {
        try await users.write(for: user) { database in
            guard let row = try await database.select().column("name").from("playlists")
                .where("id", .equal, playlistID).where("user_id", .equal, user.id).first()
            else { return .notFound }
            guard try row.decode(column: "name", as: String.self) != name else { return .alreadyDone }
            try await database.update("playlists").set("name", to: name).where("id", .equal, playlistID).run()
            return .done
        }
    }

    /// Deletes one of the user's own playlists, with its list of works and the hearts on it (the
    /// works stay in the catalog); returns what happened and the name it had.
    func delete(playlist playlistID: Int64, user: UserIdentity) async throws -> (WriteOutcome, name: String?) {
        try await users.write(for: user) { database in
            guard let row = try await database.select().column("name").from("playlists")
                .where("id", .equal, playlistID).where("user_id", .equal, user.id).first()
            else { return (.notFound, nil) }
            try await database.delete(from: "favorites").where("playlist_id", .equal, playlistID).run()
            try await database.delete(from: "playlist_works").where("playlist_id", .equal, playlistID).run()
            try await database.delete(from: "playlists").where("id", .equal, playlistID).run()
            return (.done, try row.decode(column: "name", as: String.self))
        }
    }

    /// Puts the works of one of the user's playlists in `order`, which must name each of its
    /// works once: an order that does not is stale (a 409, nothing changed).
    func reorder(playlist playlistID: Int64, to order: [Int64], user: UserIdentity) async throws -> WriteOutcome {
        try await users.write(for: user) { database in
            guard try await Self.owns(playlistID, user, on: database) else { return .notFound }
            let current = try await database.select().column("work_id").from("playlist_works").where("playlist_id", .equal, playlistID)
                .orderBy("position").all().map { try $0.decode(column: "work_id", as: Int64.self) }
            guard Set(current) == Set(order), current.count == order.count else {
                throw ScreenplayError(
                    status: .conflict, code: "staleOrder",
                    message: "the order names \(order.count) works, but the playlist now holds \(current.count) and not the same ones: it changed meanwhile; move again on the playlist as it is now",
                    path: "$.order")
            }
            guard current != order else { return .alreadyDone }
            for (position, workID) in order.enumerated() {
                try await database.update("playlist_works").set("position", to: position).where("playlist_id", .equal, playlistID)
                    .where("work_id", .equal, workID).run()
            }
            return .done
        }
    }

    /// Takes a work out of one of the user's own playlists (the others keep their order).
    func remove(work workID: Int64, fromPlaylist playlistID: Int64, user: UserIdentity) async throws -> WriteOutcome {
        try await users.write(for: user) { database in
            guard try await Self.owns(playlistID, user, on: database) else { return .notFound }
            guard try await Self.holds(workID, inPlaylist: playlistID, on: database) else { return .alreadyDone }
            try await database.delete(from: "playlist_works").where("playlist_id", .equal, playlistID).where("work_id", .equal, workID).run()
            return .done
        }
    }
}

/// The token in a shared playlist's link: 128 random bits as 32 hex digits, so a link cannot be
/// guessed from another (ids can).
enum ShareToken {
    static func make() -> String {
        String(format: "%016llx%016llx", UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    /// Whether `text` is the shape of a token (anything else is refused before any lookup).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

extension CatalogRepository {
    /// The link token of one of the user's own playlists (`nil`: not theirs).
    func shareToken(ofPlaylist playlistID: Int64, user: UserIdentity) async throws -> String? {
        try await store.read { database in
            try await database.select().column("share_token").from("playlists")
                .where("id", .equal, playlistID).where("user_id", .equal, user.id).first()?
                .decode(column: "share_token", as: String?.self)
        }
    }

    /// The playlist a share link names, with its owner (whose writes change what it shows).
    func sharedPlaylist(token: String) async throws -> (playlist: PlaylistRecord, owner: Int64)? {
        guard ShareToken.isWellFormed(token) else { return nil }
        return try await store.read { database in
            guard let row = try await database.select().column("id").column("user_id").from("playlists")
                .where("share_token", .equal, token).first(),
                let owner = try row.decode(column: "user_id", as: Int64?.self)
            else { return nil }
            let id = try row.decode(column: "id", as: Int64.self)
            guard let playlist = try await Self.playlist(id: id, visibleTo: UserIdentity(id: owner), on: database) else { return nil }
            return (playlist, owner)
        }
    }
}

import ScreenplayContract
import ScreenplayServer
import ScreenplayStore
import SQLKit

extension CatalogRepository {
    /// What a listener played lately, from the `played` events their apps and pages reported:
    /// one entry per recording, the most recently played first, each with the last track heard
    /// of it (where "Continue listening" starts again). Tracks no longer in the catalog are
    /// skipped; at most `limit` entries.
    func recentlyPlayed(by user: UserIdentity, limit: Int = 6) async throws -> [(track: TrackRecord, recording: RecordingRecord, work: WorkRecord)] {
        guard !user.isAnonymous else { return [] }
        let played = try await SQLClientEventLog(store: store).latest(.played, of: user, limit: limit * 8)
        let ids = played.compactMap { Self.trackID(inKey: $0.key) }
        guard !ids.isEmpty else { return [] }
        let tracks = try await store.read { database in
            try await database.select().column("*").from("tracks").where("id", .in, ids)
                .all(decoding: TrackRecord.self, keyDecodingStrategy: .convertFromSnakeCase)
        }
        let byID = Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var recordings: Set<Int64> = []
        var result: [(track: TrackRecord, recording: RecordingRecord, work: WorkRecord)] = []
        for id in ids {
            guard let track = byID[id], recordings.insert(track.recordingId).inserted else { continue }
            guard let recording = try await recording(id: track.recordingId), let work = try await work(id: recording.workId) else { continue }
            result.append((track, recording, work))
            if result.count == limit { break }
        }
        return result
    }

    /// The track a `played` event's key names: its id as the player writes it (`"40"`; not
    /// `"040"` or `"+40"`), else `nil`.
    static func trackID(inKey key: String) -> Int64? {
        guard let id = Int64(key), id > 0, String(id) == key else { return nil }
        return id
    }
}

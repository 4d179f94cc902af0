import Foundation
public import ScreenplayContract

/// What the app's player is doing: what screens read as `player` (v6), and what a
/// ``PlaybackBookmark`` keeps.
public struct PlayerState: Sendable, Hashable {
    /// The track playing or paused (its ``Action/Play/Track/id``); empty when nothing is loaded.
    public var trackID: String
    /// Whether it is playing.
    public var playing: Bool
    /// Where it is, in seconds.
    public var position: Double
    /// Its title.
    public var title: String

    /// A player state.
    public init(trackID: String, playing: Bool, position: Double, title: String = "") {
        self.trackID = trackID
        self.playing = playing
        self.position = position
        self.title = title
    }

    /// The `player` client variable's value.
    public var value: ExpressionValue {
        .record(["trackID": .string(trackID), "playing": .bool(playing), "position": .number(position), "title": .string(title)])
    }
}

/// Where the listener's playback stopped, kept across launches in the offline storage (the app
/// scope, v6): the `play` action that started the queue, the track of it last loaded, and the
/// position in that track. A relaunched app offers to resume there (the queue from the action's
/// `metadataURL`, then the track, then the position), as the web player does after a reload.
public struct PlaybackBookmark: Codable, Sendable, Hashable {
    /// The action that started the queue.
    public var play: Action.Play
    /// The track of that queue last loaded.
    public var trackID: String
    /// Where it was, in seconds.
    public var position: Double

    /// A bookmark.
    public init(play: Action.Play, trackID: String, position: Double) {
        self.play = play
        self.trackID = trackID
        self.position = position
    }

    /// The entry's reference: like the app state's, one no screen has, which the offline sync
    /// neither asks the server for nor removes.
    public static let reference = "screenplay/player"

    /// How far the position moves before it is written again (a player reports it every second
    /// or so; a resume a few seconds early is what a listener expects anyway).
    public static let writeEvery = 5.0

    /// The bookmark kept in `storage`, or `nil` (none, or not readable).
    public static func read(from storage: any OfflineStorage) async -> PlaybackBookmark? {
        guard let entry = try? await storage.read(reference) else { return nil }
        return try? JSONDecoder().decode(PlaybackBookmark.self, from: Data(entry.body))
    }

    /// Keeps this bookmark in `storage`, replacing the last.
    public func write(to storage: any OfflineStorage) async {
        guard let body = try? JSONEncoder().encode(self) else { return }
        try? await storage.write(OfflineEntry(reference: Self.reference, etag: nil, savedAt: Date(), apiVersion: 0, body: Array(body)))
    }

    /// Whether `state` moved far enough from this bookmark to be written: another track, or the
    /// position ``writeEvery`` seconds away.
    func isStale(for state: PlayerState) -> Bool {
        state.trackID != trackID || abs(state.position - position) >= Self.writeEvery
    }
}

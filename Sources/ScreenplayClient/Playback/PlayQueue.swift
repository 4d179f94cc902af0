public import ScreenplayContract

/// The player's queue: the tracks a `play` action loads, the order they play in (as listed, or
/// shuffled), and which one is playing. Every renderer's player keeps one, so Next, Previous,
/// Shuffle and a tap on a row of the visible queue mean the same thing in SwiftUI, the terminal
/// and (mirrored by the web's player.js) the browser.
///
/// Shuffling never moves the track playing: it stays current, and only what comes after it is
/// drawn in a random order; turning shuffle off goes back to the listed order from the track
/// playing, so the listener loses neither their place nor what they were listening to.
public struct PlayQueue: Sendable, Hashable {
    /// The tracks, as the queue lists them (`metadataURL`'s order).
    public private(set) var tracks: [Action.Play.Track]
    /// The order they play in: indices into ``tracks``, each once.
    public private(set) var order: [Int]
    /// Where in ``order`` the player is.
    public private(set) var position: Int
    /// Whether ``order`` is shuffled.
    public private(set) var isShuffled: Bool

    /// The most tracks a queue holds (a playlist of a hundred works of forty movements is
    /// 4 000): more are left out, so a queue endpoint cannot make the player hold any number.
    public static let maximumTracks = 5_000

    /// The queue a `play` action starts before its queue has loaded: its first track alone.
    public init(play: Action.Play) {
        self.init(tracks: [play.firstTrack], startingAt: play.firstTrack.id, shuffled: false)
    }

    /// A queue of `tracks` (repeated ids kept: a recording may be queued twice), playing the first
    /// whose id is `trackID` (the first track when none is), in order or shuffled after it.
    public init<Generator: RandomNumberGenerator>(
        tracks: [Action.Play.Track], startingAt trackID: String?, shuffled: Bool, using generator: inout Generator
    ) {
        let kept = Array(tracks.prefix(Self.maximumTracks))
        let start = trackID.flatMap { id in kept.firstIndex { $0.id == id } } ?? 0
        self.tracks = kept
        isShuffled = shuffled
        if shuffled, !kept.isEmpty {
            // A shuffled start: the chosen track first, every other one after it at random.
            var rest = kept.indices.filter { $0 != start }
            rest.shuffle(using: &generator)
            order = [start] + rest
            position = 0
        } else {
            order = Array(kept.indices)
            position = start
        }
    }

    /// A queue as ``init(tracks:startingAt:shuffled:using:)`` makes it, shuffled with the system's
    /// random numbers.
    public init(tracks: [Action.Play.Track], startingAt trackID: String?, shuffled: Bool) {
        var generator = SystemRandomNumberGenerator()
        self.init(tracks: tracks, startingAt: trackID, shuffled: shuffled, using: &generator)
    }

    /// The queue `play` asks for once its queue has loaded: `tracks` from the action's first
    /// track, shuffled after it when the action says so. `nil` when the loaded queue does not hold
    /// that track (the player keeps the first track alone, as it started).
    public static func loaded<Generator: RandomNumberGenerator>(
        _ tracks: [Action.Play.Track], for play: Action.Play, using generator: inout Generator
    ) -> PlayQueue? {
        guard tracks.prefix(maximumTracks).contains(where: { $0.id == play.firstTrack.id }) else { return nil }
        return PlayQueue(tracks: tracks, startingAt: play.firstTrack.id, shuffled: play.shuffle, using: &generator)
    }

    /// The track playing, if the queue holds any.
    public var current: Action.Play.Track? {
        order.indices.contains(position) ? tracks[order[position]] : nil
    }

    /// What plays after the current track, in order: what a visible queue lists under "Up next".
    public var upNext: ArraySlice<Action.Play.Track> {
        order.dropFirst(position + 1).map { tracks[$0] }[...]
    }

    /// Whether there is a track before the current one.
    public var hasPrevious: Bool { position > 0 }

    /// Whether there is a track after the current one.
    public var hasNext: Bool { position + 1 < order.count }

    /// Moves `by` tracks (1: next, -1: previous) and returns the new current track; `nil`, and
    /// nothing moved, past either end.
    @discardableResult
    public mutating func step(by offset: Int) -> Action.Play.Track? {
        let next = position + offset
        guard order.indices.contains(next) else { return nil }
        position = next
        return current
    }

    /// Plays the track `index` places after the current one (0: the first of ``upNext``), as a
    /// tap on a row of the visible queue does; the tracks between are skipped, not removed.
    @discardableResult
    public mutating func jump(toUpNext index: Int) -> Action.Play.Track? {
        guard index >= 0 else { return nil }
        return step(by: index + 1)
    }

    /// Turns shuffle on (the tracks after the current one in a random order; those already
    /// played stay behind it) or off (the listed order, from the current track).
    public mutating func setShuffled<Generator: RandomNumberGenerator>(_ shuffled: Bool, using generator: inout Generator) {
        guard let playing = order.indices.contains(position) ? order[position] : nil else { return }
        if shuffled {
            // What already played stays behind, the current track stays current; only what
            // comes after it is drawn again.
            var rest = Array(order[(position + 1)...])
            rest.shuffle(using: &generator)
            order = Array(order[...position]) + rest
        } else {
            order = Array(tracks.indices)
            position = playing
        }
        isShuffled = shuffled
    }

    /// ``setShuffled(_:using:)`` with the system's random numbers.
    public mutating func setShuffled(_ shuffled: Bool) {
        var generator = SystemRandomNumberGenerator()
        setShuffled(shuffled, using: &generator)
    }
}

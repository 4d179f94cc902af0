import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

/// When a track counts as played: thirty seconds heard, where pauses and seeks forward do not
/// count, once per listen.
@Suite("Play tracker")
struct PlayTrackerTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Feeds one report a second while playing, from `from` to `to` (positions and seconds after
    /// `at`), and returns the positions at which the track was due.
    static func play(
        _ tracker: inout PlayTracker, track: String = "track:7", from: Int, to: Int, at: Date, step: Int = 1
    ) -> [Int] {
        var due: [Int] = []
        for second in stride(from: from, through: to, by: step) {
            let now = at + TimeInterval(second - from)
            if tracker.update(track: track, position: TimeInterval(second), playing: true, at: now) != nil { due.append(second) }
        }
        return due
    }

    @Test("thirty seconds heard: due once, at thirty")
    func thirtySeconds() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 90, at: start) == [30])
        #expect(tracker.heardSeconds == 90)
        #expect(tracker.isCounted)
    }

    @Test("at a faster rate what the track played is what was heard; at 1× the same jump is a seek")
    func rate() {
        var fast = PlayTracker()
        _ = fast.update(track: "t", position: 0, playing: true, rate: 2, at: start)
        // Fifteen seconds of the clock at 2×: thirty of the track, heard.
        #expect(fast.update(track: "t", position: 30, playing: true, rate: 2, at: start + 15) == "t")
        var normal = PlayTracker()
        _ = normal.update(track: "t", position: 0, playing: true, at: start)
        #expect(normal.update(track: "t", position: 30, playing: true, at: start + 15) == nil)
        #expect(normal.heardSeconds == 0, "thirty seconds of track in fifteen at 1× is a seek")
        // A rate that is not a rate counts as 1×.
        var odd = PlayTracker()
        _ = odd.update(track: "t", position: 0, playing: true, rate: .nan, at: start)
        #expect(odd.update(track: "t", position: 30, playing: true, at: start + 15) == nil)
    }

    @Test("the due report names the track")
    func namesTheTrack() {
        var tracker = PlayTracker()
        _ = tracker.update(track: "rec:41", position: 0, playing: true, at: start)
        #expect(tracker.update(track: "rec:41", position: 30, playing: true, at: start + 30) == "rec:41")
    }

    @Test("a seek from 0 to 29 is not heard: not due a second later, but thirty heard seconds after it")
    func seekForwardDoesNotCount() {
        var tracker = PlayTracker()
        _ = tracker.update(track: "track:7", position: 0, playing: true, at: start)
        #expect(tracker.update(track: "track:7", position: 29, playing: true, at: start + 1) == nil)
        #expect(tracker.heardSeconds == 0)
        #expect(Self.play(&tracker, from: 29, to: 70, at: start + 1) == [59])
    }

    @Test("paused time does not count, nor scrubbing while paused")
    func pausedTimeDoesNotCount() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 10, at: start) == [])
        #expect(tracker.update(track: "track:7", position: 10, playing: false, at: start + 10) == nil)
        #expect(tracker.update(track: "track:7", position: 10, playing: false, at: start + 100) == nil)
        // Scrubbed ahead while paused, slowly enough to pass for playback.
        #expect(tracker.update(track: "track:7", position: 25, playing: false, at: start + 120) == nil)
        #expect(tracker.update(track: "track:7", position: 25, playing: true, at: start + 130) == nil)
        #expect(tracker.heardSeconds == 10)
        #expect(Self.play(&tracker, from: 25, to: 50, at: start + 130) == [45])
    }

    @Test("replayed from the start after it counted, it counts again; so after another track")
    func replayCountsAgain() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 40, at: start) == [30])
        #expect(Self.play(&tracker, from: 0, to: 40, at: start + 100) == [30], "repeat: back to the start")
        #expect(Self.play(&tracker, track: "track:8", from: 0, to: 40, at: start + 200) == [30])
        #expect(Self.play(&tracker, from: 0, to: 40, at: start + 300) == [30], "the first track again")
    }

    @Test("rewinding before it counted keeps what was heard: 20 s, back to the start, 10 s more")
    func rewindDuringFirstListen() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 20, at: start) == [])
        #expect(Self.play(&tracker, from: 0, to: 15, at: start + 21) == [10])
    }

    @Test("a seek back to the middle after it counted is the same listen: not due again")
    func seekBackToTheMiddle() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 40, at: start) == [30])
        #expect(Self.play(&tracker, from: 10, to: 60, at: start + 41) == [])
    }

    @Test("reports five seconds apart count, with a little lateness tolerated")
    func sparseReports() {
        var tracker = PlayTracker()
        #expect(Self.play(&tracker, from: 0, to: 25, at: start, step: 5) == [])
        #expect(tracker.update(track: "track:7", position: 30.4, playing: true, at: start + 30) == "track:7")
    }

    @Test("positions that are not a time are ignored")
    func nonsensePositions() {
        var tracker = PlayTracker()
        _ = tracker.update(track: "track:7", position: 0, playing: true, at: start)
        #expect(tracker.update(track: "track:7", position: .nan, playing: true, at: start + 1) == nil)
        #expect(tracker.update(track: "track:7", position: -3, playing: true, at: start + 2) == nil)
        #expect(tracker.update(track: "track:7", position: 30, playing: true, at: start + 30) == "track:7")
    }
}

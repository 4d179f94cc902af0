public import Foundation
import ScreenplayContract

/// Decides when the track playing counts as played, by ``PlayRule``: ``PlayRule/playedSeconds``
/// of it heard, where paused time and seeking forward do not count. What it returns is what to
/// hand to ``EventReporter/record(_:key:screen:)`` as `.played`.
///
/// It is a value fed the player's own position reports (periodic ones and one at each change of
/// state), with no clock of its own, so every player integration and a test drive it the same way.
///
/// The rule, whole:
/// - Each report describes the player until the next one. The progress between two reports of
///   the same track counts when the earlier one said *playing*, and the position moved forward
///   by no more than the wall time between them plus ``progressTolerance``. A larger jump is a
///   seek and counts nothing (not even the wall time, which may have been spent scrubbing);
///   progress after a *paused* report counts nothing, so scrubbing while paused is not heard.
/// - When the heard seconds reach ``PlayRule/playedSeconds`` the track is due, once.
/// - A new listen starts, and may be due again, when another track is reported (the queue moved
///   on, or another track played in between), or when the same track, already due, goes back to
///   ``restartPosition`` or earlier (replayed from the start, repeat-one). Going back before it
///   was due keeps what was heard: rewinding during a first listen is still that first listen.
///
/// Playing faster than real time (beyond the tolerance) counts nothing: a play is never counted
/// that was not heard at normal speed.
public struct PlayTracker: Sendable, Hashable {
    /// How far the position may run ahead of the wall time between two reports and still count
    /// as heard: players report late by a frame or a buffer, and that is not a seek.
    public static let progressTolerance: TimeInterval = 0.5
    /// How near the start a counted track must go back to be a new listen.
    public static let restartPosition: TimeInterval = 5

    private struct Report: Sendable, Hashable {
        var position: TimeInterval
        var playing: Bool
        var rate: Double
        var at: Date
    }

    /// The track being listened to, by its id; `nil` before the first report.
    public private(set) var track: String?
    /// Seconds of ``track`` heard in this listen.
    public private(set) var heardSeconds: TimeInterval = 0
    /// Whether this listen was already due (it is never due twice).
    public private(set) var isCounted = false
    private var last: Report?

    /// A tracker that has heard nothing yet; one per player.
    public init() {}

    /// Notes the player's report that `track` is at `position` seconds, `playing` or not, at
    /// `now`; returns `track` when this report makes it played (once per listen), else `nil`.
    ///
    /// A position that is not a finite number of seconds at or after 0 is ignored: a player
    /// that has not loaded the track yet says nothing about what was heard.
    ///
    /// `rate` is the playback rate the player ran at since its previous report (1 by default):
    /// at 2× a minute of the clock plays two of the track, and that is what was heard, as the
    /// web player counts it. A rate that is not a finite positive number counts as 1.
    public mutating func update(track id: String, position: TimeInterval, playing: Bool, rate: Double = 1, at now: Date) -> String? {
        guard position.isFinite, position >= 0 else { return nil }
        let previous = last
        last = Report(position: position, playing: playing, rate: rate.isFinite && rate > 0 ? rate : 1, at: now)
        guard id == track, let previous else {
            track = id
            heardSeconds = 0
            isCounted = false
            return nil
        }
        let progress = position - previous.position
        if progress < 0 {
            if isCounted, position <= Self.restartPosition {
                heardSeconds = 0
                isCounted = false
            }
            return nil
        }
        let elapsed = now.timeIntervalSince(previous.at)
        guard previous.playing, progress > 0, progress <= max(0, elapsed) * previous.rate + Self.progressTolerance else { return nil }
        heardSeconds += progress
        guard !isCounted, heardSeconds >= PlayRule.playedSeconds else { return nil }
        isCounted = true
        return id
    }
}

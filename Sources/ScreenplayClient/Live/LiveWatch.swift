import Foundation
import ScreenplayContract

/// What a navigator keeps current, derived from its stack alone: the screens to follow on the
/// event stream and the screens to poll, each only while on the stack.
///
/// A value, recomputed after every change to the stack; when it differs from the one in force,
/// the navigator reopens its stream for the new set or restarts its timers. An app in the
/// background watches nothing (``none``).
public struct LiveWatch: Sendable, Hashable {
    /// The stream's entries (paths under `screens/`, with their query), in stack order, each once.
    public var streamEntries: [String]
    /// Seconds between revalidations, by screen URL (relative to the API base).
    public var intervals: [String: Int]

    /// Nothing to watch.
    public static let none = LiveWatch(streamEntries: [], intervals: [:])

    /// Creates a watch.
    public init(streamEntries: [String], intervals: [String: Int]) {
        self.streamEntries = streamEntries
        self.intervals = intervals
    }

    /// Whether there is anything to keep current.
    public var isEmpty: Bool { streamEntries.isEmpty && intervals.isEmpty }

    /// The watch for `entries`: every loaded screen that declares itself live (v5). A screen not
    /// under `screens/` has no stream entry and is polled only; past `limit` entries (the server's
    /// per-stream limit) the ones nearest the top of the stack are followed.
    public static func of(_ entries: [NavigationStateMachine.Entry], limit: Int = 32) -> LiveWatch {
        var watch = LiveWatch.none
        for entry in entries.reversed() {
            guard let live = entry.state.screen?.live, live.isLive else { continue }
            if live.events, let stream = streamEntry(for: entry.url), !watch.streamEntries.contains(stream),
                watch.streamEntries.count < limit
            {
                watch.streamEntries.insert(stream, at: 0)
            }
            if let interval = live.interval { watch.intervals[entry.url] = interval }
        }
        return watch
    }

    /// The stream's name for the screen at `url` (`screens/playlist/3` → `playlist/3`); commas are
    /// encoded, since the stream's `screens` parameter separates entries with them.
    public static func streamEntry(for url: String) -> String? {
        guard url.hasPrefix(screensPrefix), url.count > screensPrefix.count else { return nil }
        return String(url.dropFirst(screensPrefix.count)).replacingOccurrences(of: ",", with: "%2C")
    }

    /// The screen URL a stream entry names (`playlist/3` → `screens/playlist/3`).
    public static func url(forStreamEntry entry: String) -> String {
        screensPrefix + entry.replacingOccurrences(of: "%2C", with: ",")
    }

    static let screensPrefix = "screens/"
}

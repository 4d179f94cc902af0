public import ScreenplayContract

/// Where an ``EventReporter`` keeps the events it has not sent yet, so that what a user saw and
/// played offline, or just before the app was closed, is still sent after a restart: a file in
/// apps (``FileReportQueue``), memory in tests and in apps that accept losing them
/// (``InMemoryReportQueue``).
///
/// The queue is small (at most ``ClientEvent/Limits/queuedEvents`` events), so it is saved
/// whole: no partial state to reconcile after a crash.
public protocol ReportQueueStorage: Sendable {
    /// The events saved last, oldest first. Never fails: storage that cannot be read (missing,
    /// damaged, another format) holds nothing, since losing a few impressions is better than an
    /// app that cannot start.
    func load() async -> [ClientEvent]
    /// Replaces what is saved with `events`, whole or not at all.
    func save(_ events: [ClientEvent]) async throws(ReportQueueStorageError)
}

/// Why a report queue could not be saved; the events stay in memory and the next save tries
/// again. A struct rather than an enum so that new causes can be told apart later without
/// breaking anyone's `switch`.
public struct ReportQueueStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the queue was being saved (a file path, a store's name).
    public let location: String
    /// What the system said.
    public let reason: String

    /// An error saving to `location`.
    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    /// What went wrong, and where.
    public var description: String { "the queue of reports could not be saved at \(location): \(reason)" }
}

/// A report queue in memory: for tests (two reporters given the same one act like one app
/// restarted), and for apps that would rather lose unsent events on a restart than write files.
public actor InMemoryReportQueue: ReportQueueStorage {
    /// What was saved last.
    public private(set) var events: [ClientEvent]
    /// How many times the queue was saved: lets a test see that a change was written.
    public private(set) var saves = 0

    /// A queue holding `events` (none by default).
    public init(events: [ClientEvent] = []) { self.events = events }

    /// What was saved last.
    public func load() -> [ClientEvent] { events }

    /// Keeps `events`.
    public func save(_ events: [ClientEvent]) {
        self.events = events
        saves += 1
    }
}

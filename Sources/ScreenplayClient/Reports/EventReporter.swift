public import Foundation
public import ScreenplayContract

/// Queues what happened on the device (impressions from ``ImpressionTracker``, plays from
/// ``PlayTracker``) and sends it to the server in batches (`POST {prefix}/v6/reports`), keeping
/// it across restarts and failures until the server has it.
///
/// Guarantees:
/// - Each event gets its id when it is recorded and keeps it through every retry, so an event
///   sent twice (an answer lost on the way back) is stored once.
/// - The queue holds at most ``ClientEvent/Limits/queuedEvents`` events; past it the oldest go
///   first, counted in ``Statistics/dropped``. Every change is saved to its
///   ``ReportQueueStorage``, the latest state last.
/// - Batches go oldest first, at most ``ClientEvent/Limits/eventsPerBatch`` each, and one flush
///   runs at a time (see ``flush()``).
///
/// Requests go through a ``ScreenLoader``, so reports share the app's identity: the token it
/// holds, the one a server issues on a first request (saved for screens and commands alike), and
/// the rule that a new client's first requests go one at a time so that it is not given two
/// identities.
///
/// When to call ``flush()`` is the app's, by ``ReportFlushPolicy``: ``nextFlush()`` says when.
public actor EventReporter {
    /// What a reporter has done since it was created; for the app's diagnostics and for tests.
    public struct Statistics: Sendable, Hashable {
        /// Events recorded.
        public var recorded = 0
        /// Events in batches the server accepted (stored, already held, or refused one by one).
        public var sent = 0
        /// Of those, events the server refused at their path (a key it does not accept): gone,
        /// since sending them again would be refused again.
        public var refused = 0
        /// Events in batches the server could not read at all (400, 413, 415, 422): gone.
        public var discarded = 0
        /// Events dropped, oldest first, because the queue was full.
        public var dropped = 0
        /// Saves of the queue that failed (the events stayed in memory).
        public var storageFailures = 0

        /// Nothing done yet.
        public init() {}
    }

    /// What one ``flush()`` did, and when to try again.
    public struct FlushResult: Sendable, Hashable {
        /// Events the server accepted in this flush.
        public var sent: Int
        /// Events still queued after it.
        public var kept: Int
        /// Events dropped in it with a batch the server could not read.
        public var discarded: Int
        /// When the server or the network asked to wait until (`Retry-After`, else the backoff):
        /// a flush before then sends nothing. `nil` when nothing asks to wait.
        public var retryAt: Date?

        /// A result.
        public init(sent: Int, kept: Int, discarded: Int, retryAt: Date?) {
            self.sent = sent
            self.kept = kept
            self.discarded = discarded
            self.retryAt = retryAt
        }
    }

    /// The loader whose endpoint, transport and identity reports use.
    public nonisolated let loader: ScreenLoader
    /// Where unsent events are kept.
    public nonisolated let storage: any ReportQueueStorage
    /// Where batches go: `{root}{prefix}/v6/reports`.
    public nonisolated let reportsURL: URL
    /// The clock events are stamped with and waits measured by.
    let now: @Sendable () -> Date

    /// Unsent events, oldest first.
    var queue: [ClientEvent]
    /// What this reporter has done.
    public internal(set) var statistics = Statistics()
    /// Why the last save failed, while saves fail; `nil` once one succeeds.
    public private(set) var lastStorageError: ReportQueueStorageError?
    /// Failures in a row, for the backoff.
    var failures = 0
    /// Before this, a flush sends nothing (`Retry-After` or the backoff).
    public internal(set) var retryNotBefore: Date?
    /// The token the server answered 401 to: not sent again. A token saved since (one the server
    /// issues to the token-less request that follows) is used.
    var refusedToken: String?
    /// The flush running now, which a second call joins.
    var running: Task<FlushResult, Never>?

    private var isSaving = false
    private var needsSave = false

    /// A reporter sending through `loader` (so with its identity), keeping its queue in
    /// `storage` and reading the time from `now`. Loads what `storage` holds: the events a
    /// previous run did not send go first.
    public init(loader: ScreenLoader, storage: any ReportQueueStorage = InMemoryReportQueue(), now: @escaping @Sendable () -> Date = Date.init) async {
        self.loader = loader
        self.storage = storage
        self.now = now
        self.reportsURL = Self.reportsURL(for: loader.endpoint)
        self.queue = []
        queue = Array(await storage.load().suffix(ClientEvent.Limits.queuedEvents))
    }

    /// A reporter with a loader of its own on `endpoint`, `transport` and `tokens`. Prefer
    /// ``init(loader:storage:now:)`` in an app that also loads screens: sharing the loader
    /// serialises a new client's first requests, so it is not given two identities.
    public init(
        endpoint: ServerEndpoint, transport: any ScreenTransport, tokens: any TokenStore = InMemoryTokenStore(),
        storage: any ReportQueueStorage = InMemoryReportQueue(), now: @escaping @Sendable () -> Date = Date.init
    ) async {
        await self.init(loader: ScreenLoader(endpoint: endpoint, transport: transport, tokens: tokens, cacheLimit: 0), storage: storage, now: now)
    }

    /// Where `endpoint`'s server takes reports: the version that introduced them under the same
    /// prefix as the endpoint's API base (`/api/v6/reports`), whatever version the app speaks.
    public static func reportsURL(for endpoint: ServerEndpoint) -> URL {
        let prefix = endpoint.apiBase.deletingLastPathComponent()
        return URL(string: "\(ClientEvent.introduced)/reports", relativeTo: prefix)?.absoluteURL ?? prefix
    }

    /// Queues a `kind` event for `key` (a component's report key, a track's id) on `screen`,
    /// with a new id and the time now, and saves the queue. When the queue is full the oldest
    /// event goes. Never fails: a queue that cannot be saved stays in memory
    /// (``lastStorageError``).
    @discardableResult
    public func record(_ kind: ClientEvent.Kind, key: String, screen: String? = nil) async -> ClientEvent {
        let event = ClientEvent(id: UUID().uuidString.lowercased(), kind: kind, key: key, screen: screen, at: now())
        queue.append(event)
        statistics.recorded += 1
        let excess = queue.count - ClientEvent.Limits.queuedEvents
        if excess > 0 {
            queue.removeFirst(excess)
            statistics.dropped += excess
        }
        await save()
        return event
    }

    /// The unsent events, oldest first.
    public var queued: [ClientEvent] { queue }

    /// When to call ``flush()`` next, by ``ReportFlushPolicy``: `nil` with nothing queued.
    public func nextFlush() -> Date? {
        ReportFlushPolicy.nextFlush(queued: queue.count, oldest: queue.first?.at, notBefore: retryNotBefore)
    }

    /// Whether a flush is due now (see ``nextFlush()``).
    public func isFlushDue() -> Bool { nextFlush().map { $0 <= now() } ?? false }

    /// Saves the queue as it is now. Saves run one at a time and a change made during one is
    /// saved right after it, so the storage always ends with the latest queue, never an older
    /// one that finished late.
    func save() async {
        needsSave = true
        guard !isSaving else { return }
        isSaving = true
        defer { isSaving = false }
        while needsSave {
            needsSave = false
            do {
                try await storage.save(queue)
                lastStorageError = nil
            } catch {
                lastStorageError = error
                statistics.storageFailures += 1
            }
        }
    }
}

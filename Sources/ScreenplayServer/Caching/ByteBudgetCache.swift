import Synchronization

/// Values by key and revision, bounded by bytes, least recently used out first, with one build
/// per miss: the one cache every Screenplay cache is (encoded screens, composed pages, rendered
/// web pages).
///
/// - **One entry per key.** The revision is not part of the key: a value of a newer revision
///   replaces the older one instead of sitting beside it, so a user who writes a thousand times
///   holds one copy of each of their screens, not a thousand.
/// - **A byte budget.** Values are weighed by `cost`; once the total passes the budget, entries
///   are evicted least recently used first down to three quarters of it (so eviction, a sort, runs
///   rarely rather than on every store). A value heavier than ``largestEntry`` is served, never kept.
/// - **Single flight.** Concurrent misses for the same key and revision wait for one build. The
///   build runs unstructured: a requester that gives up does not cancel what the others wait for.
/// - **Expiry, and stale while rebuilding.** A build may say until when its value is fresh; an
///   entry of the same revision that expired less than `staleFor` ago is still answered at once
///   while one rebuild runs in the background. A new revision is never answered from an old one.
package final class ByteBudgetCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What a build produced: the value, and until when it may be served (`nil`: until the
    /// revision changes). A value already expired when built is given to its waiters, not kept.
    package struct Built: Sendable {
        package let value: Value
        package let expires: ContinuousClock.Instant?

        package init(value: Value, expires: ContinuousClock.Instant?) {
            self.value = value
            self.expires = expires
        }
    }

    private struct Entry {
        let revision: String
        let value: Value
        let cost: Int
        let expires: ContinuousClock.Instant?
        /// When it was stored, on the cache's logical clock.
        let storedAt: UInt64
        var lastUse: UInt64
    }

    private struct Running {
        let task: Task<Built, any Error>
        /// When the build started, on the cache's logical clock.
        let startedAt: UInt64
    }

    /// What a request found: a fresh value, a stale one (and the rebuild it started, if any),
    /// or a build to wait for.
    private enum Lookup {
        case hit(Value)
        case stale(Value, refresh: Running?)
        case wait(Running)
    }

    private struct Flight: Hashable {
        let key: Key
        let revision: String
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var inFlight: [Flight: Running] = [:]
        var statistics = CacheStatistics()
    }

    private let state = Mutex(State())
    private let cost: @Sendable (Value) -> Int
    /// The time expiries are compared with: the continuous clock, or a test's.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// The most bytes kept.
    package let byteBudget: Int
    /// The heaviest value kept: an eighth of the budget, so one value never flushes the rest.
    package var largestEntry: Int { byteBudget / 8 }

    /// An empty cache of at most `byteBudget` bytes, each value weighing `cost(value)`; expiries
    /// are instants of `now` (tests pass a clock they move by hand).
    package init(
        byteBudget: Int, cost: @escaping @Sendable (Value) -> Int, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.byteBudget = max(1, byteBudget)
        self.cost = cost
        self.now = now
    }

    /// The value for `key` at `revision`, from memory, or built by `build` (once, however many
    /// ask at the same time) and kept if it fits. Never expires; a new revision replaces it.
    package func value(
        for key: Key, revision: String = "", build: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await value(for: key, revision: revision, expiring: false) { Built(value: try await build(), expires: nil) }
    }

    /// The value for `key` at `revision` while it has not expired, or built by `build` (once,
    /// however many ask) and kept until the expiry it states: for values whose freshness is a
    /// matter of time rather than of a revision (composed pages, whose providers' data changes
    /// without telling anyone). `expiring: false` skips reading the clock for callers whose
    /// values never expire. `staleFor`: see the type's documentation.
    package func value(
        for key: Key, revision: String = "", expiring: Bool = true, staleFor: Duration = .zero,
        build: @escaping @Sendable () async throws -> Built
    ) async throws -> Value {
        let flight = Flight(key: key, revision: revision)
        let now: ContinuousClock.Instant? = expiring ? self.now() : nil
        let lookup = state.withLock { state -> Lookup in
            state.clock += 1
            if var entry = state.entries[key], entry.revision == revision {
                if Self.isFresh(entry.expires, at: now) {
                    entry.lastUse = state.clock
                    state.entries[key] = entry
                    state.statistics.hits += 1
                    return .hit(entry.value)
                }
                if let now, let expires = entry.expires, staleFor > .zero, now < expires + staleFor {
                    entry.lastUse = state.clock
                    state.entries[key] = entry
                    state.statistics.staleHits += 1
                    guard state.inFlight[flight] == nil else { return .stale(entry.value, refresh: nil) }
                    let running = Running(task: Task { try await build() }, startedAt: state.clock)
                    state.inFlight[flight] = running
                    return .stale(entry.value, refresh: running)
                }
            }
            state.statistics.misses += 1
            if let running = state.inFlight[flight] {
                state.statistics.sharedBuilds += 1
                return .wait(running)
            }
            let running = Running(task: Task { try await build() }, startedAt: state.clock)
            state.inFlight[flight] = running
            return .wait(running)
        }
        switch lookup {
        case .hit(let value):
            return value
        case .stale(let value, let refresh):
            if let refresh {
                // The rebuild finishes on its own; the stale value is answered now.
                Task {
                    let built = try? await refresh.task.value
                    self.finish(flight, startedAt: refresh.startedAt, built: built, staleFor: staleFor)
                }
            }
            return value
        case .wait(let running):
            do {
                let built = try await running.task.value
                finish(flight, startedAt: running.startedAt, built: built, staleFor: staleFor)
                return built.value
            } catch {
                finish(flight, startedAt: running.startedAt, built: nil, staleFor: staleFor)
                throw error
            }
        }
    }

    /// The value for `key` at `revision` if it is in memory and fresh, counted as a hit; `nil`
    /// otherwise (not counted: the caller decides whether it builds).
    package func cachedValue(for key: Key, revision: String = "") -> Value? {
        state.withLock { state in
            guard var entry = state.entries[key], entry.revision == revision, Self.isFresh(entry.expires, at: entry.expires.map { _ in now() })
            else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
            state.statistics.hits += 1
            return entry.value
        }
    }

    /// Ends the build that started at `startedAt` (every waiter calls it; the first does the work,
    /// and a later build of the same flight is never ended by an old waiter), keeping its value
    /// if it is fresh, fits, and is not older news than the entry already held.
    /// Stores what a build made, unless a newer entry came first. A value that expired while it
    /// was being finished is still stored while it may be served stale (`staleFor`): on a loaded
    /// machine a page built with a short freshness can be past it by the time this runs, and
    /// dropping it would leave the next request nothing to answer while its rebuild waits.
    private func finish(_ flight: Flight, startedAt: UInt64, built: Built?, staleFor: Duration) {
        state.withLock { state in
            guard let running = state.inFlight[flight], running.startedAt == startedAt else { return }
            state.inFlight[flight] = nil
            guard let built, Self.isFresh(built.expires.map { $0 + staleFor }, at: built.expires.map { _ in now() }) else { return }
            state.clock += 1
            let weight = cost(built.value)
            guard weight <= largestEntry else {
                state.statistics.refusedLarge += 1
                return
            }
            // A build that started before the entry now held was stored is older news.
            if let existing = state.entries[flight.key], existing.storedAt > running.startedAt { return }
            if let old = state.entries.removeValue(forKey: flight.key) { state.bytes -= old.cost }
            state.entries[flight.key] = Entry(
                revision: flight.revision, value: built.value, cost: weight, expires: built.expires, storedAt: state.clock,
                lastUse: state.clock)
            state.bytes += weight
            guard state.bytes > byteBudget else { return }
            let target = byteBudget * 3 / 4
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > target else { break }
                state.entries[key] = nil
                state.bytes -= entry.cost
                state.statistics.evictions += 1
            }
        }
    }

    /// Whether an entry expiring at `expires` may still be served at `now` (no expiry, or no
    /// clock reading for callers whose entries never expire: always).
    private static func isFresh(_ expires: ContinuousClock.Instant?, at now: ContinuousClock.Instant?) -> Bool {
        guard let expires, let now else { return true }
        return now < expires
    }

    /// What the cache holds and has done.
    package var statistics: CacheStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.entries = state.entries.count
            statistics.bytes = state.bytes
            statistics.byteBudget = byteBudget
            return statistics
        }
    }
}

/// What a cache holds and has done since the server started: for logs, metrics and tests.
public struct CacheStatistics: Sendable, Hashable {
    /// Values kept.
    public internal(set) var entries = 0
    /// Bytes kept, as the cache weighs its values; never above ``byteBudget`` once a store returns.
    public internal(set) var bytes = 0
    /// The configured budget.
    public internal(set) var byteBudget = 0
    /// Requests answered from memory.
    public internal(set) var hits = 0
    /// Requests answered from an expired entry while it was rebuilt in the background.
    public internal(set) var staleHits = 0
    /// Requests that needed a build (or waited for one).
    public internal(set) var misses = 0
    /// Misses that waited for a build another request had started instead of building.
    public internal(set) var sharedBuilds = 0
    /// Entries dropped to stay within the budget.
    public internal(set) var evictions = 0
    /// Values served but too heavy to keep.
    public internal(set) var refusedLarge = 0
}

/// The former name of ``CacheStatistics``, from when only encoded screens were cached.
@available(*, deprecated, renamed: "CacheStatistics")
public typealias EncodedCacheStatistics = CacheStatistics

import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

/// The one cache type behind encoded screens, composed pages and rendered web pages.
@Suite("ByteBudgetCache: bytes bounded, least recently used out, one build per miss, expiry and stale-while-rebuilding")
struct ByteBudgetCacheTests {
    /// Values are strings weighing their length.
    typealias Cache = ByteBudgetCache<String, String>

    static func cache(budget: Int) -> Cache { Cache(byteBudget: budget, cost: \.utf8.count) }

    static func value(_ cache: Cache, _ key: String, revision: String = "", size: Int = 100, builds: Counter? = nil) async throws -> String {
        let prefix = "\(key):\(revision)"
        let padding = String(repeating: ".", count: max(0, size - prefix.utf8.count))
        return try await cache.value(for: key, revision: revision) {
            builds?.increment()
            return prefix + padding
        }
    }

    @Test("the bytes kept stay within the budget, and the least recently used go first")
    func leastRecentlyUsedOut() async throws {
        let cache = Self.cache(budget: 1_000)
        let builds = Counter()
        for index in 0..<8 { _ = try await Self.value(cache, "k\(index)", builds: builds) }
        // k0 is used again, so k1 is now the least recently used.
        _ = try await Self.value(cache, "k0", builds: builds)
        #expect(builds.count == 8)
        for index in 8..<12 { _ = try await Self.value(cache, "k\(index)", builds: builds) }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 1_000)
        #expect(statistics.evictions > 0)
        #expect(cache.cachedValue(for: "k0") != nil, "recently used, kept")
        #expect(cache.cachedValue(for: "k1") == nil, "least recently used, evicted first")
        #expect(cache.cachedValue(for: "k11") != nil, "newest, kept")
        #expect(statistics.entries == statistics.bytes / 100)
    }

    @Test("a new revision replaces the old value instead of sitting beside it")
    func revisionsReplace() async throws {
        let cache = Self.cache(budget: 100_000)
        for revision in 1...200 { _ = try await Self.value(cache, "mine", revision: String(revision)) }
        let statistics = cache.statistics
        #expect(statistics.entries == 1)
        #expect(statistics.bytes == 100)
        #expect(statistics.evictions == 0)
        #expect(cache.cachedValue(for: "mine", revision: "199") == nil)
        #expect(cache.cachedValue(for: "mine", revision: "200")?.hasPrefix("mine:200") == true)
    }

    @Test("concurrent misses for one key and revision build once; a requester that gives up cancels nothing")
    func singleFlight() async throws {
        let cache = Self.cache(budget: 100_000)
        let builds = Counter()
        let gate = Signal()
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await cache.value(for: "slow") {
                        builds.increment()
                        await gate.wait()
                        return "built"
                    }
                }
            }
            // One more requester that gives up while the build runs.
            let impatient = Task { try await cache.value(for: "slow") { "never" } }
            while cache.statistics.misses < 21 { try await Task.sleep(for: .milliseconds(5)) }
            impatient.cancel()
            gate.fire()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: "built", count: 20))
        #expect(builds.count == 1)
        #expect(cache.statistics.sharedBuilds == 20)
        #expect(cache.cachedValue(for: "slow") == "built")
    }

    @Test("a value heavier than an eighth of the budget is served and not kept")
    func tooHeavy() async throws {
        let cache = Self.cache(budget: 800)
        let value = try await Self.value(cache, "big", size: 101)
        #expect(value.utf8.count == 101)
        #expect(cache.statistics.entries == 0)
        #expect(cache.statistics.refusedLarge == 1)
        _ = try await Self.value(cache, "fits", size: 100)
        #expect(cache.statistics.entries == 1)
    }

    @Test("a failed build is kept by nobody, and the next request builds again")
    func failure() async throws {
        struct Refused: Error {}
        let cache = Self.cache(budget: 1_000)
        await #expect(throws: Refused.self) { try await cache.value(for: "k") { throw Refused() } }
        #expect(cache.statistics.entries == 0)
        #expect(try await cache.value(for: "k") { "second" } == "second")
    }

    @Test("an expired value is built again; a stale one is answered while one rebuild runs in the background")
    func expiryAndStale() async throws {
        let clock = ManualClock()
        let cache = Cache(byteBudget: 1_000, cost: \.utf8.count, now: clock.now)
        let builds = Counter()
        let gate = Signal()
        func page(staleFor: Duration, hold: Bool = false) async throws -> String {
            try await cache.value(for: "page", revision: "1", staleFor: staleFor) {
                builds.increment()
                if hold { await gate.wait() }
                return .init(value: "build \(builds.count)", expires: clock.now() + .seconds(5))
            }
        }
        #expect(try await page(staleFor: .zero) == "build 1")
        clock.advance(by: .seconds(4))
        #expect(try await page(staleFor: .zero) == "build 1", "fresh: from memory")
        clock.advance(by: .seconds(2))
        #expect(try await page(staleFor: .zero) == "build 2", "expired, no staleness allowed: built again")

        clock.advance(by: .seconds(10))
        #expect(try await page(staleFor: .seconds(30), hold: true) == "build 2", "stale: answered at once")
        #expect(try await page(staleFor: .seconds(30), hold: true) == "build 2", "still stale, and no second rebuild")
        for _ in 0..<400 where builds.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(builds.count == 3, "one rebuild, started by the first stale answer")
        #expect(cache.statistics.staleHits == 2)
        gate.fire()
        var fresh = ""
        for _ in 0..<400 where fresh != "build 3" {
            try await Task.sleep(for: .milliseconds(5))
            fresh = try await page(staleFor: .seconds(30))
        }
        #expect(fresh == "build 3", "the rebuilt value replaces the stale one")

        // Past the stale window, a request waits for a build again.
        clock.advance(by: .seconds(60))
        #expect(try await page(staleFor: .seconds(30)) == "build 4")
        // A new revision is never answered from the old one, stale or not.
        clock.advance(by: .seconds(6))
        let next = try await cache.value(for: "page", revision: "2", staleFor: .seconds(30)) {
            .init(value: "revision 2", expires: clock.now() + .seconds(5))
        }
        #expect(next == "revision 2")
    }

    @Test("a value past its freshness by the time its build finishes is kept to be answered stale, not dropped")
    func expiredOnArrivalIsKeptForStaleAnswers() async throws {
        let clock = ManualClock()
        let cache = Cache(byteBudget: 1_000, cost: \.utf8.count, now: clock.now)
        let builds = Counter()
        // A loaded machine: the build sets its expiry, and the clock has passed it before the
        // cache stores the value.
        func slowPage(_ key: String, staleFor: Duration) async throws -> String {
            try await cache.value(for: key, revision: "1", staleFor: staleFor) {
                builds.increment()
                defer { clock.advance(by: .seconds(2)) }
                return .init(value: "build \(builds.count)", expires: clock.now() + .seconds(1))
            }
        }
        #expect(try await slowPage("page", staleFor: .seconds(30)) == "build 1")
        #expect(cache.statistics.entries == 1, "kept: it may still be answered stale")
        let gate = Signal()
        let stale = Task {
            try await cache.value(for: "page", revision: "1", staleFor: .seconds(30)) {
                await gate.wait()
                return .init(value: "rebuilt", expires: clock.now() + .seconds(1))
            }
        }
        // Bounded: had the value been dropped, this request would wait for its rebuild.
        for _ in 0..<400 where cache.statistics.staleHits == 0 { try await Task.sleep(for: .milliseconds(5)) }
        gate.fire()
        #expect(try await stale.value == "build 1", "answered at once from the kept value while the rebuild waits")
        // Without a stale window such a value is of no use to anyone: not stored.
        #expect(try await slowPage("other", staleFor: .zero) == "build 2")
        #expect(cache.cachedValue(for: "other", revision: "1") == nil)
        #expect(try await slowPage("other", staleFor: .zero) == "build 3", "built again")
    }

    @Test("a build that started before the value now held was stored does not replace it")
    func olderNewsIsDropped() async throws {
        let cache = Self.cache(budget: 1_000)
        let gate = Signal()
        let slow = Task { try await cache.value(for: "k", revision: "1") { await gate.wait(); return "old" } }
        while cache.statistics.misses < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(try await cache.value(for: "k", revision: "2") { "new" } == "new")
        gate.fire()
        #expect(try await slow.value == "old", "its waiters still get what they asked for")
        #expect(cache.cachedValue(for: "k", revision: "2") == "new")
        #expect(cache.cachedValue(for: "k", revision: "1") == nil)
    }

    @Test("a peek counts a hit on a fresh value and nothing on a miss")
    func peek() async throws {
        let cache = Self.cache(budget: 1_000)
        #expect(cache.cachedValue(for: "k") == nil)
        #expect(cache.statistics.hits == 0 && cache.statistics.misses == 0)
        _ = try await Self.value(cache, "k")
        #expect(cache.cachedValue(for: "k") != nil)
        #expect(cache.statistics.hits == 1)
    }
}

/// A clock the test moves by hand, for expiries.
final class ManualClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Mutex(Duration.zero)

    /// Now, as this clock has it.
    @Sendable func now() -> ContinuousClock.Instant { start + offset.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

import Foundation
import Synchronization

/// Token buckets by key: each key may spend `burst` at once, refilled at `rate` per second.
///
/// The service keeps one for commands per identity and one for creating identities, so a client
/// that floods commands, or mints identities in a loop, gets `429` with `Retry-After` instead of
/// filling the database. Bounded: past `capacity` keys the fullest buckets (those that would
/// allow a full burst anyway) are forgotten first.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    /// Tokens added per second.
    public let rate: Double
    /// The most tokens a bucket holds.
    public let burst: Double
    let capacity: Int

    /// A limiter allowing `burst` at once and `rate` per second after that.
    public init(rate: Double, burst: Double, capacity: Int = 100_000) {
        self.rate = max(rate, 0.001)
        self.burst = max(burst, 1)
        self.capacity = max(capacity, 1)
    }

    /// Spends one token of `key`'s bucket; `nil` when allowed, else how long until one is there.
    public func spend(_ key: String, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return .seconds((1 - bucket.tokens) / rate)
            }
            bucket.tokens -= 1
            buckets[key] = bucket
            if buckets.count > capacity {
                // Down to nine tenths in one pass (so the scan is rare): buckets untouched the
                // longest go first; those are the ones that have refilled, or nearly.
                let excess = buckets.count - capacity * 9 / 10
                for (key, _) in buckets.sorted(by: { $0.value.updated < $1.value.updated }).prefix(excess) { buckets[key] = nil }
            }
            return nil
        }
    }

    /// Gives back one token `key` spent, for an attempt that turned out not to count (a sign-in
    /// that succeeded: only failures should use up the budget). Never past `burst`; a key the
    /// limiter has forgotten is full already.
    public func refund(_ key: String) {
        buckets.withLock { buckets in
            guard var bucket = buckets[key] else { return }
            bucket.tokens = min(burst, bucket.tokens + 1)
            buckets[key] = bucket
        }
    }
}

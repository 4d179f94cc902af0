import Synchronization

/// Bytes and their ETag, ready to send, with their gzip form made once beside them.
public struct EncodedBody: Sendable, Hashable {
    /// The encoded bytes (JSON, or a page's HTML).
    public let bytes: [UInt8]
    /// A strong entity tag derived from the bytes (quoted, as sent in `ETag`).
    public let etag: String
    /// The bytes gzipped, for clients that accept it; `nil` when short (under
    /// ``Gzip/minimumSize``) or when gzip would not make them smaller.
    public let gzipped: [UInt8]?

    /// Wraps bytes, computes their ETag and (for bodies worth it) their gzip form: compressed
    /// here, once, so that serving it from a cache costs nothing per request.
    public init(bytes: [UInt8], compressing: Bool = true) {
        self.bytes = bytes
        self.etag = ETag.strong(for: bytes)
        self.gzipped = compressing && bytes.count >= Gzip.minimumSize ? Gzip.compress(bytes) : nil
    }

    /// The gzip form's entity tag: another representation needs another strong tag (RFC 9110
    /// §8.8.3), so it is the identity tag with `-gz` inside the quotes.
    public var gzippedETag: String { ETag.gzipVariant(of: etag) }

    /// What the body holds in memory, both forms: what caches count against their budget.
    public var storedSize: Int { bytes.count + (gzipped?.count ?? 0) }

    /// The form to send for a request's `Accept-Encoding`: bytes, tag, and whether it is gzip.
    public func representation(acceptEncoding: String?) -> (bytes: [UInt8], etag: String, gzip: Bool) {
        if let gzipped, ContentCoding.acceptsGzip(acceptEncoding) { return (gzipped, gzippedETag, true) }
        return (bytes, etag, false)
    }

    /// Whether an `If-None-Match` value names this body in either form: the content is the same,
    /// so a client that switched encodings still gets its 304.
    public func matches(ifNoneMatch header: String) -> Bool {
        ETag.matches(ifNoneMatch: header, etag: etag, orGzipVariant: true)
    }
}

/// Entity tags for encoded bodies.
public enum ETag {
    /// `"sp-<16 hex digits>"`: FNV-1a 64 over the bytes, mixed with the length.
    ///
    /// Deterministic across processes and replicas (unlike `Hasher`), so every server hands out
    /// the same tag for the same bytes and a client's `If-None-Match` is honored anywhere.
    public static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        let hex = String(hash, radix: 16)
        return "\"sp-" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The tag of the gzip form of the body tagged `etag` (`"sp-…"` → `"sp-…-gz"`).
    public static func gzipVariant(of etag: String) -> String {
        etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gz\"" : etag + "-gz"
    }

    /// Whether an `If-None-Match` header value matches `etag` (weak comparison, `*` matches all).
    public static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        matches(ifNoneMatch: header, etag: etag, orGzipVariant: false)
    }

    /// ``matches(ifNoneMatch:etag:)``, also accepting `etag`'s gzip variant (``gzipVariant(of:)``)
    /// when asked. On the UTF-8 bytes, allocating nothing: every revalidation runs it.
    static func matches(ifNoneMatch header: String, etag: String, orGzipVariant: Bool) -> Bool {
        let tag = etag.utf8
        let quoted = tag.last == UInt8(ascii: "\"")
        let header = Array(header.utf8)
        var start = 0
        while start <= header.count {
            var end = start
            while end < header.count, header[end] != UInt8(ascii: ",") { end += 1 }
            var low = start
            var high = end
            while low < high, header[low] == UInt8(ascii: " ") || header[low] == UInt8(ascii: "\t") { low += 1 }
            while high > low, header[high - 1] == UInt8(ascii: " ") || header[high - 1] == UInt8(ascii: "\t") { high -= 1 }
            let candidate = header[low..<high]
            if candidate.elementsEqual("*".utf8) { return true }
            let bare = candidate.starts(with: "W/".utf8) ? candidate.dropFirst(2) : candidate
            if bare.elementsEqual(tag) { return true }
            // The gzip variant: the tag with `-gz` before its closing quote.
            if orGzipVariant, quoted, bare.count == tag.count + 3,
                bare.prefix(tag.count - 1).elementsEqual(tag.dropLast()),
                bare.suffix(4).elementsEqual("-gz\"".utf8)
            {
                return true
            }
            start = end + 1
        }
        return false
    }
}

extension Substring {
    func trimmingWhitespaceSubstring() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}

/// Encoded screens by request shape and revision, bounded by bytes, with one build per miss.
///
/// - **One entry per request shape.** The key leaves the revision out: a newer revision replaces
///   the older bytes instead of sitting beside them, so a user who writes a thousand times holds
///   one copy of each of their screens, not a thousand.
/// - **A byte budget.** Entries are evicted least recently used first until the bodies fit;
///   a body larger than an eighth of the budget is served but never kept.
/// - **Single flight.** Concurrent misses for the same key and revision wait for one build
///   instead of each building (and encoding) the screen.
final class EncodedScreenCache: Sendable {
    /// Every part kept apart (no joining into one string), so two different requests can never
    /// produce the same key.
    struct Key: Hashable, Sendable {
        /// The route's pattern, as written.
        let route: String
        /// The pattern's parameter values, in pattern order.
        let parameters: [String]
        /// The declared query keys and their values, sorted by key.
        let query: [String: String]
        let apiVersion: Int
        /// The app-defined kinds the client renders.
        let clientKinds: Set<String>
        /// The user, for per-user routes; `nil` for routes shared by everyone.
        let user: Int64?
    }

    /// What a build produced: the body, and until when it may be served (`nil`: until the
    /// revision changes). A build whose `expires` is already past is served to its waiters but
    /// not kept.
    struct Built: Sendable {
        let body: EncodedBody
        let expires: ContinuousClock.Instant?
    }

    private struct Entry {
        let revision: String
        let body: EncodedBody
        let expires: ContinuousClock.Instant?
        /// When it was stored, on the cache's clock.
        let storedAt: UInt64
        var lastUse: UInt64
    }

    private struct Running {
        let task: Task<Built, any Error>
        /// When the build started, on the cache's clock.
        let startedAt: UInt64
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
        var stats = EncodedCacheStatistics()
    }

    private let state = Mutex(State())
    /// The most body bytes kept.
    let byteBudget: Int
    /// The largest body kept.
    var largestEntry: Int { byteBudget / 8 }

    init(byteBudget: Int) { self.byteBudget = max(1, byteBudget) }

    /// The body for `key` at `revision`, from memory, or built by `build` (once, however many
    /// requests ask at the same time) and kept if it fits.
    func body(
        for key: Key, revision: String, build: @escaping @Sendable () async throws -> EncodedBody
    ) async throws -> EncodedBody {
        try await body(for: key, revision: revision, expiring: false) { Built(body: try await build(), expires: nil) }
    }

    /// The body for `key` at `revision` while it has not expired, or built by `build` (once
    /// however many ask) and kept until the expiry it states. For bodies whose freshness is a
    /// matter of time rather than of a revision (composed pages, whose providers' data changes
    /// without telling anyone).
    ///
    /// `staleFor`: an entry of the same revision that expired less than this long ago is still
    /// answered at once, while one rebuild runs in the background and replaces it; nobody waits on
    /// a slow provider to refresh a page whose layout did not change. A new revision is never
    /// answered from a stale entry.
    func body(
        for key: Key, revision: String, expiring: Bool = true, staleFor: Duration = .zero,
        build: @escaping @Sendable () async throws -> Built
    ) async throws -> EncodedBody {
        let flight = Flight(key: key, revision: revision)
        let now: ContinuousClock.Instant? = expiring ? .now : nil
        var refresh: (task: Task<Built, any Error>, startedAt: UInt64)?
        let (hit, task, startedAt) = state.withLock { state -> (EncodedBody?, Task<Built, any Error>?, UInt64) in
            state.clock += 1
            if var entry = state.entries[key], entry.revision == revision, Self.isFresh(entry.expires, at: now) {
                entry.lastUse = state.clock
                state.entries[key] = entry
                state.stats.hits += 1
                return (entry.body, nil, 0)
            }
            if var entry = state.entries[key], entry.revision == revision, let now, let expires = entry.expires, staleFor > .zero,
                now < expires + staleFor
            {
                entry.lastUse = state.clock
                state.entries[key] = entry
                state.stats.staleHits += 1
                if state.inFlight[flight] == nil {
                    let task = Task { try await build() }
                    state.inFlight[flight] = Running(task: task, startedAt: state.clock)
                    refresh = (task, state.clock)
                }
                return (entry.body, nil, 0)
            }
            state.stats.misses += 1
            if let running = state.inFlight[flight] {
                state.stats.sharedBuilds += 1
                return (nil, running.task, running.startedAt)
            }
            // Unstructured on purpose: a requester that gives up does not cancel the build the
            // others wait for.
            let task = Task { try await build() }
            state.inFlight[flight] = Running(task: task, startedAt: state.clock)
            return (nil, task, state.clock)
        }
        if let refresh {
            // The rebuild finishes on its own; the stale body is answered now.
            Task {
                do {
                    let built = try await refresh.task.value
                    self.finish(flight, startedAt: refresh.startedAt, body: built.body, expires: built.expires)
                } catch {
                    self.finish(flight, startedAt: refresh.startedAt, body: nil)
                }
            }
        }
        if let hit { return hit }
        guard let task else { throw CancellationError() }
        do {
            let built = try await task.value
            finish(flight, startedAt: startedAt, body: built.body, expires: built.expires)
            return built.body
        } catch {
            finish(flight, startedAt: startedAt, body: nil)
            throw error
        }
    }

    /// Ends the build that started at `startedAt` (every waiter calls it; the first does the work,
    /// and a later build of the same flight is never ended by an old waiter).
    private func finish(_ flight: Flight, startedAt: UInt64, body: EncodedBody?, expires: ContinuousClock.Instant? = nil) {
        state.withLock { state in
            guard let running = state.inFlight[flight], running.startedAt == startedAt else { return }
            state.inFlight[flight] = nil
            guard let body, Self.isFresh(expires, at: expires == nil ? nil : .now) else { return }
            state.clock += 1
            guard body.storedSize <= largestEntry else {
                state.stats.refusedLarge += 1
                return
            }
            // A build that started before the entry now held was stored is older news: keep the entry.
            if let existing = state.entries[flight.key], existing.storedAt > running.startedAt { return }
            if let old = state.entries.removeValue(forKey: flight.key) { state.bytes -= old.body.storedSize }
            state.entries[flight.key] = Entry(
                revision: flight.revision, body: body, expires: expires, storedAt: state.clock, lastUse: state.clock)
            state.bytes += body.storedSize
            guard state.bytes > byteBudget else { return }
            // Evict the least recently used until three quarters of the budget is used, so that
            // eviction (a sort) runs rarely rather than on every store.
            let target = byteBudget * 3 / 4
            for (key, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > target else { break }
                state.entries[key] = nil
                state.bytes -= entry.body.storedSize
                state.stats.evictions += 1
            }
        }
    }

    /// Whether an entry expiring at `expires` may still be served at `now` (no expiry: always;
    /// no clock reading, for callers whose entries never expire: always).
    private static func isFresh(_ expires: ContinuousClock.Instant?, at now: ContinuousClock.Instant?) -> Bool {
        guard let expires, let now else { return true }
        return now < expires
    }

    /// What the cache holds and has done.
    var statistics: EncodedCacheStatistics {
        state.withLock { state in
            var stats = state.stats
            stats.entries = state.entries.count
            stats.bytes = state.bytes
            stats.byteBudget = byteBudget
            return stats
        }
    }
}

/// What the encoded-screen cache holds and has done since the server started: for logs, metrics
/// and tests.
public struct EncodedCacheStatistics: Sendable, Hashable {
    /// Screens kept.
    public internal(set) var entries = 0
    /// Body bytes kept (identity and gzip forms); never above ``byteBudget`` once a store returns.
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
    /// Bodies served but too large to keep.
    public internal(set) var refusedLarge = 0
}

import Synchronization

/// JSON bytes and their ETag, ready to send.
public struct EncodedBody: Sendable, Hashable {
    /// The encoded JSON.
    public let bytes: [UInt8]
    /// A strong entity tag derived from the bytes (quoted, as sent in `ETag`).
    public let etag: String

    /// Wraps bytes and computes their ETag.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        self.etag = ETag.strong(for: bytes)
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

    /// Whether an `If-None-Match` header value matches `etag` (weak comparison, `*` matches all).
    public static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingWhitespaceSubstring()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == etag[...] { return true }
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

/// Encoded screens by (path, revision, API version), so an unchanged screen is encoded once
/// and then served, and revalidated, from memory.
///
/// Bounded: past `capacity` entries the least recently used quarter is dropped.
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
        let revision: String
        let apiVersion: Int
        /// The app-defined kinds the client renders.
        let clientKinds: Set<String>
        /// The user, for per-user routes; `nil` for routes shared by everyone.
        let user: Int64?
    }

    private struct Entry {
        let body: EncodedBody
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func body(for key: Key) -> EncodedBody? {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.body
        }
    }

    func store(_ body: EncodedBody, for key: Key) {
        state.withLock { state in
            state.clock += 1
            state.entries[key] = Entry(body: body, lastUse: state.clock)
            if state.entries.count > capacity {
                let victims = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(max(1, capacity / 4))
                for (key, _) in victims { state.entries[key] = nil }
            }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}

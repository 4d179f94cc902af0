import ScreenplayContract
import Foundation
import Synchronization

/// What a lookup says of a watched screen now: its ETag, and the encoded bytes behind it when
/// the stream may send patches (a stream that does not, or a lookup with no bytes to give, such
/// as the admin's preview, leaves them out).
public struct WatchedVersion: Sendable, Hashable {
    /// The ETag a `GET` would answer now (identity form).
    public var etag: String
    /// The identity bytes that ETag names, or `nil`.
    public var bytes: [UInt8]?

    /// A version tagged `etag`, with its `bytes` when known.
    public init(etag: String, bytes: [UInt8]? = nil) {
        self.etag = etag
        self.bytes = bytes
    }
}

/// The patches event streams send (v6 clients that ask for them), and the screens the streams
/// hold to diff against, counted against ``EventStreamLimits/patchMemory``.
///
/// A patch is made once per pair of versions: the tags are derived from the bytes, so the same
/// pair is the same patch for every stream that sees it (a publish seen by a thousand streams is
/// diffed once), and a stream only ever asks for the pair from what its own client was told to
/// what its own client may see now. A patch is sent only when the server has checked that applying
/// it to the old version and encoding the result canonically gives the new version's tag exactly,
/// and when it is less than half the new version's size; otherwise the event carries the tag
/// alone and the client fetches the screen, as without patches.
final class StreamPatches: Sendable {
    struct Pair: Hashable {
        let from: String
        let to: String
    }

    let budget: Int
    private let heldBytes = Atomic<Int>(0)
    private let memo = Mutex<(order: [Pair], patches: [Pair: [UInt8]?])>(([], [:]))
    /// Pairs remembered (each the patch's JSON text, a few hundred bytes, or `nil`).
    static let memoLimit = 256

    init(budget: Int) { self.budget = budget }

    /// Bytes the streams hold now.
    var held: Int { heldBytes.load(ordering: .relaxed) }

    /// Counts `bytes` more held, when the budget allows; `false` (nothing counted) when not.
    func reserve(_ bytes: Int) -> Bool {
        while true {
            let current = heldBytes.load(ordering: .relaxed)
            guard current + bytes <= budget else { return false }
            if heldBytes.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed).exchanged { return true }
        }
    }

    /// Counts `bytes` fewer held.
    func release(_ bytes: Int) { heldBytes.subtract(bytes, ordering: .relaxed) }

    /// The patch's JSON text from `old` (tagged `from`) to `new` (tagged `to`), or `nil` when no
    /// patch is worth sending or none can be trusted to give `to` exactly.
    func patch(from: String, old: [UInt8], to: String, new: [UInt8]) -> [UInt8]? {
        let pair = Pair(from: from, to: to)
        if let known = memo.withLock({ $0.patches[pair] }) { return known }
        let made = Self.make(old: old, new: new, to: to)
        memo.withLock { memo in
            guard memo.patches[pair] == nil else { return }
            if memo.order.count >= Self.memoLimit { memo.patches[memo.order.removeFirst()] = nil }
            memo.order.append(pair)
            memo.patches[pair] = .some(made)
        }
        return made
    }

    static func make(old: [UInt8], new: [UInt8], to: String) -> [UInt8]? {
        let decoder = JSONDecoder()
        guard let before = try? decoder.decode(JSONValue.self, from: Data(old)),
            let after = try? decoder.decode(JSONValue.self, from: Data(new))
        else { return nil }
        let patch = ScreenPatch.between(before, after)
        let text = patch.json.canonicalBytes
        guard text.count * 2 < new.count else { return nil }
        // What the client will do, done here first: a patch that would not verify is never sent.
        guard let result = try? patch.applied(to: before), EntityTag.strong(for: result.canonicalBytes) == to else { return nil }
        return text
    }
}

/// The versions one stream's client was last told of, by entry, for the next patch; counted in
/// the hub's ``StreamPatches`` and given back when the stream closes.
final class HeldVersions: Sendable {
    private let patches: StreamPatches
    private let versions = Mutex<(bytes: [String: [UInt8]], closed: Bool)>(([:], false))

    init(patches: StreamPatches) { self.patches = patches }

    /// The bytes held for `entry`.
    func bytes(for entry: String) -> [UInt8]? { versions.withLock { $0.bytes[entry] } }

    /// Holds `bytes` for `entry` in place of what was held, when the budget allows (otherwise
    /// nothing is held for it, and its next change is announced without a patch).
    func hold(_ bytes: [UInt8]?, for entry: String) {
        let patches = self.patches
        versions.withLock { versions in
            if let previous = versions.bytes.removeValue(forKey: entry) { patches.release(previous.count) }
            guard !versions.closed, let bytes, patches.reserve(bytes.count) else { return }
            versions.bytes[entry] = bytes
        }
    }

    /// Gives back everything held (again is harmless).
    func close() {
        let patches = self.patches
        versions.withLock { versions in
            versions.closed = true
            for bytes in versions.bytes.values { patches.release(bytes.count) }
            versions.bytes = [:]
        }
    }
}

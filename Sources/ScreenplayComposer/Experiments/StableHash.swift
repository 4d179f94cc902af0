/// A hash that gives the same number for the same bytes in every process, on every machine and
/// in every release: what deterministic experiment bucketing needs.
///
/// Swift's `Hasher` is seeded randomly per process, so a user bucketed with it would change
/// variant on every restart and differ between replicas. This is FNV-1a 64 (a simple, published
/// byte hash) followed by the splitmix64 finalizer: FNV-1a alone mixes its last bytes poorly into
/// the high bits, and bucketing reads the high bits; the finalizer spreads every input bit over
/// the whole word. Neither part is cryptographic: users cannot choose their id to pick a variant
/// anyway, and a keyed hash would buy nothing here.
///
/// Both parts are defined by their published constants, so another language (an analytics job,
/// an Android client previewing its variant) can reproduce every bucket exactly.
public enum StableHash {
    /// FNV-1a 64 over `bytes`: offset basis `0xcbf29ce484222325`, prime `0x100000001b3`.
    public static func fnv1a64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The splitmix64 finalizer (Steele, Lea and Flood, 2014): an invertible mix in which every
    /// input bit flips each output bit with probability close to one half.
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The bucketing hash of one user in one experiment: `mix(fnv1a64(key ‖ 0x00 ‖ userID))` over
    /// the UTF-8 bytes. The zero byte keeps `("ab", "c")` apart from `("a", "bc")`; experiment keys
    /// cannot contain it (they are identifiers).
    public static func bucketingHash(experimentKey: String, userID: String) -> UInt64 {
        var bytes = Array(experimentKey.utf8)
        bytes.append(0)
        bytes.append(contentsOf: userID.utf8)
        return mix(fnv1a64(bytes))
    }

    /// Maps a hash onto `0..<count` from its high bits (Lemire's multiply-shift): unlike `hash %
    /// count` it uses the best-mixed bits, and its bias is below `count / 2⁶⁴`.
    public static func point(of hash: UInt64, in count: Int) -> Int {
        precondition(count > 0, "a range of points needs at least one")
        return Int(hash.multipliedFullWidth(by: UInt64(count)).high)
    }
}

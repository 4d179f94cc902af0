/// SHA-256 (FIPS 180-4), in Swift with no C underneath.
///
/// Screenplay hashes bearer tokens (what the store keeps of them) and builds HMAC and scrypt on
/// it. Linking a whole TLS library's C++ for one digest is what made a fresh clone of the demo
/// compile BoringSSL; this file is the digest alone. It is checked against the FIPS examples and
/// RFC vectors in `ScreenplayCryptoTests`.
///
/// Feed bytes with ``update(_:)`` as they come, then ``finalize()`` once; or ``hash(_:)``.
public struct SHA256: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 32
    /// The block the compression function takes, in bytes (HMAC pads its key to this).
    public static let blockByteCount = 64

    private var state: [UInt32] = [0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19]
    /// Bytes of an unfinished block (fewer than 64).
    private var pending: [UInt8] = []
    /// Bytes fed in all.
    private var length: UInt64 = 0

    /// A digest with nothing fed yet.
    public init() { pending.reserveCapacity(Self.blockByteCount) }

    /// The SHA-256 of `bytes`, 32 bytes.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var digest = SHA256()
        digest.update(bytes)
        return digest.finalize()
    }

    /// Feeds `bytes` (any length, any number of calls).
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if fed == nil { update(Array(bytes)) }
    }

    /// Feeds the bytes `buffer` points at.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(Self.blockByteCount - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<taken])
            offset = taken
            guard pending.count == Self.blockByteCount else { return }
            pending.withUnsafeBytes { Self.compress(&state, $0) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= Self.blockByteCount {
            Self.compress(&state, UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + Self.blockByteCount]))
            offset += Self.blockByteCount
        }
        pending.append(contentsOf: buffer[offset...])
    }

    /// The digest of everything fed: 32 bytes. Feeding more afterwards starts nothing new; make
    /// another value.
    public mutating func finalize() -> [UInt8] {
        var tail = pending
        tail.append(0x80)
        while tail.count % Self.blockByteCount != 56 { tail.append(0) }
        let bits = length &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { all in
            for start in stride(from: 0, to: all.count, by: Self.blockByteCount) {
                Self.compress(&state, UnsafeRawBufferPointer(rebasing: all[start..<start + Self.blockByteCount]))
            }
        }
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.byteCount)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The compression function on one 64-byte block.
    private static func compress(_ state: inout [UInt32], _ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for t in 0..<16 {
                w[t] = UInt32(block[4 * t]) &<< 24 | UInt32(block[4 * t + 1]) &<< 16 | UInt32(block[4 * t + 2]) &<< 8 | UInt32(block[4 * t + 3])
            }
            for t in 16..<64 {
                let x = w[t - 15], y = w[t - 2]
                let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            for t in 0..<64 {
                let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ roundConstants[t] &+ w[t]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                h = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ t2
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
            state[5] &+= f
            state[6] &+= g
            state[7] &+= h
        }
    }

    @inline(__always) private static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value &>> count) | (value &<< (32 &- count))
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

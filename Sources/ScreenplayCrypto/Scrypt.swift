/// scrypt (RFC 7914): the memory-hard key derivation the admin stores passwords with.
///
/// Its cost is memory as much as time (128 · r · N bytes), which is what makes a stolen hash
/// expensive to guess on parallel hardware. The inner loop (Salsa20/8 over 64-byte blocks) works
/// on plain words through pointers, so even a debug build hashes a login in well under a second.
public enum Scrypt {
    /// Parameters scrypt cannot run with.
    public struct InvalidParameters: Error, Equatable, CustomStringConvertible {
        /// What is wrong, naming the parameter.
        public let description: String
    }

    /// `length` bytes derived from `password` and `salt`, with CPU/memory cost `cost` (N, a power
    /// of two above 1), block size `blockSize` (r) and parallelism `parallelism` (p).
    public static func deriveKey(
        password: some Sequence<UInt8>, salt: [UInt8], cost: Int, blockSize: Int, parallelism: Int, length: Int
    ) throws(InvalidParameters) -> [UInt8] {
        guard cost > 1, cost & (cost - 1) == 0 else { throw InvalidParameters(description: "cost (N) must be a power of two above 1, not \(cost)") }
        guard blockSize >= 1, parallelism >= 1, blockSize * parallelism < 1 << 30 else {
            throw InvalidParameters(description: "block size (r) and parallelism (p) must be at least 1, with r · p below 2^30")
        }
        guard cost < 1 << min(62, 16 * blockSize), cost <= Int.max / (128 * blockSize) else {
            throw InvalidParameters(description: "cost (N) \(cost) is too large for block size (r) \(blockSize)")
        }
        guard length >= 1 else { throw InvalidParameters(description: "the key length must be at least 1 byte") }
        let password = Array(password)
        let blockBytes = 128 * blockSize
        var mixed = PBKDF2.deriveKey(password: password, salt: salt, iterations: 1, length: parallelism * blockBytes)
        let words = 32 * blockSize
        // X, the scratch BlockMix writes into, and V (N blocks): allocated once for every lane.
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: 3 * words)
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: cost * words)
        defer {
            scratch.deallocate()
            table.deallocate()
        }
        for lane in 0..<parallelism {
            mixed.withUnsafeMutableBytes { bytes in
                let block = UnsafeMutableRawBufferPointer(rebasing: bytes[lane * blockBytes..<(lane + 1) * blockBytes])
                romix(block, blockSize: blockSize, cost: cost, x: scratch, table: table)
            }
        }
        return PBKDF2.deriveKey(password: password, salt: mixed, iterations: 1, length: length)
    }

    /// ROMix on one lane's 128 · r bytes, in place.
    private static func romix(
        _ block: UnsafeMutableRawBufferPointer, blockSize r: Int, cost: Int, x: UnsafeMutablePointer<UInt32>, table: UnsafeMutablePointer<UInt32>
    ) {
        let words = 32 * r
        let y = x + words
        let t = y + words
        for index in 0..<words { x[index] = block.load(fromByteOffset: 4 * index, as: UInt32.self).littleEndian }
        for step in 0..<cost {
            (table + step * words).update(from: x, count: words)
            blockMix(x, into: y, scratch: t, r: r)
            x.update(from: y, count: words)
        }
        let mask = UInt32(truncatingIfNeeded: cost - 1)
        for _ in 0..<cost {
            let j = Int(x[(2 * r - 1) * 16] & mask)
            let v = table + j * words
            for index in 0..<words { x[index] ^= v[index] }
            blockMix(x, into: y, scratch: t, r: r)
            x.update(from: y, count: words)
        }
        for index in 0..<words { block.storeBytes(of: x[index].littleEndian, toByteOffset: 4 * index, as: UInt32.self) }
    }

    /// BlockMix with Salsa20/8: `input`'s 2r blocks of 16 words into `output`, even blocks first.
    private static func blockMix(_ input: UnsafeMutablePointer<UInt32>, into output: UnsafeMutablePointer<UInt32>, scratch: UnsafeMutablePointer<UInt32>, r: Int) {
        scratch.update(from: input + (2 * r - 1) * 16, count: 16)
        for index in 0..<2 * r {
            let b = input + index * 16
            for word in 0..<16 { scratch[word] ^= b[word] }
            salsa20_8(scratch)
            // Y_i goes to position i/2 when i is even, r + i/2 when odd.
            (output + ((index & 1) * r + index / 2) * 16).update(from: scratch, count: 16)
        }
    }

    /// The Salsa20/8 core on 16 words, in place: B = B + Salsa20/8(B).
    static func salsa20_8(_ b: UnsafeMutablePointer<UInt32>) {
        var x0 = b[0], x1 = b[1], x2 = b[2], x3 = b[3], x4 = b[4], x5 = b[5], x6 = b[6], x7 = b[7]
        var x8 = b[8], x9 = b[9], x10 = b[10], x11 = b[11], x12 = b[12], x13 = b[13], x14 = b[14], x15 = b[15]
        for _ in 0..<4 {
            // Columns.
            var s = x0 &+ x12; x4 ^= s &<< 7 | s &>> 25
            s = x4 &+ x0; x8 ^= s &<< 9 | s &>> 23
            s = x8 &+ x4; x12 ^= s &<< 13 | s &>> 19
            s = x12 &+ x8; x0 ^= s &<< 18 | s &>> 14
            s = x5 &+ x1; x9 ^= s &<< 7 | s &>> 25
            s = x9 &+ x5; x13 ^= s &<< 9 | s &>> 23
            s = x13 &+ x9; x1 ^= s &<< 13 | s &>> 19
            s = x1 &+ x13; x5 ^= s &<< 18 | s &>> 14
            s = x10 &+ x6; x14 ^= s &<< 7 | s &>> 25
            s = x14 &+ x10; x2 ^= s &<< 9 | s &>> 23
            s = x2 &+ x14; x6 ^= s &<< 13 | s &>> 19
            s = x6 &+ x2; x10 ^= s &<< 18 | s &>> 14
            s = x15 &+ x11; x3 ^= s &<< 7 | s &>> 25
            s = x3 &+ x15; x7 ^= s &<< 9 | s &>> 23
            s = x7 &+ x3; x11 ^= s &<< 13 | s &>> 19
            s = x11 &+ x7; x15 ^= s &<< 18 | s &>> 14
            // Rows.
            s = x0 &+ x3; x1 ^= s &<< 7 | s &>> 25
            s = x1 &+ x0; x2 ^= s &<< 9 | s &>> 23
            s = x2 &+ x1; x3 ^= s &<< 13 | s &>> 19
            s = x3 &+ x2; x0 ^= s &<< 18 | s &>> 14
            s = x5 &+ x4; x6 ^= s &<< 7 | s &>> 25
            s = x6 &+ x5; x7 ^= s &<< 9 | s &>> 23
            s = x7 &+ x6; x4 ^= s &<< 13 | s &>> 19
            s = x4 &+ x7; x5 ^= s &<< 18 | s &>> 14
            s = x10 &+ x9; x11 ^= s &<< 7 | s &>> 25
            s = x11 &+ x10; x8 ^= s &<< 9 | s &>> 23
            s = x8 &+ x11; x9 ^= s &<< 13 | s &>> 19
            s = x9 &+ x8; x10 ^= s &<< 18 | s &>> 14
            s = x15 &+ x14; x12 ^= s &<< 7 | s &>> 25
            s = x12 &+ x15; x13 ^= s &<< 9 | s &>> 23
            s = x13 &+ x12; x14 ^= s &<< 13 | s &>> 19
            s = x14 &+ x13; x15 ^= s &<< 18 | s &>> 14
        }
        b[0] &+= x0; b[1] &+= x1; b[2] &+= x2; b[3] &+= x3; b[4] &+= x4; b[5] &+= x5; b[6] &+= x6; b[7] &+= x7
        b[8] &+= x8; b[9] &+= x9; b[10] &+= x10; b[11] &+= x11; b[12] &+= x12; b[13] &+= x13; b[14] &+= x14; b[15] &+= x15
    }
}

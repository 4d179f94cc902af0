/// PBKDF2 with HMAC-SHA256 (RFC 8018): scrypt stretches its input and output with one iteration
/// of it. Public for the same reason as the rest of this module: one implementation, tested once.
public enum PBKDF2 {
    /// `length` bytes derived from `password` and `salt` with `iterations` rounds.
    public static func deriveKey(password: some Sequence<UInt8>, salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations >= 1 && length >= 0, "PBKDF2 needs at least one iteration and a length")
        let prf = HMACSHA256(key: password)
        var key: [UInt8] = []
        key.reserveCapacity(length)
        var index: UInt32 = 1
        var message = salt + [0, 0, 0, 0]
        while key.count < length {
            message[salt.count] = UInt8(truncatingIfNeeded: index >> 24)
            message[salt.count + 1] = UInt8(truncatingIfNeeded: index >> 16)
            message[salt.count + 2] = UInt8(truncatingIfNeeded: index >> 8)
            message[salt.count + 3] = UInt8(truncatingIfNeeded: index)
            var u = prf.authenticationCode(for: message)
            var block = u
            for _ in 1..<iterations {
                u = prf.authenticationCode(for: u)
                for position in block.indices { block[position] ^= u[position] }
            }
            key += block.prefix(length - key.count)
            index &+= 1
        }
        return key
    }
}

import ScreenplayCrypto

/// Bearer secrets (user tokens, admin API tokens, admin sessions): 256 random bits as 64
/// lowercase hex digits, stored only as their SHA-256, so a copy of the database opens nothing.
public enum SecretToken {
    /// A new token from the system's secure random source.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Whether `token` has the shape ``make()`` gives: anything else is refused before a lookup.
    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64
            && token.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// The SHA-256 of `token` in lowercase hex: what is stored and looked up.
    public static func digest(_ token: String) -> String {
        // Hex by table into one buffer: user tokens are hashed on every first lookup.
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(token.utf8) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

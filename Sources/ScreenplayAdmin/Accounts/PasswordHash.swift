import Foundation
import ScreenplayCrypto

/// Salted, slow, memory-hard password hashes (scrypt), stored with their parameters:
/// `scrypt$N$r$p$<salt base64>$<key base64>`. A database copy gives an attacker one expensive
/// guess per hash per try, and raising the cost later needs no migration: each hash says how it
/// was made.
public struct PasswordHasher: Sendable, Hashable {
    /// scrypt's CPU/memory cost, N (a power of two).
    public var cost: Int
    /// scrypt's block size, r.
    public var blockSize: Int
    /// scrypt's parallelism, p.
    public var parallelism: Int

    /// N = 2^15, r = 8, p = 1: 32 MiB and tens of milliseconds a hash (OWASP's minimum is 2^17 with
    /// r = 8 for scrypt; this is the interactive-login trade-off, raise it where logins are rare).
    public static let standard = PasswordHasher(cost: 1 << 15, blockSize: 8, parallelism: 1)
    /// Cheap enough for tests, never for production.
    public static let fastForTests = PasswordHasher(cost: 1 << 4, blockSize: 8, parallelism: 1)

    /// A hasher with these parameters.
    public init(cost: Int, blockSize: Int, parallelism: Int) {
        self.cost = cost
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The stored form of `password`, with a fresh 16-byte salt.
    public func hash(_ password: String) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = generator.next() }
        let key = try Self.derive(password, salt: salt, cost: cost, blockSize: blockSize, parallelism: parallelism)
        return "scrypt$\(cost)$\(blockSize)$\(parallelism)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// Whether `password` is the one `stored` was made from (comparison in constant time). A
    /// malformed stored hash never matches.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let cost = Int(parts[1]), let blockSize = Int(parts[2]),
            let parallelism = Int(parts[3]), (2...(1 << 20)).contains(cost), (1...32).contains(blockSize), (1...16).contains(parallelism),
            let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5])), expected.count == 32,
            let key = try? derive(password, salt: Array(salt), cost: cost, blockSize: blockSize, parallelism: parallelism)
        else { return false }
        return ConstantTime.equal(key, Array(expected))
    }

    static func derive(_ password: String, salt: [UInt8], cost: Int, blockSize: Int, parallelism: Int) throws -> [UInt8] {
        try Scrypt.deriveKey(password: password.utf8, salt: salt, cost: cost, blockSize: blockSize, parallelism: parallelism, length: 32)
    }
}

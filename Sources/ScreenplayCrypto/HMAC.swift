/// HMAC-SHA256 (RFC 2104): the server signs device cookies with it, and scrypt's PBKDF2 is built
/// on it.
///
/// The key is absorbed once into the inner and outer digests; each ``authenticationCode(for:)``
/// copies them, so one keyed value signs many messages (PBKDF2 makes thousands) cheaply.
public struct HMACSHA256: Sendable {
    private var inner = SHA256()
    private var outer = SHA256()

    /// A signer with `key` (any length: a key longer than a block is hashed first, as RFC 2104 says).
    public init(key: some Sequence<UInt8>) {
        var block = Array(key)
        if block.count > SHA256.blockByteCount { block = SHA256.hash(block) }
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        inner.update(block.map { $0 ^ 0x36 })
        outer.update(block.map { $0 ^ 0x5c })
    }

    /// The 32-byte code of `message` under this key.
    public func authenticationCode(for message: some Sequence<UInt8>) -> [UInt8] {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The 32-byte code of `message` under `key`.
    public static func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        HMACSHA256(key: key).authenticationCode(for: message)
    }
}

/// Comparisons whose time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte whatever the first difference (the
    /// lengths are not secret: unequal lengths answer at once).
    public static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }
}

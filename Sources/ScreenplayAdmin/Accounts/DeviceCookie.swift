import ScreenplayCrypto
import Foundation
import ScreenplayStore

/// A browser's proof that it signed in to one admin account before: OWASP's device cookie
/// ("Slow Brute Force Protection using Device Cookies").
///
/// Issued after every successful sign-in and sent back with the next sign-in form. An attempt that
/// presents a sound one for the account it names is judged by that browser's own failures, not by
/// the account-wide limit that failures from everywhere else run down: someone guessing `ada`'s
/// password from thirty addresses slows every untrusted browser for `ada`, never the browser `ada`
/// signed in from yesterday.
///
/// The value is `v1:NAME:ISSUED:NONCE:MAC`: the account's name, when it was issued (Unix seconds),
/// 128 random bits in hex, and an HMAC-SHA256 over the rest with the server's secret
/// (``ServerSecret``, kept in the store so every replica accepts what any replica issued). Nothing
/// in it is secret; it cannot be forged or moved to another account without the server's key. Names
/// hold no `:` (admin names are `a-z 0-9 . _ -`), so the parts split unambiguously.
public struct DeviceCookie: Sendable, Hashable {
    /// The account it was issued for.
    public let account: String
    /// When it was issued (Unix seconds): a cookie older than its lifetime trusts nothing.
    public let issuedAt: Int64
    /// 32 lowercase hex digits, unique per issue: what the device's own failures are counted under.
    public let nonce: String

    /// The cookie's name in the browser for `account`'s device cookie
    /// (`screenplay_admin_device_ada`): one per account, so a browser two admins share keeps
    /// both trusted. `nil` for a name no admin can have (nothing to look up, nothing to set).
    public static func cookieName(for account: String) -> String? {
        guard (1...64).contains(account.utf8.count), account.utf8.allSatisfy({ AdminDirectory.nameBytes.contains($0) }) else {
            return nil
        }
        return "screenplay_admin_device_" + account
    }
    /// The longest value read: anything longer is not one of ours, and is not hashed.
    static let maximumLength = 256

    /// A new cookie for `account`, issued `now`.
    init(account: String, issuedAt: Int64, nonce: String = DeviceCookie.newNonce()) {
        self.account = account
        self.issuedAt = issuedAt
        self.nonce = nonce
    }

    /// The cookie's value, signed with `key`.
    func value(signedWith key: [UInt8]) -> String {
        let payload = Self.payload(account: account, issuedAt: issuedAt, nonce: nonce)
        return payload + ":" + Self.mac(payload, key: key)
    }

    /// The cookie `value` carries when it is ours, unaltered (its MAC checks with `key`, compared
    /// in constant time), names `account` and was issued within `lifetime` of `now`; `nil` for
    /// anything else (another account's, a forged or mangled one, an expired one).
    static func verified(_ value: String, for account: String, key: [UInt8], lifetime: Duration, now: Date = Date()) -> DeviceCookie? {
        guard value.utf8.count <= maximumLength else { return nil }
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "v1", parts[1] == account, let issued = Int64(parts[2]),
            parts[3].utf8.count == 32, parts[3].utf8.allSatisfy(isHexDigit), parts[4].utf8.count == 64
        else { return nil }
        let payload = parts[0..<4].joined(separator: ":")
        guard ConstantTime.equal(Array(mac(payload, key: key).utf8), Array(parts[4].utf8)) else { return nil }
        let age = Int64(now.timeIntervalSince1970) - issued
        guard age >= -300, age <= lifetime.components.seconds else { return nil }
        return DeviceCookie(account: account, issuedAt: issued, nonce: String(parts[3]))
    }

    static func payload(account: String, issuedAt: Int64, nonce: String) -> String { "v1:\(account):\(issuedAt):\(nonce)" }

    static func mac(_ payload: String, key: [UInt8]) -> String {
        HMACSHA256.authenticationCode(for: payload.utf8, key: key).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func newNonce() -> String { String(SecretToken.make().prefix(32)) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

}

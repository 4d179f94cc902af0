import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who a connection counts against for the per-address cap: an IPv4 address, or the /64 prefix
/// of an IPv6 one (a single host is usually handed a whole /64, so counting each of its
/// addresses apart would let one client open as many connections as it has addresses).
/// An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) counts as the IPv4 address.
struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address, or the prefix, as the log shows it (`127.0.0.1`, `2001:db8:1:2::/64`).
    let description: String

    /// The key for `address`; `nil` for a peer with no IP address (a Unix socket), which no cap
    /// applies to: it is a local process, not a client on the network.
    init?(_ address: SocketAddress?) {
        guard let address else { return nil }
        switch address {
        case .v4:
            guard let text = address.ipAddress else { return nil }
            description = text
        case .v6:
            var bytes = [UInt8](repeating: 0, count: 16)
            guard let text = address.ipAddress, inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                description = bytes[12..<16].map(String.init).joined(separator: ".")
            } else {
                let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                description = groups.joined(separator: ":") + "::/64"
            }
        case .unixDomainSocket:
            return nil
        }
    }
}

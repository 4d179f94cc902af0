import Logging
import NIOCore
import Testing

@testable import ScreenplayHummingbird

/// Counting connections per address.
@Suite("Connections per address")
struct ConnectionsPerAddressTests {
    @Test("an address gets its places and no more; a place given back is taken again; other addresses are counted apart")
    func counts() throws {
        let counts = ConnectionsPerAddress(limit: 2, logger: .init(label: "test"))
        let one = try #require(PeerAddress(try .init(ipAddress: "192.0.2.1", port: 1)))
        let other = try #require(PeerAddress(try .init(ipAddress: "192.0.2.2", port: 1)))
        #expect(counts.admit(one) && counts.admit(one))
        #expect(!counts.admit(one), "the third is refused")
        #expect(counts.admit(other))
        #expect(counts.openConnections(from: one) == 2, "a refusal holds no place")
        counts.release(one)
        #expect(counts.admit(one))
        counts.release(one)
        counts.release(one)
        #expect(counts.openConnections(from: one) == 0)
    }

    @Test("IPv6 addresses count by their /64; IPv4 written as IPv6 counts as IPv4; a Unix socket counts for nobody")
    func keys() throws {
        let a = try #require(PeerAddress(try .init(ipAddress: "2001:db8:1:2::1", port: 1)))
        let b = try #require(PeerAddress(try .init(ipAddress: "2001:db8:1:2:ffff::9", port: 1)))
        let c = try #require(PeerAddress(try .init(ipAddress: "2001:db8:1:3::1", port: 1)))
        #expect(a == b && a != c)
        #expect(a.description == "2001:db8:1:2::/64")
        let mapped = try #require(PeerAddress(try .init(ipAddress: "::ffff:192.0.2.7", port: 1)))
        #expect(mapped == PeerAddress(try .init(ipAddress: "192.0.2.7", port: 1)))
        #expect(PeerAddress(try .init(unixDomainSocketPath: "/tmp/x.sock")) == nil)
    }
}

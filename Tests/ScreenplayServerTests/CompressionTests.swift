import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayTestSupport
import Testing

@testable import ScreenplayServer

@Suite("Compression and HEAD")
struct CompressionTests {
    /// A service with a screen well over the gzip threshold and one well under it.
    static func makeService() -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("big", revision: { _ in "r1" }, sharing: .everyone) { _ in
            Screen(id: "big", title: "Big") {
                Section("s") { for index in 0..<200 { Text("Row \(index) of a long list of works by a composer") } }
            }
        }
        routes.screen("small", revision: { _ in "r1" }, sharing: .everyone) { _ in
            Screen(id: "small", title: "S") { Section("s") { Text("x") } }
        }
        return ScreenplayService(routes: routes, identity: CountingIdentities())
    }

    @Test("gzip round-trips, is smaller, and refuses truncated, corrupt and over-limit input")
    func gzipRoundTrip() throws {
        let text = Array(String(repeating: "Symphony No. 9 in D minor, Op. 125. ", count: 400).utf8)
        let packed = try #require(Gzip.compress(text))
        #expect(packed.count < text.count / 10)
        #expect(packed.prefix(2) == [0x1F, 0x8B], "a gzip member, not a zlib stream")
        #expect(Gzip.decompress(packed) == text)
        #expect(Gzip.decompress(Array(packed.dropLast(9))) == nil, "truncated")
        var corrupt = packed
        corrupt[corrupt.count / 2] ^= 0xFF
        #expect(Gzip.decompress(corrupt) != text)
        #expect(Gzip.decompress(packed, limit: 1_000) == nil, "a bomb stops at the limit")
        #expect(Gzip.decompress(packed + [1, 2, 3]) == nil, "trailing garbage")
        // Random bytes do not shrink: no gzip form is kept for them.
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(Gzip.compress(noise) == nil)
    }

    @Test(
        "Accept-Encoding negotiation",
        arguments: [
            (nil, false), ("gzip", true), ("GZIP", true), ("deflate, gzip;q=0.5", true), ("gzip;q=0", false), ("gzip; q=0.000", false),
            ("x-gzip", true), ("*", true), ("*;q=0", false), ("br", false), ("identity", false), ("*, gzip;q=0", false),
            ("gzip;q=0, *", false), ("", false), ("gzip;q=1.0, br;q=0.9", true),
        ] as [(String?, Bool)])
    func negotiation(header: String?, accepted: Bool) {
        #expect(ContentCoding.acceptsGzip(header) == accepted, "Accept-Encoding: \(header ?? "(none)")")
    }

    @Test("a screen is sent gzipped when asked, from bytes compressed once; the gzip form has its own ETag")
    func gzippedScreen() async throws {
        let service = Self.makeService()
        let plain = await service.respond(to: request(.get, "/api/v4/screens/big"), body: [])
        #expect(plain.head.headerFields[.contentEncoding] == nil, "no Accept-Encoding, no gzip")
        #expect(plain.head.headerFields[.vary]?.contains("Accept-Encoding") == true)
        let packed = await service.respond(to: request(.get, "/api/v4/screens/big", headers: [.acceptEncoding: "gzip, br"]), body: [])
        #expect(packed.head.headerFields[.contentEncoding] == "gzip")
        #expect(packed.body.count * 5 < plain.body.count, "\(packed.body.count) gzipped vs \(plain.body.count)")
        #expect(Gzip.decompress(packed.body) == plain.body)
        let plainTag = try #require(plain.head.headerFields[.eTag])
        let packedTag = try #require(packed.head.headerFields[.eTag])
        #expect(packedTag != plainTag && packedTag == ETag.gzipVariant(of: plainTag))
        // Two requests, one build and one compression: the second is a cache hit with the same bytes.
        let again = await service.respond(to: request(.get, "/api/v4/screens/big", headers: [.acceptEncoding: "gzip"]), body: [])
        #expect(again.body == packed.body)
        let stats = service.cacheStatistics
        #expect(stats.misses == 1 && stats.hits == 2)
        // Both forms, as allocated: at least their bytes, and no more than an allocation's
        // rounding beyond them.
        let both = plain.body.count + packed.body.count
        #expect(stats.bytes >= both && stats.bytes <= both + 256, "the budget counts both forms: \(stats.bytes) for \(both) bytes")
    }

    @Test("either ETag revalidates, whichever encoding the client asks for now")
    func revalidation() async throws {
        let service = Self.makeService()
        let plain = await service.respond(to: request(.get, "/api/v4/screens/big"), body: [])
        let packed = await service.respond(to: request(.get, "/api/v4/screens/big", headers: [.acceptEncoding: "gzip"]), body: [])
        for tag in [plain.head.headerFields[.eTag], packed.head.headerFields[.eTag]].compactMap({ $0 }) {
            for encoding in [nil, "gzip"] as [String?] {
                var headers: HTTPFields = [.ifNoneMatch: tag]
                headers[.acceptEncoding] = encoding
                let answer = await service.respond(to: request(.get, "/api/v4/screens/big", headers: headers), body: [])
                #expect(answer.head.status == .notModified && answer.body.isEmpty, "\(tag) with \(encoding ?? "identity")")
                #expect(answer.head.headerFields[.contentEncoding] == nil)
            }
        }
        let stale = await service.respond(
            to: request(.get, "/api/v4/screens/big", headers: [.ifNoneMatch: "\"sp-0000000000000000-gz\""]), body: [])
        #expect(stale.head.status == .ok)
    }

    @Test("a body's gzip form holds only its compressed bytes, and what a cache counts is what the body holds")
    func gzipHoldsItsOwnSize() throws {
        // 200 KB that compress a hundredfold: zlib's working buffer is as large as the input, so
        // a form that kept it would hold the body twice for what it was counted as.
        let bytes = Array(String(repeating: "{\"title\":\"Cello Suite\",\"row\":1},", count: 6_000).utf8)
        let body = EncodedBody(bytes: bytes)
        let gzipped = try #require(body.gzipped)
        #expect(gzipped.count < bytes.count / 50)
        #expect(gzipped.capacity < bytes.count / 20, "capacity \(gzipped.capacity) for \(gzipped.count) compressed bytes")
        #expect(body.storedSize >= bytes.count + gzipped.count)
        #expect(body.storedSize < bytes.count + bytes.count / 10, "counted \(body.storedSize) for \(bytes.count) bytes and their gzip form")
    }

    @Test("short screens are never gzipped")
    func smallScreens() async {
        let service = Self.makeService()
        let answer = await service.respond(to: request(.get, "/api/v4/screens/small", headers: [.acceptEncoding: "gzip"]), body: [])
        #expect(answer.body.count < Gzip.minimumSize)
        #expect(answer.head.headerFields[.contentEncoding] == nil)
        #expect(answer.head.headerFields[.eTag]?.hasSuffix("-gz\"") == false)
    }

    @Test("HEAD has GET's status and headers, Content-Length included, and no body")
    func head() async throws {
        let service = Self.makeService()
        for encoding in [nil, "gzip"] as [String?] {
            var headers: HTTPFields = [:]
            headers[.acceptEncoding] = encoding
            let get = await service.respond(to: request(.get, "/api/v4/screens/big", headers: headers), body: [])
            let head = await service.respond(to: request(.head, "/api/v4/screens/big", headers: headers), body: [])
            #expect(head.head.status == .ok && head.body.isEmpty)
            #expect(head.head.headerFields[.contentLength] == String(get.body.count))
            #expect(head.head.headerFields[.eTag] == get.head.headerFields[.eTag])
            #expect(head.head.headerFields[.contentEncoding] == get.head.headerFields[.contentEncoding])
        }
        let missing = await service.respond(to: request(.head, "/api/v4/screens/nowhere"), body: [])
        #expect(missing.head.status == .notFound)
    }
}

@Suite("If-None-Match matching")
struct ETagMatchingTests {
    static let tag = "\"sp-0123456789abcdef\""

    @Test(
        "lists, weak tags, spaces, the wildcard and the gzip variant match; near misses do not",
        arguments: [
            ("\"sp-0123456789abcdef\"", true), ("W/\"sp-0123456789abcdef\"", true), ("  \"sp-0123456789abcdef\"\t", true),
            ("\"other\", \"sp-0123456789abcdef\"", true), ("\"other\",\"sp-0123456789abcdef-gz\"", true), ("*", true), (" * ", true),
            ("\"sp-0123456789abcdef-gz\"", true), ("W/\"sp-0123456789abcdef-gz\"", true),
            ("\"sp-0123456789abcdee\"", false), ("\"sp-0123456789abcdef", false), ("sp-0123456789abcdef", false),
            ("\"sp-0123456789abcdef-gz", false), ("\"sp-0123456789abcdef-GZ\"", false), ("\"sp-0123456789abcdef-gzip\"", false),
            ("", false), (",,,", false), ("**", false), ("w/\"sp-0123456789abcdef\"", false),
        ])
    func matching(header: String, expected: Bool) {
        #expect(ETag.matches(ifNoneMatch: header, etag: Self.tag, orGzipVariant: true) == expected)
    }

    @Test("without the gzip variant, only the tag itself (or *) matches")
    func identityOnly() {
        #expect(ETag.matches(ifNoneMatch: Self.tag, etag: Self.tag))
        #expect(!ETag.matches(ifNoneMatch: "\"sp-0123456789abcdef-gz\"", etag: Self.tag))
        #expect(ETag.matches(ifNoneMatch: "*", etag: Self.tag))
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayWeb
import Synchronization
import Testing

/// The browser pages and their command flow, in process: no socket, no framework.
@Suite("Web site: pages and the command flow")
struct WebSiteTests {
    /// Hands out users whose tokens have the 64-character shape the site accepts from cookies.
    final class Identities: IdentityResolver {
        private let next = Mutex(Int64(1))

        static func token(_ id: Int64) -> String { "t" + String(repeating: "0", count: 63 - String(id).count) + String(id) }

        func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
            if let token {
                guard token.hasPrefix("t"), token.count == 64, let id = Int64(token.dropFirst()) else {
                    throw ScreenplayError.invalidToken("unknown")
                }
                return ResolvedIdentity(user: UserIdentity(id: id), issuedToken: nil)
            }
            guard creating else { return ResolvedIdentity(user: .anonymous, issuedToken: nil) }
            let id = next.withLock { value in
                defer { value += 1 }
                return value
            }
            return ResolvedIdentity(user: UserIdentity(id: id), issuedToken: Self.token(id))
        }
    }

    static func site() -> WebSite {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in
            Screen(id: "home", title: "Home", sections: [ScreenSection(id: "a", components: [.text(.init("Hello <world>"))])])
        }
        routes.command("save") { request in .done(.init(message: "Saved “\(request.payload["name"]?.stringValue ?? "")”", refresh: true)) }
        routes.command("ask") { _ in
            .prompt(
                .init(title: "Name?", field: .init(name: "name", maxLength: 20), submitTitle: "Save", submit: .init(url: "commands/save")))
        }
        return WebSite(service: ScreenplayService(routes: routes, identity: Identities()))
    }

    static let cookie = "screenplay_token=" + Identities.token(7)

    static func post(
        _ form: String, headers: HTTPFields = [.cookie: cookie, HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
    ) -> (HTTPRequest, [UInt8]) {
        var fields = headers
        fields[.contentType] = "application/x-www-form-urlencoded"
        return (
            HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1:8080", path: "/web/command", headerFields: fields),
            Array(form.utf8)
        )
    }

    @Test("the home page is HTML for an anonymous reader, with no cookie; other paths are the host's")
    func pages() async throws {
        let site = Self.site()
        let home = try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/"), body: []))
        #expect(home.head.status == .ok)
        #expect(home.head.headerFields[.setCookie] == nil, "reading creates no identity")
        #expect(home.head.headerFields[.contentSecurityPolicy]?.contains("script-src 'none'") == true)
        #expect(String(decoding: home.body, as: UTF8.self).contains("Hello &lt;world&gt;"))
        let missing = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/screens/nope"), body: []))
        #expect(missing.head.status == .notFound)
        #expect(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/assets/x.css"), body: []) == nil)
    }

    @Test("a command's done result redirects back with a notice only the site can issue; a prompt is a page with its form")
    func commandFlow() async throws {
        let site = Self.site()
        let (request, body) = Self.post("url=commands/save&payload=%7B%22name%22%3A%22Mix%22%7D&back=/screens/home")
        let done = try #require(await site.respond(to: request, body: body))
        #expect(done.head.status == .seeOther)
        let location = try #require(done.head.headerFields[.location])
        #expect(location.hasPrefix("/screens/home?notice="))
        let shown = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: location), body: []))
        #expect(String(decoding: shown.body, as: UTF8.self).contains(#"<p class="notice" role="status">Saved"#))
        // A made-up notice shows nothing: the banner speaks only for the site.
        let forged = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/screens/home?notice=Your+account+is+locked"), body: []
            ))
        #expect(!String(decoding: forged.body, as: UTF8.self).contains("role=\"status\""))
        #expect(forged.head.headerFields[HTTPField.Name("X-Frame-Options")!] == "DENY")
        #expect(forged.head.headerFields[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        #expect(forged.head.headerFields[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
        #expect(forged.head.headerFields[HTTPField.Name("Referrer-Policy")!] == "same-origin")
        let (askRequest, askBody) = Self.post("url=commands/ask&payload=%7B%7D&back=/")
        let prompt = try #require(await site.respond(to: askRequest, body: askBody))
        let html = String(decoding: prompt.body, as: UTF8.self)
        #expect(prompt.head.status == .ok && html.contains("<h1>Name?</h1>") && html.contains(#"maxlength="20""#))
    }

    @Test("a page is cached by its screen's ETag and revalidated with a 304; a page with a banner is never stored")
    func pageRevalidation() async throws {
        let site = Self.site()
        func get(_ path: String, _ headers: HTTPFields = [:]) async throws -> WebSite.Response {
            try #require(
                await site.respond(
                    to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: path, headerFields: headers), body: []))
        }
        let first = try await get("/")
        let etag = try #require(first.head.headerFields[.eTag])
        #expect(first.head.headerFields[.cacheControl] == "private, no-cache")
        let second = try await get("/")
        #expect(second.head.headerFields[.eTag] == etag)
        #expect(second.body == first.body)
        let revalidated = try await get("/", [.ifNoneMatch: etag])
        #expect(revalidated.head.status == .notModified)
        #expect(revalidated.body.isEmpty)
        #expect(try await get("/", [.ifNoneMatch: "\"sp-0\""]).head.status == .ok)
        // A confirmation banner belongs to one moment: no ETag, not stored.
        let (post, body) = Self.post("url=commands/save&payload=%7B%7D&back=/")
        let location = try #require(await site.respond(to: post, body: body)?.head.headerFields[.location])
        let withBanner = try await get(location)
        #expect(withBanner.head.headerFields[.eTag] == nil)
        #expect(withBanner.head.headerFields[.cacheControl] == "no-store")
    }

    @Test("a cached page is sent gzipped to browsers that ask, compressed once, revalidated by either tag")
    func gzippedPages() async throws {
        let site = Self.site()
        func get(_ headers: HTTPFields) async throws -> WebSite.Response {
            try #require(
                await site.respond(
                    to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/", headerFields: headers), body: []))
        }
        let plain = try await get([:])
        let packed = try await get([.acceptEncoding: "gzip, deflate, br"])
        #expect(plain.head.headerFields[.contentEncoding] == nil)
        #expect(packed.head.headerFields[.contentEncoding] == "gzip")
        #expect(packed.head.headerFields[.vary] == "Cookie, Accept-Encoding")
        #expect(Gzip.decompress(packed.body) == plain.body)
        #expect(packed.body.count < plain.body.count)
        let packedTag = try #require(packed.head.headerFields[.eTag])
        #expect(packedTag == ETag.gzipVariant(of: try #require(plain.head.headerFields[.eTag])))
        #expect(try await get([.acceptEncoding: "gzip"]).body == packed.body, "the same cached bytes")
        let revalidated = try await get([.ifNoneMatch: packedTag])
        #expect(revalidated.head.status == .notModified && revalidated.head.headerFields[.contentEncoding] == nil)
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let headers: HTTPFields
        let form: String
        let status: HTTPResponse.Status
        let title: String
        var testDescription: String { title + " (\(status.code))" }
    }

    static let refusalCases: [Refusal] = [
        Refusal(
            headers: [.cookie: "screenplay_token=" + String(repeating: "x", count: 64)], form: "url=commands/save&payload=%7B%7D&back=/",
            status: .unauthorized, title: "Session expired"),
        Refusal(
            headers: [.cookie: cookie, HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], form: "url=commands/save&payload=%7B%7D&back=/",
            status: .forbidden, title: "Refused"),
        Refusal(
            headers: [.cookie: cookie, .origin: "https://evil.example"], form: "url=commands/save&payload=%7B%7D&back=/",
            status: .forbidden, title: "Refused"),
        Refusal(headers: [.cookie: cookie], form: "url=screens/home&payload=%7B%7D&back=/", status: .badRequest, title: "Bad request"),
        Refusal(
            headers: [.cookie: cookie], form: "url=commands/save&payload=" + String(repeating: "a", count: 2_000_000),
            status: .contentTooLarge,
            title: "Too large"),
    ]

    @Test(
        "commands are refused without the browser's session, from another site or origin, oversized or malformed", arguments: refusalCases)
    func refusals(_ refusal: Refusal) async throws {
        let (request, body) = Self.post(refusal.form, headers: refusal.headers)
        let answer = try #require(await Self.site().respond(to: request, body: body))
        #expect(answer.head.status == refusal.status)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("<h1>\(refusal.title)</h1>"))
        #expect(
            answer.head.headerFields[.setCookie] == (refusal.status == .unauthorized ? WebSite.expiredCookie : nil),
            "a refused command hands out no identity; a stale cookie is cleared")
    }

    @Test("a browser's first command creates its identity and sets the cookie; the next one reuses it")
    func firstCommand() async throws {
        let site = Self.site()
        let (request, body) = Self.post("url=commands/save&payload=%7B%7D&back=/", headers: [:])
        let answer = try #require(await site.respond(to: request, body: body))
        #expect(answer.head.status == .seeOther)
        let cookie = try #require(answer.head.headerFields[.setCookie])
        #expect(cookie.hasPrefix("screenplay_token=t") && cookie.contains("HttpOnly"))
        let token = String(cookie.split(separator: ";")[0])
        let (again, againBody) = Self.post("url=commands/save&payload=%7B%7D&back=/", headers: [.cookie: token])
        #expect(try #require(await site.respond(to: again, body: againBody)).head.headerFields[.setCookie] == nil)
    }

    @Test("HEAD answers like GET without a body; the host comparison ignores case; a notice goes before the fragment")
    func headOriginAndFragment() async throws {
        let site = Self.site()
        let head = try #require(await site.respond(to: HTTPRequest(method: .head, scheme: "http", authority: "h", path: "/"), body: []))
        #expect(head.head.status == .ok && head.body.isEmpty && head.head.headerFields[.contentType]?.hasPrefix("text/html") == true)
        let get = try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/"), body: []))
        #expect(head.head.headerFields[.contentLength] == String(get.body.count))
        var headers: HTTPFields = [.cookie: Self.cookie, .origin: "http://localhost:8080"]
        headers[.contentType] = "application/x-www-form-urlencoded"
        let request = HTTPRequest(method: .post, scheme: "http", authority: "LOCALHOST:8080", path: "/web/command", headerFields: headers)
        let answer = try #require(
            await site.respond(to: request, body: Array("url=commands/save&payload=%7B%7D&back=/screens/home%23works".utf8)))
        #expect(answer.head.status == .seeOther)
        let location = try #require(answer.head.headerFields[.location])
        #expect(location.hasPrefix("/screens/home?notice=") && location.hasSuffix("#works"))
    }
}

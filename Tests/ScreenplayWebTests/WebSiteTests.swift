import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
@testable import ScreenplayWeb
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
        routes.screen("counter") { _ in
            Screen(
                id: "counter", title: "Counter",
                sections: [
                    ScreenSection(
                        id: "a",
                        components: [
                            Component.text(.init("0")).id("count").computing(.text, "'Count: ' + string(count)"),
                            Component.text(.init("Many")).id("many").computing(.visible, "count > 2"),
                            Component.button(.init(title: "Add", action: .set(.init(variable: "count", value: "count + 1")))).id("add"),
                            Component.button(
                                .init(
                                    title: "Save",
                                    action: .sequence(.init([.set(.init(variable: "count", value: "0")), .command(.init(url: "commands/save"))])))
                            ).id("save").computing(.enabled, "count > 0"),
                            Component.listRow(.init(title: "Row")).id("row").computing(.selected, "count == 0"),
                        ])
                ],
                state: ["count": try StateVariable(.int, initial: .int(0), scope: .app)])
        }
        routes.command("save") { request in .done(.init(message: "Saved “\(request.payload["name"]?.stringValue ?? "")”", refresh: true)) }
        // As a store's write does: the revision it committed, for the answer.
        routes.command("write") { request in
            RevisionWatermark.record(7, for: request.user)
            return .done(.init())
        }
        routes.command("strict") { request in
            .done(.init(message: "Named “\(try request.text("name", maxLength: 20))”"))
        }
        routes.command("ask") { _ in
            .prompt(
                .init(title: "Name?", field: .init(name: "name", maxLength: 20), submitTitle: "Save", submit: .init(url: "commands/save")))
        }
        routes.command("open", identity: .anonymous) { request in
            guard request.payload["to"]?.stringValue != "nowhere" else { throw ScreenplayError.notFound("nothing there", path: "$.to") }
            return .navigate(.init(url: request.user.isAnonymous ? "screens/anonymous" : "screens/user/\(request.user.id)"))
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
        // The site's own script, and nothing else: no inline script, no other origin.
        #expect(home.head.headerFields[.contentSecurityPolicy]?.contains("script-src 'self';") == true)
        #expect(String(decoding: home.body, as: UTF8.self).contains(#"<script type="module" src="/web/site.js?v="#))
        #expect(String(decoding: home.body, as: UTF8.self).contains("Hello &lt;world&gt;"))
        let missing = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/screens/nope"), body: []))
        #expect(missing.head.status == .notFound)
        #expect(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/assets/x.css"), body: []) == nil)
    }

    @Test("the site routes by its table: pages at any depth, HEAD as GET without a body, the command path for POST only; the rest is the host's")
    func routesByTable() async throws {
        let site = Self.site()
        let operations = site.routes.routes.map { "\($0.method) \($0.path)" }
        #expect(operations.contains("GET screens/*path") && operations.contains("POST web/command") && operations.contains("GET web/events"))
        func get(_ path: String, _ method: HTTPRequest.Method = .get) async -> WebSite.Response? {
            await site.respond(to: HTTPRequest(method: method, scheme: "http", authority: "h", path: path), body: [])
        }
        let home = try #require(await get("/"))
        let head = try #require(await get("/", .head))
        #expect(head.head.status == home.head.status && head.body.isEmpty && head.head.headerFields[.contentLength] == String(home.body.count))
        #expect(await get("/screens/nope/deeper/still")?.head.status == .notFound, "a screen path at any depth is the site's page (its 404)")
        #expect(await get("/web/command") == nil, "GET on the command path is not the site's")
        #expect(await get("/", .post) == nil)
        #expect(await get("/screens/x", .delete) == nil)
        #expect(await get("/web/events") == nil, "the stream is the host's streaming route")
        #expect(await get("/web/icon.svg")?.head.headerFields[.contentType] == "image/svg+xml")
        #expect(await get("/web/results/none")?.head.status == .notFound)
    }

    @Test("a command's done result redirects back with a notice only the site can issue; a prompt is a page with its form")
    func commandFlow() async throws {
        let site = Self.site()
        let (request, body) = Self.post("url=commands/save&payload=%7B%22name%22%3A%22Mix%22%7D&back=/screens/home")
        let done = try #require(await site.respond(to: request, body: body))
        #expect(done.head.status == .seeOther)
        let location = try #require(done.head.headerFields[.location])
        #expect(location.hasPrefix("/screens/home?notice="))
        // Another browser (here: none) sees no banner, and does not use it up.
        let otherBrowser = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: location), body: []))
        #expect(!String(decoding: otherBrowser.body, as: UTF8.self).contains(#"<p class="notice""#))
        let shown = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: location, headerFields: [.cookie: Self.cookie]), body: []))
        #expect(String(decoding: shown.body, as: UTF8.self).contains(#"<p class="notice" role="status" data-notice="confirmation" style="--sp-toast:4000ms">Saved"#))
        // Shown once: the same URL again (Back, a reload) has no banner.
        let again = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: location, headerFields: [.cookie: Self.cookie]), body: []))
        #expect(!String(decoding: again.body, as: UTF8.self).contains(#"<p class="notice""#))
        // A made-up notice shows nothing: the banner speaks only for the site.
        let forged = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/screens/home?notice=Your+account+is+locked"), body: []
            ))
        #expect(!String(decoding: forged.body, as: UTF8.self).contains(#"<p class="notice""#))
        #expect(forged.head.headerFields[HTTPField.Name("X-Frame-Options")!] == "DENY")
        #expect(forged.head.headerFields[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
        #expect(forged.head.headerFields[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
        #expect(forged.head.headerFields[HTTPField.Name("Referrer-Policy")!] == "same-origin")
        // A prompt is a page of its own at a GET URL: the post answers with a redirect to it.
        let (askRequest, askBody) = Self.post("url=commands/ask&payload=%7B%7D&back=/")
        let asked = try #require(await site.respond(to: askRequest, body: askBody))
        #expect(asked.head.status == .seeOther)
        let promptPath = try #require(asked.head.headerFields[.location])
        #expect(promptPath.hasPrefix("/web/results/"))
        let prompt = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: promptPath, headerFields: [.cookie: Self.cookie]), body: []))
        let html = String(decoding: prompt.body, as: UTF8.self)
        #expect(prompt.head.status == .ok && html.contains(#"<h1 id="dialog-title">Name?</h1>"#) && html.contains(#"data-limit="20""#))
        // It is this browser's: another one (or none) is told it has expired.
        let stranger = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: promptPath), body: []))
        #expect(stranger.head.status == .notFound && !String(decoding: stranger.body, as: UTF8.self).contains("Name?"))
    }

    @Test("a refused answer to a prompt comes back to it with what was typed and why, by redirect")
    func refusedPrompt() async throws {
        let site = Self.site()
        let (askRequest, askBody) = Self.post("url=commands/ask&payload=%7B%7D&back=/")
        let promptPath = try #require(await site.respond(to: askRequest, body: askBody)?.head.headerFields[.location])
        let dialog = String(promptPath.dropFirst("/web/results/".count))
        let typed = String(repeating: "é", count: 30)
        let (answer, answerBody) = Self.post(
            "url=commands/strict&payload=%7B%7D&back=/&dialog=\(dialog)&field=name&value=" + Fixture.encode(typed))
        let refused = try #require(await site.respond(to: answer, body: answerBody))
        #expect(refused.head.status == .seeOther)
        #expect(refused.head.headerFields[.location] == promptPath)
        let shown = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: promptPath, headerFields: [.cookie: Self.cookie]), body: []))
        let html = String(decoding: shown.body, as: UTF8.self)
        #expect(html.contains("value=\"\(typed)\""), "what was typed is kept")
        #expect(html.contains(#"<p class="field-error" id="prompt-value-error" role="alert">&#39;name&#39; is 30 characters long; the limit is 20</p>"#))
        // A refusal on a screen's own form goes back to the screen, as a banner shown once.
        let (plain, plainBody) = Self.post("url=commands/strict&payload=%7B%7D&back=/")
        let back = try #require(await site.respond(to: plain, body: plainBody)?.head.headerFields[.location])
        #expect(back.hasPrefix("/?notice="))
        let page = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: back, headerFields: [.cookie: Self.cookie]), body: []))
        #expect(String(decoding: page.body, as: UTF8.self).contains(#"<p class="error" role="alert" data-notice="error">missing required field &#39;name&#39;</p>"#))
    }

    /// Every script module `html` loads (its module scripts, and all they import, followed), with
    /// what the site answered for each, and the URLs the page preloads.
    static func scripts(of html: String, from site: WebSite, gzip: Bool = false) async throws -> (
        modules: [String: WebSite.Response], preloaded: Set<String>
    ) {
        func matches(_ pattern: String, in text: String) -> [String] {
            let expression = try! NSRegularExpression(pattern: pattern)
            return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
        var waiting = matches(#"<script type="module" src="([^"]+)""#, in: html)
        var modules: [String: WebSite.Response] = [:]
        while let url = waiting.popLast() {
            guard modules[url] == nil else { continue }
            let fields: HTTPFields = gzip ? [.acceptEncoding: "gzip"] : [:]
            let answer = try #require(
                await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: url, headerFields: fields), body: []))
            modules[url] = answer
            let plain = try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: url), body: []))
            waiting += matches(#"(?:import|from)\s*"([^"]+)""#, in: String(decoding: plain.body, as: UTF8.self))
        }
        return (modules, Set(matches(#"<link rel="modulepreload" href="([^"]+)""#, in: html)))
    }

    @Test("a page whose screen has state (v6) carries its declarations, bindings and set steps, and names the state module; others do not")
    func clientStatePage() async throws {
        let site = Self.site()
        func page(_ path: String) async throws -> String {
            String(decoding: try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: path), body: [])).body, as: UTF8.self)
        }
        let html = try await page("/screens/counter")
        let state = try #require(WebScript.state)
        #expect(html.contains(#"<script type="application/json" id="screen-state" data-screen="counter" data-state-module="\#(state.versionedPath)">{"count":{"initial":0,"scope":"app","type":"int"}}</script>"#))
        // The initial state, rendered: the text computed, `many` kept but hidden, the row current.
        #expect(html.contains(#"data-compute="{&quot;text&quot;:&quot;&#39;Count: &#39; + string(count)&quot;}">Count: 0</span>"#) || html.contains("Count: 0</span>"))
        #expect(html.contains(#"data-node="id:many" data-compute="{&quot;visible&quot;:&quot;count &gt; 2&quot;}" hidden>Many</span>"#))
        #expect(html.contains(#"data-node="id:row""#) && html.contains(#"aria-current="true""#))
        // A set-only control waits for the script; a sequence is its command without it, its set
        // steps in `data-set`, and a control disabled by the state alone is there, disabled.
        #expect(html.contains(#"data-set="[{&quot;value&quot;:&quot;count + 1&quot;,&quot;variable&quot;:&quot;count&quot;}]" data-needs-script hidden"#))
        #expect(html.contains(#"<form method="post" action="/web/command" class="inline" data-set="[{&quot;value&quot;:&quot;0&quot;,&quot;variable&quot;:&quot;count&quot;}]" data-node="id:save""#))
        #expect(html.contains(#"<button type="submit" class="action" disabled><span class="label">Save</span>"#))
        #expect(!(try await page("/")).contains("screen-state"), "a page without state names no state module")

        // What such a page loads on top of every page's script, and that it is served.
        let modules = try #require(WebScript.expressions.map { [state, $0] })
        var raw = 0
        var compressed = 0
        for module in modules {
            let answer = try #require(
                await site.respond(
                    to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: module.versionedPath, headerFields: [.acceptEncoding: "gzip"]),
                    body: []))
            #expect(answer.head.status == .ok)
            compressed += answer.body.count
            raw += module.asset.bytes.count
        }
        #expect(String(decoding: state.asset.bytes, as: UTF8.self).contains("\"" + WebScript.expressions!.versionedPath + "\""))
        print("client state on a page: state.js and expressions.js add \(raw) bytes, \(compressed) gzipped")
    }

    @Test("a listener's page loads at most 20 KB of script in all, every module it imports preloaded, each versioned and kept a year")
    func script() async throws {
        let site = Self.site()
        let home = String(decoding: try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/"), body: [])).body, as: UTF8.self)
        let (modules, preloaded) = try await Self.scripts(of: home, from: site)
        #expect(Set(modules.keys) == [WebScript.site!.versionedPath, WebScript.core!.versionedPath])
        for (url, module) in modules {
            #expect(module.head.status == .ok, "\(url)")
            #expect(module.head.headerFields[.contentType] == "text/javascript; charset=utf-8")
            #expect(module.head.headerFields[.cacheControl] == "public, max-age=31536000, immutable")
        }
        // Everything the entry imports loads beside it, not after it.
        #expect(preloaded == Set(modules.keys).subtracting([WebScript.site!.versionedPath]))
        let total = modules.values.map(\.body.count).reduce(0, +)
        #expect(total <= 20_000, "a listener's script, every module: \(total) bytes")
        // The player is not among them: every page names its module, loaded by the first play.
        let player = try #require(WebScript.player)
        #expect(home.contains(#"data-player-module="\#(player.versionedPath)""#))
        let served = try #require(await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: player.versionedPath), body: []))
        #expect(served.head.status == .ok && served.head.headerFields[.cacheControl] == "public, max-age=31536000, immutable")
        #expect(String(decoding: served.body, as: UTF8.self).contains("export async function play("))
        #expect(!String(decoding: modules[WebScript.site!.versionedPath]!.body, as: UTF8.self).contains("dragstart"), "no editor")
        // What a browser downloads: the compressed modules, held under 7.5 KB together.
        let compressed = try await Self.scripts(of: home, from: site, gzip: true).modules
        #expect(compressed.values.allSatisfy { $0.head.headerFields[.contentEncoding] == "gzip" })
        let gzipped = compressed.values.map(\.body.count).reduce(0, +)
        #expect(gzipped < 7_500, "gzipped: \(gzipped) bytes")
        print("a listener's script on a page without client state: \(total) bytes, \(gzipped) gzipped")
        let etag = try #require(modules[WebScript.core!.versionedPath]?.head.headerFields[.eTag])
        let revalidated = try #require(
            await site.respond(
                to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: "/web/core.js", headerFields: [.ifNoneMatch: etag]),
                body: []))
        #expect(revalidated.head.status == .notModified && revalidated.body.isEmpty)
        // The stylesheet likewise: linked from every page, not repeated in each.
        #expect(!home.contains("<style>"))
        let styleRange = try #require(home.range(of: #"/web/screenplay.css\?v=[0-9a-f-]+"#, options: .regularExpression))
        let style = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "h", path: String(home[styleRange])), body: []))
        #expect(style.head.headerFields[.contentType] == "text/css; charset=utf-8")
        #expect(style.head.headerFields[.cacheControl] == "public, max-age=31536000, immutable")
        #expect(String(decoding: style.body, as: UTF8.self).contains("--sp-accent"))
    }

    @Test("a module is served without whole-line comments, blank lines and indentation, its code as written, its imports versioned")
    func servedScript() throws {
        let sample = """
            // What the module does.
            import { a } from "./core.js";
            const b = 1; // a comment after code stays

              // indented too
            const url = "http://example.org//path";
            \tfoo(); //  ok
            """
        let core = ScriptModule(path: "/web/core.js", source: "export const a = 1;\n")
        let module = ScriptModule(path: "/web/site.js", source: sample, dependencies: [core])
        #expect(
            String(decoding: module.asset.bytes, as: UTF8.self)
                == "import { a } from \"\(core.versionedPath)\";\nconst b = 1; // a comment after code stays\nconst url = \"http://example.org//path\";\nfoo(); //  ok\n")
        #expect(module.imports == [core.versionedPath])
        #expect(module.versionedPath.hasPrefix("/web/site.js?v=") && module.versionedPath != core.versionedPath)
        // A new version of what it imports is a new version of the importer.
        let newer = ScriptModule(path: "/web/site.js", source: sample, dependencies: [ScriptModule(path: "/web/core.js", source: "export const a = 2;\n")])
        #expect(newer.versionedPath != module.versionedPath)
        // A template literal spanning lines may hold a line that begins with // or spaces: left whole.
        let literal = "const text = `first\n// not a comment\n  kept`;\n// a comment\n"
        #expect(ScriptModule.served(literal) == literal)
        // The real modules lose bytes, not code: every line served is one of the source's, unindented.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ScreenplayWeb/Script")
        for name in ["core.js", "site.js"] {
            let source = try #require(try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
            let served = ScriptModule.served(source)
            #expect(served.utf8.count < source.utf8.count * 90 / 100, "\(name)")
            let sourceLines = Set(source.split(separator: "\n").map { String($0.drop { $0 == " " }) })
            #expect(served.split(separator: "\n").allSatisfy { sourceLines.contains(String($0)) }, "\(name)")
        }
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
        // Never stored: Back and Forward fetch the page again and show what is true now.
        #expect(first.head.headerFields[.cacheControl] == "no-store")
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
        let withBanner = try await get(location, [.cookie: Self.cookie])
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
        Refusal(headers: [.cookie: cookie], form: "url=screens/home&payload=%7B%7D&back=/", status: .seeOther, title: "Bad form"),
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
        if refusal.status == .seeOther {
            // A form the site cannot read is a user's step gone wrong: back, with why.
            let location = try #require(answer.head.headerFields[.location])
            #expect(location.hasPrefix("/?notice="))
        } else {
            #expect(String(decoding: answer.body, as: UTF8.self).contains("<h1>\(refusal.title)</h1>"))
        }
        #expect(
            !answer.head.headerFields[values: .setCookie].contains { $0.hasPrefix("screenplay_token=t") },
            "a refused command hands out no identity")
        #expect(
            answer.head.headerFields[values: .setCookie].contains(WebSite.expiredCookie) == (refusal.status == .unauthorized),
            "a stale cookie is cleared")
    }

    @Test("a browser's first command creates its identity and sets the cookie; the next one reuses it")
    func firstCommand() async throws {
        let site = Self.site()
        let (request, body) = Self.post("url=commands/save&payload=%7B%7D&back=/", headers: [:])
        let answer = try #require(await site.respond(to: request, body: body))
        #expect(answer.head.status == .seeOther)
        let cookie = try #require(answer.head.headerFields[values: .setCookie].first { $0.hasPrefix("screenplay_token=") })
        #expect(cookie.hasPrefix("screenplay_token=t") && cookie.contains("HttpOnly"))
        let token = String(cookie.split(separator: ";")[0])
        let (again, againBody) = Self.post("url=commands/save&payload=%7B%7D&back=/", headers: [.cookie: token])
        let cookies = try #require(await site.respond(to: again, body: againBody)).head.headerFields[values: .setCookie]
        #expect(!cookies.contains { $0.hasPrefix("screenplay_token=") })
        // Every command changes a cookie, so pages the browser kept from before are fetched again.
        #expect(cookies.contains { $0.hasPrefix("screenplay_change=") })
    }

    @Test("a write's revision goes back as a cookie (after the one a new session clears) and is the floor of the pages read next")
    func revisionCookie() async throws {
        let site = Self.site()
        let (post, body) = Self.post("url=commands/write&payload=%7B%7D&back=/", headers: [:])
        let cookies = try #require(await site.respond(to: post, body: body)).head.headerFields[values: .setCookie]
        let revisions = cookies.filter { $0.hasPrefix("screenplay_revision=") }
        #expect(revisions.count == 2, "\(cookies)")
        #expect(revisions.first?.hasPrefix("screenplay_revision=;") == true, "a new session: the old floor cleared first")
        #expect(revisions.last?.hasPrefix("screenplay_revision=7;") == true, "then this write's revision, which the browser keeps")
        func page(_ cookie: String) -> HTTPRequest {
            HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/", headerFields: [.cookie: cookie])
        }
        #expect(WebSite.revisionFloor(page("screenplay_token=t1; screenplay_revision=7")) == 7)
        #expect(WebSite.revisionFloor(page("screenplay_revision=-1")) == nil)
        #expect(WebSite.revisionFloor(page("screenplay_revision=99999999999999999999")) == nil)
    }

    @Test("a command a reader may send without becoming a user leaves a browser without a session as it was, refused or not")
    func anonymousCommand() async throws {
        let site = Self.site()
        let sameSite: HTTPFields = [HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]
        let (request, body) = Self.post("url=commands/open&payload=%7B%7D&back=/", headers: sameSite)
        let answer = try #require(await site.respond(to: request, body: body))
        #expect(answer.head.status == .seeOther)
        #expect(answer.head.headerFields[.location] == "/screens/anonymous")
        #expect(!answer.head.headerFields[values: .setCookie].contains { $0.hasPrefix("screenplay_token=") })
        let (signedIn, signedInBody) = Self.post("url=commands/open&payload=%7B%7D&back=/")
        #expect(try #require(await site.respond(to: signedIn, body: signedInBody)).head.headerFields[.location] == "/screens/user/7")
        // Refused: back where the form was, with the reason as a banner the same browser can read.
        let (refused, refusedBody) = Self.post("url=commands/open&payload=%7B%22to%22:%22nowhere%22%7D&back=/", headers: sameSite)
        let refusal = try #require(await site.respond(to: refused, body: refusedBody))
        #expect(!refusal.head.headerFields[values: .setCookie].contains { $0.hasPrefix("screenplay_token=") })
        let location = try #require(refusal.head.headerFields[.location])
        #expect(location.hasPrefix("/?notice="))
        let page = try #require(
            await site.respond(to: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8080", path: location), body: []))
        #expect(String(decoding: page.body, as: UTF8.self).contains("nothing there"))
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

import Foundation
public import HTTPTypes
import ScreenplayContract
public import ScreenplayServer

/// The browser side of a Screenplay server, as one piece any host mounts: the same screens the
/// apps get, as HTML, at `/` and `/screens/…`, and the command flow behind their forms (form post
/// → command result → page, the prompt and choice pages, the cross-site checks). Speaks
/// `HTTPTypes` only; `ScreenplayHummingbird`'s `addScreenplayWeb` mounts it on a router.
///
/// Browsers are identified by a cookie. A page view may create an identity (the cookie comes back
/// with the page); a command never does: it must come from one of the site's own pages, in a
/// browser that already has its identity.
public struct WebSite: Sendable {
    /// The server core the pages and commands go to.
    public let service: ScreenplayService
    /// How screens become HTML.
    public var renderer: HTMLRenderer
    /// The confirmations this site issued; only these show as banners.
    let notices = NoticeBook()
    /// Rendered pages by screen ETag.
    let pages: PageCache

    /// A site over `service`; rendered pages are kept up to `pageCacheBytes` (least recently used
    /// go first).
    public init(service: ScreenplayService, renderer: HTMLRenderer = HTMLRenderer(), pageCacheBytes: Int = 16 << 20) {
        self.pages = PageCache(byteBudget: pageCacheBytes, cost: \.storedSize)
        self.service = service
        self.renderer = renderer
    }

    /// An HTML page or a redirect.
    public struct Response: Sendable {
        /// Status and headers.
        public var head: HTTPResponse
        /// The HTML, empty for redirects.
        public var body: [UInt8]
    }

    /// Answers a browser request: a page for `GET /` and `GET /screens/…`, the command flow for
    /// `POST` to the renderer's command path; `nil` for any other request (the host's own).
    public func respond(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> Response? {
        let path = request.path.map { String($0.split(separator: "?", maxSplits: 1).first ?? "") } ?? "/"
        switch request.method {
        case .get, .head:
            let page: Response
            if path == "/" {
                page = await screenPage(path: "home", request: request)
            } else if path.hasPrefix("/screens/") {
                page = await screenPage(path: String(path.dropFirst("/screens/".count)), request: request)
            } else {
                return nil
            }
            // HEAD: the same status and headers (Content-Length included), no body.
            guard request.method == .head else { return page }
            var head = page.head
            head.headerFields[.contentLength] = String(page.body.count)
            return Response(head: head, body: [])
        case .post where path == renderer.links.commandPath:
            return await command(request: request, body: body, clientAddress: clientAddress)
        default:
            return nil
        }
    }

    // MARK: Pages

    func screenPage(path: String, request: HTTPRequest) async -> Response {
        let identity: (UserIdentity, String?)
        do {
            identity = try await identify(request)
        } catch {
            return html(
                renderer.errorPage(title: "Something went wrong", message: error.message, back: "/"), status: error.status, cookie: nil)
        }
        let (user, cookie) = identity
        // Only a notice this site issued shows: a link cannot put its own words in the banner.
        let notice = Self.query(of: request)["notice"].flatMap(notices.message(for:))
        let currentPath = path == "home" ? "/" : "/screens/" + path
        do throws(ScreenplayError) {
            // The web renders the latest kinds, and app-defined kinds through their fallbacks (the
            // service's encoded screen for a client that renders none). From the service's cache,
            // like an app's request; the page itself is cached by the screen's ETag.
            let encoded = try await service.encodedScreen(
                path: path, apiVersion: .latest, user: user, platform: .web, locale: ScreenplayService.locale(in: request.headerFields))
            guard notice == nil else {
                let screen = try Self.decode(encoded)
                return html(renderer.page(for: screen, currentPath: currentPath, notice: notice), cookie: cookie)
            }
            let renderer = self.renderer
            let page: EncodedBody
            do {
                page = try await pages.value(for: PageCacheKey(path: currentPath, screen: encoded)) {
                    EncodedBody(bytes: Array(renderer.page(for: try Self.decode(encoded), currentPath: currentPath).utf8))
                }
            } catch {
                throw (error as? ScreenplayError) ?? .internalError("the page could not be rendered")
            }
            // Compressed once, when the page was cached; sent compressed when the browser asks.
            let sent = page.representation(acceptEncoding: request.headerFields[.acceptEncoding])
            var response = html(sent.bytes, cookie: cookie, revalidated: true)
            response.head.headerFields[.eTag] = sent.etag
            if sent.gzip { response.head.headerFields[.contentEncoding] = "gzip" }
            if let condition = request.headerFields[.ifNoneMatch], page.matches(ifNoneMatch: condition) {
                response.head.status = .notModified
                response.head.headerFields[.contentEncoding] = nil
                response.body = []
            }
            return response
        } catch {
            return html(
                renderer.errorPage(
                    title: error.status == .notFound ? "Not found" : "Something went wrong", message: error.message, back: "/"),
                status: error.status, cookie: cookie)
        }
    }

    // MARK: Commands

    func command(request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> Response {
        if let refusal = crossSiteRefusal(request) { return refusal }
        // A cookie that is not a usable token counts as none, for the limits too: junk cookies
        // must not each get a fresh command budget while the post mints an identity.
        var admitted = request.headerFields
        if Self.sessionToken(admitted) == nil { admitted[.cookie] = nil }
        do {
            try service.admitCommand(from: admitted, clientAddress: clientAddress)
        } catch {
            var refused = html(
                renderer.errorPage(title: "Too many requests", message: error.message, back: "/"), status: error.status, cookie: nil)
            refused.head.headerFields[.retryAfter] = error.retryAfter.map(String.init)
            return refused
        }
        // The first command from a browser creates its identity (reading needs none); a cookie
        // naming nobody (revoked, or from a reset server) is refused, never silently replaced.
        let resolved: ResolvedIdentity
        do {
            resolved = try await service.resolveIdentity(token: Self.sessionToken(request.headerFields), creating: true)
        } catch let error as ScreenplayError where Self.tokenRefusals.contains(error.code) {
            return html(
                renderer.errorPage(
                    title: "Session expired",
                    message: "This browser's Screenplay session is no longer valid; open the page again and retry.", back: "/"),
                status: .unauthorized, cookie: Self.expiredCookie)
        } catch {
            // Anything else (a busy database) says nothing about the cookie: keep it.
            return html(
                renderer.errorPage(title: "Something went wrong", message: "Please try again in a moment.", back: "/"),
                status: .serviceUnavailable, cookie: nil)
        }
        let cookie = resolved.issuedToken.map(Self.sessionCookie)
        let limit = service.configuration.maximumBodySize
        guard body.count <= limit else {
            return html(
                renderer.errorPage(title: "Too large", message: ScreenplayError.payloadTooLarge(limit: limit).message, back: "/"),
                status: .contentTooLarge, cookie: nil)
        }
        let form: WebForm
        do {
            form = try WebForm(urlEncoded: body)
        } catch {
            return html(renderer.errorPage(title: "Bad request", message: error.description, back: "/"), status: .badRequest, cookie: nil)
        }
        let result: CommandResult
        do {
            result = try await service.perform(command: form.commandPath, payload: form.payload, apiVersion: .latest, user: resolved.user)
        } catch {
            return html(
                renderer.errorPage(title: "Could not do that", message: error.message, back: form.back), status: error.status,
                cookie: cookie)
        }
        var response = page(for: result, form: form)
        if let cookie { response.head.headerFields[.setCookie] = cookie }
        return response
    }

    /// What a command's answer looks like in a browser.
    func page(for result: CommandResult, form: WebForm) -> Response {
        switch result.outcome {
        case .done(let done):
            var location = form.back
            if let message = done.message {
                let encoded = notices.issue(message)
                // The notice goes in the query, before any fragment.
                let fragment = location.firstIndex(of: "#").map { String(location[$0...]) } ?? ""
                location = String(location.prefix { $0 != "#" })
                location += (location.contains("?") ? "&" : "?") + "notice=" + encoded + fragment
            }
            return redirect(to: location)
        case .navigate(let navigate):
            return redirect(to: renderer.links.href(navigate.url) ?? form.back)
        case .screen(let screen):
            return html(renderer.page(for: screen, currentPath: form.back), cookie: nil)
        case .prompt(let prompt):
            return html(renderer.page(for: prompt, back: form.back), cookie: nil)
        case .choice(let choice):
            return html(renderer.page(for: choice, back: form.back), cookie: nil)
        case .error(let failure):
            return html(
                renderer.errorPage(title: "Could not do that", message: failure.message, back: form.back), status: .unprocessableContent,
                cookie: nil)
        case .unknown(let type, _):
            return html(
                renderer.errorPage(title: "Could not do that", message: "unexpected answer '\(type)'", back: form.back),
                status: .internalServerError, cookie: nil)
        }
    }

    /// A 403 for requests a browser marks as coming from another site (`Sec-Fetch-Site`), or
    /// whose `Origin` is not this host.
    func crossSiteRefusal(_ request: HTTPRequest) -> Response? {
        let refused = html(
            renderer.errorPage(title: "Refused", message: "commands are accepted only from this site's own pages", back: "/"),
            status: .forbidden, cookie: nil)
        if let site = request.headerFields[Self.fetchSite], !["same-origin", "none"].contains(site.lowercased()) { return refused }
        if let origin = request.headerFields[.origin] {
            let host = (request.authority ?? "").lowercased()
            guard !host.isEmpty, ["http://" + host, "https://" + host].contains(origin.lowercased()) else { return refused }
        }
        return nil
    }

    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// The token the browser's cookie carries, when it has the shape the server issues (a stale
    /// or mangled cookie counts as none).
    static func sessionToken(_ headers: HTTPFields) -> String? {
        guard let token = ScreenplayService.token(in: headers), token.utf8.count == 64 else { return nil }
        return token
    }

    /// The browser's user for a page view: from its cookie, or anonymous (no row, no cookie) for
    /// a browser that has none. A cookie naming nobody (revoked, or from a reset server) reads as
    /// anonymous and is cleared, so the next command starts a fresh identity.
    func identify(_ request: HTTPRequest) async throws(ScreenplayError) -> (UserIdentity, String?) {
        do {
            let resolved = try await service.resolveIdentity(token: Self.sessionToken(request.headerFields), creating: false)
            return (resolved.user, nil)
        } catch let error as ScreenplayError where Self.tokenRefusals.contains(error.code) {
            return (.anonymous, Self.expiredCookie)
        } catch let error as ScreenplayError {
            throw error
        } catch {
            // A failure that says nothing about the cookie (a busy database) keeps it.
            throw ScreenplayError(status: .serviceUnavailable, code: "unavailable", message: "the server is busy; try again in a moment")
        }
    }

    /// The error codes that mean the cookie itself is no good (and only those clear it).
    static let tokenRefusals: Set<String> = ["unknownToken", "invalidToken"]

    /// The cookie that carries a new identity's token.
    static func sessionCookie(_ token: String) -> String {
        "\(ScreenplayService.tokenCookie)=\(token); Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"
    }

    /// The cookie that clears a stale token (also what a refused command with one answers with).
    public static let expiredCookie = "\(ScreenplayService.tokenCookie)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"

    /// The screen in an encoded body (the latest version; the service built it, so it reads cleanly).
    static func decode(_ encoded: EncodedBody) throws(ScreenplayError) -> Screen {
        do {
            return try ScreenplayDecoder(mode: .lossy, apiVersion: .latest).decode(Screen.self, from: Data(encoded.bytes)).value
        } catch {
            throw .internalError("the page's screen could not be read back: \(error)")
        }
    }

    /// The query of a request target, decoded.
    static func query(of request: HTTPRequest) -> [String: String] {
        guard let path = request.path, let components = URLComponents(string: path) else { return [:] }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] where query[item.name] == nil { query[item.name] = item.value ?? "" }
        return query
    }

    /// An HTML answer with the headers every page carries: no script, no framing by other sites,
    /// no content sniffing, no referrer to other sites.
    func html(_ page: String, status: HTTPResponse.Status = .ok, cookie: String?) -> Response {
        html(Array(page.utf8), status: status, cookie: cookie, revalidated: false)
    }

    /// `revalidated` pages (a screen's page with no banner) may be kept by the browser and
    /// revalidated with their ETag; the others (banners, forms' answers, errors) are never stored.
    func html(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, cookie: String?, revalidated: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: revalidated ? "private, no-cache" : "no-store"]
        if revalidated { headers[.vary] = "Cookie, Accept-Encoding" }
        headers[.contentSecurityPolicy] =
            "default-src 'self'; style-src 'unsafe-inline'; img-src 'self'; media-src 'self'; script-src 'none'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
        headers[ScreenplayService.contentTypeOptions] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        if let cookie { headers[.setCookie] = cookie }
        return Response(head: HTTPResponse(status: status, headerFields: headers), body: bytes)
    }

    func redirect(to location: String) -> Response {
        Response(head: HTTPResponse(status: .seeOther, headerFields: [.location: location]), body: [])
    }
}

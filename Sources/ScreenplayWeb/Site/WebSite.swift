import Foundation
public import HTTPTypes
import ScreenplayContract
public import ScreenplayServer

/// The browser side of a Screenplay server, as one piece any host mounts: the same screens the
/// apps get, as HTML, at `/` and `/screens/…`; the command flow behind their forms; the pages of
/// command results that ask something (`/web/results/…`); and the site's script. Speaks
/// `HTTPTypes` only; `ScreenplayHummingbird`'s `addScreenplayWeb` mounts it on a router.
///
/// **History-safe.** Every page a person can reach with Back is a `GET`: a form post always
/// answers with a redirect (post/redirect/get), a prompt or a choice is a page of its own, a
/// banner is shown once, and pages are never stored by the browser, so Back shows the current
/// state (a heart just flipped is flipped).
///
/// Browsers are identified by a cookie. A page view may create an identity (the cookie comes back
/// with the page); a command never does: it must come from one of the site's own pages, in a
/// browser that already has its identity.
public struct WebSite: Sendable {
    /// Where the site serves its pages' script (with its version); `nil` when not bundled.
    public static var scriptPath: String? { WebScript.site?.versionedPath }

    /// The shared module (fetch a page, morph it in, follow it live), for the modules of other
    /// sites on the same origin to import (the layout admin's editor); `nil` when not bundled.
    public static var sharedScript: ScriptModule? { WebScript.core }

    /// The paths of the site's own files (its scripts, stylesheet and icon), without versions.
    public static var assetPaths: [String] { WebScript.all.map(\.path) + [WebStyle.path, iconPath] }

    /// The paths that are the site's pages, for its script: `"/"` is that path alone, `"/screens/*"`
    /// every path under it.
    public static let pagePaths = ["/", screensPath + "*", resultsPath + "*"]

    /// The server core the pages and commands go to.
    public let service: ScreenplayService
    /// How screens become HTML.
    public var renderer: HTMLRenderer
    /// The banners this site issued; only these show.
    let notices = NoticeBook()
    /// Results kept so they have a URL.
    let results = ResultBook()
    /// Rendered pages by screen ETag.
    let pages: PageCache
    /// The site's routes, what requests are dispatched by (``routeTable(commandPath:bodyLimit:)``).
    let table: RouteTable

    /// What the rendered-page cache holds and has done.
    public var pageCacheStatistics: CacheStatistics { pages.statistics }

    /// A site over `service`; rendered pages are kept up to `pageCacheBytes` (least recently used
    /// go first). The renderer's shell gets the site's script.
    public init(service: ScreenplayService, renderer: HTMLRenderer = HTMLRenderer(), pageCacheBytes: Int = 16 << 20) {
        self.pages = PageCache(byteBudget: pageCacheBytes, cost: \.storedSize)
        self.service = service
        self.renderer = renderer
        if self.renderer.shell.scriptPath == nil, let script = WebScript.site {
            self.renderer.shell.scriptPath = script.versionedPath
            self.renderer.shell.scriptImports = script.imports
        }
        if self.renderer.shell.stylesheetPath == nil { self.renderer.shell.stylesheetPath = WebStyle.versionedPath }
        table = Self.routeTable(commandPath: renderer.links.commandPath, bodyLimit: service.configuration.maximumBodySize)
    }

    /// An HTML page, a redirect or the script.
    public struct Response: Sendable {
        /// Status and headers.
        public var head: HTTPResponse
        /// The body, empty for redirects.
        public var body: [UInt8]
    }

    /// The site's icon (a note on the accent color), so browsers do not ask for a missing one.
    static let iconPath = "/web/icon.svg"
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#7a1fd6"/>\
        <path d="M13 8v11.2a4 4 0 1 0 2 3.4V12l8-2v7.2a4 4 0 1 0 2 3.4V5z" fill="#fff"/></svg>
        """

    /// The path under which result pages live.
    static let resultsPath = "/web/results/"
    /// Where the pages' script sends what it saw happen (``reports(request:body:clientAddress:)``).
    static let reportsPath = "/web/reports"
    /// The path under which screens' pages live (home is `/`).
    static let screensPath = "/screens/"

    /// Answers a browser request: a page for `GET /` and `GET /screens/…`, a kept result for
    /// `GET /web/results/…`, the script, the command flow for `POST` to the renderer's command
    /// path; `nil` for any other request (the host's own).
    public func respond(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> Response? {
        let path = request.path.map { String($0.split(separator: "?", maxSplits: 1).first ?? "") } ?? "/"
        // By the table; a path or method it does not have is the host's (its own routes, or 404).
        guard case .route(let route, let parameters) = table.resolve(request.method, path.split(separator: "/").map(String.init)) else {
            return nil
        }
        let page: Response
        switch route.operation {
        case "webHome": page = await screenPage(path: "home", request: request)
        case "webScreen": page = await screenPage(path: parameters["path"] ?? "", request: request)
        case "webResult": page = await resultPage(id: parameters["id"] ?? "", request: request)
        case "webStyle": page = asset(request, WebStyle.asset, type: "text/css; charset=utf-8")
        case "webIcon":
            page = Response(
                head: HTTPResponse(status: .ok, headerFields: [.contentType: "image/svg+xml", .cacheControl: "public, max-age=86400"]),
                body: Array(Self.icon.utf8))
        case "webCommand": return await command(request: request, body: body, policy: route.policy, clientAddress: clientAddress)
        case "webReports": return await reports(request: request, body: body, policy: route.policy, clientAddress: clientAddress)
        default:
            guard let module = WebScript.all.first(where: { "webScript:" + $0.path == route.operation }) else {
                return nil  // The event stream: the host's streaming route answers it.
            }
            let (head, body) = module.response(to: request)
            page = Response(head: head, body: body)
        }
        // HEAD: the same status and headers (Content-Length included), no body.
        guard request.method == .head else { return page }
        var head = page.head
        head.headerFields[.contentLength] = String(page.body.count)
        return Response(head: head, body: [])
    }

    /// The styled page for a path nothing answers (hosts call it for their own 404s, so a
    /// browser never sees an empty one).
    public func notFound(_ request: HTTPRequest) -> Response {
        let path = request.path.map { String($0.prefix { $0 != "?" }) } ?? "/"
        var response = html(renderer.notFoundPage(path: path), status: .notFound, cookie: nil)
        if request.method == .head { response.body = [] }
        return response
    }

    /// The page for a request the host refused before the site saw it (a body over the limit, or
    /// one that did not arrive in time): the error's status and message, in the site's look.
    public func refused(_ error: ScreenplayError) -> Response {
        html(renderer.errorPage(title: error.status == .contentTooLarge ? "Too large" : "Refused", message: error.message, back: "/"), status: error.status, cookie: nil)
    }

    // MARK: Identity

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

    /// A cookie the page's script may read, set and cleared with the token's: whether this
    /// browser has an identity. It holds no secret (the token stays `HttpOnly`); it is how a tab
    /// learns that a write, in it or in another tab, gave the listener an identity, so its event
    /// stream, opened anonymously, is opened again as the listener's.
    static let listenerCookie = "screenplay_listener=1; Path=/; SameSite=Lax; Max-Age=31536000"
    static let listenerGoneCookie = "screenplay_listener=; Path=/; SameSite=Lax; Max-Age=0"

    /// The `Set-Cookie` fields for `cookie` (a new token's, or the stale token's clearing): it,
    /// and the listener cookie beside it (``listenerCookie``).
    static func cookieFields(_ cookie: String?) -> [HTTPField] {
        guard let cookie else { return [] }
        let marker = cookie == expiredCookie ? listenerGoneCookie : listenerCookie
        // Another identity (or none): the revision the last one's writes reached is not its floor.
        return [
            HTTPField(name: .setCookie, value: cookie), HTTPField(name: .setCookie, value: marker),
            HTTPField(name: .setCookie, value: revisionGoneCookie),
        ]
    }

    // MARK: Answers

    /// The query of a request target, decoded.
    /// Decoded as a browser's `GET` form sends it (`+` is a space), the last of a repeated name
    /// winning, as the service reads a screen's query.
    static func query(of request: HTTPRequest) -> [String: String] {
        guard let path = request.path, let mark = path.firstIndex(of: "?") else { return [:] }
        return WebForm.fields(of: Array(path[path.index(after: mark)...].prefix { $0 != "#" }.utf8))
    }

    /// The policy every page is sent under: only this site's script and media, no framing by
    /// other sites, forms only to this site.
    static let contentSecurityPolicy =
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; media-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    /// An HTML answer with the headers every page carries (see ``contentSecurityPolicy``), never
    /// stored by the browser: Back and Forward fetch it again and show what is true now.
    func html(_ page: String, status: HTTPResponse.Status = .ok, cookie: String?) -> Response {
        html(Array(page.utf8), status: status, cookie: cookie)
    }

    /// ``html(_:status:cookie:)`` for bytes already made (a cached page).
    func html(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, cookie: String?) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.vary] = "Cookie, Accept-Encoding"
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        headers[ScreenplayService.contentTypeOptions] = "nosniff"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        headers.append(contentsOf: Self.cookieFields(cookie))
        return Response(head: HTTPResponse(status: status, headerFields: headers), body: bytes)
    }

    /// A `303 See Other` to `location` (the post/redirect/get answer to every form), with the
    /// session's cookie when the post handed one out, and always a new ``changeCookie``.
    func redirect(to location: String, cookie: String? = nil) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        headers.append(contentsOf: Self.cookieFields(cookie))
        headers.append(HTTPField(name: .setCookie, value: Self.changeCookie()))
        return Response(head: HTTPResponse(status: .seeOther, headerFields: headers), body: [])
    }

    /// A cookie that changes with every command a browser sends. Browsers keep pages in their
    /// back/forward cache as they were shown, even pages sent `no-store`, unless a cookie of the
    /// site changed since: this one does, so Back after a command fetches what is true now (the
    /// heart just flipped is flipped) instead of restoring the page from before.
    static func changeCookie() -> String {
        "screenplay_change=\(RandomID.make().prefix(8)); Path=/; HttpOnly; SameSite=Lax; Max-Age=86400"
    }

    /// A file of the site's own (the script, the stylesheet): a year in any cache (its URL names
    /// its version), revalidated by tag, gzipped when the browser takes it.
    func asset(_ request: HTTPRequest, _ asset: EncodedBody, type: String) -> Response {
        let (head, body) = ScriptModule.immutable(asset, type: type, for: request)
        return Response(head: head, body: body)
    }
}

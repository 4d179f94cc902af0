import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer

extension WebSite {
    /// A screen's page: the screen from the service's cache, as an app's request gets it, rendered
    /// once per screen ETag and kept; a banner (taken from the book, so shown once) makes a page
    /// of its own that is not kept.
    func screenPage(path: String, request: HTTPRequest) async -> Response {
        // Taken before anything is read: the page is remembered only if no write announced a
        // change while it was made.
        let ticket = service.revalidations?.ticket()
        let identity: (UserIdentity, String?)
        do {
            identity = try await identify(request)
        } catch {
            return html(
                renderer.errorPage(title: "Something went wrong", message: error.message, back: "/"), status: error.status, cookie: nil)
        }
        let (user, cookie) = identity
        let query = Self.query(of: request)
        // Only a notice this site issued shows: a link cannot put its own words in the banner.
        let notice = query["notice"].flatMap { notices.take($0, token: Self.sessionToken(request.headerFields)) }
        let currentPath = path == "home" ? "/" : Self.screensPath + path
        // Query values reach the screen (a search's `q`); the service passes on only those the
        // route declares. The page's own path for forms keeps them, the notice aside.
        let screenQuery = query.filter { $0.key != "notice" }
        let back = currentPath + Self.queryString(screenQuery)
        do throws(ScreenplayError) {
            // The web renders the latest kinds, and app-defined kinds through their fallbacks (the
            // service's encoded screen for a client that renders none). From the service's cache,
            // like an app's request; the page itself is cached by the screen's ETag.
            // A screen this request built is rendered as built, not decoded from its own bytes.
            // A page that hands out or clears a cookie, or says a notice's banner is gone, is
            // that request's own: only the plain page of a screen that allows it is remembered.
            let remembers = request.method == .get && cookie == nil && notice == nil && !Self.hasShownNotice(request)
            // No older than the browser's last write, whichever replica answers.
            let answer = try await RevisionWatermark.withFloor(Self.revisionFloor(request)) { () async throws(ScreenplayError) in
                try await service.renderableScreen(
                    path: path, query: screenQuery, apiVersion: .latest, user: user, platform: .web,
                    locale: ScreenplayService.locale(in: request.headerFields), remembering: remembers ? ticket : nil)
            }
            let encoded = answer.body
            guard notice == nil else {
                var renderer = self.renderer
                renderer.origin = Self.origin(of: request)
                let screen = if let built = answer.screen { built } else { try Self.decode(encoded) }
                let live = live(path: path, query: screenQuery, etag: encoded.etag, declared: screen.live)
                var page = html(renderer.page(for: screen, currentPath: back, notice: notice, live: live), cookie: cookie)
                page.head.headerFields.append(HTTPField(name: .setCookie, value: Self.noticeShownCookie))
                return page
            }
            let renderer = { var renderer = self.renderer; renderer.origin = Self.origin(of: request); return renderer }()
            let page: EncodedBody
            do {
                page = try await pages.value(for: PageCacheKey(path: back, origin: renderer.origin, screen: encoded)) {
                    let screen = if let built = answer.screen { built } else { try Self.decode(encoded) }
                    let live = live(path: path, query: screenQuery, etag: encoded.etag, declared: screen.live)
                    return EncodedBody(bytes: Array(renderer.page(for: screen, currentPath: back, live: live).utf8))
                }
            } catch {
                throw (error as? ScreenplayError) ?? .internalError("the page could not be rendered")
            }
            // Compressed once, when the page was cached; sent compressed when the browser asks.
            let sent = page.representation(acceptEncoding: request.headerFields[.acceptEncoding])
            var response = html(sent.bytes, cookie: cookie)
            if Self.hasShownNotice(request) { response.head.headerFields.append(HTTPField(name: .setCookie, value: Self.noticeGoneCookie)) }
            response.head.headerFields[.eTag] = sent.etag
            if sent.gzip { response.head.headerFields[.contentEncoding] = "gzip" }
            var notModified = response.head.headerFields
            notModified[.contentEncoding] = nil
            if let remembered = answer.remembered, let memory = service.revalidations {
                var ok = response.head.headerFields
                ok[.contentLength] = String(sent.bytes.count)
                memory.remember(
                    request, owner: remembered.owner, etag: page.etag, fields: notModified, ok: (ok, sent.bytes), namesHost: true,
                    expiry: remembered.expiry, ticket: remembered.ticket)
            }
            if let condition = request.headerFields[.ifNoneMatch], page.matches(ifNoneMatch: condition) {
                response.head = HTTPResponse(status: .notModified, headerFields: notModified)
                response.body = []
            }
            return response
        } catch {
            let page =
                error.status == .notFound
                ? renderer.notFoundPage(path: currentPath)
                : renderer.errorPage(title: "Something went wrong", message: error.message, back: "/")
            return html(page, status: error.status, cookie: cookie)
        }
    }

    /// Set by a page that showed a banner; cleared by the next page shown. Clearing it is a change
    /// of the site's cookies after the banner's page was shown, which is what makes a browser drop
    /// that page from its back/forward cache: Forward to it fetches it again, without the banner
    /// (read once), instead of replaying it.
    static let noticeShownCookie = "screenplay_notice=1; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600"
    static let noticeGoneCookie = "screenplay_notice=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"

    /// Whether the browser carries ``noticeShownCookie``.
    static func hasShownNotice(_ request: HTTPRequest) -> Bool {
        request.headerFields[values: .cookie].contains { $0.contains("screenplay_notice=1") }
    }

    /// A kept result (a prompt, a choice, a replacement screen): the page a form's redirect led
    /// to, with what was typed and why it was refused when the last answer was; once answered, a
    /// redirect to the page that asked.
    func resultPage(id: String, request: HTTPRequest) async -> Response {
        guard let entry = results.entry(id, token: Self.sessionToken(request.headerFields)) else {
            return html(
                renderer.errorPage(
                    title: "This page has expired", message: "It belonged to a step that is over, or to another browser.", back: "/"),
                status: .notFound, cookie: nil)
        }
        // Answered (Back from where the answer led, or an old tab): the page it was asked from,
        // as it is now, which is where a person going Back means to go. Nothing is sent again.
        if entry.isAnswered { return redirect(to: WebForm.safeBackPath(entry.back)) }
        switch entry.result {
        case .prompt(let prompt):
            return html(
                renderer.page(for: prompt, back: entry.back, dialog: id, value: entry.value, error: entry.error), cookie: nil)
        case .choice(let choice):
            return html(renderer.page(for: choice, back: entry.back, dialog: id, error: entry.error), cookie: nil)
        case .screen(let screen):
            let notice = entry.error.map { WebNotice($0, isError: true) }
            return html(renderer.page(for: screen, currentPath: entry.back, notice: notice), cookie: nil)
        }
    }

    /// `http://host:port` as the browser reached the site, when the `Host` is a plain host and
    /// port (anything else, nothing: a share then offers the path).
    static func origin(of request: HTTPRequest) -> String? {
        guard let authority = request.authority, (1...255).contains(authority.utf8.count),
            authority.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0 | 0x20) || "-.:[]".utf8.contains($0) })
        else { return nil }
        let scheme = request.scheme?.lowercased() == "https" ? "https" : "http"
        return scheme + "://" + authority.lowercased()
    }

    /// `?a=1&b=2` for the values given (sorted, so one page has one URL), or nothing.
    static func queryString(_ query: [String: String]) -> String {
        guard !query.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        return "?"
            + query.sorted { $0.key < $1.key }.map { key, value in
                (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
            }.joined(separator: "&")
    }

    /// The screen in an encoded body (the latest version; the service built it, so it reads cleanly).
    static func decode(_ encoded: EncodedBody) throws(ScreenplayError) -> Screen {
        do {
            return try ScreenplayDecoder(mode: .lossy, apiVersion: .latest).decode(Screen.self, from: Data(encoded.bytes)).value
        } catch {
            throw .internalError("the page's screen could not be read back: \(error)")
        }
    }
}

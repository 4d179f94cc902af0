import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayServer
import ScreenplayWeb

/// The demo's browser pages: the same screens the apps get, as HTML, at `/` and `/screens/…`,
/// and command form posts at `/web/command`. Browsers are identified by a cookie.
struct WebPages: Sendable {
    let service: ScreenplayService
    let renderer = HTMLRenderer()

    func register(on router: Router<some RequestContext>) {
        router.get("/") { request, _ in try await screenPage(path: "home", request: request) }
        router.get("screens/**") { request, _ in
            let path = request.uri.path.split(separator: "/").dropFirst().joined(separator: "/")
            return try await screenPage(path: path, request: request)
        }
        router.post("web/command") { request, _ in try await command(request: request) }
    }

    func screenPage(path: String, request: Request) async throws -> Response {
        let (user, cookie) = try await identify(request)
        let query = request.uri.queryParameters
        let notice = query["notice"].map(String.init)
        let currentPath = path == "home" ? "/" : "/screens/" + path
        do {
            // The web renders the latest kinds, and app-defined kinds through their fallbacks.
            let screen = Downgrade(to: .latest, customKinds: service.customKinds).screen(
                try await service.screen(path: path, apiVersion: .latest, user: user))
            return html(renderer.page(for: screen, currentPath: currentPath, notice: notice), cookie: cookie)
        } catch {
            return html(
                renderer.errorPage(
                    title: error.status == .notFound ? "Not found" : "Something went wrong", message: error.message, back: "/"),
                status: error.status, cookie: cookie)
        }
    }

    func command(request: Request) async throws -> Response {
        // A command changes a user's data: it must come from our own pages and from a browser that
        // already has its identity. A cross-site form post carries neither, and never gets a new
        // identity (which would silently replace the victim's cookie).
        if let refusal = crossSiteRefusal(request) { return refusal }
        guard let token = sessionToken(request), let resolved = try? await service.resolveIdentity(token: token),
            resolved.issuedToken == nil
        else {
            return html(
                renderer.errorPage(
                    title: "Session expired", message: "This browser has no Screenplay session; open the page again and retry.", back: "/"),
                status: .forbidden, cookie: nil)
        }
        let (user, cookie) = (resolved.user, String?.none)
        var body: [UInt8] = []
        for try await buffer in request.body {
            guard body.count + buffer.readableBytes <= service.configuration.maximumBodySize else {
                return html(
                    renderer.errorPage(
                        title: "Too large", message: ScreenplayError.payloadTooLarge(limit: service.configuration.maximumBodySize).message,
                        back: "/"), status: .contentTooLarge, cookie: cookie)
            }
            body.append(contentsOf: buffer.readableBytesView)
        }
        let form: WebForm
        do {
            form = try WebForm(urlEncoded: body)
        } catch {
            return html(
                renderer.errorPage(title: "Bad request", message: error.description, back: "/"), status: .badRequest, cookie: cookie)
        }
        let result: CommandResult
        do {
            result = try await service.perform(command: form.commandPath, payload: form.payload, apiVersion: .latest, user: user)
        } catch {
            return html(
                renderer.errorPage(title: "Could not do that", message: error.message, back: form.back), status: error.status,
                cookie: cookie)
        }
        switch result {
        case .done(let done):
            var location = form.back
            if let message = done.message {
                let encoded = message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                location += (location.contains("?") ? "&" : "?") + "notice=" + encoded
            }
            return redirect(to: location, cookie: cookie)
        case .navigate(let navigate):
            return redirect(to: renderer.links.href(navigate.url) ?? form.back, cookie: cookie)
        case .screen(let screen):
            return html(renderer.page(for: screen, currentPath: form.back), cookie: cookie)
        case .prompt(let prompt):
            return html(renderer.page(for: prompt, back: form.back), cookie: cookie)
        case .choice(let choice):
            return html(renderer.page(for: choice, back: form.back), cookie: cookie)
        case .error(let failure):
            return html(
                renderer.errorPage(title: "Could not do that", message: failure.message, back: form.back), status: .unprocessableContent,
                cookie: cookie)
        case .unknown(let type, _):
            return html(
                renderer.errorPage(title: "Could not do that", message: "unexpected answer '\(type)'", back: form.back),
                status: .internalServerError, cookie: cookie)
        }
    }

    /// A 403 for requests a browser marks as coming from another site (`Sec-Fetch-Site`), or
    /// whose `Origin` is not this host.
    func crossSiteRefusal(_ request: Request) -> Response? {
        let refused = html(
            renderer.errorPage(title: "Refused", message: "commands are accepted only from this site's own pages", back: "/"),
            status: .forbidden, cookie: nil)
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], !["same-origin", "none"].contains(site.lowercased()) {
            return refused
        }
        if let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            guard !host.isEmpty, ["http://" + host, "https://" + host].contains(origin.lowercased()) else { return refused }
        }
        return nil
    }

    /// The token the browser's cookie carries, when it has the shape the server issues (a stale
    /// or mangled cookie counts as none).
    func sessionToken(_ request: Request) -> String? {
        guard let token = ScreenplayService.token(in: request.headers), token.utf8.count == 64 else { return nil }
        return token
    }

    /// The browser's user: from its cookie, or a new identity whose cookie the response sets.
    func identify(_ request: Request) async throws -> (UserIdentity, String?) {
        let resolved: ResolvedIdentity
        do {
            resolved = try await service.resolveIdentity(token: sessionToken(request))
        } catch is ScreenplayError {
            resolved = try await service.resolveIdentity(token: nil)
        }
        let cookie = resolved.issuedToken.map { "\(ScreenplayService.tokenCookie)=\($0); Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000" }
        return (resolved.user, cookie)
    }

    func html(_ page: String, status: HTTPResponse.Status = .ok, cookie: String?) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        headers[.contentSecurityPolicy] =
            "default-src 'self'; style-src 'unsafe-inline'; img-src 'self'; media-src 'self'; script-src 'none'"
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    func redirect(to location: String, cookie: String?) -> Response {
        var headers: HTTPFields = [.location: location]
        if let cookie { headers[.setCookie] = cookie }
        return Response(status: .seeOther, headers: headers)
    }
}

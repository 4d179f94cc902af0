public import Hummingbird
import ScreenplayServer
public import ScreenplayWeb

/// The site's own 404 page for a browser sent to a path nothing answers: the site's look, its
/// navigation and search, a way home, instead of an empty answer. Only for requests that ask for
/// HTML (`Accept: text/html`, as a browser's navigation does); APIs, images and media keep their
/// own 404s.
public struct WebNotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The site whose page is shown.
    public let site: WebSite

    /// A middleware showing `site`'s 404 page.
    public init(site: WebSite) { self.site = site }

    /// Passes the request on; a 404 for a browser's navigation becomes the site's page.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            guard response.status == .notFound, Self.wantsPage(request), response.headers[.contentType] == nil else { return response }
            return ScreenplayResponder.response(site.notFound(request.head))
        } catch let error as HTTPError where error.status == .notFound && Self.wantsPage(request) {
            return ScreenplayResponder.response(site.notFound(request.head))
        } catch let error as ScreenplayError where error.status == .notFound && Self.wantsPage(request) {
            return ScreenplayResponder.response(site.notFound(request.head))
        }
    }

    /// A `GET` or `HEAD` that accepts HTML.
    static func wantsPage(_ request: Request) -> Bool {
        (request.method == .get || request.method == .head) && (request.headers[.accept]?.contains("text/html") ?? false)
    }
}

import HTTPTypes
import Hummingbird

/// Sends a request under a mounted service's prefix whose method the router has no route for
/// (`QUERY`, `PROPFIND`, any extension method) to the service, which answers the `405` naming
/// the path's methods, or the `404` of a path it does not serve. Without it the router's trie,
/// which keys routes by method, would answer such a request with a bare 404, as if the path did
/// not exist.
struct UnlistedMethodMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The prefix's segments (`["api"]`).
    let mount: [Substring]
    /// The methods routed to the service; others are this middleware's.
    let methods: Set<HTTPRequest.Method>
    /// The service's handler.
    let respond: @Sendable (Request, Context) async throws -> Response

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !methods.contains(request.method), request.uri.path.split(separator: "/").starts(with: mount) else {
            return try await next(request, context)
        }
        return try await respond(request, context)
    }
}

public import HTTPTypes
public import ScreenplayContract

/// A mounted site's routes (``SiteRoute``): the one place that says what the site answers, to
/// whom, and with what.
///
/// The HTTP adapter registers each route's real path with the framework's router; the OpenAPI
/// description is generated from the tables.
public struct RouteTable: Sendable {
    /// The site's name (`api`, `web`, `admin`, `adminAPI`): the OpenAPI tag of its operations.
    public var site: String
    /// Its routes, in the order they were declared.
    public private(set) var routes: [SiteRoute]
    /// JSON Schemas of the shapes the site defines itself (not the contract's), by the names its
    /// routes use (``RouteSchema``); references between them are written `#/$defs/Name`, as in
    /// the contract's schemas.
    public var schemas: [String: JSONValue] = [:]

    /// A table for `site` with `routes`.
    ///
    /// Two routes with the same method and path, or the same operation name, are a programming
    /// error: the table traps at once, naming them, rather than serving one of the two.
    public init(site: String, routes: [SiteRoute]) {
        self.site = site
        self.routes = []
        for route in routes { add(route) }
    }

    /// Adds `route` (see ``init(site:routes:)`` for what may not be added twice).
    public mutating func add(_ route: SiteRoute) {
        for known in routes {
            precondition(
                !(known.method == route.method && known.path == route.path),
                "\(site): \(route.method) \(route.path) is declared twice (\(known.operation), \(route.operation))")
            precondition(known.operation != route.operation, "\(site): the operation \(route.operation) is declared twice")
        }
        routes.append(route)
    }

    /// The distinct paths, in the order they were declared, each with the methods it answers.
    public var paths: [(path: RoutePattern, methods: [HTTPRequest.Method])] {
        var order: [RoutePattern] = []
        var methods: [RoutePattern: [HTTPRequest.Method]] = [:]
        for route in routes {
            if methods[route.path] == nil { order.append(route.path) }
            methods[route.path, default: []].append(route.method)
        }
        return order.map { ($0, methods[$0]!) }
    }

    /// What a request for `method` at `segments` (its path, split and percent-decoded) reaches.
    public enum Resolution: Sendable {
        /// A route, with the values of its `:name` segments.
        case route(SiteRoute, parameters: [String: String])
        /// Routes have this path but not this method: they answer `allowed`.
        case methodNotAllowed(allowed: [HTTPRequest.Method])
        /// No route has this path.
        case notFound
    }

    /// The route a request for `method` at `segments` reaches: the first declared whose path
    /// matches and whose method is `method` (`HEAD` reaches a `GET` when no `HEAD` is declared).
    /// How a site that dispatches by its table finds the handler and the 405's `Allow`.
    public func resolve(_ method: HTTPRequest.Method, _ segments: [String]) -> Resolution {
        var allowed: [HTTPRequest.Method] = []
        var get: (SiteRoute, [String: String])?
        for route in routes {
            guard let parameters = route.path.match(segments) else { continue }
            if route.method == method { return .route(route, parameters: parameters) }
            if route.method == .get, get == nil { get = (route, parameters) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if method == .head, let get { return .route(get.0, parameters: get.1) }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// Whether a route anyone may call (``RequestPolicy/Caller/anonymous``) has the path
    /// `segments`: such a path's `405` is answered before any credential is asked for.
    public func isOpen(_ segments: [String]) -> Bool {
        routes.contains { $0.policy.callers.contains(.anonymous) && $0.path.match(segments) != nil }
    }

    /// The route for `method` at exactly `path` (a pattern as declared), if there is one.
    public func route(_ method: HTTPRequest.Method, at path: RoutePattern) -> SiteRoute? {
        routes.first { $0.method == method && $0.path == path }
    }
}

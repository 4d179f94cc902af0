public import HTTPTypes
public import ScreenplayContract

/// One route of a mounted site, as data: its method and path, who may call it and how it is
/// admitted (``RequestPolicy``), and what it takes and answers.
///
/// A site's routes form its ``RouteTable``. The HTTP adapter builds its router from it (real
/// paths, so the framework's trie sees them), and the OpenAPI description is generated from it,
/// so what is documented is what is served.
public struct SiteRoute: Sendable {
    /// The method it answers (`HEAD` is listed as its own route where it is answered).
    public var method: HTTPRequest.Method
    /// The path under the host, with `:name` segments for parameters (`api/:version/sync`).
    public var path: RoutePattern
    /// A stable name for the operation (OpenAPI's `operationId`), unique in the table.
    public var operation: String
    /// One line saying what it does.
    public var summary: String
    /// Who may call it, and how it is admitted.
    public var policy: RequestPolicy
    /// The parameters it reads besides its body: each `:name` of ``path``, and query and header
    /// fields that change the answer.
    public var parameters: [RouteParameter]
    /// The body it reads (``RouteBody/none`` for none).
    public var request: RouteBody
    /// Whether a request may leave ``request`` out (a command whose fields are all optional
    /// reads an empty body as `{}`).
    public var requestIsOptional: Bool
    /// The answers it gives, by status.
    public var answers: [RouteAnswer]

    /// A route; `parameters` should name every `:name` segment of `path`.
    public init(
        _ method: HTTPRequest.Method, _ path: String, operation: String, summary: String, policy: RequestPolicy,
        parameters: [RouteParameter] = [], request: RouteBody = .none, requestIsOptional: Bool = false, answers: [RouteAnswer]
    ) {
        self.requestIsOptional = requestIsOptional
        self.method = method
        self.path = RoutePattern(path)
        self.operation = operation
        self.summary = summary
        self.policy = policy
        self.parameters = parameters
        self.request = request
        self.answers = answers
    }
}

/// Who may call a route, whether a write must come from the site itself, which budget admits
/// it, and how large a body it reads: declared with the route, documented in the OpenAPI
/// description, and applied before the route's handler runs (``refusal(of:bodySize:cookie:)``
/// for the body limit and the cross-site rule, the site's budgets for ``admission``), once, by
/// the code that resolved the route from its table. Handlers never check these themselves.
public struct RequestPolicy: Sendable, Hashable {
    /// A kind of caller.
    public enum Caller: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Anyone, with no credentials.
        case anonymous
        /// An app or browser identity: a bearer token, or the site's token cookie.
        case user
        /// A signed-in admin's browser session (cookie).
        case adminSession
        /// An admin API token (`Authorization: Bearer`).
        case adminToken

        /// By name: a stable order for listings (OpenAPI's `security`, the policy's callers).
        public static func < (lhs: Caller, rhs: Caller) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The budget that admits a request, when one does.
    public enum Admission: String, Sendable, Hashable {
        /// Nothing but the connection limits (reads served from cache).
        case unmetered
        /// The command budget: per identity, and per address for new identities.
        case commands
        /// The event-stream limits: per user and in all.
        case eventStreams
        /// The sign-in limits: per account and per address, with device cookies.
        case signIn
    }

    /// Which requests must say they come from this site (`Sec-Fetch-Site`, `Origin`: see
    /// ``foreignSiteRefusal(_:)``). A browser sends a site's cookies with a form another site
    /// posts; only the browser's own headers tell the two apart.
    public enum CrossSiteRule: String, Sendable, Hashable {
        /// No rule: reads, and routes a browser's ambient credential cannot reach.
        case none
        /// A request carrying the site's cookie and no `Authorization` (a browser's ambient
        /// credential) must come from this site; apps and scripts with a token pass.
        case cookieWrites
        /// Every request must come from this site, cookie or not: form posts that sign in or mint
        /// a session (login CSRF, a session planted by another site).
        case allWrites
    }

    /// Who may call.
    public var callers: Set<Caller>
    /// Which requests must come from this site.
    public var crossSite: CrossSiteRule
    /// The budget that admits it.
    public var admission: Admission
    /// The most body bytes read; a larger body is refused with a 413 before the handler runs.
    /// `0`: the route reads no body (whatever is sent is ignored).
    public var bodyLimit: Int

    /// A policy.
    public init(callers: Set<Caller>, crossSite: CrossSiteRule = .none, admission: Admission = .unmetered, bodyLimit: Int = 0) {
        self.callers = callers
        self.crossSite = crossSite
        self.admission = admission
        self.bodyLimit = bodyLimit
    }

    /// Why `request`, with a body of `bodySize` bytes, is refused before its handler runs, if it
    /// is: a body over ``bodyLimit`` (413), then a request from another site where ``crossSite``
    /// forbids one (403; `cookie` names the site's credential cookie for
    /// ``CrossSiteRule/cookieWrites``). What needs the site's own state (who the caller is, its
    /// budget) is the site's to apply next, from the same policy.
    public func refusal(of request: HTTPRequest, bodySize: Int, cookie: String) -> ScreenplayError? {
        if bodyLimit > 0, bodySize > bodyLimit { return .payloadTooLarge(limit: bodyLimit) }
        switch crossSite {
        case .none: return nil
        case .cookieWrites: return Self.crossSiteRefusal(request, cookie: cookie)
        case .allWrites: return Self.foreignSiteRefusal(request)
        }
    }

    /// Why `request`, carrying the cookie named `cookie`, is refused as a cross-site write, if it
    /// is: it has that cookie and no `Authorization`, and comes from another site
    /// (``foreignSiteRefusal(_:)``). A request without the cookie, or with `Authorization` (an app,
    /// a script with a token), is not a browser's ambient credential and passes.
    public static func crossSiteRefusal(_ request: HTTPRequest, cookie: String) -> ScreenplayError? {
        guard request.headerFields[.authorization] == nil,
            request.headerFields[values: .cookie].contains(where: { $0.contains(cookie + "=") })
        else { return nil }
        return foreignSiteRefusal(request)
    }

    /// Why `request` is refused as coming from another site, if it is: `Sec-Fetch-Site` names
    /// another site, or `Origin` is not this host. `Origin: null` (what a page sent under a
    /// `no-referrer` policy posts, and what a sandboxed frame of any site posts too) passes only
    /// beside a `Sec-Fetch-Site` that says same-origin. Browsers send `Sec-Fetch-Site` on every
    /// request and `Origin` on every `POST`; a request with neither is not from a browser page,
    /// so no ambient credential is at stake and it passes (the route's other checks still apply).
    public static func foreignSiteRefusal(_ request: HTTPRequest) -> ScreenplayError? {
        let site = request.headerFields[Self.secFetchSite]
        if let site, !["same-origin", "none"].contains(site.lowercased()) {
            return .crossSiteRequest("a write with this site's cookie must come from this site (Sec-Fetch-Site: \(site.prefix(40)))")
        }
        if let origin = request.headerFields[.origin] {
            let host = (request.authority ?? "").lowercased()
            let same = !host.isEmpty && ["http://" + host, "https://" + host].contains(origin.lowercased())
            guard same || (origin == "null" && site != nil) else {
                return .crossSiteRequest("a write with this site's cookie must come from this site (Origin: \(origin.prefix(100)))")
            }
        }
        return nil
    }

    /// `Sec-Fetch-Site`, which browsers send to say where a request comes from.
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}

/// A parameter a route reads besides its body.
public struct RouteParameter: Sendable, Hashable {
    /// Where the parameter is.
    public enum Location: String, Sendable, Hashable {
        /// A `:name` segment of the route's path.
        case path
        /// A query item.
        case query
        /// A header field.
        case header
    }

    /// Its name (the path segment's, the query item's or the header field's).
    public var name: String
    /// Where it is.
    public var location: Location
    /// Whether every request carries it (path parameters always do).
    public var required: Bool
    /// What it means.
    public var summary: String
    /// Its JSON Schema (a string by default).
    public var schema: JSONValue

    /// A parameter.
    public init(_ name: String, in location: Location, required: Bool = false, summary: String, schema: JSONValue = ["type": "string"]) {
        self.name = name
        self.location = location
        self.required = location == .path || required
        self.summary = summary
        self.schema = schema
    }
}

/// A body a route reads or answers.
public enum RouteBody: Sendable, Hashable {
    /// No body.
    case none
    /// JSON matching a named schema: one of the contract's (``RouteSchema``).
    case json(RouteSchema)
    /// A stream of server-sent events (`text/event-stream`).
    case eventStream
    /// An HTML page.
    case html
    /// A form (`application/x-www-form-urlencoded`).
    case form
    /// Bytes of the given media type (an image, audio, a script).
    case bytes(mediaType: String)
}

/// The JSON a route reads or answers, by name: the contract's schemas for screens, command
/// results, command requests and errors, or a shape a site describes itself.
public struct RouteSchema: Sendable, Hashable, RawRepresentable, ExpressibleByStringLiteral {
    /// The schema's name in the description's components (`Screen`, `CommandResult`, …).
    public var rawValue: String

    /// A schema named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A schema named `value`.
    public init(stringLiteral value: String) { rawValue = value }

    /// A screen (the contract's `Screen`).
    public static let screen: RouteSchema = "Screen"
    /// A command's result (the contract's `CommandResult`).
    public static let commandResult: RouteSchema = "CommandResult"
    /// A command's payload: any JSON object (the contract's `request.command`).
    public static let commandRequest: RouteSchema = "request.command"
    /// Every error's body (the contract's `ErrorBody`): a `code` and a message.
    public static let error: RouteSchema = "ErrorBody"
}

/// One answer a route gives.
public struct RouteAnswer: Sendable, Hashable {
    /// The status.
    public var status: HTTPResponse.Status
    /// When it is given.
    public var summary: String
    /// What it carries.
    public var body: RouteBody
    /// The header fields it carries that a client reads (`ETag`, `Retry-After`, …).
    public var headers: [String]

    /// An answer.
    public init(_ status: HTTPResponse.Status, _ summary: String, body: RouteBody, headers: [String] = []) {
        self.status = status
        self.summary = summary
        self.body = body
        self.headers = headers
    }

    /// An error answer, with the contract's error body.
    public static func error(_ status: HTTPResponse.Status, _ summary: String, headers: [String] = []) -> RouteAnswer {
        RouteAnswer(status, summary, body: .json(.error), headers: headers)
    }
}

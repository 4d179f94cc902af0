public import Foundation
public import HTTPTypes
public import Logging
public import ScreenplayContract

/// The framework-agnostic Screenplay server: takes an `HTTPRequest` and its body, returns an
/// `HTTPResponse` and its body. Web-framework adapters (``ScreenplayHummingbird``) only convert.
///
/// It serves `GET {prefix}/v{N}/screens/{path}` and `POST {prefix}/v{N}/commands/{path}`,
/// with ETags and 304s, an identity per client, and JSON errors that say what and where.
///
/// A class (immutable, so `Sendable`): adapters capture it in every route's closure, and one
/// reference is cheaper to hand to each request than a copy of its many fields.
public final class ScreenplayService: Sendable {
    /// Limits and names.
    public struct Configuration: Sendable {
        /// Where the API is mounted (`/api`).
        public var pathPrefix: String
        /// The API versions served; requests for others get a 400 naming this range.
        public var supportedVersions: ClosedRange<APIVersion>
        /// The largest command body accepted; larger ones get a 413 stating it.
        public var maximumBodySize: Int
        /// The most bytes of encoded screens kept in memory. Older bytes are evicted least
        /// recently used first; one screen larger than an eighth of this is served, never kept.
        public var cacheByteBudget: Int
        /// The most bytes remembered about answered revalidations (``RevalidationMemory``).
        public var revalidationByteBudget: Int
        /// Commands per identity: `burst` at once, then `perSecond`.
        public var commandRate: (perSecond: Double, burst: Double)
        /// New identities (first commands from clients without a token), for the whole process.
        public var identityCreationRate: (perSecond: Double, burst: Double)
        /// New identities from one client address (when the adapter passes it).
        public var identityCreationPerAddress: (perSecond: Double, burst: Double)
        /// Versions still served but on their way out, with the date they were deprecated: their
        /// responses carry RFC 9745's `Deprecation: @<unix time>` (plus a readable
        /// `Screenplay-Deprecation`) so app teams see it in their logs before the version is dropped.
        public var deprecatedVersions: [APIVersion: Date]
        /// Whether every freshly encoded screen is decoded back, strictly, as a client of its
        /// version would, before it is cached and sent. A screen that a client would refuse (a
        /// forbidden link scheme, a bad color, an out-of-range size) then fails loudly here, with
        /// its JSON path in the log, instead of silently losing a component on every device.
        /// Costs one decode per cache miss, none per cache hit.
        public var verifiesEncodedScreens: Bool

        /// The defaults: `/api`, every version the contract knows, none deprecated, 64 KiB
        /// bodies, 64 MiB of cached screens, 4 MiB of remembered revalidations, verification on.
        public init(
            pathPrefix: String = "/api", supportedVersions: ClosedRange<APIVersion> = APIVersion.supported,
            deprecatedVersions: [APIVersion: Date] = [:], maximumBodySize: Int = 64 * 1024, cacheByteBudget: Int = 64 << 20,
            verifiesEncodedScreens: Bool = true, commandRate: (perSecond: Double, burst: Double) = (10, 60),
            identityCreationRate: (perSecond: Double, burst: Double) = (20, 200),
            identityCreationPerAddress: (perSecond: Double, burst: Double) = (1, 20), revalidationByteBudget: Int = 4 << 20
        ) {
            self.revalidationByteBudget = revalidationByteBudget
            self.identityCreationPerAddress = identityCreationPerAddress
            self.commandRate = commandRate
            self.identityCreationRate = identityCreationRate
            self.pathPrefix = pathPrefix
            self.supportedVersions = supportedVersions
            self.deprecatedVersions = deprecatedVersions
            self.maximumBodySize = maximumBodySize
            self.cacheByteBudget = cacheByteBudget
            self.verifiesEncodedScreens = verifiesEncodedScreens
        }
    }

    /// A response ready to send.
    public struct Response: Sendable {
        /// Status and headers.
        public var head: HTTPResponse
        /// The body bytes (empty for 304).
        public var body: [UInt8]

        /// A response: for hosts that answer beside the service in the same shape (the admin).
        public init(head: HTTPResponse, body: [UInt8]) {
            self.head = head
            self.body = body
        }
    }

    /// The header that hands a new client its token.
    public static let tokenHeader = HTTPField.Name("Screenplay-Token")!
    /// The header that explains a deprecated version (`Deprecation: true` goes with it).
    public static let deprecationNoticeHeader = HTTPField.Name("Screenplay-Deprecation")!
    /// RFC 9745's `Deprecation` header.
    public static let deprecationHeader = HTTPField.Name("Deprecation")!

    /// The request header in which a client lists the app-defined component kinds it renders.
    public static let componentsHeader = HTTPField.Name(AppDefinedKind.requestHeader)!

    /// The cookie browsers carry the token in.
    public static let tokenCookie = "screenplay_token"

    /// The configuration in force.
    public let configuration: Configuration
    let routes: ScreenplayRoutes
    /// Composed pages, served at `screens/{route}` for routes the code does not define.
    public let pages: ComposedScreens?
    let identity: any IdentityResolver
    let cache: EncodedScreenCache
    let ledger = IdempotencyLedger()
    /// What revalidations of screens declaring ``ScreenplayRoutes/Revalidation/fromMemory(until:)``
    /// were answered with, for the HTTP adapter to answer the next ones before routing; `nil`
    /// without an invalidation bus, which is what keeps it exact.
    public let revalidations: RevalidationMemory?
    let commandLimiter: RateLimiter
    let creationLimiter: RateLimiter
    let addressCreationLimiter: RateLimiter
    let logger: Logger
    /// ``Configuration/pathPrefix`` split once, not per request.
    let prefixSegments: [String]

    /// Creates a service over a route table and an identity resolver.
    ///
    /// `pages` serves composed pages (layouts from the admin) at the routes `routes` does not
    /// define: a coded screen always wins, so no template can break one.
    public init(
        routes: ScreenplayRoutes, identity: any IdentityResolver, configuration: Configuration = .init(), pages: ComposedScreens? = nil,
        invalidations: (any InvalidationBus)? = nil, logger: Logger = Logger(label: "screenplay.server")
    ) {
        self.routes = routes
        self.pages = pages
        self.identity = identity
        self.configuration = configuration
        self.cache = EncodedScreenCache(byteBudget: configuration.cacheByteBudget)
        self.commandLimiter = RateLimiter(rate: configuration.commandRate.perSecond, burst: configuration.commandRate.burst)
        self.creationLimiter = RateLimiter(
            rate: configuration.identityCreationRate.perSecond, burst: configuration.identityCreationRate.burst, capacity: 1)
        self.addressCreationLimiter = RateLimiter(
            rate: configuration.identityCreationPerAddress.perSecond, burst: configuration.identityCreationPerAddress.burst)
        self.logger = logger
        self.prefixSegments = RequestTarget.segments(of: configuration.pathPrefix)
        // Subscribed last, after the identity resolver and pages subscribed to the same bus
        // (they exist before the service): they forget first, so this memory never keeps an
        // answer computed from what they held.
        self.revalidations = invalidations.map {
            RevalidationMemory(byteBudget: configuration.revalidationByteBudget, bus: $0)
        }
    }

    // MARK: HTTP

    /// Answers one HTTP request. Never throws: every failure becomes a JSON error response.
    /// `clientAddress` (the peer's IP address, when the adapter knows it) is what limits how
    /// many identities one address can create.
    public func respond(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> Response {
        do {
            return try await route(request, body: body, clientAddress: clientAddress)
        } catch let error as ScreenplayError {
            return Self.errorResponse(error)
        } catch let failure as ExecutedCommandFailure {
            return Self.errorResponse(failure.error)
        } catch {
            logger.error("unexpected failure answering \(request.method) \(request.path ?? "")", metadata: ["error": "\(error)"])
            return Self.errorResponse(.internalError("the server failed to answer this request"))
        }
    }

    /// The JSON error response for `error`.
    public static func errorResponse(_ error: ScreenplayError) -> Response {
        let bytes =
            (try? ScreenplayEncoder().encode(error.body)).map(Array.init)
            ?? Array(#"{"error":{"code":"internalError","message":"?"}}"#.utf8)
        var head = HTTPResponse(status: error.status)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[Self.contentTypeOptions] = "nosniff"
        if let allow = error.allow { head.headerFields[.allow] = allow }
        if let seconds = error.retryAfter { head.headerFields[.retryAfter] = String(seconds) }
        return Response(head: head, body: bytes)
    }

    private func route(_ request: HTTPRequest, body: [UInt8], clientAddress: String?) async throws -> Response {
        let target = RequestTarget(request.path ?? "/")
        guard target.segments.starts(with: prefixSegments) else {
            throw ScreenplayError.notFound("nothing is served at '\(target.path)'", path: target.path)
        }
        let rest = Array(target.segments.dropFirst(prefixSegments.count))
        guard let versionSegment = rest.first else {
            throw ScreenplayError.notFound("expected \(configuration.pathPrefix)/v{N}/screens/… or …/commands/…", path: target.path)
        }
        let version = try apiVersion(from: versionSegment)
        guard rest.count >= 2 else {
            throw ScreenplayError.notFound("expected screens/… or commands/… after \(versionSegment)", path: target.path)
        }
        let inner = Array(rest.dropFirst(2))
        switch rest[1] {
        case "screens":
            guard request.method == .get || request.method == .head else {
                throw ScreenplayError.methodNotAllowed(request.method, allowed: "GET, HEAD", path: target.path)
            }
            return try await screenResponse(request, segments: inner, query: target.query, version: version)
        case "commands":
            guard request.method == .post else {
                throw ScreenplayError.methodNotAllowed(request.method, allowed: "POST", path: target.path)
            }
            var response = try await commandResponse(
                request, segments: inner, body: body, version: version, clientAddress: clientAddress)
            addDeprecation(to: &response.head, version: version)
            return response
        default:
            throw ScreenplayError.notFound("expected screens/… or commands/… after \(versionSegment), got '\(rest[1])'", path: target.path)
        }
    }

    /// `Deprecation` and its readable notice, on answers in a deprecated version.
    private func addDeprecation(to head: inout HTTPResponse, version: APIVersion) {
        guard let since = configuration.deprecatedVersions[version] else { return }
        head.headerFields[Self.deprecationHeader] = "@\(Int(since.timeIntervalSince1970))"
        head.headerFields[Self.deprecationNoticeHeader] =
            "API \(version) is deprecated; move to \(configuration.supportedVersions.upperBound) (supported: \(configuration.supportedVersions.lowerBound) through \(configuration.supportedVersions.upperBound))"
    }

    func apiVersion(from segment: String) throws(ScreenplayError) -> APIVersion {
        // Exactly `v` and a number without sign or leading zero: one URL per version and screen.
        let digits = segment.dropFirst()
        guard segment.hasPrefix("v"), !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.first != "0",
            digits.count <= 6, let number = Int(digits)
        else {
            throw .unsupportedVersion(segment, supported: configuration.supportedVersions)
        }
        let version = APIVersion(number)
        guard configuration.supportedVersions.contains(version) else {
            throw .unsupportedVersion(segment, supported: configuration.supportedVersions)
        }
        return version
    }

    private func screenResponse(
        _ request: HTTPRequest, segments: [String], query: [String: String], version: APIVersion
    ) async throws -> Response {
        let path = segments.joined(separator: "/")
        let coded = routes.screenRoute(for: segments) != nil
        // An unknown path is a 404 before anyone gets an identity: no user rows for garbage URLs.
        guard coded || pages != nil else { throw Self.noScreen(path) }
        // Taken before anything is read: an answer is remembered only if no write announced a
        // change while it was computed.
        let ticket = revalidations?.ticket()
        let resolved = try await identity.resolve(token: Self.token(in: request.headerFields), creating: false)
        let encoded: EncodedBody
        var remembered: Remembered?
        if coded {
            let clientKinds = Self.clientKinds(in: request.headerFields, known: routes.customKinds)
            let answer = try await codedScreen(
                path: path, segments: segments, query: query, apiVersion: version, clientKinds: clientKinds, user: resolved.user,
                remembering: request.method == .get && resolved.issuedToken == nil ? ticket?.taken : nil)
            encoded = answer.body
            remembered = answer.remembered
        } else {
            guard let pages,
                let composed = try await pages.body(for: composedRequest(request, path: path, version: version, user: resolved.user))
            else { throw Self.noScreen(path) }
            encoded = composed
        }
        let vary =
            coded
            ? "Authorization, Cookie, Accept-Encoding"
            : "Authorization, Cookie, Accept-Encoding, Accept-Language, Screenplay-Platform, Screenplay-Components"
        // gzip when the client asks, from the bytes compressed once when the screen was cached.
        let sent = encoded.representation(acceptEncoding: request.headerFields[.acceptEncoding])
        var head = HTTPResponse(status: .ok)
        head.headerFields[.eTag] = sent.etag
        head.headerFields[.cacheControl] = "private, no-cache"
        head.headerFields[.vary] = vary
        head.headerFields[Self.contentTypeOptions] = "nosniff"
        if let token = resolved.issuedToken { head.headerFields[Self.tokenHeader] = token }
        addDeprecation(to: &head, version: version)
        // What a 304 carries is complete here: remembered as it is, for the next revalidation.
        if let remembered, let ticket, let revalidations {
            revalidations.remember(
                request, owner: remembered.owner, etag: encoded.etag, fields: head.headerFields, expiry: remembered.expiry, ticket: ticket)
        }
        if request.headerFields.contains(where: { $0.name == .ifNoneMatch && encoded.matches(ifNoneMatch: $0.value) }) {
            head.status = .notModified
            return Response(head: head, body: [])
        }
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        if sent.gzip { head.headerFields[.contentEncoding] = "gzip" }
        // HEAD: the headers a GET would get, Content-Length included, and no body.
        if request.method == .head {
            head.headerFields[.contentLength] = String(sent.bytes.count)
            return Response(head: head, body: [])
        }
        return Response(head: head, body: sent.bytes)
    }

    static func noScreen(_ path: String) -> ScreenplayError {
        .notFound("no screen at 'screens/\(path)'", path: "screens/" + path)
    }

    /// The header in which a client names its platform (`ios`, `android`, `web`): page templates
    /// show widgets by platform.
    public static let platformHeader = HTTPField.Name("Screenplay-Platform")!

    /// A composed-page request from an HTTP request: platform from ``platformHeader`` (`unknown`
    /// when missing), locale from the first `Accept-Language` tag, kinds from ``componentsHeader``.
    func composedRequest(_ request: HTTPRequest, path: String, version: APIVersion, user: UserIdentity) -> ComposedScreens.Request {
        ComposedScreens.Request(
            route: path, user: user, apiVersion: version,
            clientKinds: Self.clientKinds(in: request.headerFields, known: pages?.composer.allCustomKinds ?? [:]),
            platform: Self.platform(in: request.headerFields), locale: Self.locale(in: request.headerFields))
    }

    /// The client's platform, lowercased, from ``platformHeader``; `unknown` when missing or not a name.
    static func platform(in headers: HTTPFields) -> Platform {
        guard let value = headers[platformHeader]?.lowercased(), (1...32).contains(value.utf8.count),
            value.utf8.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            })
        else { return Platform("unknown") }
        return Platform(value)
    }

    /// The first language tag of `Accept-Language` (`de-CH` from `de-CH, de;q=0.9`); `nil` for none or `*`.
    public static func locale(in headers: HTTPFields) -> String? {
        guard let value = headers[.acceptLanguage] else { return nil }
        let first = value.split(separator: ",").first.map { $0.split(separator: ";").first ?? $0 }.map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        guard let first, !first.isEmpty, first != "*", first.utf8.count <= 35,
            first.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        return first
    }

    /// A command, answered once per `Idempotency-Key`: a retry with the same key and request gets
    /// the first answer (with `Idempotent-Replayed: true`) and changes nothing; the same key with
    /// another request is a 422; a retry while the first attempt runs is a 409.
    private func commandResponse(
        _ request: HTTPRequest, segments: [String], body: [UInt8], version: APIVersion, clientAddress: String?
    ) async throws -> Response {
        guard body.count <= configuration.maximumBodySize else {
            throw ScreenplayError.payloadTooLarge(limit: configuration.maximumBodySize)
        }
        if let refusal = Self.browserRefusal(request) { throw refusal }
        try admitCommand(from: request.headerFields, clientAddress: clientAddress)
        // A client's first command (no token) is never replayed: the answer carries a new
        // identity's token, which must go to nobody else, whatever key they send.
        guard let key = request.headerFields[Self.idempotencyKeyHeader], let token = Self.token(in: request.headerFields) else {
            return try await performCommand(request, segments: segments, body: body, version: version)
        }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ScreenplayError(
                status: .badRequest, code: "invalidHeader", message: "Idempotency-Key must be 1...255 visible ASCII characters",
                path: "Idempotency-Key")
        }
        // Scoped by the user the token resolves to (a revoked or unknown token is refused here,
        // before anything is replayed).
        let owner = try await identity.resolve(token: token, creating: false).user
        let entry = IdempotencyLedger.Key(scope: "user:\(owner.id)", key: key)
        let fingerprint = ETag.strong(for: Array((request.path ?? "").utf8) + [0] + body)
        switch ledger.begin(entry, fingerprint: fingerprint) {
        case .replay(var response):
            response.head.headerFields[Self.replayedHeader] = "true"
            return response
        case .conflict:
            throw ScreenplayError(
                status: .unprocessableContent, code: "idempotencyKeyReused",
                message: "this Idempotency-Key was used for a different command or body; use a new key", path: "Idempotency-Key")
        case .inProgress:
            throw ScreenplayError(
                status: .conflict, code: "idempotencyKeyInProgress",
                message: "the first request with this Idempotency-Key is still running; retry in a moment", path: "Idempotency-Key")
        case .fresh:
            break
        }
        do {
            let response = try await performCommand(request, segments: segments, body: body, version: version)
            ledger.finish(entry, fingerprint: fingerprint, response: response)
            return response
        } catch let failure as ExecutedCommandFailure {
            // The handler ran (and may have written): a retry must not run it again, so the
            // failure is the answer, as a refusal is.
            ledger.finish(entry, fingerprint: fingerprint, response: Self.errorResponse(failure.error))
            throw failure.error
        } catch let error as ScreenplayError where error.status.code < 500 {
            // A refusal is an answer too: the retry gets the same one.
            ledger.finish(entry, fingerprint: fingerprint, response: Self.errorResponse(error))
            throw error
        } catch {
            // Failed before the handler ran (the database was busy resolving the token): nothing
            // happened, so a retry may run it.
            ledger.abandon(entry)
            throw error
        }
    }

    /// ``perform(command:payload:apiVersion:user:)``, with a server failure (which may follow a
    /// committed write) wrapped as ``ExecutedCommandFailure``.
    private func performMarkingFailures(
        command path: String, payload: JSONValue, apiVersion: APIVersion, user: UserIdentity
    ) async throws -> CommandResult {
        do {
            return try await perform(command: path, payload: payload, apiVersion: apiVersion, user: user)
        } catch {
            if error.status.code >= 500 { throw ExecutedCommandFailure(error: error) }
            throw error
        }
    }

    /// `screen` with ids on the components a downgrade put in (fallbacks come after ids were
    /// assigned), for the versions that carry ids: every component a v4 client sees has one.
    static func withIDs(_ screen: Screen, for version: APIVersion) -> Screen {
        version >= ComponentAttributes.introduced ? screen.assigningComponentIDs() : screen
    }

    /// A command that failed once its handler had started: what failed after a write may have
    /// been committed (the handler itself, or encoding its answer). Only the idempotency path
    /// sees it; everywhere else it is its ``error``.
    struct ExecutedCommandFailure: Error {
        let error: ScreenplayError
    }

    /// Spends one command from the sender's budget (by token), or, for a client without a token
    /// (whose command creates an identity), one from the process's identity-creation budget.
    /// Hosts that run commands in process (the web pages) call it too, with the request's headers.
    /// New identities are limited per client address (when known) as well as per process.
    public func admitCommand(from headers: HTTPFields, clientAddress: String? = nil) throws(ScreenplayError) {
        let wait: Duration?
        let what: String
        if let token = Self.token(in: headers) {
            wait = commandLimiter.spend(ETag.strong(for: Array(token.utf8)))
            what = "commands from this client"
        } else if let clientAddress, let addressWait = addressCreationLimiter.spend(clientAddress) {
            wait = addressWait
            what = "new identities from this address"
        } else {
            wait = creationLimiter.spend("new identities")
            what = "new identities"
        }
        guard let wait else { return }
        let seconds = max(1, Int((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up)))
        logger.notice("rate limited", metadata: ["what": "\(what)", "retryAfter": "\(seconds)"])
        throw .tooManyRequests("too many \(what); retry in \(seconds) s", retryAfter: seconds)
    }

    /// The header a client sends so that a retried command runs once.
    public static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!
    /// The header on a replayed answer.
    public static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    private func performCommand(_ request: HTTPRequest, segments: [String], body: [UInt8], version: APIVersion) async throws -> Response {
        let payload = try Self.parsePayload(body, contentType: request.headerFields[.contentType])
        let path = segments.joined(separator: "/")
        guard routes.commandRoute(for: segments) != nil else {
            throw ScreenplayError.notFound("no command at 'commands/\(path)'", path: "commands/" + path)
        }
        let resolved = try await identity.resolve(token: Self.token(in: request.headerFields), creating: true)
        try Self.checkStorage(in: payload)
        // From here on the handler runs: a failure is an answer a retry must get, not a reason to
        // run the command again.
        let result = try await performMarkingFailures(command: path, payload: payload, apiVersion: version, user: resolved.user)
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[Self.contentTypeOptions] = "nosniff"
        if let token = resolved.issuedToken { head.headerFields[Self.tokenHeader] = token }
        let clientKinds = Self.clientKinds(in: request.headerFields, known: routes.customKinds)
        var shaped = Downgrade(to: version, customKinds: routes.customKinds, clientKinds: clientKinds).result(result)
        if case .screen(let replacement) = shaped.outcome { shaped.outcome = .screen(Self.withIDs(replacement, for: version)) }
        do {
            return Response(head: head, body: Array(try ScreenplayEncoder(apiVersion: version).encode(shaped)))
        } catch {
            logger.error("the answer of command '\(path)' could not be encoded", metadata: ["error": "\(error)"])
            throw ExecutedCommandFailure(error: .internalError("the command ran but its answer could not be encoded"))
        }
    }

    // MARK: In-process API (the web pages and tests use it)

    /// What the encoded-screen cache holds and has done.
    public var cacheStatistics: EncodedCacheStatistics { cache.statistics }

    /// The app-defined component kinds registered with the routes.
    public var customKinds: [String: CustomComponentKind] { routes.customKinds }

    /// Resolves a client's token (see ``IdentityResolver``); `creating` for requests that write.
    public func resolveIdentity(token: String?, creating: Bool = true) async throws -> ResolvedIdentity {
        try await identity.resolve(token: token, creating: creating)
    }

    /// Builds the screen at `path` under `screens/`, as built: not downgraded (renderers in
    /// process, such as the web pages, speak the latest version).
    public func screen(
        path: String, query: [String: String] = [:], apiVersion: APIVersion, user: UserIdentity
    ) async throws(ScreenplayError) -> Screen {
        let (route, request) = try screenRequest(
            path: path, segments: RequestTarget.segments(of: path), query: query, apiVersion: apiVersion, user: user)
        return try await build(route, request)
    }

    /// The route for a screen path and the request its builder sees. Only the query keys the
    /// route declares reach the builder (and the cache key).
    private func screenRequest(
        path: String, segments: [String], query: [String: String], apiVersion: APIVersion, user: UserIdentity
    ) throws(ScreenplayError) -> (ScreenplayRoutes.ScreenRoute, ScreenRequest) {
        guard let (route, parameters) = routes.screenRoute(for: segments) else {
            throw .notFound("no screen at 'screens/\(path)'", path: "screens/" + path)
        }
        let request = ScreenRequest(
            path: segments.joined(separator: "/"), parameters: parameters, query: query.filter { route.queryKeys.contains($0.key) },
            apiVersion: apiVersion, user: user)
        return (route, request)
    }

    /// The encoded screen at `path`, from cache when its revision has not changed: the coded
    /// screen, or else the composed page of that route (for `platform` and `locale`), as an
    /// HTTP request for it would get. Hosts that render in process (the web pages) call this.
    public func encodedScreen(
        path: String, query: [String: String] = [:], apiVersion: APIVersion, clientKinds: Set<String> = [], user: UserIdentity,
        platform: Platform = .web, locale: String? = nil
    ) async throws(ScreenplayError) -> EncodedBody {
        let segments = RequestTarget.segments(of: path)
        if routes.screenRoute(for: segments) == nil, let pages {
            let request = ComposedScreens.Request(
                route: segments.joined(separator: "/"), user: user, apiVersion: apiVersion, clientKinds: clientKinds, platform: platform,
                locale: locale)
            guard let page = try await pages.body(for: request) else { throw Self.noScreen(segments.joined(separator: "/")) }
            return page
        }
        return try await encodedScreen(
            path: path, segments: segments, query: query, apiVersion: apiVersion, clientKinds: clientKinds, user: user)
    }

    private func encodedScreen(
        path: String, segments: [String], query: [String: String], apiVersion: APIVersion, clientKinds: Set<String>, user: UserIdentity
    ) async throws(ScreenplayError) -> EncodedBody {
        try await codedScreen(path: path, segments: segments, query: query, apiVersion: apiVersion, clientKinds: clientKinds, user: user)
            .body
    }

    /// A coded screen's bytes, and whether (and until when) its revalidations may be answered
    /// from ``revalidations``: only for routes declaring ``ScreenplayRoutes/Revalidation/fromMemory(until:)``,
    /// and only when `started` (when the request began) is given.
    private func codedScreen(
        path: String, segments: [String], query: [String: String], apiVersion: APIVersion, clientKinds: Set<String>, user: UserIdentity,
        remembering started: Date? = nil
    ) async throws(ScreenplayError) -> (body: EncodedBody, remembered: Remembered?) {
        let (route, request) = try screenRequest(path: path, segments: segments, query: query, apiVersion: apiVersion, user: user)
        let body: EncodedBody
        if let revision = route.revision {
            let value: String
            do {
                value = try await revision(request)
            } catch {
                throw mapBuilderError(error, what: "revision of screen '\(request.path)'")
            }
            let key = EncodedScreenCache.Key(
                route: route.pattern.description, parameters: route.pattern.parameterNames.map { request.parameters[$0] ?? "" },
                query: request.query, apiVersion: apiVersion.rawValue, clientKinds: clientKinds,
                user: route.sharing == .everyone ? nil : user.id)
            do {
                body = try await cache.body(for: key, revision: value) { try await self.encode(route, request, clientKinds: clientKinds) }
            } catch let error as ScreenplayError {
                throw error
            } catch {
                throw mapBuilderError(error, what: "screen '\(request.path)'")
            }
        } else {
            body = try await encode(route, request, clientKinds: clientKinds)
        }
        guard let started, case .fromMemory(let until) = route.revalidation else { return (body, nil) }
        let owner = route.sharing == .everyone ? nil : user
        guard let until else { return (body, Remembered(owner: owner, expiry: nil)) }
        do {
            // From when the request began: a change between then and now (the revision read
            // before it, the expiry after it) gives an expiry already past, never a missed one.
            return (body, Remembered(owner: owner, expiry: try await until(request, started)))
        } catch {
            // A screen that cannot say when it changes by itself is not remembered.
            return (body, nil)
        }
    }

    /// How a coded screen's answer is remembered: whose writes make it stale (`nil`: nobody's,
    /// for screens shared by everyone) and when it expires by itself.
    private struct Remembered {
        let owner: UserIdentity?
        let expiry: Date?
    }

    /// Builds, downgrades, encodes and (when configured) verifies one screen: what a cache miss costs.
    private func encode(
        _ route: ScreenplayRoutes.ScreenRoute, _ request: ScreenRequest, clientKinds: Set<String>
    ) async throws(ScreenplayError) -> EncodedBody {
        let downgrade = Downgrade(to: request.apiVersion, customKinds: routes.customKinds, clientKinds: clientKinds)
        let screen = Self.withIDs(downgrade.screen(try await build(route, request)), for: request.apiVersion)
        let body: EncodedBody
        do {
            body = EncodedBody(bytes: Array(try ScreenplayEncoder(apiVersion: request.apiVersion).encode(screen)))
        } catch {
            throw mapBuilderError(error, what: "encoding of screen '\(request.path)'")
        }
        if configuration.verifiesEncodedScreens {
            try verify(body, path: request.path, version: request.apiVersion, clientKinds: clientKinds)
        }
        return body
    }

    /// Decodes `body` strictly as a client of `version` would; any issue is a server bug, logged
    /// with its JSON path and answered with a 500 that names the screen.
    private func verify(_ body: EncodedBody, path: String, version: APIVersion, clientKinds: Set<String>) throws(ScreenplayError) {
        let decoder = ScreenplayDecoder(mode: .strict, apiVersion: version, customKinds: clientKinds)
        let problem: String?
        do {
            problem = try decoder.decode(Screen.self, from: Data(body.bytes)).issues.first?.description
        } catch {
            problem = error.description
        }
        guard let problem else { return }
        logger.error(
            "screen would not decode for \(version) clients", metadata: ["screen": "\(path)", "problem": "\(problem)"])
        throw .internalError("the server built screen '\(path)' in a form \(version) clients cannot read")
    }

    /// A command body's `storage` (v4: the sending screen's client storage) is checked for every
    /// command, whether or not the command reads it: an object of at most 64 keys (ids), each a
    /// string of at most 4 096 characters. Anything else is a 422 naming the member.
    static func checkStorage(in payload: JSONValue) throws(ScreenplayError) {
        guard let storage = payload["storage"] else { return }
        guard case .object(let members) = storage else {
            throw .invalidField("storage", "'storage' must be an object of strings, found \(storage.typeName)")
        }
        let limits = ValueRules.StorageValues.self
        guard members.count <= limits.keyMaximum else {
            throw .invalidField("storage", "'storage' has \(members.count) keys; the limit is \(limits.keyMaximum)")
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            guard ValueRules.isIdentifier(key, maximum: ValueRules.Key.maximum) else {
                throw .invalidField("storage", "'storage' has the key '\(key.prefix(40))'; keys are 1...64 of A-Z a-z 0-9 . _ : / ~ -")
            }
            guard let text = value.stringValue else {
                throw .invalidField("storage." + key, "'storage.\(key)' must be a string, found \(value.typeName)")
            }
            guard text.unicodeScalars.count <= limits.valueMaximum else {
                throw .invalidField(
                    "storage." + key,
                    "'storage.\(key)' is \(text.unicodeScalars.count) characters long; the limit is \(limits.valueMaximum)")
            }
        }
    }

    /// Performs the command at `path` under `commands/`.
    public func perform(
        command path: String, payload: JSONValue, apiVersion: APIVersion, user: UserIdentity
    ) async throws(ScreenplayError) -> CommandResult {
        let segments = RequestTarget.segments(of: path)
        guard let (route, parameters) = routes.commandRoute(for: segments) else {
            throw .notFound("no command at 'commands/\(path)'", path: "commands/" + path)
        }
        try Self.checkStorage(in: payload)
        let request = CommandRequest(
            path: segments.joined(separator: "/"), parameters: parameters, payload: payload, apiVersion: apiVersion, user: user)
        var result: CommandResult
        do {
            result = try await route.perform(request)
        } catch {
            throw mapBuilderError(error, what: "command '\(request.path)'")
        }
        if case .screen(let replacement) = result.outcome {
            result.outcome = .screen(try checked(replacement, what: "the screen command '\(request.path)' answered with"))
        }
        return result
    }

    /// Builds the screen, gives every component an id and refuses a screen whose ids or bindings
    /// are broken (a bug in its builder: logged with the JSON path, answered with a 500).
    private func build(_ route: ScreenplayRoutes.ScreenRoute, _ request: ScreenRequest) async throws(ScreenplayError) -> Screen {
        let built: Screen
        do {
            built = try await route.build(request)
        } catch {
            throw mapBuilderError(error, what: "screen '\(request.path)'")
        }
        return try checked(built, what: "screen '\(request.path)'")
    }

    /// `screen` with component ids assigned, or a 500 when it cannot be sent.
    private func checked(_ screen: Screen, what: String) throws(ScreenplayError) -> Screen {
        let screen = screen.assigningComponentIDs()
        let problems = screen.structuralProblems
        guard problems.isEmpty else {
            logger.error("\(what) is malformed", metadata: ["problems": "\(problems.prefix(5).joined(separator: "; "))"])
            throw .internalError(
                "the server built \(what) with \(problems.count == 1 ? "a problem" : "\(problems.count) problems"): \(problems[0])")
        }
        return screen
    }

    /// Keeps a ``ScreenplayError`` as it is; anything else is logged and becomes a 500 that
    /// names the screen or command but not the cause.
    private func mapBuilderError(_ error: any Error, what: String) -> ScreenplayError {
        if let error = error as? ScreenplayError { return error }
        if let convertible = error as? any ScreenplayErrorConvertible { return convertible.screenplayError }
        logger.error("failure in \(what)", metadata: ["error": "\(String(reflecting: error))"])
        return .internalError("the server failed to build \(what)")
    }

    // MARK: Parsing

    /// The client's token: `Authorization: Bearer …`, else the `screenplay_token` cookie.
    public static func token(in headers: HTTPFields) -> String? {
        if let authorization = headers.first(.authorization) {
            // `Bearer` in any case, then spaces, then the token: read on the UTF-8 bytes, since
            // this runs for every request an app sends.
            let bytes = authorization.utf8
            if bytes.count > 7, bytes.starts(with: "bearer ".utf8, by: { ($0 | 0x20) == $1 }) {
                return String(authorization.dropFirst(7).trimmingWhitespaceSubstring())
            }
        }
        for cookieHeader in headers[values: .cookie] {
            for pair in cookieHeader.split(separator: ";") {
                let trimmed = pair.trimmingWhitespaceSubstring()
                if trimmed.hasPrefix(tokenCookie + "=") { return String(trimmed.dropFirst(tokenCookie.count + 1)) }
            }
        }
        return nil
    }

    /// `X-Content-Type-Options`: every answer says what it is, and browsers must not guess.
    public static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!

    /// Why a command that authenticates with the browser's cookie (no `Authorization`) is
    /// refused, if it is: a browser sends cookies with cross-site form posts, so such a request
    /// must say it came from this site (`Sec-Fetch-Site` same-origin, an `Origin` equal to the
    /// host) and be JSON (which a cross-site form cannot send without a preflight), whatever its
    /// body. Apps, which send `Authorization`, are not affected.
    static func browserRefusal(_ request: HTTPRequest) -> ScreenplayError? {
        guard request.headerFields[.authorization] == nil,
            request.headerFields[values: .cookie].contains(where: { $0.contains(tokenCookie + "=") })
        else { return nil }
        if let site = request.headerFields[HTTPField.Name("Sec-Fetch-Site")!], !["same-origin", "none"].contains(site.lowercased()) {
            return .crossSiteRequest("a command with this site's cookie must come from this site (Sec-Fetch-Site: \(site))")
        }
        if let origin = request.headerFields[.origin] {
            let host = (request.authority ?? "").lowercased()
            guard !host.isEmpty, ["http://" + host, "https://" + host].contains(origin.lowercased()) else {
                return .crossSiteRequest("a command with this site's cookie must come from this site (Origin: \(origin.prefix(100)))")
            }
        }
        let mediaType = request.headerFields[.contentType]?.split(separator: ";").first.map {
            $0.trimmingWhitespaceSubstring().lowercased()
        }
        guard mediaType == "application/json" else {
            return .crossSiteRequest("a command with this site's cookie must be sent as application/json, even when empty")
        }
        return nil
    }

    /// The app-defined kinds a client lists in `Screenplay-Components`, limited to those the
    /// server knows (so made-up names cannot multiply cache entries).
    static func clientKinds(in headers: HTTPFields, known: [String: CustomComponentKind]) -> Set<String> {
        guard !known.isEmpty else { return [] }
        var kinds: Set<String> = []
        for value in headers[values: componentsHeader] {
            for name in value.split(separator: ",") {
                let trimmed = String(name.trimmingWhitespaceSubstring())
                if known[trimmed] != nil { kinds.insert(trimmed) }
            }
        }
        return kinds
    }

    /// Parses a command body: empty means `{}`; otherwise it must be declared and valid JSON.
    public static func parsePayload(_ body: [UInt8], contentType: String?) throws(ScreenplayError) -> JSONValue {
        guard !body.isEmpty else { return .object([:]) }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingWhitespaceSubstring().lowercased() }
        guard mediaType == "application/json" else { throw .unsupportedMediaType(contentType) }
        let data = Data(body)
        if let failure = JSONSyntax.firstError(in: data) {
            throw .malformedJSON("request body is not valid JSON: \(failure)")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .malformedJSON("request body is not valid JSON: \(error)")
        }
    }
}

/// Lets an app's own error types choose their HTTP status and message.
public protocol ScreenplayErrorConvertible: Error {
    /// The error to answer with.
    var screenplayError: ScreenplayError { get }
}

/// A request path split into decoded segments and query values.
struct RequestTarget {
    let path: String
    let segments: [String]
    let query: [String: String]

    init(_ raw: String) {
        // Most requests have no query: then the path is the string itself, not a copy.
        let mark = raw.utf8.firstIndex(of: UInt8(ascii: "?"))
        path = mark.map { String(raw[..<$0]) } ?? raw
        segments = Self.segments(of: path)
        var query: [String: String] = [:]
        if let mark {
            for pair in raw[raw.index(after: mark)...].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.decodeQueryPart(keyValue[0])
                query[key] = keyValue.count == 2 ? Self.decodeQueryPart(keyValue[1]) : ""
            }
        }
        self.query = query
    }

    static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(decode)
    }

    /// Percent-decodes one segment; most have nothing to decode, and skip Foundation's decoder
    /// (the most expensive step of answering a cached screen before this shortcut).
    static func decode(_ part: Substring) -> String {
        guard part.utf8.contains(UInt8(ascii: "%")) else { return String(part) }
        return part.removingPercentEncoding ?? String(part)
    }

    /// Query values also spell spaces as `+` (HTML forms).
    static func decodeQueryPart(_ part: Substring) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(part) }
        let plusAsSpace = part.replacingOccurrences(of: "+", with: " ")
        return plusAsSpace.removingPercentEncoding ?? plusAsSpace
    }
}

extension HTTPFields {
    /// The first value of `name`, as sent. `subscript(_:)` joins every value of a name into a new
    /// string; the fields read on every request (a token, a condition) come once.
    func first(_ name: HTTPField.Name) -> String? {
        for field in self where field.name == name { return field.value }
        return nil
    }
}

import Foundation
public import HTTPTypes
public import Logging
import ScreenplayContract

/// The framework-agnostic Screenplay server: takes an `HTTPRequest` and its body, returns an
/// `HTTPResponse` and its body. Web-framework adapters (``ScreenplayHummingbird``) only convert.
///
/// It serves `GET {prefix}/v{N}/screens/{path}` and `POST {prefix}/v{N}/commands/{path}`,
/// with ETags and 304s, an identity per client, and JSON errors that say what and where. The
/// service itself only reads where a request goes (``APIEndpoint``) and hands it on:
/// - screens to the screen pipeline (`ScreenPipeline`: build → downgrade → encode → verify →
///   cache, or a page from ``PageSource``);
/// - commands to the command pipeline (`CommandPipeline`: admission → idempotency → perform →
///   result).
/// Hosts that render in process (the web pages) use the same two pipelines through the
/// in-process API (ScreenplayService+InProcess.swift).
///
/// A class (immutable, so `Sendable`): adapters capture it in every route's closure, and one
/// reference is cheaper to hand to each request than a copy of its many fields.
public final class ScreenplayService: Sendable {
    /// The configuration in force.
    public let configuration: Configuration
    /// Pages served at `screens/{route}` for routes the code does not define (the composer's).
    public let pages: (any PageSource)?
    /// What revalidations of screens declaring ``ScreenplayRoutes/Revalidation/fromMemory(until:)``
    /// were answered with, for the HTTP adapter to answer the next ones before routing; `nil`
    /// without an invalidation bus, which is what keeps it exact.
    public let revalidations: RevalidationMemory?
    /// The open screen event streams (`GET {prefix}/v{N}/events`); `nil` without an invalidation
    /// bus, since nothing would tell them of a change.
    public let events: ScreenEventHub?
    /// Where reported events go (`POST {prefix}/v6/reports`); `nil`: the server keeps none, and
    /// the endpoint is a 404 that says so.
    public let reports: (any ClientEventSink)?
    /// The screen requests this server answered, by API version, platform and language, over
    /// the last seven days: what the layout admin's targeting offers.
    public let clientMix: ClientMix
    let screens: ScreenPipeline
    let commands: CommandPipeline
    let versions: APIVersionPolicy
    let logger: Logger
    /// ``Configuration/pathPrefix`` split once, not per request.
    let prefixSegments: [String]

    /// Creates a service over a route table and an identity resolver.
    ///
    /// `pages` serves pages (layouts from the admin, composed) at the routes `routes` does not
    /// define: a coded screen always wins, so no page can break one. `invalidations` lets
    /// revalidations be answered from memory (``revalidations``). `idempotency` keeps the answers
    /// to `Idempotency-Key` commands (default: this process's memory; replicas share one in
    /// their database). `reports` keeps the events apps report (none kept without).
    public init(
        routes: ScreenplayRoutes, identity: any IdentityResolver, configuration: Configuration = .init(), pages: (any PageSource)? = nil,
        invalidations: (any InvalidationBus)? = nil, idempotency: (any IdempotencyStore)? = nil, reports: (any ClientEventSink)? = nil,
        logger: Logger = Logger(label: "screenplay.server")
    ) {
        self.configuration = configuration
        self.reports = reports
        self.pages = pages
        self.logger = logger
        self.prefixSegments = RequestTarget.segments(of: configuration.pathPrefix)
        let versions = APIVersionPolicy(supported: configuration.supportedVersions, deprecated: configuration.deprecatedVersions)
        self.versions = versions
        // Subscribed last, after the identity resolver and pages subscribed to the same bus
        // (they exist before the service): they forget first, so this memory never keeps an
        // answer computed from what they held.
        let mix = ClientMix()
        self.clientMix = mix
        // Requests answered before routing are readers too: counted from what they say.
        let apiPrefix = configuration.pathPrefix
        let revalidations = invalidations.map {
            RevalidationMemory(byteBudget: configuration.revalidationByteBudget, bus: $0) { request in
                mix.record(request, apiPrefix: apiPrefix)
            }
        }
        self.revalidations = revalidations
        // After the memory: a stream looks only once every cache has forgotten.
        self.events = invalidations.map { ScreenEventHub(limits: configuration.eventStreams, bus: $0) }
        let boundary = BuilderBoundary(logger: logger)
        self.screens = ScreenPipeline(
            routes: routes, pages: pages, cache: EncodedScreenCache(byteBudget: configuration.cacheByteBudget), mix: clientMix,
            verifies: configuration.verifiesEncodedScreens, boundary: boundary, logger: logger, identity: identity,
            revalidations: revalidations, versions: versions)
        self.commands = CommandPipeline(
            routes: routes, identity: identity, admission: CommandAdmission(configuration: configuration, logger: logger),
            ledger: idempotency ?? IdempotencyLedger(), boundary: boundary, versions: versions,
            logger: logger)
    }

    /// Answers one HTTP request. Never throws: every failure becomes a JSON error response.
    /// `clientAddress` (the peer's IP address, when the adapter knows it) is what limits how
    /// many identities one address can create.
    public func respond(to request: HTTPRequest, body: [UInt8], clientAddress: String? = nil) async -> Response {
        await respond(to: request, at: endpoint(of: request), body: body, clientAddress: clientAddress)
    }

    /// Where `request` goes, or why it goes nowhere: read once per request.
    func endpoint(of request: HTTPRequest) -> Result<APIEndpoint, ScreenplayError> {
        Result { () throws(ScreenplayError) in
            try APIEndpoint(request, pathPrefix: configuration.pathPrefix, prefix: prefixSegments, versions: versions)
        }
    }

    /// Answers `request`, whose target was already read into `endpoint`.
    func respond(
        to request: HTTPRequest, at endpoint: Result<APIEndpoint, ScreenplayError>, body: [UInt8], clientAddress: String?
    ) async -> Response {
        // Whatever revision the client has seen written, this request is answered from no older.
        await RevisionWatermark.$floor.withValue(RevisionWatermark.floor(in: request.headerFields)) {
            await answer(request, at: endpoint, body: body, clientAddress: clientAddress)
        }
    }

    private func answer(
        _ request: HTTPRequest, at endpoint: Result<APIEndpoint, ScreenplayError>, body: [UInt8], clientAddress: String?
    ) async -> Response {
        do {
            let endpoint = try endpoint.get()
            try admit(request, at: endpoint, bodySize: body.count, clientAddress: clientAddress)
            switch endpoint.kind {
            case .screens: return try await screens.respond(to: request, at: endpoint)
            case .commands: return try await commands.respond(to: request, at: endpoint, body: body, clientAddress: clientAddress)
            case .sync: return try await sync(request, at: endpoint, body: body)
            case .reports: return try await report(request, at: endpoint, body: body)
            case .events:
                throw ScreenplayError(
                    status: .notImplemented, code: "streamingUnavailable",
                    message: "the event stream needs a host that streams responses (respondStreaming)")
            }
        } catch let error as ScreenplayError {
            return Self.errorResponse(error)
        } catch let failure as CommandPipeline.ExecutedCommandFailure {
            return Self.errorResponse(failure.error)
        } catch let error as any ScreenplayErrorConvertible {
            // The store unreachable (a 503 to retry), met before any builder ran.
            return Self.errorResponse(error.screenplayError)
        } catch {
            logger.error("unexpected failure answering \(request.method) \(request.path ?? "")", metadata: ["error": "\(error)"])
            return Self.errorResponse(.internalError("the server failed to answer this request"))
        }
    }
}

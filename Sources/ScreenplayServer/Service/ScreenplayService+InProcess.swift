public import Foundation
public import HTTPTypes
public import ScreenplayContract
import Synchronization

/// The in-process API: what hosts that render beside the service (the web pages, the admin's
/// preview) and tests call instead of HTTP. The same pipelines and caches as the HTTP API.
extension ScreenplayService {
    /// What the encoded-screen cache holds and has done.
    public var cacheStatistics: CacheStatistics { screens.cache.statistics }

    /// The app-defined component kinds registered with the routes.
    public var customKinds: [String: CustomComponentKind] { screens.routes.customKinds }

    /// Resolves a client's token (see ``IdentityResolver``); `creating` for requests that write.
    public func resolveIdentity(token: String?, creating: Bool = true) async throws -> ResolvedIdentity {
        try await screens.identity.resolve(token: token, creating: creating)
    }

    /// Builds the screen at `path` under `screens/`, as built: not downgraded (renderers in
    /// process, such as the web pages, speak the latest version).
    public func screen(
        path: String, query: [String: String] = [:], apiVersion: APIVersion, user: UserIdentity
    ) async throws(ScreenplayError) -> Screen {
        let (route, request) = try screens.screenRequest(
            path: path, segments: RequestTarget.segments(of: path), query: query, apiVersion: apiVersion, user: user)
        return try await screens.build(route, request)
    }

    /// The encoded screen at `path`, from cache when its revision has not changed: the coded
    /// screen, or else the page of that route (for `platform` and `locale`), as an HTTP request
    /// for it would get.
    public func encodedScreen(
        path: String, query: [String: String] = [:], apiVersion: APIVersion, clientKinds: Set<String> = [], user: UserIdentity,
        platform: Platform = .web, locale: String? = nil
    ) async throws(ScreenplayError) -> EncodedBody {
        try await screens.encoded(
            path: path, query: query, apiVersion: apiVersion, clientKinds: clientKinds, user: user, platform: platform, locale: locale
        ).body
    }

    /// The encoded screen at `path` as ``encodedScreen(path:query:apiVersion:clientKinds:user:platform:locale:)``
    /// answers it, with the screen value itself when this request built it (a coded screen not in
    /// the cache): a host that renders in process renders that instead of decoding the bytes again.
    ///
    /// With `ticket` (taken from ``revalidations`` before the request read anything, its token
    /// included), the answer also says whether the host may remember what it makes of the screen
    /// (``RenderableScreen/remembered``), as the API remembers its own answers.
    public func renderableScreen(
        path: String, query: [String: String] = [:], apiVersion: APIVersion, clientKinds: Set<String> = [], user: UserIdentity,
        platform: Platform = .web, locale: String? = nil, remembering ticket: RevalidationMemory.Ticket? = nil
    ) async throws(ScreenplayError) -> RenderableScreen {
        // A page a host renders (the web's) is a reader as an app is.
        clientMix.record(version: apiVersion, platform: platform, locale: locale)
        let built = ScreenPipeline.BuiltScreen()
        let answer = try await screens.encoded(
            path: path, query: query, apiVersion: apiVersion, clientKinds: clientKinds, user: user, platform: platform, locale: locale,
            remembering: ticket?.taken, keeping: built)
        return RenderableScreen(
            body: answer.body, screen: built.screen.withLock { $0 },
            remembered: answer.remembered.flatMap { remembered in
                ticket.map { RenderableScreen.Remembered(owner: remembered.owner, expiry: remembered.expiry, ticket: $0) }
            })
    }

    /// Performs the command at `path` under `commands/`.
    public func perform(
        command path: String, payload: JSONValue, apiVersion: APIVersion, user: UserIdentity
    ) async throws(ScreenplayError) -> CommandResult {
        try await commands.perform(command: path, payload: payload, apiVersion: apiVersion, user: user)
    }

    /// Spends one command from the sender's budget (by token), or, for a client without a token
    /// (whose command creates an identity), one from the identity-creation budgets (see
    /// ``Configuration/commandRate``); with `createsIdentity` false (a command that runs
    /// anonymously for such a client), one from its address's command budget. Hosts that run
    /// commands in process (the web pages) call it with the request's headers.
    public func admitCommand(from headers: HTTPFields, clientAddress: String? = nil, createsIdentity: Bool = true) throws(ScreenplayError) {
        try commands.admission.admit(from: headers, clientAddress: clientAddress, createsIdentity: createsIdentity)
    }

    /// Who the command at `path` under `commands/` runs as for a client without a token (see
    /// ``ScreenplayRoutes/CommandIdentity``); `nil` when no command is there.
    public func commandIdentity(path: String) -> ScreenplayRoutes.CommandIdentity? {
        commands.routes.commandRoute(for: RequestTarget.segments(of: path))?.0.identity
    }
}

/// A screen for a host that renders it in process (``ScreenplayService/renderableScreen(path:query:apiVersion:clientKinds:user:platform:locale:)``).
public struct RenderableScreen: Sendable {
    /// The encoded screen, as an app's request gets it; its ETag names the version.
    public let body: EncodedBody
    /// The screen those bytes encode, when the request built it; `nil` when they came from the
    /// cache or from the pages (composed pages are spliced as bytes): decode ``body`` then.
    public let screen: Screen?
    /// Whether what the host makes of this screen (a web page) may be remembered and answered
    /// before routing, as the API's own answers are: set only for a screen whose route declares
    /// ``ScreenplayRoutes/Revalidation/fromMemory(until:)`` and a request that gave a ticket.
    public let remembered: Remembered?

    /// What ``RevalidationMemory/remember(_:owner:etag:fields:ok:expiry:ticket:)`` needs besides
    /// the answer: whose writes make it stale, when it expires by itself, and the ticket the
    /// request took when it began.
    public struct Remembered: Sendable {
        /// Whose writes make it stale (`nil`: nobody's, a screen shared by everyone).
        public let owner: UserIdentity?
        /// When the screen said it changes by itself, if it did.
        public let expiry: Date?
        /// The ticket the request took when it began.
        public let ticket: RevalidationMemory.Ticket
    }
}

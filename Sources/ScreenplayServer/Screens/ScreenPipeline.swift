import Foundation
import Logging
import ScreenplayContract
import Synchronization

/// How a screen's bytes are made: route → revision → (from the cache, or) build → downgrade →
/// ids → encode → verify → cache. Coded screens come from the routes; a path no route defines
/// goes to the pages (``PageSource``), which a coded screen therefore always wins over.
///
/// Serves both the HTTP API (``ScreenPipeline/respond(to:at:)``) and the hosts that render in
/// process (the web pages), so both get the same bytes from the same cache.
struct ScreenPipeline: Sendable {
    let routes: ScreenplayRoutes
    let pages: (any PageSource)?
    let cache: EncodedScreenCache
    /// Where each HTTP screen request is counted (version, platform, language).
    let mix: ClientMix
    /// See ``ScreenplayService/Configuration/verifiesEncodedScreens``.
    let verifies: Bool
    let boundary: BuilderBoundary
    let logger: Logger
    // What the HTTP side (ScreenPipeline+HTTP.swift) needs besides.
    let identity: any IdentityResolver
    let revalidations: RevalidationMemory?
    let versions: APIVersionPolicy

    /// How a coded screen's answer is remembered: whose writes make it stale (`nil`: nobody's,
    /// for screens shared by everyone) and when it expires by itself.
    struct Remembered: Sendable {
        let owner: UserIdentity?
        let expiry: Date?
    }

    /// The route for a screen path and the request its builder sees. Only the query keys the
    /// route declares reach the builder (and the cache key).
    func screenRequest(
        path: String, segments: [String], query: [String: String], apiVersion: APIVersion, user: UserIdentity
    ) throws(ScreenplayError) -> (ScreenplayRoutes.ScreenRoute, ScreenRequest) {
        guard let (route, parameters) = routes.screenRoute(for: segments) else { throw Self.noScreen(path) }
        let request = ScreenRequest(
            path: segments.joined(separator: "/"), parameters: parameters, query: query.filter { route.queryKeys.contains($0.key) },
            apiVersion: apiVersion, user: user)
        return (route, request)
    }

    /// Where a request that built its coded screen (a cache miss) leaves the screen as encoded:
    /// a host that renders in process (the web pages) renders that value instead of decoding the
    /// bytes it was just encoded to. Nothing is kept beyond the request.
    final class BuiltScreen: Sendable {
        let screen = Mutex<Screen?>(nil)
    }

    /// The encoded screen at `path`: the coded screen, or else the page of that route (for
    /// `platform` and `locale`), as an HTTP request for it would get; a coded screen built for this
    /// request is left in `built`. With `started`, also how the answer may be remembered (see
    /// ``coded(path:segments:query:apiVersion:clientKinds:user:remembering:keeping:)``, and for a
    /// page ``PageAnswer/remembered``).
    func encoded(
        path: String, query: [String: String], apiVersion: APIVersion, clientKinds: Set<String>, user: UserIdentity, platform: Platform,
        locale: String?, remembering started: Date? = nil, keeping built: BuiltScreen? = nil
    ) async throws(ScreenplayError) -> (body: EncodedBody, remembered: Remembered?) {
        let segments = RequestTarget.segments(of: path)
        let route = segments.joined(separator: "/")
        if routes.screenRoute(for: segments) == nil, let pages {
            let request = PageRequest(
                route: route, user: user, apiVersion: apiVersion, clientKinds: clientKinds, platform: platform, locale: locale)
            guard let page = try await pages.page(for: request) else { throw Self.noScreen(route) }
            return (page.body, started == nil ? nil : page.remembered.map { Remembered(owner: $0.owner, expiry: $0.until) })
        }
        return try await coded(
            path: path, segments: segments, query: query, apiVersion: apiVersion, clientKinds: clientKinds, user: user,
            remembering: started, keeping: built)
    }

    /// A coded screen's bytes, from the cache when its route declares a revision and it has not
    /// changed, and whether (and until when) its revalidations may be answered from memory: only
    /// for routes declaring ``ScreenplayRoutes/Revalidation/fromMemory(until:)``, and only when
    /// `started` (when the request began) is given.
    func coded(
        path: String, segments: [String], query: [String: String], apiVersion: APIVersion, clientKinds: Set<String>, user: UserIdentity,
        remembering started: Date? = nil, keeping built: BuiltScreen? = nil
    ) async throws(ScreenplayError) -> (body: EncodedBody, remembered: Remembered?) {
        let (route, request) = try screenRequest(path: path, segments: segments, query: query, apiVersion: apiVersion, user: user)
        let body: EncodedBody
        if let revision = route.revision {
            let value: String
            do {
                value = try await revision(request)
            } catch {
                throw boundary.answer(for: error, in: "revision of screen '\(request.path)'")
            }
            let key = ScreenCacheKey(
                route: route.pattern.description, parameters: route.pattern.parameterNames.map { request.parameters[$0] ?? "" },
                query: request.query, apiVersion: apiVersion.rawValue, clientKinds: clientKinds,
                user: route.sharing == .everyone ? nil : user.id)
            do {
                body = try await cache.value(for: key, revision: value) {
                    try await self.encode(route, request, clientKinds: clientKinds, keeping: built)
                }
            } catch {
                throw boundary.answer(for: error, in: "screen '\(request.path)'")
            }
        } else {
            body = try await encode(route, request, clientKinds: clientKinds, keeping: built)
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

    /// Builds the screen as its builder made it (ids assigned and checked), not downgraded.
    func build(_ route: ScreenplayRoutes.ScreenRoute, _ request: ScreenRequest) async throws(ScreenplayError) -> Screen {
        let built: Screen
        do {
            built = try await route.build(request)
        } catch {
            throw boundary.answer(for: error, in: "screen '\(request.path)'")
        }
        return try boundary.checked(built, what: "screen '\(request.path)'")
    }

    /// Builds, downgrades, encodes and (when configured) verifies one screen: what a cache miss
    /// costs. The screen as encoded is left in `built`.
    private func encode(
        _ route: ScreenplayRoutes.ScreenRoute, _ request: ScreenRequest, clientKinds: Set<String>, keeping built: BuiltScreen? = nil
    ) async throws(ScreenplayError) -> EncodedBody {
        let downgrade = Downgrade(to: request.apiVersion, customKinds: routes.customKinds, clientKinds: clientKinds)
        let screen = downgrade.screen(try await build(route, request)).identified(for: request.apiVersion)
        let body: EncodedBody
        do {
            body = EncodedBody(bytes: Array(try ScreenplayEncoder(apiVersion: request.apiVersion).encode(screen)))
        } catch {
            throw boundary.answer(for: error, in: "encoding of screen '\(request.path)'")
        }
        if verifies { try verify(body, path: request.path, version: request.apiVersion, clientKinds: clientKinds) }
        built?.screen.withLock { $0 = screen }
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
        logger.error("screen would not decode for \(version) clients", metadata: ["screen": "\(path)", "problem": "\(problem)"])
        throw .internalError("the server built screen '\(path)' in a form \(version) clients cannot read")
    }

    static func noScreen(_ path: String) -> ScreenplayError {
        .notFound("no screen at 'screens/\(path)'", path: "screens/" + path)
    }
}

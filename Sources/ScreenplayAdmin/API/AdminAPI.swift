import Foundation
public import HTTPTypes
public import ScreenplayComposer
import ScreenplayContract
public import ScreenplayLayoutStore
public import ScreenplayServer
public import ScreenplayStore

/// The layout admin's JSON API, `/admin/api/…`: pages, drafts, publish, rollback, widget switches,
/// previews, experiments, reports, the audit log and API tokens, for teams that script their
/// layouts from CI.
///
/// Every request carries an admin API token (`Authorization: Bearer …`, made with
/// `screenplay admin create-token NAME`); without a valid one the answer is a JSON 401, whatever
/// the route. Bodies are JSON; every error is the service's JSON error with code, message and
/// path, and a template or experiment that breaks its contract is a 422 listing every problem with
/// its JSON path (`{"error": …, "problems": [{"path": "$.sections[0].widgets[2].kind", …}]}`).
///
/// **Versions.** Every read answers a strong `ETag` of what it returns (and `304` to a matching
/// `If-None-Match`). The things a write changes have versions of their own, read at their own
/// address: a draft (`GET pages/{route}/draft`), a live page (`GET pages/{route}/live`), an
/// experiment (`GET experiments/{key}`). A write that sends `If-Match` with the ETag it read is
/// made only to that version: when someone changed it since, nothing is written and the answer
/// is `412 preconditionFailed`, whose body says who changed it, when, and what changed since the
/// version named (`changes`), with the current `etag`. `If-Match: *` requires that it exists,
/// `If-None-Match: *` that it does not (create only). A write without either replaces whatever is
/// there, as before versions existed: scripts that apply a file kept in version control are the
/// source of truth by design, and forcing them to read first only to send back what they just read
/// would protect nothing. Every write answers the new `ETag`.
///
/// | request | does | versioned by |
/// | --- | --- | --- |
/// | `GET pages` | every page: route, title, live revision, draft | |
/// | `GET pages/{route}` | live template, draft, history, the newest composition's report | |
/// | `GET pages/{route}/draft` | the draft, its `ETag` its version | |
/// | `PUT pages/{route}/draft` | saves the body (a template) as the draft | the draft |
/// | `DELETE pages/{route}/draft` | discards the draft | the draft |
/// | `POST pages/{route}/draft/edits` | `{"edits": [{"op": "nudge", "id": "deal-buy", "by": -1}, …]}`: the editor's changes as data (``DraftEdit``), all or none, one step | the draft |
/// | `GET pages/{route}/live` | the live revision, its `ETag` its version | |
/// | `POST pages/{route}/publish` | `{"expectedLive": N, "note": "…"}` (both optional) | the draft |
/// | `POST pages/{route}/rollback` | `{"revision": N}` | the live page |
/// | `POST pages/{route}/widgets/{id}/enabled` | `{"enabled": false}`: the kill switch | the live page |
/// | `POST pages/{route}/preview` | composes the draft (or live) as `{"platform", "apiVersion", "userID", "variants", "locale", "kinds"}` says: the screen and each widget's latency and bytes | |
/// | `GET experiments` | every experiment | |
/// | `GET experiments/{key}` | one experiment, its `ETag` its version | |
/// | `PUT/DELETE experiments/{key}` | creates, replaces or deletes it | the experiment |
/// | `GET experiments/{key}/report` | exposures per variant | |
/// | `GET audit` | the newest 200 changes (`?subject=` filters) | |
/// | `GET tokens` | every admin API token by id, admin, label and date, never the token (`?admin=NAME` filters) | |
/// | `POST tokens/revoke` | `{"token": "…"}`: an admin API token or an app user's token stops working on every replica; `{"admin": "ada", "ids": ["3f2a…"]}` or `{"admin": "ada", "all": true}` revokes admin tokens by id | |
public struct AdminAPI: Sendable {
    let admins: AdminDirectory
    let users: UserDirectory?
    let layouts: LayoutStore
    let experiments: ExperimentStore
    let pages: ComposedScreens?
    /// Where the API is mounted.
    public let prefix: String
    /// Its routes (``routeTable(prefix:)``): what a request is dispatched by.
    public let routes: RouteTable
    /// Its OpenAPI description's bytes, made by the host (which knows the app's kinds) from the
    /// API's own table (so the paths are this mount's), answered at `GET {prefix}/openapi.json`;
    /// `nil`: that is a 404.
    let description: (@Sendable (RouteTable) throws -> [UInt8])?

    /// The API over the stores; `pages` (the service's composed pages) gives previews and reports;
    /// `description` makes the bytes of its OpenAPI description from the API's table (asked for
    /// on each request for it: keep them if they are costly).
    public init(
        admins: AdminDirectory, layouts: LayoutStore, experiments: ExperimentStore, pages: ComposedScreens?, users: UserDirectory? = nil,
        prefix: String = "/admin/api", description: (@Sendable (RouteTable) throws -> [UInt8])? = nil
    ) {
        self.description = description
        self.admins = admins
        self.users = users
        self.layouts = layouts
        self.experiments = experiments
        self.pages = pages
        self.prefix = prefix
        routes = Self.routeTable(prefix: prefix)
    }

    /// The largest body accepted (a template is at most 256 KiB as stored).
    public static let maximumBodySize = 512 * 1024

    /// Answers one request. Never throws: failures are JSON errors.
    public func respond(to request: HTTPRequest, body: [UInt8]) async -> ScreenplayService.Response {
        do {
            guard let token = RequestFields.bearer(request.headerFields), let admin = try await admins.admin(forAPIToken: token) else {
                var refusal = ScreenplayService.errorResponse(
                    ScreenplayError(
                        status: .unauthorized, code: "unauthorized",
                        message:
                            "the admin API needs an admin token: Authorization: Bearer <token from `screenplay admin create-token NAME`>",
                        path: "Authorization"))
                refusal.head.headerFields[.wwwAuthenticate] = #"Bearer realm="screenplay-admin""#
                return refusal
            }
            guard body.count <= Self.maximumBodySize else { throw ScreenplayError.payloadTooLarge(limit: Self.maximumBodySize) }
            let response = try await route(request, body: body, admin: admin)
            return Self.revalidated(response, request: request)
        } catch let error as ScreenplayError {
            return ScreenplayService.errorResponse(error)
        } catch let error as LayoutError {
            return Self.response(for: error)
        } catch let error as AdminDirectory.AccountError {
            // Only `noSuchAdmin` reaches here (a listing or revocation naming nobody).
            return ScreenplayService.errorResponse(.notFound(error.description, path: "admin"))
        } catch let error as AdminDirectory.TokenError {
            let status: HTTPResponse.Status =
                switch error {
                case .malformedID: .unprocessableContent
                case .unknownID: .notFound
                case .ambiguousID: .conflict
                }
            return ScreenplayService.errorResponse(ScreenplayError(status: status, code: "invalidTokenID", message: error.description, path: "$.ids"))
        } catch let error as any ScreenplayErrorConvertible {
            return ScreenplayService.errorResponse(error.screenplayError)
        } catch {
            return ScreenplayService.errorResponse(.internalError("the admin API failed: \(error)"))
        }
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest, body: [UInt8], admin: String) async throws -> ScreenplayService.Response {
        let rawPath = (request.path ?? "/").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let segments = rawPath.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let query = RequestFields.query(request.path ?? "")
        let method = request.method
        // The table says which route this is, and what the path answers when the method is not one.
        let route: SiteRoute
        let parameters: [String: String]
        switch routes.resolve(method, segments) {
        case .route(let found, let values): (route, parameters) = (found, values)
        case .methodNotAllowed(let allowed):
            throw ScreenplayError.methodNotAllowed(method, allowed: allowed.map(\.rawValue).joined(separator: ", "), path: rawPath)
        case .notFound: throw ScreenplayError.notFound("nothing at '\(rawPath)'; see GET \(prefix)/pages", path: rawPath)
        }
        // The route's policy (its body limit: the API's callers hold a token, not a cookie); then
        // the preconditions, and none on a read (it would be ignored: say so rather than pretend
        // it was checked).
        if let refusal = route.policy.refusal(of: request, bodySize: body.count, cookie: AdminSite.sessionCookie) { throw refusal }
        let expected = try Self.expectedVersion(request.headerFields)
        if method == .get || method == .head, expected != .any { throw Self.preconditionOnRead }
        let page = parameters["route"] ?? ""
        let key = parameters["key"] ?? ""
        switch route.operation {
        case "adminListPages": return try Self.json(try await layouts.pages())
        case "adminPage": return try await self.page(page)
        case "adminDraft":
            guard let draft = try await layouts.draft(of: page) else { throw ScreenplayError.notFound("page '\(page)' has no draft", path: rawPath) }
            return try Self.json(DraftListing(draft, warnings: warnings(of: draft)), etag: draft.version)
        case "adminSaveDraft": return try await saveDraft(page, body: body, admin: admin, expected: expected)
        case "adminDiscardDraft":
            guard try await layouts.discardDraft(of: page, by: admin, expecting: expected) else {
                throw ScreenplayError.notFound("page '\(page)' has no draft", path: rawPath)
            }
            return try Self.json(["discarded": page])
        case "adminEditDraft": return try await applyEdits(route: page, body: body, admin: admin, expected: expected, path: rawPath)
        case "adminLivePage":
            guard let live = try await layouts.published(route: page) else {
                throw ScreenplayError.notFound("page '\(page)' was never published", path: rawPath)
            }
            return try Self.json(live, etag: live.version)
        case "adminPublish":
            let request: PublishBody = body.isEmpty ? PublishBody() : try Self.decode(body)
            let revision = try await layouts.publish(
                route: page, by: admin, expectedLive: request.expectedLive, expecting: expected, note: request.note ?? "")
            return try Self.json(revision, etag: revision.version)
        case "adminRollback":
            let request: RollbackBody = try Self.decode(body)
            let revision = try await layouts.rollback(
                route: page, to: request.revision, by: admin, expectedLive: request.expectedLive, expecting: expected)
            return try Self.json(revision, etag: revision.version)
        case "adminPreview":
            let request: PreviewBody = body.isEmpty ? PreviewBody() : try Self.decode(body)
            return try await preview(route: page, request)
        case "adminSwitchWidget":
            let switched: EnabledBody = try Self.decode(body)
            let revision = try await layouts.setEnabled(switched.enabled, instance: parameters["id"] ?? "", route: page, by: admin, expecting: expected)
            return try Self.json(revision, etag: revision.version)
        case "adminListExperiments": return try Self.json(try await experiments.all())
        case "adminExperiment", "adminSaveExperiment", "adminDeleteExperiment":
            return try await experiment(key, method: method, body: body, admin: admin, expected: expected, path: rawPath)
        case "adminExperimentReport":
            let report = try await experiments.report(for: key)
            guard report.definition != nil || !report.exposures.isEmpty else {
                throw ScreenplayError.notFound("no experiment '\(key)'", path: rawPath)
            }
            return try Self.json(ReportListing(experiment: report.experiment, exposures: report.exposures, total: report.total))
        case "adminAudit": return try Self.json(try await layouts.auditLog(subject: query["subject"], limit: 200))
        case "adminTokens": return try Self.json(try await admins.apiTokens(of: query["admin"]))
        case "adminRevokeTokens": return try await revoke(try Self.decode(body), by: admin, path: rawPath)
        case "adminOpenAPIDescription":
            guard let description else { throw ScreenplayError.notFound("this server does not describe its admin API", path: rawPath) }
            let bytes = try description(routes)
            return Self.json(bytes: bytes, etag: ETag.strong(for: bytes))
        default: throw ScreenplayError.internalError("the admin API's table lists \(route.operation), which it does not answer")
        }
    }

    /// `PUT pages/{route}/draft`: the body, a template, saved as the draft.
    private func saveDraft(_ route: String, body: [UInt8], admin: String, expected: ExpectedVersion) async throws -> ScreenplayService.Response {
        var template: PageTemplate = try Self.decode(body)
        if template.route.isEmpty { template.route = route }
        guard template.route == route else {
            throw ScreenplayError.invalidField("route", "the body's route '\(template.route)' is not the URL's '\(route)'")
        }
        let world = try await WorldCheck.problems(in: template, pages: pages, experiments: experiments)
        let errors = world.filter { !$0.isWarning }
        if !errors.isEmpty { throw LayoutError.invalid(errors) }
        let draft = try await layouts.saveDraft(template, by: admin, expecting: expected)
        let warnings = layouts.problems(in: template).filter(\.isWarning) + world.filter(\.isWarning)
        return try Self.json(
            DraftListing(draft, warnings: warnings.map { ProblemListing(path: $0.path, message: $0.message, warning: true) }),
            etag: draft.version)
    }

    /// `GET`, `PUT` and `DELETE experiments/{key}`: one experiment, versioned.
    private func experiment(
        _ key: String, method: HTTPRequest.Method, body: [UInt8], admin: String, expected: ExpectedVersion, path: String
    ) async throws -> ScreenplayService.Response {
        switch method {
        case .get, .head:
            guard let stored = try await experiments.stored(key) else { throw ScreenplayError.notFound("no experiment '\(key)'", path: path) }
            // The stored definition as it is: its bytes are what its version is a digest of.
            return Self.json(bytes: Array(stored.json.utf8), etag: stored.version)
        case .delete:
            guard try await experiments.delete(key, by: admin, expecting: expected) else {
                throw ScreenplayError.notFound("no experiment '\(key)'", path: path)
            }
            return try Self.json(["deleted": key])
        default:
            var experiment: Experiment = try Self.decode(body)
            if experiment.key.isEmpty { experiment.key = key }
            guard experiment.key == key else {
                throw ScreenplayError.invalidField("key", "the body's key '\(experiment.key)' is not the URL's '\(key)'")
            }
            try await experiments.save(experiment, by: admin, expecting: expected)
            guard let stored = try await experiments.stored(key) else { return try Self.json(experiment) }
            return Self.json(bytes: Array(stored.json.utf8), etag: stored.version)
        }
    }

    /// `POST tokens/revoke`: an admin API token (by itself, or by its admin and ids), else an app
    /// user's token.
    private func revoke(_ request: RevokeBody, by admin: String, path: String) async throws -> ScreenplayService.Response {
        if let owner = request.admin {
            guard request.token == nil else {
                throw ScreenplayError.invalidField("token", "send a token, or an admin with ids (or all), not both")
            }
            guard request.all == true || !(request.ids ?? []).isEmpty else {
                throw ScreenplayError.invalidField("ids", "name the tokens to revoke by id (GET \(prefix)/tokens lists them), or send \"all\": true")
            }
            let revoked = try await admins.revokeAPITokens(of: owner, ids: request.ids ?? [], all: request.all == true)
            return try Self.json(RevokedListing(revoked: !revoked.isEmpty, tokens: revoked))
        }
        guard let token = request.token else {
            throw ScreenplayError.invalidField("token", "send the token to revoke, or an admin with the ids of their tokens")
        }
        // An admin token first: the two kinds never share a value (each is 256 random bits).
        if let revoked = try await admins.revokeAPIToken(token) {
            return try Self.json(RevokedListing(revoked: true, tokens: [revoked]))
        }
        guard let users else { throw ScreenplayError.notFound("no admin API token is this one, and this server keeps no app users", path: path) }
        return try Self.json(["revoked": try await users.revoke(token: token)])
    }

    // MARK: Pages

    private func page(_ route: String) async throws -> ScreenplayService.Response {
        let live = try await layouts.published(route: route)
        let draft = try await layouts.draft(of: route)
        guard live != nil || draft != nil else { throw ScreenplayError.notFound("no page '\(route)'", path: "pages/\(route)") }
        let history = try await layouts.history(of: route)
        return try Self.json(
            PageDetail(
                route: route, live: live, liveEtag: live?.version,
                draft: draft.map { DraftListing($0, warnings: warnings(of: $0)) },
                history: history,
                latestComposition: pages?.latestReport(for: route).map(CompositionListing.init)))
    }

    /// What the validator says of a draft, warnings included.
    private func warnings(of draft: Draft) -> [ProblemListing] {
        layouts.problems(in: draft.template).map { ProblemListing(path: $0.path, message: $0.message, warning: $0.isWarning) }
    }

    private func preview(route: String, _ request: PreviewBody) async throws -> ScreenplayService.Response {
        guard let pages else { throw ScreenplayError.notFound("this server composes no pages", path: "pages/\(route)/preview") }
        let source = request.source ?? "draft"
        let template: PageTemplate?
        switch source {
        case "draft":
            if let draft = try await layouts.draft(of: route) {
                template = draft.template
            } else {
                template = try await layouts.published(route: route)?.template
            }
        case "live": template = try await layouts.published(route: route)?.template
        default: throw ScreenplayError.invalidField("source", "'\(source)' is neither 'draft' nor 'live'")
        }
        guard let template else { throw ScreenplayError.notFound("no page '\(route)'", path: "pages/\(route)") }
        let version = APIVersion(request.apiVersion ?? APIVersion.latest.rawValue)
        guard APIVersion.supported.contains(version) else {
            throw ScreenplayError.unsupportedVersion("v\(version.rawValue)", supported: APIVersion.supported)
        }
        let context = CompositionContext(
            route: route, userID: request.userID, platform: Platform(request.platform ?? "ios"), apiVersion: version,
            clientKinds: Set(request.kinds ?? Array(pages.composer.catalog.contracts.keys)), locale: request.locale,
            segments: Set(request.segments ?? []), now: Date(), experiments: try await experiments.catalog(),
            variantOverrides: request.variants ?? [:])
        let composed = await pages.composer.compose(template: template, context: context)
        let screen = try JSONDecoder().decode(JSONValue.self, from: Data(composed.bytes))
        return try Self.json(PreviewListing(screen: screen, composition: CompositionListing(composed)))
    }
}

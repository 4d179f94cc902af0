import Foundation
public import HTTPTypes
public import ScreenplayComposer
import ScreenplayContract
public import ScreenplayLayoutStore
public import ScreenplayServer
public import ScreenplayStore

/// The layout admin's JSON API, `/admin/api/…`: pages, drafts, publish, rollback, widget switches,
/// previews, experiments, reports and the audit log, for teams that script their layouts from CI.
///
/// Every request carries an admin API token (`Authorization: Bearer …`, made with
/// `screenplay admin create-token NAME`); without a valid one the answer is a JSON 401, whatever
/// the route. Bodies are JSON; every error is the service's JSON error with code, message and
/// path, and a template or experiment that breaks its contract is a 422 listing every problem with
/// its JSON path (`{"error": …, "problems": [{"path": "$.sections[0].widgets[2].kind", …}]}`).
///
/// | request | does |
/// | --- | --- |
/// | `GET pages` | every page: route, title, live revision, draft |
/// | `GET pages/{route}` | live template, draft, history, the newest composition's report |
/// | `PUT pages/{route}/draft` | saves the body (a template) as the draft |
/// | `DELETE pages/{route}/draft` | discards the draft |
/// | `POST pages/{route}/publish` | `{"expectedLive": N, "note": "…"}` (both optional) |
/// | `POST pages/{route}/rollback` | `{"revision": N}` |
/// | `POST pages/{route}/widgets/{id}/enabled` | `{"enabled": false}`: the kill switch |
/// | `POST pages/{route}/preview` | composes the draft (or live) as `{"platform", "apiVersion", "userID", "variants", "locale", "kinds"}` says: the screen and each widget's latency and bytes |
/// | `GET experiments`, `PUT/DELETE experiments/{key}`, `GET experiments/{key}/report` | experiments and exposures per variant |
/// | `GET audit` | the newest 200 changes (`?subject=` filters) |
/// | `POST tokens/revoke` | `{"token": "…"}`: an app user's leaked token stops working on every replica |
public struct AdminAPI: Sendable {
    let admins: AdminDirectory
    let users: UserDirectory?
    let layouts: LayoutStore
    let experiments: ExperimentStore
    let pages: ComposedScreens?
    /// Where the API is mounted.
    public let prefix: String

    /// The API over the stores; `pages` (the service's composed pages) gives previews and reports.
    public init(
        admins: AdminDirectory, layouts: LayoutStore, experiments: ExperimentStore, pages: ComposedScreens?, users: UserDirectory? = nil,
        prefix: String = "/admin/api"
    ) {
        self.admins = admins
        self.users = users
        self.layouts = layouts
        self.experiments = experiments
        self.pages = pages
        self.prefix = prefix
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
            return try await route(request, body: body, admin: admin)
        } catch let error as ScreenplayError {
            return ScreenplayService.errorResponse(error)
        } catch let error as LayoutError {
            return Self.response(for: error)
        } catch let error as any ScreenplayErrorConvertible {
            return ScreenplayService.errorResponse(error.screenplayError)
        } catch {
            return ScreenplayService.errorResponse(.internalError("the admin API failed: \(error)"))
        }
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest, body: [UInt8], admin: String) async throws -> ScreenplayService.Response {
        let rawPath = (request.path ?? "/").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        guard rawPath.hasPrefix(prefix) else { throw ScreenplayError.notFound("nothing at '\(rawPath)'", path: rawPath) }
        let segments = rawPath.dropFirst(prefix.count).split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let query = RequestFields.query(request.path ?? "")
        let method = request.method
        func allow(_ methods: HTTPRequest.Method...) throws {
            guard methods.contains(method) else {
                throw ScreenplayError.methodNotAllowed(method, allowed: methods.map(\.rawValue).joined(separator: ", "), path: rawPath)
            }
        }
        switch segments.count {
        case 1 where segments[0] == "pages":
            try allow(.get)
            return try Self.json(try await layouts.pages())
        case 1 where segments[0] == "experiments":
            try allow(.get)
            return try Self.json(try await experiments.all())
        case 1 where segments[0] == "audit":
            try allow(.get)
            return try Self.json(try await layouts.auditLog(subject: query["subject"], limit: 200))
        case 2 where segments[0] == "pages":
            try allow(.get)
            return try await page(segments[1])
        case 2 where segments[0] == "tokens" && segments[1] == "revoke":
            try allow(.post)
            guard let users else { throw ScreenplayError.notFound("this server keeps no app users", path: rawPath) }
            let revoke: RevokeBody = try Self.decode(body)
            return try Self.json(["revoked": try await users.revoke(token: revoke.token)])
        case 2 where segments[0] == "experiments":
            try allow(.put, .delete)
            let key = segments[1]
            if method == .delete {
                guard try await experiments.delete(key, by: admin) else {
                    throw ScreenplayError.notFound("no experiment '\(key)'", path: rawPath)
                }
                return try Self.json(["deleted": key])
            }
            var experiment: Experiment = try Self.decode(body)
            if experiment.key.isEmpty { experiment.key = key }
            guard experiment.key == key else {
                throw ScreenplayError.invalidField("key", "the body's key '\(experiment.key)' is not the URL's '\(key)'")
            }
            try await experiments.save(experiment, by: admin)
            return try Self.json(experiment)
        case 3 where segments[0] == "experiments" && segments[2] == "report":
            try allow(.get)
            let report = try await experiments.report(for: segments[1])
            guard report.definition != nil || !report.exposures.isEmpty else {
                throw ScreenplayError.notFound("no experiment '\(segments[1])'", path: rawPath)
            }
            return try Self.json(ReportListing(experiment: report.experiment, exposures: report.exposures, total: report.total))
        case 3 where segments[0] == "pages":
            return try await pageAction(route: segments[1], action: segments[2], method: method, body: body, admin: admin, path: rawPath)
        case 5 where segments[0] == "pages" && segments[2] == "widgets" && segments[4] == "enabled":
            try allow(.post)
            let switched: EnabledBody = try Self.decode(body)
            let revision = try await layouts.setEnabled(switched.enabled, instance: segments[3], route: segments[1], by: admin)
            return try Self.json(revision)
        default:
            throw ScreenplayError.notFound("nothing at '\(rawPath)'; see GET \(prefix)/pages", path: rawPath)
        }
    }

    private func pageAction(
        route: String, action: String, method: HTTPRequest.Method, body: [UInt8], admin: String, path: String
    ) async throws -> ScreenplayService.Response {
        switch (action, method) {
        case ("draft", .put):
            var template: PageTemplate = try Self.decode(body)
            if template.route.isEmpty { template.route = route }
            guard template.route == route else {
                throw ScreenplayError.invalidField("route", "the body's route '\(template.route)' is not the URL's '\(route)'")
            }
            let world = try await WorldCheck.problems(in: template, pages: pages, experiments: experiments)
            let errors = world.filter { !$0.isWarning }
            if !errors.isEmpty { throw LayoutError.invalid(errors) }
            let draft = try await layouts.saveDraft(template, by: admin)
            let warnings = layouts.problems(in: template).filter(\.isWarning) + world.filter(\.isWarning)
            return try Self.json(
                DraftListing(draft, warnings: warnings.map { ProblemListing(path: $0.path, message: $0.message, warning: true) }))
        case ("draft", .delete):
            guard try await layouts.discardDraft(of: route, by: admin) else {
                throw ScreenplayError.notFound("page '\(route)' has no draft", path: path)
            }
            return try Self.json(["discarded": route])
        case ("publish", .post):
            let request: PublishBody = body.isEmpty ? PublishBody() : try Self.decode(body)
            let revision = try await layouts.publish(route: route, by: admin, expectedLive: request.expectedLive, note: request.note ?? "")
            return try Self.json(revision)
        case ("rollback", .post):
            let request: RollbackBody = try Self.decode(body)
            let revision = try await layouts.rollback(route: route, to: request.revision, by: admin, expectedLive: request.expectedLive)
            return try Self.json(revision)
        case ("preview", .post):
            let request: PreviewBody = body.isEmpty ? PreviewBody() : try Self.decode(body)
            return try await preview(route: route, request)
        case ("draft", _), ("publish", _), ("rollback", _), ("preview", _):
            let allowed = action == "draft" ? "PUT, DELETE" : "POST"
            throw ScreenplayError.methodNotAllowed(method, allowed: allowed, path: path)
        default:
            throw ScreenplayError.notFound("no action '\(action)' on a page (draft, publish, rollback, preview)", path: path)
        }
    }

    // MARK: Pages

    private func page(_ route: String) async throws -> ScreenplayService.Response {
        let live = try await layouts.published(route: route)
        let draft = try await layouts.draft(of: route)
        guard live != nil || draft != nil else { throw ScreenplayError.notFound("no page '\(route)'", path: "pages/\(route)") }
        let history = try await layouts.history(of: route)
        return try Self.json(
            PageDetail(
                route: route, live: live,
                draft: draft.map { draft in
                    DraftListing(
                        draft,
                        warnings: layouts.problems(in: draft.template).map {
                            ProblemListing(path: $0.path, message: $0.message, warning: $0.isWarning)
                        })
                },
                history: history,
                latestComposition: pages?.latestReport(for: route).map(CompositionListing.init)))
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

    // MARK: Wire shapes

    struct DraftListing: Encodable {
        let basedOn: Int
        let updatedBy: String
        let updatedAt: String
        let template: PageTemplate
        let warnings: [ProblemListing]
        init(_ draft: Draft, warnings: [ProblemListing]) {
            basedOn = draft.basedOn
            updatedBy = draft.updatedBy
            updatedAt = draft.updatedAt
            template = draft.template
            self.warnings = warnings
        }
    }

    struct PageDetail: Encodable {
        let route: String
        let live: PublishedRevision?
        let draft: DraftListing?
        let history: [RevisionSummary]
        let latestComposition: CompositionListing?
    }

    struct CompositionListing: Encodable {
        struct Widget: Encodable {
            let id: String
            let kind: String
            let vertical: String
            let outcome: String
            let shown: Bool
            let latencyMilliseconds: Double?
            let bytes: Int
        }
        let templateRevision: Int
        let apiVersion: Int
        let bytes: Int
        let milliseconds: Double
        let overBudget: [String]
        let heaviest: [String]
        let widgets: [Widget]
        init(_ page: ComposedPage) {
            templateRevision = page.templateRevision
            apiVersion = page.apiVersion.rawValue
            bytes = page.bytes.count
            milliseconds = Self.milliseconds(page.duration)
            overBudget = page.overruns.map(\.description)
            heaviest = page.heaviestWidgets().map(\.instanceID)
            widgets = page.widgets.map { report in
                Widget(
                    id: report.instanceID, kind: report.kind, vertical: report.vertical, outcome: report.outcome.description,
                    shown: report.outcome.isShown,
                    latencyMilliseconds: report.providerLatency.map(Self.milliseconds), bytes: report.bytes)
            }
        }
        /// To the hundredth of a millisecond.
        static func milliseconds(_ duration: Duration) -> Double { (duration.milliseconds * 100).rounded() / 100 }
    }

    struct PreviewListing: Encodable {
        let screen: JSONValue
        let composition: CompositionListing
    }

    struct ReportListing: Encodable {
        let experiment: String
        let exposures: [String: Int]
        let total: Int
    }

    struct ProblemListing: Encodable {
        let path: String
        let message: String
        let warning: Bool
    }

    struct PublishBody: Decodable {
        var expectedLive: Int?
        var note: String?
    }

    struct RollbackBody: Decodable {
        let revision: Int
        let expectedLive: Int?
    }

    struct EnabledBody: Decodable {
        let enabled: Bool
    }

    struct PreviewBody: Decodable {
        var source: String?
        var platform: String?
        var apiVersion: Int?
        var userID: String?
        var locale: String?
        var segments: [String]?
        var variants: [String: String]?
        var kinds: [String]?
    }

    // MARK: Helpers

    static func response(for error: LayoutError) -> ScreenplayService.Response {
        switch error {
        case .invalid(let problems):
            var response = ScreenplayService.errorResponse(
                ScreenplayError(
                    status: .unprocessableContent, code: "invalidTemplate",
                    message: "\(problems.count) problem(s): " + problems.prefix(3).map(\.description).joined(separator: "; "),
                    path: problems.first?.path))
            let listing = problems.map { ProblemListing(path: $0.path, message: $0.message, warning: $0.isWarning) }
            if var object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)),
                let encoded = try? JSONEncoder().encode(listing), let list = try? JSONDecoder().decode(JSONValue.self, from: encoded)
            {
                object["problems"] = list
                response.body = (try? Array(ScreenplayEncoder().encode(JSONValue.object(object)))) ?? response.body
            }
            return response
        case .noDraft, .noSuchRevision, .notPublished, .noSuchWidget:
            return ScreenplayService.errorResponse(.notFound(error.description))
        case .conflict:
            return ScreenplayService.errorResponse(ScreenplayError(status: .conflict, code: "conflict", message: error.description))
        case .draftChanged:
            return ScreenplayService.errorResponse(ScreenplayError(status: .conflict, code: "draftChanged", message: error.description))
        case .experimentInUse:
            return ScreenplayService.errorResponse(ScreenplayError(status: .conflict, code: "experimentInUse", message: error.description))
        case .store:
            return ScreenplayService.errorResponse(.internalError(error.description))
        case .unavailable:
            return ScreenplayService.errorResponse(error.unavailableError ?? .internalError(error.description))
        }
    }

    static func json(_ value: some Encodable) throws -> ScreenplayService.Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[ScreenplayService.contentTypeOptions] = "nosniff"
        return ScreenplayService.Response(head: head, body: Array(try encoder.encode(value)))
    }

    /// Decodes a body, as the service would: malformed JSON names line and column, a wrong shape
    /// names the JSON path.
    static func decode<Value: Decodable>(_ body: [UInt8]) throws -> Value {
        let data = Data(body)
        if let failure = JSONSyntax.firstError(in: data) { throw ScreenplayError.malformedJSON("the body is not valid JSON: \(failure)") }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw invalid(JSONPath.render(context.codingPath + [key]), "missing required member '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(expected, context) {
            // Swift's own wording names Swift types ("Dictionary<String, Any>"); say it in JSON's.
            throw invalid(JSONPath.render(context.codingPath), "expected \(Self.jsonName(of: expected)) here")
        } catch let DecodingError.valueNotFound(_, context) {
            throw invalid(JSONPath.render(context.codingPath), context.debugDescription)
        } catch let DecodingError.dataCorrupted(context) {
            throw invalid(JSONPath.render(context.codingPath), context.debugDescription)
        }
    }

    /// The JSON name of what a Swift type decodes from: "an object", "an array", "a string"…
    static func jsonName(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
        switch name {
        case "String": return "a string"
        case "Bool": return "true or false"
        case "Int", "Int64", "Int32", "UInt", "UInt64": return "a whole number"
        case "Double", "Float", "Decimal": return "a number"
        default: return "a value of another type"
        }
    }

    /// A 422 naming the JSON path of what is wrong in the body.
    static func invalid(_ path: String, _ message: String) -> ScreenplayError {
        ScreenplayError(status: .unprocessableContent, code: "invalidField", message: message, path: path)
    }

}

/// `POST tokens/revoke`'s body.
struct RevokeBody: Decodable {
    /// The app token to revoke, as the app sends it.
    let token: String
}

public import ScreenplayServer
import HTTPTypes
import ScreenplayContract
import ScreenplayLayoutStore

/// The admin API's routes as data: what ``AdminAPI/respond(to:body:)`` dispatches on, the
/// policy it applies (an admin token for every route; the route's body limit), and what its
/// OpenAPI description (`GET {prefix}/openapi.json`, `screenplay openapi --site admin`) lists.
///
/// `HEAD` is answered wherever `GET` is, with the same head; it is not listed separately.
extension AdminAPI {
    /// The admin API's table under `prefix`.
    public static func routeTable(prefix: String = "/admin/api") -> RouteTable {
        let base = prefix.split(separator: "/").joined(separator: "/") + "/"
        let read = RequestPolicy(callers: [.adminToken])
        let writing = RequestPolicy(callers: [.adminToken], bodyLimit: maximumBodySize)
        let page = RouteParameter("route", in: .path, summary: "The page's route (`shop`).")
        let key = RouteParameter("key", in: .path, summary: "The experiment's key.")
        let ifMatch = RouteParameter(
            "If-Match", in: .header, summary: "Write only to this version (the ETag read), or one of a list; `*`: only if it exists.",
            schema: ["type": "string", "pattern": #"^(\*|(W/)?"[^"]*"([ \t]*,[ \t]*(W/)?"[^"]*")*)$"#])
        let ifNoneMatch = RouteParameter("If-None-Match", in: .header, summary: "`*`: create only.", schema: ["enum": ["*"]])
        let unauthorized = RouteAnswer.error(.unauthorized, "No valid admin API token.", headers: ["WWW-Authenticate"])
        let notFound = RouteAnswer.error(.notFound, "No such page, draft, experiment or token.")
        let refused = RouteAnswer(.unprocessableContent, "Refused: every problem with its JSON path.", body: .json("AdminProblems"))
        let malformed = RouteAnswer.error(.badRequest, "The body is not JSON, or a precondition is malformed.")
        let tooLarge = RouteAnswer.error(.contentTooLarge, "The body is over \(maximumBodySize) bytes.")
        let stale = RouteAnswer(.preconditionFailed, "Changed since the version named: who, when and what changed.", body: .json("AdminStale"))
        let preconditionOnRead = RouteAnswer.error(.badRequest, "A precondition sent with a read.")
        func ok(_ schema: RouteSchema, etag: Bool = true) -> RouteAnswer {
            RouteAnswer(.ok, "Done; the answer's ETag names what it returns.", body: .json(schema), headers: etag ? ["ETag"] : [])
        }
        func get(_ path: String, _ operation: String, _ summary: String, _ schema: RouteSchema, parameters: [RouteParameter] = []) -> SiteRoute {
            SiteRoute(
                .get, base + path, operation: operation, summary: summary, policy: read, parameters: parameters,
                answers: [ok(schema), RouteAnswer(.notModified, "Unchanged since the ETag sent.", body: .none), unauthorized, notFound, preconditionOnRead])
        }
        func write(
            _ method: HTTPRequest.Method, _ path: String, _ operation: String, _ summary: String, body: RouteSchema?, optional: Bool = false,
            answer: RouteSchema, parameters: [RouteParameter] = [ifMatch], extra: [RouteAnswer] = []
        ) -> SiteRoute {
            SiteRoute(
                method, base + path, operation: operation, summary: summary, policy: writing, parameters: parameters,
                request: body.map(RouteBody.json) ?? .none, requestIsOptional: optional,
                answers: [ok(answer), unauthorized, notFound, malformed, refused, tooLarge] + (parameters.contains(ifMatch) ? [stale] : []) + extra)
        }
        var table = RouteTable(
            site: "adminAPI",
            routes: [
                get("pages", "adminListPages", "Every page: route, title, live revision, draft.", "AdminAny"),
                get("pages/:route", "adminPage", "A page: live template, draft, history, the newest composition's report.", "AdminAny", parameters: [page]),
                get("pages/:route/draft", "adminDraft", "The draft; its ETag is its version.", "AdminDraft", parameters: [page]),
                write(.put, "pages/:route/draft", "adminSaveDraft", "Saves the body as the draft.", body: "PageTemplate", answer: "AdminDraft",
                    parameters: [page, ifMatch, ifNoneMatch]),
                write(.delete, "pages/:route/draft", "adminDiscardDraft", "Discards the draft.", body: nil, answer: "AdminAny", parameters: [page, ifMatch]),
                write(.post, "pages/:route/draft/edits", "adminEditDraft", "Applies edits to the draft (or the live page), all or none, as one step.",
                    body: "DraftEdits", answer: "AdminDraft", parameters: [page, ifMatch]),
                get("pages/:route/live", "adminLivePage", "The live revision; its ETag is its version.", "AdminAny", parameters: [page]),
                write(.post, "pages/:route/publish", "adminPublish", "Publishes the draft.", body: "AdminPublish", optional: true, answer: "AdminAny",
                    parameters: [page, ifMatch], extra: [.error(.conflict, "The live page moved on from `expectedLive`.")]),
                write(.post, "pages/:route/rollback", "adminRollback", "Publishes an earlier revision again.", body: "AdminRollback", answer: "AdminAny",
                    parameters: [page, ifMatch], extra: [.error(.conflict, "The live page moved on from `expectedLive`.")]),
                write(.post, "pages/:route/preview", "adminPreview", "Composes the draft (or live page) for a client: the screen and each widget's latency and bytes.",
                    body: "AdminPreview", optional: true, answer: "AdminAny", parameters: [page]),
                write(.post, "pages/:route/widgets/:id/enabled", "adminSwitchWidget", "The kill switch: turns a live widget off or on.",
                    body: "AdminEnabled", answer: "AdminAny", parameters: [page, RouteParameter("id", in: .path, summary: "The widget's id."), ifMatch]),
                get("experiments", "adminListExperiments", "Every experiment.", "AdminAny"),
                get("experiments/:key", "adminExperiment", "One experiment; its ETag is its version.", "Experiment", parameters: [key]),
                write(.put, "experiments/:key", "adminSaveExperiment", "Creates or replaces the experiment.", body: "Experiment", answer: "Experiment",
                    parameters: [key, ifMatch, ifNoneMatch]),
                write(.delete, "experiments/:key", "adminDeleteExperiment", "Deletes the experiment.", body: nil, answer: "AdminAny", parameters: [key, ifMatch]),
                get("experiments/:key/report", "adminExperimentReport", "Exposures per variant.", "AdminAny", parameters: [key]),
                get("audit", "adminAudit", "The newest 200 changes.", "AdminAny",
                    parameters: [RouteParameter("subject", in: .query, summary: "Only changes to this page or experiment.")]),
                get("tokens", "adminTokens", "Every admin API token by id, admin, label and date (never the token).", "AdminAny",
                    parameters: [RouteParameter("admin", in: .query, summary: "Only this admin's tokens.")]),
                SiteRoute(
                    .get, base + "openapi.json", operation: "adminOpenAPIDescription",
                    summary: "This description (OpenAPI 3.1, JSON), for the same admin API token.", policy: read,
                    answers: [
                        RouteAnswer(.ok, "The description.", body: .json("OpenAPIDocument"), headers: ["ETag"]),
                        RouteAnswer(.notModified, "Unchanged since the ETag sent.", body: .none), unauthorized, notFound,
                    ]),
                write(.post, "tokens/revoke", "adminRevokeTokens", "Revokes an admin API token or an app user's token, or an admin's tokens by id.",
                    body: "AdminRevoke", answer: "AdminAny", parameters: [], extra: [.error(.conflict, "A token id names more than one token.")]),
            ])
        table.schemas = schemas
        return table
    }

    /// The shapes the admin API reads and answers, as JSON Schemas.
    static let schemas: [String: JSONValue] = {
        let text: JSONValue = ["type": "string"]
        let integer: JSONValue = ["type": "integer"]
        let object: JSONValue = ["type": "object"]
        // An optional member may also be null: the decoders read null as "not sent".
        func shape(_ properties: [String: JSONValue], required: [String] = [], closed: Bool = false) -> JSONValue {
            var members = properties
            for (name, member) in properties where !required.contains(name) { members[name] = ["anyOf": [member, ["type": "null"]]] }
            var schema: [String: JSONValue] = ["type": "object", "properties": .object(members)]
            if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
            if closed { schema["additionalProperties"] = false }
            return .object(schema)
        }
        let widget = shape(
            [
                "id": text, "kind": text, "vertical": text, "parameters": object, "content": object, "conditions": object, "enabled": ["type": "boolean"],
                "timeoutMilliseconds": integer,
            ], required: ["id", "kind", "vertical"])
        let edit = shape(
            [
                "op": ["enum": .array(DraftEdit.operations.map(JSONValue.string))], "widget": ["$ref": "#/$defs/WidgetInstance"], "id": text,
                "section": text, "index": integer, "by": ["enum": [-1, 1]], "title": ["type": ["string", "null"]],
            ], required: ["op"])
        return [
            "AdminAny": ["description": "A listing (see the admin API's documentation)."],
            "OpenAPIDocument": ["type": "object", "required": ["openapi", "paths"], "properties": ["openapi": ["const": "3.1.0"], "paths": object]],
            "AdminProblems": [
                "allOf": [
                    ["$ref": "#/$defs/ErrorBody"],
                    shape(["problems": ["type": "array", "items": shape(["path": text, "message": text, "warning": ["type": "boolean"]], required: ["path", "message"])]]),
                ]
            ],
            "AdminStale": ["allOf": [["$ref": "#/$defs/ErrorBody"], shape(["etag": text, "changes": text])]],
            "AdminDraft": shape(
                ["basedOn": integer, "updatedBy": text, "updatedAt": text, "template": ["$ref": "#/$defs/PageTemplate"], "warnings": ["type": "array"], "etag": text],
                required: ["template", "etag"]),
            "PageTemplate": shape(
                [
                    "route": text, "title": text, "revision": integer,
                    "sections": [
                        "type": "array",
                        "items": shape(["id": text, "title": text, "widgets": ["type": "array", "items": ["$ref": "#/$defs/WidgetInstance"]]], required: ["id"]),
                    ],
                ], required: ["route", "title", "sections"]),
            "WidgetInstance": widget,
            "DraftEdit": edit,
            "DraftEdits": shape(
                ["edits": ["type": "array", "minItems": 1, "maxItems": .number(Double(maximumEdits)), "items": ["$ref": "#/$defs/DraftEdit"]]],
                required: ["edits"]),
            "Experiment": shape(
                [
                    "key": text,
                    "variants": ["type": "array", "items": shape(["name": text, "weight": integer], required: ["name", "weight"])],
                    "targetSegment": text, "start": ["type": "string", "format": "date-time"], "stop": ["type": "string", "format": "date-time"],
                ], required: ["variants"]),
            "AdminPublish": shape(["expectedLive": integer, "note": text]),
            "AdminRollback": shape(["revision": integer, "expectedLive": integer], required: ["revision"]),
            "AdminEnabled": shape(["enabled": ["type": "boolean"]], required: ["enabled"]),
            "AdminPreview": shape(
                [
                    "source": ["enum": ["draft", "live"]], "platform": text,
                    "apiVersion": ["type": "integer", "minimum": .number(Double(APIVersion.supported.lowerBound.rawValue)), "maximum": .number(Double(APIVersion.latest.rawValue))], "userID": text, "locale": text,
                    "segments": ["type": "array", "items": text], "variants": ["type": "object", "additionalProperties": text],
                    "kinds": ["type": "array", "items": text],
                ]),
            "AdminRevoke": shape(["token": text, "admin": text, "ids": ["type": "array", "items": text], "all": ["type": "boolean"]]),
        ]
    }()
}

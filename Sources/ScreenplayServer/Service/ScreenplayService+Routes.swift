import HTTPTypes
public import ScreenplayContract

extension ScreenplayService {
    /// The API's routes (site `api`), built from the service's configuration and its
    /// ``ScreenplayRoutes``: each coded screen and command at its own path, the composer's pages
    /// at `screens/:page` when there are pages, the event stream and the sync.
    ///
    /// With `version` (one the service serves), the paths name it (`api/v5/sync`) and the bodies
    /// are that version's: what the OpenAPI description of one version needs. Without, the
    /// version is a parameter (`api/:version/sync`): what a router registers.
    ///
    /// The HTTP adapter registers these paths; requests to any other path under the prefix still
    /// reach ``respond(to:body:clientAddress:)``, which answers pages of several segments and
    /// every JSON `404` and `400` itself.
    public func routeTable(version fixed: APIVersion? = nil) -> RouteTable {
        let api = prefixSegments + [fixed.map { "v\($0.rawValue)" } ?? ":version"]
        func path(_ parts: [String]) -> String { (api + parts).joined(separator: "/") }
        let versions = fixed.map { [$0.rawValue] } ?? Array(configuration.supportedVersions.lowerBound.rawValue...configuration.supportedVersions.upperBound.rawValue)
        let version: [RouteParameter] =
            fixed != nil
            ? []
            : [
                RouteParameter(
                    "version", in: .path, summary: "The API version: v and its number.",
                    schema: ["type": "string", "enum": .array(versions.map { .string("v\($0)") })])
            ]
        var routes: [SiteRoute] = []

        let screenAnswers = Self.screenAnswers
        let readPolicy = policy(for: .screens)
        var screenPaths: [(path: String, parameters: [RouteParameter], name: String)] = screens.routes.screens.map { route in
            let parameters = route.pattern.parameterNames.map { RouteParameter($0, in: .path, summary: "The screen's \($0).") }
            let queries = route.queryKeys.sorted().map { RouteParameter($0, in: .query, summary: "Read by the screen.") }
            return (path(["screens"] + route.pattern.segmentsAsWritten), parameters + queries, route.pattern.description)
        }
        if pages != nil {
            screenPaths.append(
                (path(["screens", ":page"]), [RouteParameter("page", in: .path, summary: "A page's route (pages of several segments are served too).")], ":page"))
        }
        for (screenPath, parameters, name) in screenPaths {
            let operation = Self.operationName(name)
            let common = version + parameters + Self.screenHeaders
            routes.append(
                SiteRoute(
                    .get, screenPath, operation: "getScreen" + operation, summary: "The screen at screens/\(name), as JSON for the version.",
                    policy: readPolicy, parameters: common, answers: screenAnswers))
            routes.append(
                SiteRoute(
                    .head, screenPath, operation: "headScreen" + operation, summary: "The head of the screen at screens/\(name).",
                    policy: readPolicy, parameters: common, answers: screenAnswers.map { RouteAnswer($0.status, $0.summary, body: .none, headers: $0.headers) }))
        }

        let writePolicy = policy(for: .commands)
        var payloads: [String: JSONValue] = [:]
        for route in commands.routes.commands {
            let parameters = route.pattern.parameterNames.map { RouteParameter($0, in: .path, summary: "The command's \($0).") }
            let operation = "command" + Self.operationName(route.pattern.description)
            var body = RouteSchema.commandRequest
            if let payload = route.payload {
                body = RouteSchema(rawValue: "payload." + operation)
                payloads[body.rawValue] = payload.jsonSchema
            }
            routes.append(
                SiteRoute(
                    .post, path(["commands"] + route.pattern.segmentsAsWritten), operation: operation,
                    summary: "Runs commands/\(route.pattern)" + (route.identity == .created ? "; a client without a token gets one (Screenplay-Token)." : " (anonymous clients stay anonymous)."),
                    policy: writePolicy, parameters: version + parameters + Self.commandHeaders, request: .json(body),
                    requestIsOptional: !(route.payload?.needsBody ?? false), answers: Self.commandAnswers))
        }

        routes.append(
            SiteRoute(
                .get, path(["events"]), operation: "screenEvents",
                summary: "A stream of the watched screens' changes (server-sent events), until the idle limit or the client ends it.",
                policy: policy(for: .events),
                parameters: version + [
                    RouteParameter(
                        "screens", in: .query, required: true,
                        summary: "The watched screens' paths (each with its query), comma-separated: at most \(configuration.eventStreams.screensPerStream).",
                        schema: [
                            "type": "string", "maxLength": 2048,
                            "pattern": .string("^[^,]+(?:,[^,]+){0,\(max(0, configuration.eventStreams.screensPerStream - 1))}$"),
                        ]),
                    RouteParameter(
                        "patches", in: .query,
                        summary: "1: a screen event carries the change from the version the client was last told of, when one is worth sending (v6; earlier versions ignore it).",
                        schema: ["type": "string", "enum": ["0", "1"]]),
                    RouteParameter("Last-Event-ID", in: .header, summary: "The last event a reconnecting client saw."),
                ] + Self.screenHeaders.filter { $0.name != "If-None-Match" },
                answers: [
                    RouteAnswer(.ok, "The stream: a change event per changed screen, heartbeats between.", body: .eventStream),
                    .error(.badRequest, "An unsupported version, or a malformed list of screens."),
                    .error(.tooManyRequests, "Too many streams open for this user or in all.", headers: ["Retry-After"]),
                    .error(.serviceUnavailable, "The server is shutting down or its store is unreachable.", headers: ["Retry-After"]),
                ]))
        routes.append(
            SiteRoute(
                .post, path(["sync"]), operation: "syncScreens",
                summary: "What changed of the screens an app keeps offline: each changed screen whole, the rest by count.",
                policy: policy(for: .sync),
                parameters: version + Self.screenHeaders.filter { $0.name != "If-None-Match" }, request: .json("SyncRequest"),
                answers: [
                    RouteAnswer(.ok, "The changed screens, and the paths gone, failed or left for the next request.", body: .json("SyncAnswer")),
                    .error(.badRequest, "Malformed JSON (with its line and column) or an unsupported version."),
                    .error(.contentTooLarge, "A body over the limit."),
                    .error(.unsupportedMediaType, "A body not declared application/json."),
                    .error(.unprocessableContent, "A field that is not what it must be, named by its JSON path."),
                    .error(.serviceUnavailable, "The store is unreachable.", headers: ["Retry-After"]),
                ]))
        if reports != nil, fixed.map({ $0 >= ClientEvent.introduced }) ?? true {
            routes.append(
                SiteRoute(
                    .post, path(["reports"]), operation: "reportEvents",
                    summary: "Events the app saw happen (a component seen, a track played), in batches: stored once per id (v6).",
                    policy: policy(for: .reports),
                    parameters: version, request: .json("ReportBatch"),
                    answers: [
                        RouteAnswer(.ok, "What was stored, what the server already had, and each event refused at its path.", body: .json("ReportReceipt"), headers: ["Screenplay-Token"]),
                        .error(.badRequest, "Malformed JSON (with its line and column) or an unsupported version."),
                        .error(.unauthorized, "A token the server does not know or cannot read."),
                        .error(.forbidden, "A write with the site's cookie that did not come from the site."),
                        .error(.notFound, "A version before 6, or a server that keeps no reports."),
                        .error(.contentTooLarge, "A body over the limit."),
                        .error(.unsupportedMediaType, "A body not declared application/json."),
                        .error(.unprocessableContent, "Not a batch: no events array, or more events than a batch holds."),
                        .error(.tooManyRequests, "Over the command or new-identity budget.", headers: ["Retry-After"]),
                        .error(.serviceUnavailable, "The store is unreachable; send the batch again later.", headers: ["Retry-After"]),
                    ]))
        }
        var table = RouteTable(site: "api", routes: routes)
        table.schemas = Self.syncSchemas.merging(payloads) { sync, _ in sync }.merging(reports != nil ? Self.reportSchemas : [:]) { kept, _ in kept }
        return table
    }

    /// `albums/:id` → `AlbumsId`: a pattern as a part of an operation's name.
    static func operationName(_ pattern: String) -> String {
        let words = pattern.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.isEmpty ? "Root" : name
    }

    /// The request header fields a screen's answer depends on.
    static let screenHeaders: [RouteParameter] = [
        RouteParameter("If-None-Match", in: .header, summary: "The ETag of the copy the client has: unchanged, the answer is a 304."),
        RouteParameter("Screenplay-Components", in: .header, summary: "The app-defined component kinds the client renders, comma-separated."),
        RouteParameter("Screenplay-Platform", in: .header, summary: "The client's platform (ios, android, web): page widgets are shown by platform."),
        RouteParameter("Accept-Language", in: .header, summary: "The client's language."),
    ]

    /// The request header fields a command reads besides the token.
    static let commandHeaders: [RouteParameter] = [
        RouteParameter(
            "Idempotency-Key", in: .header, summary: "1 to 255 visible ASCII characters: a retry with the same key and body is answered as the first was.",
            schema: ["type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"])
    ]

    static let screenAnswers: [RouteAnswer] = [
        RouteAnswer(.ok, "The screen.", body: .json(.screen), headers: ["ETag", "Cache-Control", "Vary"]),
        RouteAnswer(.notModified, "The client's copy (If-None-Match) is current.", body: .none, headers: ["ETag"]),
        .error(.badRequest, "An unsupported version."),
        .error(.unauthorized, "A token the server does not know or cannot read."),
        .error(.notFound, "No screen at this path."),
        .error(.serviceUnavailable, "The store is unreachable.", headers: ["Retry-After"]),
    ]

    static let commandAnswers: [RouteAnswer] = [
        RouteAnswer(.ok, "The command's result.", body: .json(.commandResult), headers: ["Screenplay-Token", "Idempotent-Replayed"]),
        .error(.badRequest, "Malformed JSON (with its line and column), an unsupported version or a bad Idempotency-Key."),
        .error(.unauthorized, "A token the server does not know or cannot read."),
        .error(.forbidden, "A write with the site's cookie that did not come from the site."),
        .error(.notFound, "No command at this path."),
        .error(.conflict, "The same Idempotency-Key is still being answered."),
        .error(.contentTooLarge, "A body over the limit."),
        .error(.unsupportedMediaType, "A body not declared application/json."),
        .error(.unprocessableContent, "A field that is not what the command needs, or a key reused for another request."),
        .error(.tooManyRequests, "Over the command or new-identity budget.", headers: ["Retry-After"]),
        .error(.serviceUnavailable, "The store is unreachable; nothing was done.", headers: ["Retry-After"]),
    ]

    /// A screen path as the sync reads one (``problem(withPath:)``): segments of anything but `/`,
    /// `?`, a backslash or a control character, none of them empty, `.` or `..`, each `%` starting
    /// an escape that does not encode `.` or `/`; then an optional query.
    static let screenPathPattern: String = {
        let escape = "%(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-9A-Da-d])"
        let character = #"(?:[^/?%\\\u0000-\u001F\u007F]|"# + escape + ")"
        let dotless = #"(?:[^./?%\\\u0000-\u001F\u007F]|"# + escape + ")"
        // Not `.` or `..`: a character other than a dot somewhere, or three dots or more.
        let segment = "(?:\\.*\(dotless)\(character)*|\\.{3,})"
        return "^\(segment)(?:/\(segment))*(?:\\?[^\\\\\\u0000-\\u001F\\u007F]*)?$"
    }()

    /// The sync's own shapes (not part of the screen contract).
    static let syncSchemas: [String: JSONValue] = [
        "SyncRequest": [
            "type": "object", "required": ["screens"],
            "properties": [
                "screens": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["path"],
                        "properties": ["path": ["type": "string", "maxLength": 2048, "pattern": .string(ScreenplayService.screenPathPattern)], "etag": ["type": ["string", "null"], "maxLength": 256]],
                    ],
                ]
            ],
        ],
        "SyncAnswer": [
            "type": "object", "required": ["changed", "unchanged", "gone", "failed", "more"],
            "properties": [
                "changed": [
                    "type": "array",
                    "items": [
                        "type": "object", "required": ["path", "etag", "screen"],
                        "properties": ["path": ["type": "string"], "etag": ["type": "string"], "screen": ["$ref": "#/$defs/Screen"]],
                    ],
                ],
                "unchanged": ["type": "integer", "minimum": 0],
                "gone": ["type": "array", "items": ["type": "string"]],
                "failed": [
                    "type": "array",
                    "items": ["type": "object", "required": ["path", "error"], "properties": ["path": ["type": "string"], "error": ["type": "object"]]],
                ],
                "more": ["type": "array", "items": ["type": "string"]],
            ],
        ],
    ]
}

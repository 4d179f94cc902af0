import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Route tables")
struct RouteTableTests {
    static func service(pages: Bool = false) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("x") } } }
        routes.screen("albums/:id", queryKeys: ["tab"]) { _ in Screen(id: "album", title: "Album") { Section("s") { Text("x") } } }
        routes.command("favorites/:id/add") { _ in .done(.init(message: "ok")) }
        routes.command("offers/open", identity: .anonymous) { _ in .done(.init(message: "ok")) }
        return ScreenplayService(
            routes: routes, identity: CountingIdentities(),
            configuration: .init(pathPrefix: "/api", supportedVersions: .v2 ... .v5, maximumBodySize: 4096), pages: pages ? NoPages() : nil)
    }

    struct NoPages: PageSource {
        var customKinds: [String: CustomComponentKind] { [:] }
        func body(for request: PageRequest) async throws(ScreenplayError) -> EncodedBody? { nil }
    }

    @Test("the API's table lists each coded screen (GET and HEAD) and command (POST) at its own path, then events and sync")
    func apiTable() throws {
        let table = Self.service().routeTable()
        #expect(table.site == "api")
        let listed = table.routes.map { "\($0.method) \($0.path)" }
        #expect(
            listed == [
                "GET api/:version/screens/home", "HEAD api/:version/screens/home",
                "GET api/:version/screens/albums/:id", "HEAD api/:version/screens/albums/:id",
                "POST api/:version/commands/favorites/:id/add", "POST api/:version/commands/offers/open",
                "GET api/:version/events", "POST api/:version/sync",
            ])
        // Every `:name` of a path is a declared path parameter, and the version lists what is served.
        for route in table.routes {
            let declared = Set(route.parameters.filter { $0.location == .path }.map(\.name))
            let inPath = Set(route.path.description.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) })
            #expect(declared == inPath, "\(route.operation)")
        }
        let version = try #require(table.routes[0].parameters.first { $0.name == "version" })
        #expect(version.schema.objectValue?["enum"] == ["v2", "v3", "v4", "v5"])
        let album = try #require(table.route(.get, at: RoutePattern("api/:version/screens/albums/:id")))
        #expect(album.parameters.contains { $0.name == "tab" && $0.location == .query })
        #expect(Set(table.routes.map(\.operation)).count == table.routes.count, "operation names are unique")
    }

    @Test("resolve: a path and method reach their route with its parameters; HEAD a GET; another method a 405 listing the path's; else a 404")
    func resolve() throws {
        let policy = RequestPolicy(callers: [.adminToken])
        let table = RouteTable(
            site: "t",
            routes: [
                SiteRoute(.get, "admin/pages/:route", operation: "page", summary: "", policy: policy, answers: []),
                SiteRoute(.put, "admin/pages/:route", operation: "save", summary: "", policy: policy, answers: []),
                SiteRoute(.post, "admin/pages/:route/publish", operation: "publish", summary: "", policy: policy, answers: []),
                SiteRoute(.get, "admin/pages/new", operation: "new", summary: "", policy: policy, answers: []),
            ])
        guard case .route(let page, let parameters) = table.resolve(.get, ["admin", "pages", "shop"]) else {
            Issue.record("GET admin/pages/shop reached no route")
            return
        }
        #expect(page.operation == "page" && parameters == ["route": "shop"])
        guard case .route(let head, _) = table.resolve(.head, ["admin", "pages", "shop"]) else {
            Issue.record("HEAD reached no route")
            return
        }
        #expect(head.operation == "page")
        // Declared first wins: `admin/pages/new` is also `:route` = "new".
        guard case .route(let first, _) = table.resolve(.get, ["admin", "pages", "new"]) else {
            Issue.record("no route for new")
            return
        }
        #expect(first.operation == "page")
        guard case .methodNotAllowed(let allowed) = table.resolve(.delete, ["admin", "pages", "shop"]) else {
            Issue.record("no 405")
            return
        }
        #expect(allowed == [.get, .put])
        guard case .methodNotAllowed(let post) = table.resolve(.trace, ["admin", "pages", "shop", "publish"]) else {
            Issue.record("no 405")
            return
        }
        #expect(post == [.post])
        for path in [["admin", "pages"], ["admin", "pages", "shop", "nope"], ["admin", "pages", "", "publish"], []] {
            guard case .notFound = table.resolve(.get, path) else {
            Issue.record("\(path) reached something")
            return
        }
        }
    }

    @Test("a last `*name` segment takes the rest of the path, one segment or more, joined; written as `**` for the router")
    func restOfPath() throws {
        let table = RouteTable(
            site: "t",
            routes: [
                SiteRoute(.get, "", operation: "home", summary: "", policy: RequestPolicy(callers: [.anonymous]), answers: []),
                SiteRoute(.get, "screens/*path", operation: "screen", summary: "", policy: RequestPolicy(callers: [.anonymous]), answers: []),
                SiteRoute(.get, "files/*", operation: "star", summary: "", policy: RequestPolicy(callers: [.anonymous]), answers: []),
            ])
        guard case .route(let home, _) = table.resolve(.get, []) else {
            Issue.record("the root reached nothing")
            return
        }
        #expect(home.operation == "home")
        for (path, expected) in [(["screens", "home"], "home"), (["screens", "playlist", "1"], "playlist/1"), (["screens", "a", "b", "c", "d"], "a/b/c/d")] {
            guard case .route(let route, let parameters) = table.resolve(.get, path) else {
                Issue.record("\(path) reached nothing")
                return
            }
            #expect(route.operation == "screen" && parameters == ["path": expected])
        }
        guard case .notFound = table.resolve(.get, ["screens"]) else {
            Issue.record("the rest is one segment or more")
            return
        }
        guard case .notFound = table.resolve(.get, ["screens", "a", ""]) else {
            Issue.record("an empty segment is no part of a path")
            return
        }
        // A lone `*` is a literal segment, as before.
        guard case .route(let star, _) = table.resolve(.get, ["files", "*"]), case .notFound = table.resolve(.get, ["files", "x"]) else {
            Issue.record("`*` alone should be a literal")
            return
        }
        #expect(star.operation == "star")
        #expect(RoutePattern("screens/*path").routerPath == "screens/**" && RoutePattern("screens/*path").description == "screens/*path")
        #expect(RoutePattern("screens/*path").templateSegments == ["screens", "{path}"])
        // Only last: elsewhere it is a literal.
        #expect(RoutePattern("*a/b").routerPath == "*a/b")
    }

    @Test("policies: screens are open reads; commands are same-site cookie writes on the command budget, with the body limit")
    func policies() throws {
        let table = Self.service().routeTable()
        let screen = try #require(table.route(.get, at: RoutePattern("api/:version/screens/home")))
        #expect(screen.policy.callers == [.anonymous, .user])
        #expect(screen.policy.crossSite == .none && screen.policy.bodyLimit == 0 && screen.policy.admission == .unmetered)
        let command = try #require(table.route(.post, at: RoutePattern("api/:version/commands/favorites/:id/add")))
        #expect(command.policy.crossSite == .cookieWrites && command.policy.admission == .commands && command.policy.bodyLimit == 4096)
        #expect(command.request == .json(.commandRequest))
        #expect(command.answers.contains { $0.status == .tooManyRequests && $0.headers == ["Retry-After"] })
        let events = try #require(table.route(.get, at: RoutePattern("api/:version/events")))
        #expect(events.policy.admission == .eventStreams)
        #expect(events.answers.first?.body == .eventStream)
    }

    @Test("a policy refuses before any handler: a body over its limit (413), then a write from another site as its rule says (403)")
    func policyRefusals() async throws {
        var head = request(.post, "/api/v5/commands/x", headers: [.cookie: "screenplay_token=abc", .origin: "http://evil.example"])
        head.authority = "shop.example"
        let cookieWrites = RequestPolicy(callers: [.user], crossSite: .cookieWrites, bodyLimit: 10)
        #expect(cookieWrites.refusal(of: head, bodySize: 11, cookie: "screenplay_token")?.code == "payloadTooLarge")
        #expect(cookieWrites.refusal(of: head, bodySize: 10, cookie: "screenplay_token")?.code == "crossSiteRequest")
        #expect(cookieWrites.refusal(of: head, bodySize: 10, cookie: "other_cookie") == nil, "not this site's credential")
        #expect(RequestPolicy(callers: [.user], crossSite: .allWrites).refusal(of: head, bodySize: 0, cookie: "other_cookie")?.code == "crossSiteRequest")
        #expect(RequestPolicy(callers: [.user]).refusal(of: head, bodySize: 1 << 20, cookie: "screenplay_token") == nil, "no limit, no rule")

        // The service applies its table's policies: the sync's body limit is the configuration's,
        // answered before the body is parsed; a cross-site command is refused before its budget.
        let service = Self.service()
        let limit = service.configuration.maximumBodySize
        let big = Array(repeating: UInt8(ascii: " "), count: limit + 1)
        let sync = await service.respond(to: request(.post, "/api/v5/sync", headers: [.contentType: "application/json"]), body: big)
        #expect(sync.head.status == .contentTooLarge)
        #expect(String(decoding: sync.body, as: UTF8.self).contains("\(limit) bytes"))
        var command = request(.post, "/api/v5/commands/favorites/1/add", headers: [.cookie: "screenplay_token=abc", .origin: "http://evil.example"])
        command.authority = "shop.example"
        let refused = await service.respond(to: command, body: Array("{}".utf8))
        #expect(refused.head.status == .forbidden)
    }

    @Test("a table for one version names it in its paths and has no version parameter; pages add screens/:page")
    func fixedVersion() {
        let table = Self.service(pages: true).routeTable(version: .v4)
        #expect(table.routes.allSatisfy { $0.path.description.hasPrefix("api/v4/") })
        #expect(table.route(.get, at: RoutePattern("api/v4/screens/:page"))?.parameters.map(\.name).contains("page") == true)
        #expect(Self.service().routeTable().routes.allSatisfy { !$0.path.description.contains(":page") }, "no pages, no page route")
        #expect(table.routes.allSatisfy { route in !route.parameters.contains { $0.name == "version" } })
        #expect(table.schemas["SyncRequest"] != nil && table.schemas["SyncAnswer"] != nil)
    }

    @Test("the cross-site rule: a cookie-carrying write from another site is refused; an app's token or no cookie passes")
    func crossSite() {
        func check(_ fields: HTTPFields) -> String? {
            var head = request(.post, "/api/v5/commands/x", headers: fields)
            head.authority = "shop.example:8080"
            return RequestPolicy.crossSiteRefusal(head, cookie: "screenplay_token")?.code
        }
        let cookie: HTTPFields = [.cookie: "screenplay_token=abc"]
        #expect(check(cookie) == nil, "no Origin or Sec-Fetch-Site: not a browser page")
        #expect(check(cookie + [.origin: "http://shop.example:8080"]) == nil)
        #expect(check(cookie + [.origin: "https://shop.example:8080", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]) == nil)
        #expect(check(cookie + [.origin: "http://evil.example"]) == "crossSiteRequest")
        #expect(check(cookie + [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) == "crossSiteRequest")
        #expect(check(cookie + [HTTPField.Name("Sec-Fetch-Site")!: "same-site"]) == "crossSiteRequest", "a sibling subdomain is another site here")
        #expect(check([.origin: "http://evil.example"]) == nil, "no cookie: nothing ambient to misuse")
        #expect(check(cookie + [.origin: "http://evil.example", .authorization: "Bearer t"]) == nil, "an app's token")
        #expect(check(cookie + [.origin: "null"]) == "crossSiteRequest", "an opaque origin, with nothing else to go by")
        #expect(check(cookie + [.origin: "null", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"]) == nil, "a page under no-referrer")
        #expect(check(cookie + [.origin: "null", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]) == "crossSiteRequest", "a sandboxed frame")
    }
}

extension HTTPFields {
    fileprivate static func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
        var fields = lhs
        fields.append(contentsOf: rhs)
        return fields
    }
}

@Suite("Command payloads as declared")
struct CommandPayloadSchemaTests {
    static func service() -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.command("rename", payload: .init(required: ["name": .text(maxLength: 10)], optional: ["id": .id])) { request in
            .done(.init(message: try request.text("name", maxLength: 10)))
        }
        routes.command("loose") { request in .done(.init(message: request.payload.typeName)) }
        return ScreenplayService(routes: routes, identity: CountingIdentities())
    }

    static func post(_ service: ScreenplayService, _ path: String, _ body: String, headers: HTTPFields = [:]) async -> ScreenplayService.Response {
        var fields: HTTPFields = [.contentType: "application/json", .authorization: "Bearer token-1"]
        fields.append(contentsOf: headers)
        return await service.respond(to: request(.post, "/api/v5/commands/" + path, headers: fields), body: Array(body.utf8))
    }

    @Test("the schema names the fields, their kinds and what is required, plus the storage every command may carry")
    func schema() throws {
        let schema = CommandPayloadSchema(required: ["name": .text(maxLength: 10, visible: 2)], optional: ["id": .id], storage: ["q": .string])
        let object = try #require(schema.jsonSchema.objectValue)
        #expect(object["type"] == "object" && object["required"] == ["name"])
        let properties = try #require(object["properties"]?.objectValue)
        #expect(properties["id"]?.objectValue?["type"] == "integer")
        let name = try #require(properties["name"]?.objectValue)
        #expect(name["maxLength"] == 10)
        let pattern = try #require(name["pattern"]?.stringValue)
        #expect(pattern.components(separatedBy: "[^\\s").count == 3, "two characters that are not white space: \(pattern)")
        #expect(properties["storage"]?.objectValue?["properties"]?.objectValue?["q"] == ["type": "string"])
        #expect(schema.needsBody && !CommandPayloadSchema(optional: ["id": .id]).needsBody)
    }

    @Test("a command that declares its fields refuses a body that is not an object; one that does not reads any JSON")
    func objectBodies() async throws {
        let service = Self.service()
        for body in ["[1]", "\"x\"", "5", "null"] {
            let refused = await Self.post(service, "rename", body)
            #expect(refused.head.status == .unprocessableContent, "\(body)")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("must be a JSON object"), "\(body)")
            #expect(await Self.post(service, "loose", body).head.status == .ok, "\(body)")
        }
        #expect(await Self.post(service, "rename", #"{"name":"Ada"}"#).head.status == .ok)
    }

    @Test("a one-line text refuses a control or separator character anywhere, its ends included")
    func oneLineText() async throws {
        let service = Self.service()
        for name in ["\\nAda", "Ada\\t", "A\\u2028da", "A\\u200Eda"] {
            #expect(await Self.post(service, "rename", #"{"name":""# + name + #""}"#).head.status == .unprocessableContent, "\(name)")
        }
        #expect(await Self.post(service, "rename", #"{"name":"  Ada  "}"#).head.status == .ok, "spaces at the ends are trimmed")
    }

    @Test("a malformed Idempotency-Key is refused even where it would not be used (no token)")
    func malformedKey() async throws {
        let service = Self.service()
        let noToken = await service.respond(
            to: request(.post, "/api/v5/commands/loose", headers: [.contentType: "application/json", ScreenplayService.idempotencyKeyHeader: "two words"]),
            body: Array("{}".utf8))
        #expect(noToken.head.status == .badRequest)
        #expect(String(decoding: noToken.body, as: UTF8.self).contains("Idempotency-Key"))
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

@Suite("Screenplay service (HTTP core, in process)")
struct ScreenplayServiceTests {
    struct Boom: Error {}

    static func makeService(
        builds: Counter = Counter(), revision: @escaping @Sendable () -> String = { "r1" }, maximumBodySize: Int = 1024
    ) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("home", revision: { _ in revision() }) { request in
            builds.increment()
            return Screen(id: "home", title: "Home for \(request.user.id)") {
                Section("s") { Text("revision \(revision())") }
            }
        }
        routes.screen("item/:id") { request in
            Screen(id: "item", title: try request.parameter("id")) { Section("s") { Text("x") } }
        }
        routes.screen("broken") { _ in throw Boom() }
        routes.command("echo/:name") { request in
            .done(.init(message: "\(request.parameters["name"] ?? "?"): \(try request.text("text", maxLength: 10))", refresh: true))
        }
        routes.command("count") { request in .done(.init(message: String(try request.integer("n")))) }
        return ScreenplayService(
            routes: routes, identity: CountingIdentities(), configuration: .init(maximumBodySize: maximumBodySize))
    }

    @Suite("screens")
    struct Screens {
        @Test("a screen is JSON with an ETag; a reader gets no identity, a first command does")
        func screen() async throws {
            let service = makeService()
            let response = await service.respond(to: request(.get, "/api/v1/screens/home"), body: [])
            #expect(response.head.status == .ok)
            #expect(response.head.headerFields[.contentType] == "application/json; charset=utf-8")
            #expect(response.head.headerFields[ScreenplayService.tokenHeader] == nil)
            let command = await service.respond(
                to: request(.post, "/api/v1/commands/count", headers: [.contentType: "application/json"]), body: Array(#"{"n":1}"#.utf8))
            #expect(command.head.headerFields[ScreenplayService.tokenHeader] == "token-1")
            let etag = try #require(response.head.headerFields[.eTag])
            #expect(etag.hasPrefix("\"sp-") && etag.hasSuffix("\""))
            let screen = try ScreenplayDecoder(mode: .strict).decode(Screen.self, from: Data(response.body)).value
            #expect(screen.title == "Home for 0", "the anonymous reader")
        }

        @Test("If-None-Match with the current ETag is a 304 with no body; a stale one gets 200")
        func conditional() async throws {
            let service = makeService()
            let first = await service.respond(
                to: request(.get, "/api/v1/screens/home", headers: [.authorization: "Bearer token-7"]), body: [])
            let etag = try #require(first.head.headerFields[.eTag])
            let second = await service.respond(
                to: request(.get, "/api/v1/screens/home", headers: [.authorization: "Bearer token-7", .ifNoneMatch: etag]), body: [])
            #expect(second.head.status == .notModified)
            #expect(second.body.isEmpty)
            #expect(second.head.headerFields[.eTag] == etag)
            let stale = await service.respond(
                to: request(
                    .get, "/api/v1/screens/home", headers: [.authorization: "Bearer token-7", .ifNoneMatch: "\"sp-0000000000000000\""]),
                body: [])
            #expect(stale.head.status == .ok)
            #expect(stale.body == first.body)
        }

        @Test("same revision: built and encoded once; new revision: rebuilt with a new ETag")
        func cache() async throws {
            let builds = Counter()
            let revision = RevisionBox("r1")
            let service = makeService(builds: builds, revision: { revision.value })
            let headers: HTTPFields = [.authorization: "Bearer token-3"]
            let first = await service.respond(to: request(.get, "/api/v1/screens/home", headers: headers), body: [])
            let second = await service.respond(to: request(.get, "/api/v1/screens/home", headers: headers), body: [])
            #expect(builds.count == 1)
            #expect(first.body == second.body)
            revision.value = "r2"
            let third = await service.respond(to: request(.get, "/api/v1/screens/home", headers: headers), body: [])
            #expect(builds.count == 2)
            #expect(third.head.headerFields[.eTag] != first.head.headerFields[.eTag])
        }

        @Test("a host rendering in process gets the screen it built as a value (the bytes decoded), and from the cache bytes only")
        func renderable() async throws {
            let builds = Counter()
            let revision = RevisionBox("r1")
            let service = makeService(builds: builds, revision: { revision.value })
            let user = UserIdentity(id: 3)
            let built = try await service.renderableScreen(path: "home", apiVersion: .latest, user: user)
            let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .latest).decode(Screen.self, from: Data(built.body.bytes))
            #expect(decoded.issues.isEmpty)
            #expect(built.screen == decoded.value, "the value is what its bytes say")
            let cached = try await service.renderableScreen(path: "home", apiVersion: .latest, user: user)
            #expect(builds.count == 1 && cached.screen == nil && cached.body.etag == built.body.etag)
            // Not built (a hit): nothing is kept from the last request that did build.
            revision.value = "r2"
            let rebuilt = try await service.renderableScreen(path: "home", apiVersion: .latest, user: user)
            #expect(builds.count == 2 && rebuilt.screen != nil && rebuilt.body.etag != built.body.etag)
            // A route without a revision is built for every request.
            let item = try await service.renderableScreen(path: "item/7", apiVersion: .latest, user: user)
            #expect(item.screen?.title == "7")
        }

        @Test("path parameters are percent-decoded")
        func parameters() async throws {
            let service = makeService()
            let response = await service.respond(to: request(.get, "/api/v1/screens/item/a%20b?x=1"), body: [])
            let screen = try ScreenplayDecoder().decode(Screen.self, from: Data(response.body)).value
            #expect(screen.title == "a b")
        }

        @Test("unknown screen is a 404 naming the path")
        func notFound() async throws {
            let response = await makeService().respond(to: request(.get, "/api/v1/screens/nope/deeper"), body: [])
            #expect(response.head.status == .notFound)
            let body = try decodeError(response)
            #expect(body.error.code == "notFound")
            #expect(body.error.message.contains("nope/deeper"))
        }

        @Test(
            "unsupported API versions are a 400 that names the supported range",
            arguments: ["v0", "v\(APIVersion.latest.rawValue + 1)", "v99", "vx", "1", "v01", "v+1", "v", "v١"])
        func versions(segment: String) async throws {
            let response = await makeService().respond(to: request(.get, "/api/\(segment)/screens/home"), body: [])
            #expect(response.head.status == .badRequest)
            let body = try decodeError(response)
            #expect(body.error.code == "unsupportedAPIVersion")
            #expect(body.error.message.contains("v1 through \(APIVersion.latest)"))
            #expect(body.error.message.contains(segment))
        }

        @Test("a failing builder is a 500 that does not leak the cause, and the server keeps serving")
        func builderFailure() async throws {
            let service = makeService()
            let failed = await service.respond(to: request(.get, "/api/v1/screens/broken"), body: [])
            #expect(failed.head.status == .internalServerError)
            let body = try decodeError(failed)
            #expect(body.error.code == "internalError")
            #expect(body.error.message.contains("broken"))
            #expect(!body.error.message.contains("Boom"))
            let next = await service.respond(to: request(.get, "/api/v1/screens/home"), body: [])
            #expect(next.head.status == .ok)
        }

        @Test("wrong method and malformed token")
        func methodAndToken() async throws {
            let service = makeService()
            let post = await service.respond(to: request(.post, "/api/v1/screens/home"), body: [])
            #expect(post.head.status == .methodNotAllowed)
            let token = await service.respond(
                to: request(.get, "/api/v1/screens/home", headers: [.authorization: "Bearer nonsense"]), body: [])
            #expect(token.head.status == .unauthorized)
            #expect(try decodeError(token).error.code == "invalidToken")
        }
    }

    @Suite("commands")
    struct Commands {
        static let json: HTTPFields = [.contentType: "application/json", .authorization: "Bearer token-1"]

        @Test("a command gets its payload and path parameters and answers a result")
        func command() async throws {
            let response = await makeService().respond(
                to: request(.post, "/api/v1/commands/echo/greet", headers: Self.json), body: Array(#"{"text":"hello"}"#.utf8))
            #expect(response.head.status == .ok)
            let result = try ScreenplayDecoder(mode: .strict).decode(CommandResult.self, from: Data(response.body)).value
            #expect(result == .done(.init(message: "greet: hello", refresh: true)))
        }

        @Test("malformed JSON is a 400 with line and column")
        func malformed() async throws {
            let response = await makeService().respond(
                to: request(.post, "/api/v1/commands/echo/a", headers: Self.json), body: Array("{\"text\":\n  \"unterminated}".utf8))
            #expect(response.head.status == .badRequest)
            let body = try decodeError(response)
            #expect(body.error.code == "malformedJSON")
            #expect(body.error.message.contains("line 2, column 3"))
        }

        @Test("a member named twice is a 400 at the second name: parsers disagree on which one counts")
        func repeatedName() async throws {
            let response = await makeService().respond(
                to: request(.post, "/api/v1/commands/echo/a", headers: Self.json), body: Array(#"{"text":"hi","text":"bye"}"#.utf8))
            #expect(response.head.status == .badRequest)
            let body = try decodeError(response)
            #expect(body.error.code == "malformedJSON")
            #expect(body.error.message.contains(#"line 1, column 14: the member name "text" appears twice in one object"#))
        }

        @Test("wrong content type is a 415 naming what was sent")
        func contentType() async throws {
            let response = await makeService().respond(
                to: request(.post, "/api/v1/commands/echo/a", headers: [.contentType: "text/plain"]), body: Array("text=hi".utf8))
            #expect(response.head.status == .unsupportedMediaType)
            #expect(try decodeError(response).error.message.contains("text/plain"))
        }

        @Test("a body over the limit is a 413 stating the limit")
        func tooLarge() async throws {
            let body = Array(("{\"text\":\"" + String(repeating: "a", count: 2000) + "\"}").utf8)
            let response = await makeService(maximumBodySize: 1024).respond(
                to: request(.post, "/api/v1/commands/echo/a", headers: Self.json), body: body)
            #expect(response.head.status == .contentTooLarge)
            #expect(try decodeError(response).error.message.contains("1024 bytes"))
        }

        @Test(
            "a payload that parses but is invalid is a 422 naming the field",
            arguments: [
                (#"{}"#, "$.text", "missing"),
                (#"{"text": 5}"#, "$.text", "must be a string"),
                (#"{"text": "   "}"#, "$.text", "must not be empty"),
                (#"{"text": "much too long text"}"#, "$.text", "limit is 10"),
                (#"{"text": "a\u0000b"}"#, "$.text", "U+0000, a control character"),
                (#"{"text": "a\nb"}"#, "$.text", "U+000A"),
                (#"{"text": "evil\u202Etxt"}"#, "$.text", "U+202E"),
            ])
        func invalidField(body: String, path: String, phrase: String) async throws {
            let response = await makeService().respond(
                to: request(.post, "/api/v1/commands/echo/a", headers: Self.json), body: Array(body.utf8))
            #expect(response.head.status == .unprocessableContent)
            let error = try decodeError(response)
            #expect(error.error.path == path)
            #expect(error.error.message.contains(phrase))
        }

        @Test("integers accept 3 and 3.0 but not '3'")
        func integers() async throws {
            let service = makeService()
            for (body, status) in [(#"{"n":3}"#, HTTPResponse.Status.ok), (#"{"n":3.0}"#, .ok), (#"{"n":"3"}"#, .unprocessableContent)] {
                let response = await service.respond(
                    to: request(.post, "/api/v1/commands/count", headers: Self.json), body: Array(body.utf8))
                #expect(response.head.status == status, "\(body)")
            }
        }

        @Test("unknown command is a 404; GET on a command is a 405")
        func unknown() async throws {
            let service = makeService()
            let missing = await service.respond(to: request(.post, "/api/v1/commands/nope", headers: Self.json), body: Array("{}".utf8))
            #expect(missing.head.status == .notFound)
            let get = await service.respond(to: request(.get, "/api/v1/commands/count"), body: [])
            #expect(get.head.status == .methodNotAllowed)
        }
    }

    @Test("ETag matching honors lists, weak tags and *")
    func etagMatching() {
        #expect(ETag.matches(ifNoneMatch: "\"a\", \"b\"", etag: "\"b\""))
        #expect(ETag.matches(ifNoneMatch: "W/\"b\"", etag: "\"b\""))
        #expect(ETag.matches(ifNoneMatch: "*", etag: "\"b\""))
        #expect(!ETag.matches(ifNoneMatch: "\"c\"", etag: "\"b\""))
        #expect(ETag.strong(for: Array("x".utf8)) == ETag.strong(for: Array("x".utf8)))
        #expect(ETag.strong(for: Array("x".utf8)) != ETag.strong(for: Array("y".utf8)))
    }
}

final class RevisionBox: Sendable {
    private let stored: Mutex<String>
    init(_ value: String) { stored = Mutex(value) }
    var value: String {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

@Suite("Verification of encoded screens")
struct VerificationTests {
    static func service(verifies: Bool) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("evil") { _ in
            Screen(id: "evil", title: "Evil") {
                Section("s") { Button(title: "Run", action: .navigate(to: "javascript:alert(1)")) }
            }
        }
        routes.screen("fine") { _ in
            Screen(id: "fine", title: "Fine") { Section("s") { Component.Grid(columns: 2, cards: [.init(title: "x")]) } }
        }
        return ScreenplayService(routes: routes, identity: CountingIdentities(), configuration: .init(verifiesEncodedScreens: verifies))
    }

    @Test("a screen a client would refuse is a 500 naming the screen, not a silently broken screen")
    func refused() async throws {
        let response = await Self.service(verifies: true).respond(to: request(.get, "/api/v3/screens/evil"), body: [])
        #expect(response.head.status == .internalServerError)
        #expect(try decodeError(response).error.message.contains("'evil'"))
        let unchecked = await Self.service(verifies: false).respond(to: request(.get, "/api/v3/screens/evil"), body: [])
        #expect(unchecked.head.status == .ok)
    }

    @Test("downgraded screens pass verification at every version")
    func downgradedPass() async throws {
        for version in ["v1", "v2", "v3"] {
            let response = await Self.service(verifies: true).respond(to: request(.get, "/api/\(version)/screens/fine"), body: [])
            #expect(response.head.status == .ok, "\(version)")
        }
    }
}

@Suite("Cache keys")
struct CacheKeyTests {
    static func service(identities: CountingIdentities = CountingIdentities(), builds: Counter = Counter()) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        // The same revision for everyone: only the user in the key keeps their screens apart.
        routes.screen("mine", revision: { _ in "r1" }) { request in
            builds.increment()
            return Screen(id: "mine", title: "Only for \(request.user.id)") { Section("s") { Text("x") } }
        }
        routes.screen("search", revision: { _ in "r1" }, sharing: .everyone, queryKeys: ["q"]) { request in
            builds.increment()
            return Screen(id: "search", title: "q=\(request.query["q"] ?? "-") junk=\(request.query["junk"] ?? "-")") {
                Section("s") { Text("x") }
            }
        }
        routes.screen("docs/:a") { request in Screen(id: "a", title: try request.parameter("a")) { Section("s") { Text("x") } } }
        return ScreenplayService(routes: routes, identity: identities)
    }

    static func title(_ response: ScreenplayService.Response) throws -> String {
        try ScreenplayDecoder().decode(Screen.self, from: .init(response.body)).value.title
    }

    @Test("per-user routes never serve one user's screen to another, even at the same revision")
    func perUser() async throws {
        let service = Self.service()
        let alice = await service.respond(to: request(.get, "/api/v3/screens/mine", headers: [.authorization: "Bearer token-1"]), body: [])
        let bob = await service.respond(to: request(.get, "/api/v3/screens/mine", headers: [.authorization: "Bearer token-2"]), body: [])
        #expect(try Self.title(alice) == "Only for 1")
        #expect(try Self.title(bob) == "Only for 2")
    }

    @Test("only declared query keys reach the builder and the key; encoded ampersands stay values")
    func query() async throws {
        let builds = Counter()
        let service = Self.service(builds: builds)
        let plain = await service.respond(to: request(.get, "/api/v3/screens/search?q=bach"), body: [])
        let noisy = await service.respond(to: request(.get, "/api/v3/screens/search?q=bach&junk=1&utm=x"), body: [])
        #expect(try Self.title(plain) == "q=bach junk=-")
        #expect(noisy.body == plain.body)
        #expect(builds.count == 1)
        let encoded = await service.respond(to: request(.get, "/api/v3/screens/search?q=x%26junk%3D2"), body: [])
        let split = await service.respond(to: request(.get, "/api/v3/screens/search?q=x&junk=2"), body: [])
        #expect(try Self.title(encoded) == "q=x&junk=2 junk=-")
        #expect(try Self.title(split) == "q=x junk=-")
    }

    @Test("an unknown screen is a 404 before any identity is created")
    func notFoundFirst() async throws {
        let identities = CountingIdentities()
        let service = Self.service(identities: identities)
        let response = await service.respond(to: request(.get, "/api/v3/screens/nothing/here"), body: [])
        #expect(response.head.status == .notFound)
        #expect(response.head.headerFields[ScreenplayService.tokenHeader] == nil)
        #expect(identities.calls == 0)
    }

    @Test("a deprecated version carries RFC 9745's Deprecation date")
    func deprecation() async throws {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "h", title: "H") { Section("s") { Text("x") } } }
        let service = ScreenplayService(
            routes: routes, identity: CountingIdentities(),
            configuration: .init(deprecatedVersions: [.v1: Date(timeIntervalSince1970: 1_000)]))
        let old = await service.respond(to: request(.get, "/api/v1/screens/home"), body: [])
        #expect(old.head.headerFields[ScreenplayService.deprecationHeader] == "@1000")
        #expect(old.head.headerFields[ScreenplayService.deprecationNoticeHeader]?.contains("v1 is deprecated") == true)
        let new = await service.respond(to: request(.get, "/api/v3/screens/home"), body: [])
        #expect(new.head.headerFields[ScreenplayService.deprecationHeader] == nil)
    }
}

@Suite("HTTP hygiene of the JSON API")
struct HTTPHygieneTests {
    static func service() -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("x") } } }
        routes.command("count") { request in .done(.init(message: String(try request.integer("n")))) }
        return ScreenplayService(routes: routes, identity: CountingIdentities())
    }

    @Test(
        "a wrong method is a JSON 405 naming the path, with Allow",
        arguments: [
            (HTTPRequest.Method.put, "/api/v4/screens/home", "GET, HEAD"), (.delete, "/api/v4/screens/home", "GET, HEAD"),
            (.get, "/api/v4/commands/count", "POST"), (.patch, "/api/v4/commands/count", "POST"),
        ])
    func methodNotAllowed(method: HTTPRequest.Method, path: String, allow: String) async throws {
        let response = await Self.service().respond(to: request(method, path), body: [])
        #expect(response.head.status == .methodNotAllowed)
        #expect(response.head.headerFields[.allow] == allow)
        #expect(response.head.headerFields[ScreenplayService.contentTypeOptions] == "nosniff")
        let body = try decodeError(response)
        #expect(body.error.code == "methodNotAllowed")
        #expect(body.error.path == path)
    }

    @Test("HEAD answers like GET without a body")
    func head() async throws {
        let get = await Self.service().respond(to: request(.get, "/api/v4/screens/home"), body: [])
        let head = await Self.service().respond(to: request(.head, "/api/v4/screens/home"), body: [])
        #expect(head.head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(head.head.headerFields[.eTag] == get.head.headerFields[.eTag])
    }

    static let cookie = "screenplay_token=token-7"

    @Test(
        "a command carrying the browser cookie must be same-origin JSON, whatever its body; with Authorization it is an app's",
        arguments: [
            ([HTTPField.Name.cookie: cookie], "", HTTPResponse.Status.forbidden),
            ([.cookie: cookie, .contentType: "application/x-www-form-urlencoded"], "n=1", .forbidden),
            ([.cookie: cookie, .contentType: "text/plain"], #"{"n":1}"#, .forbidden),
            (
                [.cookie: cookie, .contentType: "application/json", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"], #"{"n":1}"#,
                .forbidden
            ),
            ([.cookie: cookie, .contentType: "application/json", .origin: "https://evil.example"], #"{"n":1}"#, .forbidden),
            ([.cookie: cookie, .contentType: "application/json", .origin: "http://localhost"], #"{"n":1}"#, .ok),
            ([.cookie: cookie, .contentType: "application/json"], #"{"n":1}"#, .ok),
            ([.authorization: "Bearer token-7"], "", .unprocessableContent),
        ])
    func cookieCommands(headers: [HTTPField.Name: String], body: String, status: HTTPResponse.Status) async throws {
        var fields = HTTPFields()
        for (name, value) in headers { fields[name] = value }
        let response = await Self.service().respond(to: request(.post, "/api/v4/commands/count", headers: fields), body: Array(body.utf8))
        #expect(response.head.status == status, "\(headers)")
        if status == .forbidden { #expect(try decodeError(response).error.code == "crossSiteRequest") }
    }
}

@Suite("Idempotent commands")
struct IdempotencyTests {
    static func service(runs: Counter) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.command("add") { request in
            runs.increment()
            return .done(.init(message: "added \(try request.integer("n")) (run \(runs.count))"))
        }
        routes.command("fail") { _ in throw ScreenplayError.invalidField("n", "no") }
        // Writes, then fails: the write stands, so a retry must not write again.
        routes.command("write-then-fail") { _ in
            runs.increment()
            throw ScreenplayServiceTests.Boom()
        }
        // Writes, then answers with a screen that cannot be sent (two components, one id).
        routes.command("write-then-bad-answer") { _ in
            runs.increment()
            return .screen(
                Screen(id: "s", title: "S") {
                    Section("a") { Text("one").id("same") }
                    Section("b") { Text("two").id("same") }
                })
        }
        return ScreenplayService(routes: routes, identity: CountingIdentities())
    }

    @Test(
        "a command that fails after its handler ran is answered the same on retry, never run twice",
        arguments: ["write-then-fail", "write-then-bad-answer"])
    func failureAfterRunning(path: String) async throws {
        let runs = Counter()
        let service = Self.service(runs: runs)
        let first = await Self.post(service, path, body: "{}", key: "k-\(path)")
        let retry = await Self.post(service, path, body: "{}", key: "k-\(path)")
        #expect(first.head.status == .internalServerError)
        #expect(try decodeError(first).error.code == "internalError")
        #expect(retry.body == first.body && retry.head.status == first.head.status)
        #expect(retry.head.headerFields[ScreenplayService.replayedHeader] == "true")
        #expect(runs.count == 1, "the handler ran \(runs.count) times")
        // Without a key, the same failure is a plain JSON 500 each time.
        let unkeyed = await Self.post(service, path, body: "{}", key: nil)
        #expect(unkeyed.head.status == .internalServerError && runs.count == 2)
    }

    static func post(
        _ service: ScreenplayService, _ path: String, body: String, key: String?, token: String? = "token-5"
    ) async
        -> ScreenplayService.Response
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let key { headers[ScreenplayService.idempotencyKeyHeader] = key }
        if let token { headers[.authorization] = "Bearer " + token }
        return await service.respond(to: request(.post, "/api/v4/commands/" + path, headers: headers), body: Array(body.utf8))
    }

    @Test("a retry with the same key gets the first answer and runs nothing; without a key every post runs")
    func replay() async throws {
        let runs = Counter()
        let service = Self.service(runs: runs)
        let first = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-1")
        let retry = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-1")
        #expect(runs.count == 1)
        #expect(retry.body == first.body)
        #expect(retry.head.headerFields[ScreenplayService.replayedHeader] == "true")
        #expect(first.head.headerFields[ScreenplayService.replayedHeader] == nil)
        _ = await Self.post(service, "add", body: #"{"n":1}"#, key: nil)
        _ = await Self.post(service, "add", body: #"{"n":1}"#, key: nil)
        #expect(runs.count == 3)
        // Another user's identical key is theirs alone.
        _ = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-1", token: "token-6")
        #expect(runs.count == 4)
    }

    @Test("the same key with another body is a 422; a malformed key is a 400; a refusal is replayed too")
    func misuse() async throws {
        let runs = Counter()
        let service = Self.service(runs: runs)
        _ = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-2")
        let other = await Self.post(service, "add", body: #"{"n":2}"#, key: "k-2")
        #expect(other.head.status == .unprocessableContent)
        #expect(try decodeError(other).error.code == "idempotencyKeyReused")
        let bad = await Self.post(service, "add", body: #"{"n":1}"#, key: "has space")
        #expect(bad.head.status == .badRequest)
        #expect(try decodeError(bad).error.path == "Idempotency-Key")
        let refused = await Self.post(service, "fail", body: "{}", key: "k-3")
        let again = await Self.post(service, "fail", body: "{}", key: "k-3")
        #expect(refused.head.status == .unprocessableContent && again.body == refused.body)
        #expect(again.head.headerFields[ScreenplayService.replayedHeader] == "true")
    }

    @Test("a tokenless first command is never replayed: a new identity's token goes to nobody else, whatever key they send")
    func firstCommand() async throws {
        let runs = Counter()
        let service = Self.service(runs: runs)
        let first = await Self.post(service, "add", body: #"{"n":1}"#, key: "first", token: nil)
        let other = await Self.post(service, "add", body: #"{"n":1}"#, key: "first", token: nil)
        let token = try #require(first.head.headerFields[ScreenplayService.tokenHeader])
        #expect(other.head.headerFields[ScreenplayService.tokenHeader] != token)
        #expect(other.head.headerFields[ScreenplayService.replayedHeader] == nil)
        #expect(runs.count == 2)
    }

    @Test("a retry with an unknown token is refused before anything is replayed")
    func unknownTokenNoReplay() async throws {
        let runs = Counter()
        let service = Self.service(runs: runs)
        _ = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-9")
        let forged = await Self.post(service, "add", body: #"{"n":1}"#, key: "k-9", token: "forged")
        #expect(forged.head.status == .unauthorized)
    }
}

@Suite("Rate limits")
struct RateLimitTests {
    static func service() -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.command("ping") { _ in .done(.init(message: "pong")) }
        return ScreenplayService(
            routes: routes, identity: CountingIdentities(),
            configuration: .init(commandRate: (perSecond: 0.5, burst: 3), identityCreationRate: (perSecond: 0.5, burst: 2)))
    }

    static func ping(_ service: ScreenplayService, token: String?) async -> ScreenplayService.Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer " + token }
        return await service.respond(to: request(.post, "/api/v4/commands/ping", headers: headers), body: Array("{}".utf8))
    }

    @Test("past its burst a client gets 429 with Retry-After; another client is not affected")
    func perIdentity() async throws {
        let service = Self.service()
        for _ in 0..<3 { #expect(await Self.ping(service, token: "token-1").head.status == .ok) }
        let limited = await Self.ping(service, token: "token-1")
        #expect(limited.head.status == .tooManyRequests)
        #expect(limited.head.headerFields[.retryAfter] == "2")
        #expect(try decodeError(limited).error.code == "tooManyRequests")
        #expect(await Self.ping(service, token: "token-2").head.status == .ok)
    }

    @Test("minting identities in a loop is limited too")
    func creation() async throws {
        let service = Self.service()
        #expect(await Self.ping(service, token: nil).head.status == .ok)
        #expect(await Self.ping(service, token: nil).head.status == .ok)
        let limited = await Self.ping(service, token: nil)
        #expect(limited.head.status == .tooManyRequests)
        #expect(limited.head.headerFields[ScreenplayService.tokenHeader] == nil, "no identity was made")
    }

    @Test("one address can mint only so many identities; another address is not affected")
    func perAddress() async throws {
        var routes = ScreenplayRoutes()
        routes.command("ping") { _ in .done(.init(message: "pong")) }
        let service = ScreenplayService(
            routes: routes, identity: CountingIdentities(), configuration: .init(identityCreationPerAddress: (perSecond: 0.5, burst: 2)))
        func ping(from address: String) async -> ScreenplayService.Response {
            await service.respond(
                to: request(.post, "/api/v4/commands/ping", headers: [.contentType: "application/json"]), body: Array("{}".utf8),
                clientAddress: address)
        }
        #expect(await ping(from: "10.0.0.1").head.status == .ok)
        #expect(await ping(from: "10.0.0.1").head.status == .ok)
        let limited = await ping(from: "10.0.0.1")
        #expect(limited.head.status == .tooManyRequests)
        #expect(try decodeError(limited).error.message.contains("new identities from this address"))
        #expect(await ping(from: "10.0.0.2").head.status == .ok)
    }

    @Test("a bucket refills at its rate")
    func refill() {
        let limiter = RateLimiter(rate: 2, burst: 1)
        let start = ContinuousClock.now
        #expect(limiter.spend("k", now: start) == nil)
        #expect(limiter.spend("k", now: start) != nil)
        #expect(limiter.spend("k", now: start + .milliseconds(600)) == nil)
    }
}

@Suite("Commands a reader may send without becoming a user")
struct AnonymousCommandTests {
    /// `open` runs anonymously for clients without a token and says who ran it; `ping` creates
    /// identities, as every command did before.
    static func service(identities: CountingIdentities = CountingIdentities()) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.command("open", identity: .anonymous) { request in
            .navigate(.init(url: request.user.isAnonymous ? "screens/anonymous" : "screens/user/\(request.user.id)"))
        }
        routes.command("ping") { _ in .done(.init(message: "pong")) }
        return ScreenplayService(
            routes: routes, identity: identities,
            configuration: .init(commandRate: (perSecond: 0.5, burst: 3), identityCreationPerAddress: (perSecond: 0.5, burst: 2)))
    }

    static func post(
        _ service: ScreenplayService, _ command: String, token: String? = nil, address: String? = "10.0.0.1", key: String? = nil
    ) async -> ScreenplayService.Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer " + token }
        if let key { headers[ScreenplayService.idempotencyKeyHeader] = key }
        return await service.respond(
            to: request(.post, "/api/v4/commands/" + command, headers: headers), body: Array("{}".utf8), clientAddress: address)
    }

    static func destination(_ response: ScreenplayService.Response) throws -> String? {
        let result = try ScreenplayDecoder(mode: .strict).decode(CommandResult.self, from: Data(response.body)).value
        guard case .navigate(let navigate) = result.outcome else { return nil }
        return navigate.url
    }

    @Test("without a token it runs as the anonymous user: no identity is made and no token handed out; with one, as that user")
    func anonymous() async throws {
        let service = Self.service()
        let anonymous = await Self.post(service, "open", key: "k-1")
        #expect(anonymous.head.status == .ok)
        #expect(try Self.destination(anonymous) == "screens/anonymous")
        #expect(anonymous.head.headerFields[ScreenplayService.tokenHeader] == nil)
        let user = await Self.post(service, "open", token: "token-42", key: "k-1")
        #expect(try Self.destination(user) == "screens/user/42")
        // A command that keeps something still makes the first identity: number 1, so none was made before.
        let created = await Self.post(service, "ping")
        #expect(created.head.headerFields[ScreenplayService.tokenHeader] == "token-1")
        #expect(service.commandIdentity(path: "open") == .anonymous)
        #expect(service.commandIdentity(path: "ping") == .created)
        #expect(service.commandIdentity(path: "nowhere") == nil)
    }

    @Test("its budget is the address's commands, not the new identities'; another address is not affected")
    func budget() async throws {
        let service = Self.service()
        for _ in 0..<3 { #expect(await Self.post(service, "open").head.status == .ok) }
        let limited = await Self.post(service, "open")
        #expect(limited.head.status == .tooManyRequests)
        #expect(try decodeError(limited).error.message.contains("commands from this address"))
        #expect(await Self.post(service, "open", address: "10.0.0.2").head.status == .ok)
        // The address may still become a user: that budget was not spent.
        #expect(await Self.post(service, "ping").head.status == .ok)
        // Without an address, such clients share one budget.
        for _ in 0..<3 { #expect(await Self.post(service, "open", address: nil).head.status == .ok) }
        #expect(try decodeError(await Self.post(service, "open", address: nil)).error.message.contains("commands without a token"))
    }
}

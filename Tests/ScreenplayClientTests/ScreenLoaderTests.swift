import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

@Suite("ScreenLoader")
struct ScreenLoaderTests {
    @Suite("Loading screens")
    struct LoadingScreens {
        @Test("a first load sends a plain GET and returns the decoded screen with its ETag")
        func firstLoad() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"v1\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let loaded = try await loader.screen(at: "screens/home")

            #expect(loaded.screen == Samples.home)
            #expect(loaded.etag == "\"v1\"")
            #expect(loaded.revalidated == false)
            #expect(loaded.issues.isEmpty)
            let sent = try #require(transport.requests.first)
            #expect(transport.requests.count == 1)
            #expect(sent.method == .get)
            #expect(sent.request.scheme == "http")
            #expect(sent.request.authority == "127.0.0.1:8080")
            #expect(sent.path == "/api/v1/screens/home")
            #expect(sent[.accept] == "application/json")
            #expect(sent[.ifNoneMatch] == nil)
            #expect(sent[.authorization] == nil)
            #expect(sent.body == nil)
        }

        @Test("the query string travels with the path")
        func queryKept() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/search?q=mozart"), .screen(Samples.home))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try await loader.screen(at: "screens/search?q=mozart")
            #expect(transport.requests.first?.path == "/api/v1/screens/search?q=mozart")
        }

        @Test("a second load revalidates with If-None-Match; a 304 returns the cached screen")
        func revalidation() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"v1\""), .notModified(etag: "\"v1\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.screen(at: "screens/home")
            let again = try await loader.screen(at: "screens/home")

            #expect(again.screen == Samples.home)
            #expect(again.revalidated)
            #expect(again.etag == "\"v1\"")
            #expect(transport.requests.count == 2)
            #expect(transport.requests[1][.ifNoneMatch] == "\"v1\"")
        }

        @Test("a 200 with a new ETag replaces the cached copy")
        func newVersionReplacesCache() async throws {
            let updated = Samples.screen("home", title: "Home", texts: ["Welcome back"])
            let transport = FakeTransport()
            transport.on(
                .get, api("screens/home"),
                .screen(Samples.home, etag: "\"v1\""), .screen(updated, etag: "\"v2\""), .notModified(etag: "\"v2\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.screen(at: "screens/home")
            let second = try await loader.screen(at: "screens/home")
            let third = try await loader.screen(at: "screens/home")

            #expect(second.screen == updated)
            #expect(second.etag == "\"v2\"")
            #expect(second.revalidated == false)
            #expect(transport.requests[2][.ifNoneMatch] == "\"v2\"")
            #expect(third.screen == updated)
            #expect(third.revalidated)
        }

        @Test("the cache is per URL")
        func cachePerURL() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"home\""))
            transport.on(.get, api("screens/composer/mozart"), .screen(Samples.mozart, etag: "\"mozart\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.screen(at: "screens/home")
            _ = try await loader.screen(at: "screens/composer/mozart")
            _ = try await loader.screen(at: "screens/home")

            #expect(transport.requests.map { $0[.ifNoneMatch] } == [nil, nil, "\"home\""])
        }

        @Test("a screen served without an ETag is not revalidated")
        func noETagNoRevalidation() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try await loader.screen(at: "screens/home")
            let again = try await loader.screen(at: "screens/home")
            #expect(transport.requests[1][.ifNoneMatch] == nil)
            #expect(again.etag == nil)
        }

        @Test("clearCache() forgets ETags")
        func clearCacheForgets() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"v1\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try await loader.screen(at: "screens/home")
            await loader.clearCache()
            _ = try await loader.screen(at: "screens/home")
            #expect(transport.requests[1][.ifNoneMatch] == nil)
        }

        @Test("the cache keeps no more screens than its limit")
        func cacheLimit() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/a"), .screen(Samples.screen("a"), etag: "\"a\""))
            transport.on(.get, api("screens/b"), .screen(Samples.screen("b"), etag: "\"b\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, cacheLimit: 1)

            _ = try await loader.screen(at: "screens/a")
            _ = try await loader.screen(at: "screens/b")
            _ = try await loader.screen(at: "screens/b")
            _ = try await loader.screen(at: "screens/a")

            #expect(transport.requests.map { $0[.ifNoneMatch] } == [nil, nil, "\"b\"", nil])
        }

        @Test("at its limit the cache lets go of the least recently used screen only, not all of them")
        func leastRecentlyUsed() async throws {
            let transport = FakeTransport()
            for name in ["a", "b", "c"] {
                transport.on(
                    .get, api("screens/\(name)"), .screen(Samples.screen(name), etag: "\"\(name)\""), .notModified(etag: "\"\(name)\""))
            }
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, cacheLimit: 2)
            _ = try await loader.screen(at: "screens/a")
            _ = try await loader.screen(at: "screens/b")
            _ = try await loader.screen(at: "screens/a")  // a is now the most recently used
            _ = try await loader.screen(at: "screens/c")  // evicts b
            #expect(await loader.cachedScreenCount == 2)
            #expect(await loader.isCached("screens/a"))
            #expect(await !loader.isCached("screens/b"))
            #expect(await loader.isCached("screens/c"))
        }

        @Test("an error answer keeps the cached copy for the next revalidation")
        func errorKeepsCache() async throws {
            let transport = FakeTransport()
            transport.on(
                .get, api("screens/home"),
                .screen(Samples.home, etag: "\"v1\""), .error(.serviceUnavailable, code: "internalError", message: "busy"),
                .notModified(etag: "\"v1\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try await loader.screen(at: "screens/home")
            await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/home") }
            let third = try await loader.screen(at: "screens/home")
            #expect(transport.requests[2][.ifNoneMatch] == "\"v1\"")
            #expect(third.revalidated)
            #expect(third.screen == Samples.home)
        }

        @Test("a screen with one malformed component loads with one issue and the rest intact")
        func lossyScreen() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/broken"), .raw(Samples.brokenScreenJSON(id: "broken")))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let loaded = try await loader.screen(at: "screens/broken")

            #expect(loaded.issues.count == 1)
            let issue = try #require(loaded.issues.first)
            #expect(issue.kind == .invalidElement)
            #expect(issue.path.hasPrefix("$.sections[0].components[1]"), "path was \(issue.path)")
            #expect(loaded.screen.id == "broken")
            #expect(loaded.screen.sections.first?.components == [.text(.init("first")), .text(.init("third"))])
        }

        @Test("a 304 keeps the issues the cached copy had")
        func revalidatedKeepsIssues() async throws {
            let transport = FakeTransport()
            transport.on(
                .get, api("screens/broken"), .raw(Samples.brokenScreenJSON(id: "broken"), etag: "\"b\""), .notModified(etag: "\"b\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try await loader.screen(at: "screens/broken")
            let again = try await loader.screen(at: "screens/broken")
            #expect(again.revalidated)
            #expect(again.issues.count == 1)
        }
    }

    @Suite("Identity token")
    struct IdentityToken {
        @Test("a token issued in Screenplay-Token is saved and sent as a bearer token from then on")
        func issuedTokenIsSent() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home, etag: "\"v1\"", token: "abc123"), .notModified(etag: "\"v1\""))
            transport.on(.post, api(Samples.favoriteCommand.url), .result(.done(.init())))
            let tokens = InMemoryTokenStore()
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: tokens)

            _ = try await loader.screen(at: "screens/home")
            #expect(await tokens.token() == "abc123")
            _ = try await loader.screen(at: "screens/home")
            _ = try await loader.perform(Samples.favoriteCommand)

            #expect(transport.requests.map { $0[.authorization] } == [nil, "Bearer abc123", "Bearer abc123"])
        }

        @Test("a token already in the store is sent on the first request")
        func storedTokenIsSent() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .screen(Samples.home))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: InMemoryTokenStore(token: "kept"))
            _ = try await loader.screen(at: "screens/home")
            #expect(transport.requests.first?[.authorization] == "Bearer kept")
        }

        @Test("a token issued with a command answer or an error answer is saved too")
        func tokenFromOtherAnswers() async throws {
            let transport = FakeTransport()
            var failure = FakeResponse.error(.notFound, code: "notFound", message: "gone")
            failure.headers[.screenplayToken] = "from-error"
            transport.on(.get, api("screens/gone"), failure)
            transport.on(.post, api(Samples.favoriteCommand.url), .result(.done(.init()), token: "from-command"))
            let tokens = InMemoryTokenStore()
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: tokens)

            _ = try await loader.perform(Samples.favoriteCommand)
            #expect(await tokens.token() == "from-command")
            await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/gone") }
            #expect(await tokens.token() == "from-error")
        }
    }

    @Suite("Read-your-writes")
    struct ReadYourWrites {
        @Test("the highest revision a command's answer names is sent with every later request")
        func revisionSentBack() async throws {
            let transport = FakeTransport()
            func written(_ revision: String) -> FakeResponse {
                var answer = FakeResponse.result(.done(.init()))
                answer.headers[.screenplayRevision] = revision
                return answer
            }
            transport.on(.get, api("screens/home"), .screen(Samples.home))
            // An older answer arriving after a newer one (two commands in flight) lowers nothing;
            // a header that is not a revision is ignored.
            transport.on(.post, api(Samples.favoriteCommand.url), written("7"), written("5"), written("soon"))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.screen(at: "screens/home")
            _ = try await loader.perform(Samples.favoriteCommand)
            _ = try await loader.screen(at: "screens/home")
            _ = try await loader.perform(Samples.favoriteCommand)
            _ = try await loader.perform(Samples.favoriteCommand)
            _ = try await loader.screen(at: "screens/home")

            #expect(transport.requests.map { $0[.screenplayRevision] } == [nil, nil, "7", "7", "7", "7"])
        }

        @Test("a new identity (a token handed out) starts from no revision: the old one's are not its floor")
        func newIdentityForgets() async throws {
            let transport = FakeTransport()
            var written = FakeResponse.result(.done(.init()))
            written.headers[.screenplayRevision] = "40"
            transport.on(.post, api(Samples.favoriteCommand.url), written)
            transport.on(.get, api("screens/home"), .screen(Samples.home, token: "another"), .screen(Samples.home))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: InMemoryTokenStore(token: "first"))

            _ = try await loader.perform(Samples.favoriteCommand)
            _ = try await loader.screen(at: "screens/home")
            _ = try await loader.screen(at: "screens/home")
            #expect(transport.requests.map { $0[.screenplayRevision] } == [nil, "40", nil])
        }
    }

    @Suite("Failures")
    struct Failures {
        @Test("a JSON error answer becomes a server error with the server's message")
        func serverErrorWithBody() async throws {
            let transport = FakeTransport()
            transport.on(
                .get, api("screens/composer/nobody"), .error(.notFound, code: "notFound", message: "No composer 'nobody'", path: "$.id"))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/composer/nobody") }

            #expect(error?.kind == .server(status: 404, body: ErrorBody(code: "notFound", message: "No composer 'nobody'", path: "$.id")))
            #expect(error?.message == "No composer 'nobody'")
            #expect(error?.description == "No composer 'nobody'")
            #expect(error?.status == 404)
        }

        @Test("an error answer without a JSON body names the status and the path")
        func serverErrorWithoutBody() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .raw("<html>Bad gateway</html>", status: .badGateway))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/home") }

            #expect(error?.kind == .server(status: 502, body: nil))
            #expect(error?.message == "HTTP 502 from /api/v1/screens/home")
        }

        @Test("a body that is not JSON is a decoding error")
        func invalidJSON() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .raw("{\"id\": \"home\", \"title\": "))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/home") }

            guard case .decoding(let decoding)? = error?.kind else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(decoding.path == "$")
            #expect(error?.status == nil)
        }

        @Test("JSON that is not a screen is a decoding error naming the missing field")
        func notAScreen() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), .raw(#"{"id": "home", "title": "Home"}"#))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/home") }

            guard case .decoding(let decoding)? = error?.kind else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(decoding.path.contains("sections"), "path was \(decoding.path)")
        }

        @Test("a transport that throws becomes a transport error")
        func transportFailure() async throws {
            let transport = FakeTransport()
            transport.on(.get, api("screens/home"), replies: [.fail])
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "screens/home") }

            #expect(error?.kind == .transport)
            #expect(error?.message.contains("127.0.0.1:8080") == true)
            #expect(error?.message.contains("connection refused") == true)
        }

        @Test("a reference the link policy refuses is an invalid URL and sends nothing")
        func refusedReference() async throws {
            let transport = FakeTransport()
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.screen(at: "javascript:alert(1)") }
            let commandError = await #expect(throws: ClientError.self) {
                try await loader.perform(Action.Command(url: "file:///etc/passwd"))
            }

            #expect(error?.kind == .invalidURL)
            #expect(commandError?.kind == .invalidURL)
            #expect(transport.requests.isEmpty)
        }
    }

    @Suite("Commands")
    struct Commands {
        @Test("perform POSTs the payload as JSON")
        func postsPayload() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init(message: "Added"))))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let result = try await loader.perform(Samples.favoriteCommand)

            #expect(result.value == .done(.init(message: "Added")))
            #expect(result.issues.isEmpty)
            let sent = try #require(transport.requests.first)
            #expect(sent.method == .post)
            #expect(sent.path == "/api/v1/commands/favorites/add")
            #expect(sent[.contentType] == "application/json")
            #expect(sent[.accept] == "application/json")
            #expect(try sent.json() == ["workId": 42, "kind": "work"])
        }

        @Test("extra members are merged into the payload, replacing members of the same name")
        func mergesExtra() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/favorites/add"), .result(.done(.init())))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.perform(Samples.favoriteCommand, extra: ["note": "for later", "kind": "recording", "rating": 5])

            #expect(try transport.requests.first?.json() == ["workId": 42, "kind": "recording", "note": "for later", "rating": 5])
        }

        @Test("a command without a payload sends an object with only the extra members")
        func noPayload() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/ping"), .result(.done(.init())))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            _ = try await loader.perform(Action.Command(url: "commands/ping"))
            _ = try await loader.perform(Action.Command(url: "commands/ping"), extra: ["name": "x"])

            #expect(try transport.requests[0].json() == [:])
            #expect(try transport.requests[1].json() == ["name": "x"])
        }

        @Test("a non-object payload is sent as is, and refuses extra members without sending anything")
        func nonObjectPayload() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/batch"), .result(.done(.init())))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            let command = Action.Command(url: "commands/batch", payload: [1, 2, 3])

            _ = try await loader.perform(command)
            #expect(try transport.requests.first?.json() == [1, 2, 3])

            await #expect(throws: ClientError.self) { try await loader.perform(command, extra: ["name": "x"]) }
            #expect(transport.requests.count == 1)
        }

        @Test(
            "each command result kind decodes",
            arguments: [
                CommandResult.done(.init(message: "Saved", refresh: true)),
                .done(.init()),
                .screen(Samples.mozart),
                .choice(Samples.playlistChoice),
                .prompt(Samples.newPlaylistPrompt),
                .navigate(Action.Navigate(url: "screens/composer/mozart", header: Samples.mozartHeader, presentation: .modal)),
                .error(.init(message: "Playlist is full")),
            ]
        )
        func decodesResult(result: CommandResult) async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/x"), .result(result))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let decoded = try await loader.perform(Action.Command(url: "commands/x"))

            #expect(decoded.value == result)
            #expect(decoded.value.kind == result.kind)
            #expect(decoded.issues.isEmpty)
        }

        @Test("an unknown result kind decodes as unknown with one issue")
        func unknownResult() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/x"), .raw(#"{"type":"confetti","amount":3}"#))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let decoded = try await loader.perform(Action.Command(url: "commands/x"))

            #expect(decoded.value == .unknown(type: "confetti", json: ["type": "confetti", "amount": 3]))
            #expect(decoded.issues.count == 1)
            #expect(decoded.issues.first?.kind == .unknownKind)
        }

        @Test("a command error answer becomes a server error")
        func commandServerError() async throws {
            let transport = FakeTransport()
            transport.on(
                .post, api("commands/x"), .error(.unprocessableContent, code: "invalidField", message: "name is too long", path: "$.name"))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.perform(Action.Command(url: "commands/x")) }

            #expect(error?.status == 422)
            #expect(error?.message == "name is too long")
        }

        @Test("a command answer that is not a result is a decoding error")
        func commandDecodingError() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/x"), .raw(#"{"message": "no type"}"#))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.perform(Action.Command(url: "commands/x")) }

            guard case .decoding? = error?.kind else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
        }

        @Test("a command that cannot reach the server is a transport error")
        func commandTransportError() async throws {
            let transport = FakeTransport()
            transport.on(.post, api("commands/x"), replies: [.fail])
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)

            let error = await #expect(throws: ClientError.self) { try await loader.perform(Action.Command(url: "commands/x")) }

            #expect(error?.kind == .transport)
        }
    }

    @Suite("Request targets")
    struct RequestTargets {
        @Test(
            "a percent-encoded path is sent still encoded"
        )
        func percentEncodedPathKept() async throws {
            let transport = FakeTransport()
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            _ = try? await loader.screen(at: "screens/search/a%20b")
            _ = try? await loader.screen(at: "screens/works/k%2F626")
            _ = try? await loader.screen(at: "screens/composer/d%C3%A9bussy")
            #expect(
                transport.requests.map(\.path) == [
                    "/api/v1/screens/search/a%20b", "/api/v1/screens/works/k%2F626", "/api/v1/screens/composer/d%C3%A9bussy",
                ])
        }

        @Test(
            "an IPv6 server keeps the brackets in the authority"
        )
        func ipv6Authority() async throws {
            let transport = FakeTransport()
            let loader = ScreenLoader(
                endpoint: ServerEndpoint(root: URL(string: "http://[::1]:8080/")!, apiVersion: .v1), transport: transport)
            _ = try? await loader.screen(at: "screens/home")
            #expect(transport.requests.first?.request.authority == "[::1]:8080")
        }
    }

    @Suite("Token scope")
    struct TokenScope {
        @Test("parallel first requests share one identity: the second waits for the first's token")
        func oneIdentityForParallelFirstRequests() async throws {
            let gate = Gate()
            let transport = FakeTransport()
            transport.on(.get, "/api/v1/screens/home", gate: gate, .screen(Samples.home, etag: "\"h\"", token: "issued-once"))
            transport.on(.get, "/api/v1/screens/composer/mozart", .screen(Samples.mozart, etag: "\"m\""))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            let first = Task { try await loader.screen(at: "screens/home") }
            await gate.waitForArrivals()
            let second = Task { try await loader.screen(at: "screens/composer/mozart") }
            // The second request must not go out before the first has its token.
            try await Task.sleep(for: .milliseconds(50))
            #expect(transport.requests.count == 1)
            gate.open()
            _ = try await first.value
            _ = try await second.value
            #expect(transport.requests.count == 2)
            #expect(transport.requests[0][.authorization] == nil)
            #expect(transport.requests[1][.authorization] == "Bearer issued-once")
        }

        @Test("when the first request gets no answer, the next goes alone, and the rest wait for the identity it brings back")
        func failedFirstRequest() async throws {
            let first = Gate()
            let transport = FakeTransport()
            transport.on(.get, "/api/v1/screens/a", gate: first, replies: [.fail])
            transport.on(.get, "/api/v1/screens/b", .screen(Samples.screen("b"), token: "issued-to-b"))
            transport.on(.get, "/api/v1/screens/c", .screen(Samples.screen("c")))
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport)
            let a = Task { try await loader.screen(at: "screens/a") }
            await first.waitForArrivals()
            let b = Task { try await loader.screen(at: "screens/b") }
            try await Task.sleep(for: .milliseconds(30))
            let c = Task { try await loader.screen(at: "screens/c") }
            try await Task.sleep(for: .milliseconds(30))
            #expect(transport.requests.count == 1)
            first.open()
            await #expect(throws: ClientError.self) { try await a.value }
            _ = try await b.value
            _ = try await c.value
            #expect(transport.requests.map(\.path) == ["/api/v1/screens/a", "/api/v1/screens/b", "/api/v1/screens/c"])
            #expect(transport.requests[1][.authorization] == nil)
            #expect(transport.requests[2][.authorization] == "Bearer issued-to-b")
        }

        @Test("a request handed the bootstrap that finds a token already saved lets every other waiting request go too")
        func handedBootstrapWithToken() async throws {
            let first = Gate()
            let transport = FakeTransport()
            transport.on(.get, "/api/v1/screens/a", gate: first, replies: [.fail])
            transport.on(.get, "/api/v1/screens/b", .screen(Samples.screen("b")))
            transport.on(.get, "/api/v1/screens/c", .screen(Samples.screen("c")))
            let tokens = InMemoryTokenStore()
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: tokens)
            let a = Task { try await loader.screen(at: "screens/a") }
            await first.waitForArrivals()
            let b = Task { try await loader.screen(at: "screens/b") }
            try await Task.sleep(for: .milliseconds(30))
            let c = Task { try await loader.screen(at: "screens/c") }
            try await Task.sleep(for: .milliseconds(30))
            await tokens.save("saved-elsewhere")
            first.open()
            await #expect(throws: ClientError.self) { try await a.value }
            _ = try await b.value
            _ = try await c.value
            #expect(transport.requests.dropFirst().allSatisfy { $0[.authorization] == "Bearer saved-elsewhere" })
        }

        @Test(
            "the identity token is not sent to, nor replaced by, another origin"
        )
        func tokenStaysWithTheServer() async throws {
            let transport = FakeTransport()
            transport.on(.post, "/commands/x", .result(.done(.init()), token: "planted-by-other-host"))
            let tokens = InMemoryTokenStore(token: "secret")
            let loader = ScreenLoader(endpoint: testEndpoint, transport: transport, tokens: tokens)

            _ = try await loader.perform(Action.Command(url: "https://other.example/commands/x"))

            #expect(transport.requests.first?.request.authority == "other.example")
            #expect(transport.requests.first?[.authorization] == nil)
            #expect(await tokens.token() == "secret")
        }
    }
}

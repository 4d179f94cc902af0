import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

@Suite("Revalidations answered from memory: exact per request, forgotten by the writes that change them")
struct RevalidationMemoryTests {
    /// A moment the tests move screens' expiries around.
    static let noon = Date(timeIntervalSince1970: 1_800_000_000)

    /// A service with `mine` (per user, revision from `revisions`, remembered until `expiry`
    /// says), `called` (same, but `.callingRevision`) and `catalog` (shared, remembered).
    static func service(
        bus: InProcessInvalidationBus? = InProcessInvalidationBus(), revisions: RevisionBox = RevisionBox("1"),
        identities: CountingIdentities = CountingIdentities(), expiry: (@Sendable () throws -> Date?)? = nil,
        midRequest: (@Sendable (ScreenRequest) async -> Void)? = nil, budget: Int = 1 << 20,
        deprecated: [APIVersion: Date] = [:]
    ) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        let revision: ScreenplayRoutes.RevisionFunction = { request in
            await midRequest?(request)
            return revisions.value
        }
        let screen: ScreenplayRoutes.ScreenBuilderFunction = { request in
            Screen(id: "s", title: "user \(request.user.id) r\(revisions.value)") {
                Section("s") { Text(String(repeating: "hi ", count: 700)) }
            }
        }
        let until: (@Sendable (ScreenRequest, Date) async throws -> Date?)? = expiry.map { expiry in { @Sendable _, _ in try expiry() } }
        routes.screen("mine", revision: revision, revalidation: .fromMemory(until: until), build: screen)
        routes.screen("called", revision: revision, build: screen)
        routes.screen("catalog", revision: { _ in "c" }, revalidation: .fromMemory(), sharing: .everyone, build: screen)
        return ScreenplayService(
            routes: routes, identity: identities,
            configuration: .init(deprecatedVersions: deprecated, revalidationByteBudget: budget), invalidations: bus)
    }

    static func get(_ path: String, token: String?, etag: String? = nil, extra: HTTPFields = [:], authority: String? = nil) -> HTTPRequest {
        var headers = extra
        if let token { headers[.authorization] = "Bearer " + token }
        if let etag { headers[.ifNoneMatch] = etag }
        var made = request(.get, path, headers: headers)
        if let authority { made.authority = authority }
        return made
    }

    /// Fetches `path` (a 200 that the service remembers when it may) and returns its ETag.
    static func etag(
        _ service: ScreenplayService, _ path: String, token: String?, extra: HTTPFields = [:], authority: String? = nil
    ) async throws -> String {
        let response = await service.respond(to: get(path, token: token, extra: extra, authority: authority), body: [])
        #expect(response.head.status == .ok)
        return try #require(response.head.headerFields[.eTag])
    }

    @Test("a remembered revalidation gets the service's own 304 fields, and nothing is resolved or called")
    func answeredWithTheServicesFields() async throws {
        let identities = CountingIdentities()
        let service = Self.service(identities: identities, deprecated: [.v3: Self.noon])
        let memory = try #require(service.revalidations)
        for version in ["v3", "v4"] {
            let path = "/api/\(version)/screens/mine"
            let etag = try await Self.etag(service, path, token: "token-1")
            let slow = await service.respond(to: Self.get(path, token: "token-1", etag: etag), body: [])
            #expect(slow.head.status == .notModified)
            let calls = identities.calls
            let fast = try #require(memory.notModified(Self.get(path, token: "token-1", etag: etag)))
            #expect(fast == slow.head.headerFields, "\(version): the same fields as the service's 304")
            #expect(identities.calls == calls, "no token resolved")
            #expect((fast[ScreenplayService.deprecationHeader] != nil) == (version == "v3"))
        }
        #expect(memory.answered == 2)
    }

    @Test("only an exact repeat is answered: another token, encoding, kinds, target or tag goes the normal way")
    func exactRequestsOnly() async throws {
        let service = Self.service()
        let memory = try #require(service.revalidations)
        let path = "/api/v4/screens/mine"
        let etag = try await Self.etag(service, path, token: "token-1")
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: etag)) != nil)
        // A list of tags, `*`, and the gzip variant all name it, as they do for the service.
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: "\"other\", " + etag)) != nil)
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: "*")) != nil)
        let gzipTag = try await Self.etag(service, path, token: "token-1", extra: [.acceptEncoding: "gzip"])
        #expect(gzipTag != etag)
        let gzipped = try #require(memory.notModified(Self.get(path, token: "token-1", etag: gzipTag, extra: [.acceptEncoding: "gzip"])))
        #expect(gzipped[.eTag] == gzipTag, "the tag of the representation the client asked for")

        let misses: [(String, HTTPRequest)] = [
            ("another user", Self.get(path, token: "token-2", etag: etag)),
            ("no token", Self.get(path, token: nil, etag: etag)),
            ("another tag", Self.get(path, token: "token-1", etag: "\"sp-0\"")),
            ("no If-None-Match", Self.get(path, token: "token-1")),
            ("a query", Self.get(path + "?a=1", token: "token-1", etag: etag)),
            ("kinds named", Self.get(path, token: "token-1", etag: etag, extra: [ScreenplayService.componentsHeader: "ticket"])),
            ("another encoding", Self.get(path, token: "token-1", etag: etag, extra: [.acceptEncoding: "br"])),
            ("a cookie", Self.get(path, token: "token-1", etag: etag, extra: [.cookie: "screenplay_token=token-2"])),
            ("another language", Self.get(path, token: "token-1", etag: etag, extra: [.acceptLanguage: "de"])),
            ("another version", Self.get("/api/v3/screens/mine", token: "token-1", etag: etag)),
        ]
        for (what, request) in misses {
            #expect(memory.notModified(request) == nil, "\(what)")
            // Not the same request: neither a 304 nor the 200 (a tag the client holds is not part
            // of the request's key: it gets the remembered 200 instead of the 304).
            if !["no If-None-Match", "another tag"].contains(what) { #expect(memory.answer(request) == nil, "\(what): no answer at all") }
        }
        // A HEAD is the GET's key: its revalidation is answered too.
        #expect(memory.notModified(request(.head, path, headers: [.authorization: "Bearer token-1", .ifNoneMatch: etag])) != nil)
        // A second Authorization changes the key too, though the service reads only the first.
        var twice = Self.get(path, token: "token-1", etag: etag)
        twice.headerFields.append(HTTPField(name: .authorization, value: "Bearer token-2"))
        #expect(memory.notModified(twice) == nil)
    }

    @Test("a request without the tag gets the service's own 200 from memory: fields and bytes, gzip as asked, a HEAD its head")
    func answeredWithTheServicesOK() async throws {
        let identities = CountingIdentities()
        let service = Self.service(identities: identities)
        let memory = try #require(service.revalidations)
        let path = "/api/v4/screens/mine"
        for encoding in ["", "gzip"] {
            let extra: HTTPFields = encoding.isEmpty ? [:] : [.acceptEncoding: encoding]
            let slow = await service.respond(to: Self.get(path, token: "token-1", extra: extra), body: [])
            #expect(slow.head.status == .ok)
            let calls = identities.calls
            for etag in [nil, "\"sp-old\""] {
                guard case .ok(let fields, let body) = memory.answer(Self.get(path, token: "token-1", etag: etag, extra: extra)) else {
                    Issue.record("\(encoding), tag \(etag ?? "none"): not answered from memory")
                    continue
                }
                #expect(fields == slow.head.headerFields, "\(encoding): the service's own fields")
                #expect(body == slow.body, "\(encoding): the service's own bytes")
                #expect(fields[.contentLength] == String(slow.body.count))
            }
            #expect((slow.head.headerFields[.contentEncoding] == "gzip") == (encoding == "gzip"))
            #expect(identities.calls == calls, "no token resolved")
            var headFields = extra
            headFields[.authorization] = "Bearer token-1"
            let head = memory.answer(request(.head, path, headers: headFields))
            #expect(head == .ok(slow.head.headerFields, body: []), "a HEAD gets the GET's head, Content-Length included, and no body")
        }
        // Another user's token never gets this user's bytes.
        #expect(memory.answer(Self.get(path, token: "token-2")) == nil)
        // A body that would take more than an eighth of the budget leaves the 304 alone remembered.
        let small = Self.service(budget: 8 * 1024)
        let smallMemory = try #require(small.revalidations)
        let etag = try await Self.etag(small, path, token: "token-1")
        #expect(smallMemory.answer(Self.get(path, token: "token-1")) == nil, "the 2 KB body is not kept in 1 KB")
        #expect(smallMemory.notModified(Self.get(path, token: "token-1", etag: etag)) != nil)
    }

    @Test("an answer that names its host (a web page's links) is given to requests for that host only; the API's to any")
    func hostNamedOnlyThere() async throws {
        let service = Self.service()
        let memory = try #require(service.revalidations)
        let page = Self.get("/", token: nil, extra: [.cookie: "screenplay_token=t"], authority: "127.0.0.1:8080")
        let fields: HTTPFields = [.eTag: "\"page\"", .contentType: "text/html; charset=utf-8"]
        memory.remember(page, owner: nil, etag: "\"page\"", fields: fields, ok: (fields, Array("<p>".utf8)), namesHost: true, expiry: nil, ticket: memory.ticket())
        #expect(memory.answer(page) == .ok(fields, body: Array("<p>".utf8)))
        var elsewhere = page
        elsewhere.authority = "localhost:8080"
        #expect(memory.answer(elsewhere) == nil, "another Host: the page's links would name the wrong origin")
        let path = "/api/v4/screens/mine"
        _ = try await Self.etag(service, path, token: "token-1", authority: "127.0.0.1:8080")
        #expect(memory.answer(Self.get(path, token: "token-1", authority: "localhost:8080")) != nil, "a screen names no host")
    }

    @Test("screens that did not declare it, HEADs, and services without a bus are never remembered")
    func onlyWhenDeclared() async throws {
        let service = Self.service()
        let memory = try #require(service.revalidations)
        let etag = try await Self.etag(service, "/api/v4/screens/called", token: "token-1")
        #expect(memory.notModified(Self.get("/api/v4/screens/called", token: "token-1", etag: etag)) == nil)
        _ = await service.respond(to: request(.head, "/api/v4/screens/mine", headers: [.authorization: "Bearer token-1"]), body: [])
        #expect(memory.bytes == 0)
        #expect(Self.service(bus: nil).revalidations == nil, "without a bus nothing could keep it exact")
    }

    @Test("a user's revision drops that user's answers only; pages, experiments and revocations drop all")
    func invalidations() async throws {
        let bus = InProcessInvalidationBus()
        let revisions = RevisionBox("1")
        let service = Self.service(bus: bus, revisions: revisions)
        let memory = try #require(service.revalidations)
        let path = "/api/v4/screens/mine"
        var tags: [String: String] = [:]
        for token in ["token-1", "token-2"] { tags[token] = try await Self.etag(service, path, token: token) }
        let catalog = try await Self.etag(service, "/api/v4/screens/catalog", token: "token-1")
        func answered(_ token: String) -> Bool { memory.notModified(Self.get(path, token: token, etag: tags[token])) != nil }

        revisions.value = "2"
        await bus.publish(.userRevision(userID: 1))
        #expect(!answered("token-1"), "user 1's write is seen at once")
        #expect(answered("token-2"), "user 2 is not affected by user 1's write")
        #expect(memory.notModified(Self.get("/api/v4/screens/catalog", token: "token-1", etag: catalog)) != nil)
        // The service itself now sends the new content to user 1.
        let fresh = await service.respond(to: Self.get(path, token: "token-1", etag: tags["token-1"]), body: [])
        #expect(fresh.head.status == .ok)

        for invalidation in [Invalidation.experimentsChanged, .pagePublished(route: "x"), .tokenRevoked(tokenHash: "ab")] {
            tags["token-2"] = try await Self.etag(service, path, token: "token-2")
            #expect(answered("token-2"))
            await bus.publish(invalidation)
            #expect(!answered("token-2"), "\(invalidation)")
            #expect(memory.bytes == 0)
        }
    }

    @Test("an answer computed while a write was announced is not remembered")
    func writeDuringRequest() async throws {
        let bus = InProcessInvalidationBus()
        let revisions = RevisionBox("1")
        let once = Mutex(true)
        // The write lands after the request began and before the service answers it.
        let service = Self.service(
            bus: bus, revisions: revisions,
            midRequest: { request in
                guard
                    once.withLock({
                        let first = $0
                        $0 = false
                        return first
                    })
                else { return }
                await bus.publish(.userRevision(userID: request.user.id))
            })
        let memory = try #require(service.revalidations)
        let etag = try await Self.etag(service, "/api/v4/screens/mine", token: "token-1")
        #expect(memory.notModified(Self.get("/api/v4/screens/mine", token: "token-1", etag: etag)) == nil)
        #expect(memory.bytes == 0)
        // The next request, with no write in between, is remembered.
        _ = try await Self.etag(service, "/api/v4/screens/mine", token: "token-1")
        #expect(memory.notModified(Self.get("/api/v4/screens/mine", token: "token-1", etag: etag)) != nil)
    }

    @Test("a screen that changes with time is answered until its expiry, and not at all when it cannot say")
    func expiry() async throws {
        let path = "/api/v4/screens/mine"
        let expiring = Self.service(expiry: { Self.noon })
        let memory = try #require(expiring.revalidations)
        let etag = try await Self.etag(expiring, path, token: "token-1")
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: etag), now: Self.noon - 1) != nil)
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: etag), now: Self.noon) == nil)

        struct Unknown: Error {}
        let failing = Self.service(expiry: { throw Unknown() })
        let failingTag = try await Self.etag(failing, path, token: "token-1")
        #expect(try #require(failing.revalidations).notModified(Self.get(path, token: "token-1", etag: failingTag)) == nil)
    }

    @Test("bounded by bytes: many users' answers stay within the budget, the recently used kept")
    func budget() async throws {
        let service = Self.service(budget: 16 * 1024)
        let memory = try #require(service.revalidations)
        let path = "/api/v4/screens/mine"
        let first = try await Self.etag(service, path, token: "token-1")
        for user in 2...400 {
            _ = try await Self.etag(service, path, token: "token-\(user)")
            // User 1 keeps revalidating, so it stays.
            if user % 10 == 0 { #expect(memory.notModified(Self.get(path, token: "token-1", etag: first)) != nil, "after user \(user)") }
            #expect(memory.bytes <= 16 * 1024)
        }
        #expect(memory.bytes > 4 * 1024, "the budget is used, not emptied")
        // An answer bigger than an eighth of the budget is never kept.
        let huge = String(repeating: "a", count: 4 * 1024)
        _ = try await Self.etag(service, path, token: "token-1", extra: [.cookie: huge])
        let tag = try await Self.etag(service, path, token: "token-1", extra: [.cookie: huge])
        #expect(memory.notModified(Self.get(path, token: "token-1", etag: tag, extra: [.cookie: huge])) == nil)
    }
}

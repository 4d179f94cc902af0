import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// `POST /api/v6/reports`: a batch is stored once per (user, id), each bad event is refused at its
/// path while the rest are kept, what is not a batch is refused whole and names where, and the
/// endpoint is absent where it should be (before v6, a server that keeps none).
@Suite("Reports endpoint")
struct ReportEndpointTests {
    static func service(reports: InMemoryClientEventSink? = InMemoryClientEventSink()) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("x") } } }
        return ScreenplayService(routes: routes, identity: CountingIdentities(), reports: reports)
    }

    static func post(
        _ service: ScreenplayService, _ body: String, version: Int = 6, headers: HTTPFields = [.contentType: "application/json"]
    ) async -> ScreenplayService.Response {
        await service.respond(to: request(.post, "/api/v\(version)/reports", headers: headers), body: Array(body.utf8))
    }

    static func receipt(_ response: ScreenplayService.Response) throws -> ClientEventReceipt {
        try JSONDecoder().decode(ClientEventReceipt.self, from: Data(response.body))
    }

    static func error(_ response: ScreenplayService.Response) throws -> (code: String, message: String, path: String?) {
        let json = try JSONDecoder().decode(JSONValue.self, from: Data(response.body))
        let error = try #require(json["error"])
        return (error["code"]?.stringValue ?? "", error["message"]?.stringValue ?? "", error["path"]?.stringValue)
    }

    static let now = ClientEvent.text(Date())

    static func event(_ id: String, kind: String = "played", key: String = "12", at: String = now, screen: String? = nil) -> String {
        let screenMember = screen.map { #","screen":"\#($0)""# } ?? ""
        return #"{"id":"\#(id)","kind":"\#(kind)","key":"\#(key)","at":"\#(at)"\#(screenMember)}"#
    }

    @Test("a batch is stored once: sent again it is all repeated, and a client without a token gets one")
    func idempotent() async throws {
        let sink = InMemoryClientEventSink()
        let service = Self.service(reports: sink)
        let batch = #"{"events":[\#(Self.event("a1")),\#(Self.event("a2", kind: "visible", key: "home/offer:3", screen: "home"))]}"#
        let first = await Self.post(service, batch)
        #expect(first.head.status == .ok)
        let token = try #require(first.head.headerFields[ScreenplayService.tokenHeader], "a new listener's first report makes them an identity")
        #expect(try Self.receipt(first) == ClientEventReceipt(stored: 2, repeated: 0, refused: []))

        let again = await Self.post(service, batch, headers: [.contentType: "application/json", .authorization: "Bearer \(token)"])
        #expect(again.head.headerFields[ScreenplayService.tokenHeader] == nil)
        #expect(try Self.receipt(again) == ClientEventReceipt(stored: 0, repeated: 2, refused: []))
        #expect(sink.events.map(\.event.id) == ["a1", "a2"])
        #expect(sink.events.map(\.event.screen) == [nil, "home"])
        #expect(Set(sink.events.map(\.user.id)).count == 1)

        // The same ids from someone else are theirs: stored.
        let other = await Self.post(service, batch, headers: [.contentType: "application/json", .authorization: "Bearer token-99"])
        #expect(try Self.receipt(other).stored == 2)
        // One id twice in a batch is one event, the second copy counted as repeated: the counts add up.
        let doubled = await Self.post(service, #"{"events":[\#(Self.event("b1")),\#(Self.event("b1", kind: "visible"))]}"#)
        #expect(try Self.receipt(doubled) == ClientEventReceipt(stored: 1, repeated: 1, refused: []))
    }

    @Test("each bad event is refused at its path in words; the others are stored")
    func refusals() async throws {
        let sink = InMemoryClientEventSink()
        let service = Self.service(reports: sink)
        let old = ClientEvent.text(Date().addingTimeInterval(-31 * 86_400))
        let ahead = ClientEvent.text(Date().addingTimeInterval(2 * 86_400))
        let events = [
            Self.event("ok-1"),
            Self.event("bad id with spaces"),
            Self.event("k", key: String(repeating: "k", count: 129)),
            Self.event("u", kind: "clicked"),
            Self.event("t", at: "yesterday"),
            Self.event("o", at: old),
            Self.event("f", at: ahead),
            #"{"id":"s","kind":"played","key":"1","at":"\#(Self.now)","screen":"a\u0007b"}"#,
            "42",
            #"{"id":"m","kind":"played","at":"\#(Self.now)"}"#,
            Self.event("ok-2", kind: "visible", key: "shop/offer:1"),
        ]
        let response = await Self.post(service, #"{"events":[\#(events.joined(separator: ","))]}"#)
        #expect(response.head.status == .ok)
        let receipt = try Self.receipt(response)
        #expect(receipt.stored == 2)
        #expect(
            receipt.refused.map(\.path) == [
                "$.events[1].id", "$.events[2].key", "$.events[3].kind", "$.events[4].at", "$.events[5].at", "$.events[6].at",
                "$.events[7].screen", "$.events[8]", "$.events[9].key",
            ])
        #expect(receipt.refused.first { $0.path == "$.events[3].kind" }?.reason == "must be one of visible, played")
        #expect(receipt.refused.allSatisfy { !$0.reason.isEmpty && $0.reason.count < 200 })
        #expect(sink.events.map(\.event.id) == ["ok-1", "ok-2"])
    }

    @Test("what is not a batch is refused whole, naming where: JSON, shape, size, type, depth")
    func notABatch() async throws {
        let sink = InMemoryClientEventSink()
        let service = Self.service(reports: sink)
        let malformed = await Self.post(service, #"{"events":[{"id":"#)
        #expect(malformed.head.status == .badRequest)
        #expect(try Self.error(malformed).message.contains("line 1"))

        let array = await Self.post(service, "[]")
        #expect(array.head.status == .unprocessableContent)
        #expect(try Self.error(array).path == "$")

        let noEvents = await Self.post(service, #"{"event":[]}"#)
        #expect(noEvents.head.status == .unprocessableContent)
        #expect(try Self.error(noEvents).path == "$.events")

        let many = (0...ClientEvent.Limits.eventsPerBatch).map { Self.event("e\($0)") }.joined(separator: ",")
        let tooMany = await Self.post(service, #"{"events":[\#(many)]}"#)
        #expect(tooMany.head.status == .unprocessableContent)
        #expect(try Self.error(tooMany).message.contains("at most 100"))

        let huge = await Self.post(service, #"{"events":[],"pad":""# + String(repeating: "x", count: ClientEvent.Limits.batchBytes) + #""}"#)
        #expect(huge.head.status == .contentTooLarge)

        let form = await Self.post(service, "events=1", headers: [.contentType: "application/x-www-form-urlencoded"])
        #expect(form.head.status == .unsupportedMediaType)

        let deep = await Self.post(service, #"{"events":"# + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "}")
        #expect(deep.head.status == .badRequest, "nesting past the parser's limit")

        let number = await Self.post(service, #"{"events":[{"id":"n","kind":"played","key":"1","at":1e400}]}"#)
        #expect([HTTPResponse.Status.badRequest, .ok].contains(number.head.status))
        if number.head.status == .ok { #expect(try Self.receipt(number).refused.map(\.path) == ["$.events[0].at"]) }
        #expect(sink.events.isEmpty, "nothing of any of these was stored")
    }

    @Test("an empty batch, or one whose every event is refused, makes no identity")
    func nothingToKeep() async throws {
        let identities = CountingIdentities()
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home") { Section("s") { Text("x") } } }
        let service = ScreenplayService(routes: routes, identity: identities, reports: InMemoryClientEventSink())
        let empty = await Self.post(service, #"{"events":[]}"#)
        #expect(empty.head.status == .ok && empty.head.headerFields[ScreenplayService.tokenHeader] == nil)
        let refused = await Self.post(service, #"{"events":[\#(Self.event("x", kind: "nope"))]}"#)
        #expect(try Self.receipt(refused).refused.map(\.path) == ["$.events[0].kind"])
        #expect(refused.head.headerFields[ScreenplayService.tokenHeader] == nil)
        #expect(identities.calls == 0, "nobody was resolved, nobody made")
        let kept = await Self.post(service, #"{"events":[\#(Self.event("y"))]}"#)
        #expect(kept.head.headerFields[ScreenplayService.tokenHeader] != nil)
    }

    @Test("before v6, on a server that keeps none, with a GET, or cross-site with the cookie, there is no report")
    func absent() async throws {
        let batch = #"{"events":[\#(Self.event("a"))]}"#
        let v5 = await Self.post(Self.service(), batch, version: 5)
        #expect(v5.head.status == .notFound)
        #expect(try Self.error(v5).message.contains("v6"))

        let none = await Self.post(Self.service(reports: nil), batch)
        #expect(none.head.status == .notFound)
        #expect(try Self.error(none).message == "this server keeps no reports")

        let get = await Self.service().respond(to: request(.get, "/api/v6/reports"), body: [])
        #expect(get.head.status == .methodNotAllowed)

        let sink = InMemoryClientEventSink()
        let crossSite = await Self.post(
            Self.service(reports: sink), batch,
            headers: [.contentType: "application/json", .cookie: "\(ScreenplayService.tokenCookie)=token-4", .origin: "https://elsewhere.example"])
        #expect(crossSite.head.status == .forbidden)
        #expect(sink.events.isEmpty)
    }

    @Test("the route table and its schemas describe the endpoint only where it is served")
    func described() {
        let served = Self.service().routeTable(version: .v6)
        #expect(served.routes.contains { $0.operation == "reportEvents" && $0.path.description == "api/v6/reports" && $0.method == .post })
        #expect(served.schemas["ReportBatch"] != nil && served.schemas["ReportReceipt"] != nil && served.schemas["ReportEvent"] != nil)
        #expect(!Self.service().routeTable(version: .v5).routes.contains { $0.operation == "reportEvents" })
        #expect(!Self.service(reports: nil).routeTable(version: .v6).routes.contains { $0.operation == "reportEvents" })
    }
}

import Foundation
import HTTPTypes
import SQLKit
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

@testable import ScreenplayDemo

/// Opening an offer on the shop (`commands/shop/open`), through the HTTP API, on both databases:
/// what is recorded, for whom, and where the client goes.
@Suite("Demo shop: clicks on offers")
struct ShopClickTests {
    /// `POST /api/vN/commands/shop/open` as an app sends it.
    static func open(
        _ demo: DemoApp, _ payload: String, token: String?, key: String? = nil, version: APIVersion = .v4
    ) async -> ScreenplayService.Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let key { headers[ScreenplayService.idempotencyKeyHeader] = key }
        return await demo.service.respond(
            to: HTTPRequest(
                method: .post, scheme: "http", authority: "localhost", path: "/api/v\(version.rawValue)/commands/shop/open",
                headerFields: headers),
            body: Array(payload.utf8), clientAddress: "10.0.0.1")
    }

    static func navigation(_ response: ScreenplayService.Response, version: APIVersion = .v4) throws -> Action.Navigate {
        let result = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(CommandResult.self, from: Data(response.body)).value
        guard case .navigate(let navigate) = result.outcome else { throw UnexpectedResult(result: result) }
        return navigate
    }

    struct UnexpectedResult: Error { let result: CommandResult }

    static func count(_ table: String, in demo: DemoApp) async throws -> Int {
        try await demo.store.read { database in
            try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    @Test(
        "a click by a user with an identity is recorded once per request and answered with the work and its header",
        arguments: StoreBackend.allCases)
    func recordedOncePerRequest(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            let demo = try await DemoApp.open(storage: .init(store: store, bus: InProcessInvalidationBus()))
            let identity = try await demo.service.resolveIdentity(token: nil, creating: true)
            let token = try #require(identity.issuedToken)
            let work = try #require(try await demo.catalog.work(id: 3))
            let offer = #"{"workId":3,"widget":"recordingOffer"}"#

            let first = await Self.open(demo, offer, token: token, key: "click-1")
            #expect(first.head.status == .ok)
            let navigate = try Self.navigation(first)
            #expect(navigate.url == "screens/work/3")
            #expect(navigate.header == DemoLinks.workHeader(work), "the header the work's screen carries, for an instant push")
            // A retry of the same request (the connection dropped) is answered from the ledger.
            let retry = await Self.open(demo, offer, token: token, key: "click-1")
            #expect(retry.head.headerFields[ScreenplayService.replayedHeader] == "true")
            #expect(try Self.navigation(retry).url == "screens/work/3")
            #expect(try await demo.shopClicks.clicks(of: identity.user).map(\.workID) == [3])

            // Another tap is another request: another click, from the buy button this time.
            _ = await Self.open(demo, #"{"workId":3,"widget":"cartButton"}"#, token: token, key: "click-2")
            let clicks = try await demo.shopClicks.clicks(of: identity.user)
            #expect(clicks.map(\.workID) == [3, 3] && clicks.map(\.widget) == ["recordingOffer", "cartButton"])
            #expect(
                clicks.allSatisfy { $0.at.hasSuffix("Z") && $0.at.count == 20 }, "UTC to the second, as exposures are: \(clicks.map(\.at))")

            // Every API version opens the work and records it alike (commands and navigate results are v1).
            let versions = (APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue).map(
                APIVersion.init(rawValue:))
            for version in versions {
                let answer = await Self.open(demo, offer, token: token, key: "version-\(version)", version: version)
                #expect(try Self.navigation(answer, version: version).url == "screens/work/3", "\(version)")
            }
            #expect(try await demo.shopClicks.clicks(of: identity.user).count == 2 + versions.count)

            // Refused, and not recorded: no such work, a widget that opens nothing, a missing field.
            let before = try await Self.count("shop_clicks", in: demo)
            let missing = await Self.open(demo, #"{"workId":999999,"widget":"recordingOffer"}"#, token: token)
            #expect(missing.head.status == .notFound)
            #expect(try decodeError(missing).error.path == "$.workId")
            let priceTag = await Self.open(demo, #"{"workId":3,"widget":"priceTag"}"#, token: token)
            #expect(priceTag.head.status == .unprocessableContent)
            #expect(try decodeError(priceTag).error.path == "$.widget")
            #expect(await Self.open(demo, #"{"widget":"recordingOffer"}"#, token: token).head.status == .unprocessableContent)
            #expect(try await Self.count("shop_clicks", in: demo) == before)
        }
    }

    @Test("an anonymous click still navigates, but records nothing and makes no identity", arguments: StoreBackend.allCases)
    func anonymousClick(backend: StoreBackend) async throws {
        try await withStore(backend) { store async throws in
            let demo = try await DemoApp.open(storage: .init(store: store, bus: InProcessInvalidationBus()))
            let users = try await Self.count("screenplay_users", in: demo)
            let answer = await Self.open(demo, #"{"workId":3,"widget":"cartButton"}"#, token: nil, key: "anonymous-1")
            #expect(answer.head.status == .ok)
            #expect(try Self.navigation(answer).url == "screens/work/3")
            #expect(answer.head.headerFields[ScreenplayService.tokenHeader] == nil, "no token handed out")
            #expect(try await Self.count("screenplay_users", in: demo) == users)
            // In process too (the web pages' path).
            let result = try await demo.service.perform(
                command: "shop/open", payload: ["workId": 3, "widget": "recordingOffer"], apiVersion: .latest, user: .anonymous)
            guard case .navigate(let navigate) = result.outcome else {
                Issue.record("expected a navigation, got \(result.outcome)")
                return
            }
            #expect(navigate.url == "screens/work/3")
            #expect(try await Self.count("shop_clicks", in: demo) == 0)
        }
    }

    @Test("the shop's offers and buy buttons open through the command: in the fallbacks, and in the `open` field apps read")
    func offersCarryTheCommand() async throws {
        try await withDemo { demo, _ async throws in
            // An app that does not render the shop's kinds: rows and buttons whose action is the command.
            let fallback = try ScreenplayDecoder(mode: .strict, apiVersion: .v4).decode(
                Screen.self, from: Data(await ShopTests.shop(demo, kinds: nil).body)
            ).value
            var commands: [Action.Command] = []
            for component in fallback.allComponents {
                switch component.content {
                case .listRow(let row): if case .command(let command)? = row.action { commands.append(command) }
                case .button(let button): if case .command(let command) = button.action { commands.append(command) }
                default: break
                }
            }
            #expect(commands.count == 10, "five offers, five buy buttons: \(commands)")
            #expect(commands.allSatisfy { $0.url == "commands/shop/open" && $0.payload?["workId"]?.integerValue != nil })
            #expect(Set(commands.compactMap { $0.payload?["widget"]?.stringValue }) == ["recordingOffer", "cartButton"])
            // An app that renders them: `open` beside `link`, which apps built before `open` follow.
            let native = try JSONDecoder().decode(JSONValue.self, from: Data(await ShopTests.shop(demo).body))
            let widgets = (native["sections"]?.arrayValue ?? []).flatMap { $0["components"]?.arrayValue ?? [] }
            let offers = widgets.filter { ["recordingOffer", "cartButton"].contains($0["type"]?.stringValue) }
            #expect(offers.count == 10)
            for offer in offers {
                let link = try #require(offer["link"]?.stringValue)
                #expect(offer["open"]?["url"] == "commands/shop/open")
                #expect(offer["open"]?["payload"]?["workId"].map { "screens/work/\($0.integerValue ?? 0)" } == link)
            }
        }
    }

    @Test("a fallback navigates to the link when `open` is missing or unusable")
    func fallbackWithoutCommand() throws {
        let link = "screens/work/3"
        for open: JSONValue? in [
            nil, "commands/shop/open", ["url": "javascript:alert(1)"], ["url": "screens/work/3"],
            ["url": "commands/shop/open", "payload": [1]],
        ] {
            var json: [String: JSONValue] = ["title": "T", "composer": "C", "link": .string(link)]
            json["open"] = open
            guard case .listRow(let row) = ShopWidgets.recordingOffer.fallback(.object(json)).first?.content,
                case .navigate(let navigate)? = row.action
            else {
                Issue.record("\(String(describing: open)): not a navigation")
                continue
            }
            #expect(navigate.url == link)
        }
    }
}

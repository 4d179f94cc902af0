import Foundation
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

/// Bugs the fuzzers in `Fuzz/` found, each stated through the public API. The crashing inputs are
/// in `Fuzz/Regressions/<Target>/`; `bash Fuzz/run.sh` replays them before it fuzzes.
@Suite("Fuzz regressions (server)")
struct FuzzRegressionTests {
    /// An app-defined kind from v3 whose fallback is a text with its title.
    static let ticketOffer = CustomComponentKind(
        type: "ticketOffer", versioning: KindVersioning(introduced: .v3, fallback: "a text with its title"),
        fallback: { json in json["title"]?.stringValue.map { [.text(Component.Text($0))] } ?? [] })

    /// One user for every request.
    struct OneUser: IdentityResolver {
        func resolve(token: String?, creating: Bool) async throws -> ResolvedIdentity {
            ResolvedIdentity(user: UserIdentity(id: 1), issuedToken: nil)
        }
    }

    /// The service with one screen holding one `ticketOffer` with `fields`.
    static func service(fields: [String: JSONValue]) -> ScreenplayService {
        var routes = ScreenplayRoutes()
        routes.componentKind(ticketOffer)
        routes.screen("offer") { _ in
            Screen(id: "offer", title: "Offer") { Section("s") { Component.custom("ticketOffer", fields: fields) } }
        }
        return ScreenplayService(routes: routes, identity: OneUser())
    }

    /// `Fuzz/Regressions/FuzzDowngrade/track-longer-than-9999-hours.json`: from v3 a duration is
    /// any number of seconds ≥ 0, but v1 and v2 read text of at most four digits a part; 67 317 111
    /// seconds went out as `18699:11:51`, which those clients refuse (with verification on, the
    /// service answers them with a 500).
    @Test("A track of 10 000 hours or more downgrades to something v1 and v2 clients read", arguments: [APIVersion.v1, .v2])
    func longTrack(version: APIVersion) throws {
        let screen = Screen(
            id: "", title: "", sections: [ScreenSection(id: "", components: [.trackRow(.init(title: "", duration: 67_317_111))])])
        let shaped = Downgrade(to: version).screen(screen.assigningComponentIDs())
        let data = try ScreenplayEncoder(apiVersion: version).encode(shaped)
        #expect(throws: Never.self) { try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Screen.self, from: data) }
    }

    /// `Fuzz/Regressions/FuzzDowngrade/custom-kind-without-id.json`: a client that renders an
    /// app-defined kind receives it without the id the service assigned (from v4 every component
    /// carries one).
    @Test("An app-defined component reaches a v4 client that renders it with its id")
    func customKindKeepsItsID() async throws {
        let body = try await Self.service(fields: ["price": "5"])
            .encodedScreen(path: "offer", apiVersion: .v4, clientKinds: ["ticketOffer"], user: .anonymous)
        let screen = try ScreenplayDecoder(mode: .strict, apiVersion: .v4, customKinds: ["ticketOffer"])
            .decode(Screen.self, from: Data(body.bytes)).value
        #expect(screen.allComponents.count == 1)
        for component in screen.allComponents { #expect(component.id != nil, "a \(component.kind) without an id") }
    }

    /// `Fuzz/Regressions/FuzzDowngrade/custom-fallback-without-id.json`: for a client that does not
    /// render the kind, the fallback's components replace it after ids were assigned, so they
    /// reach a v4 client without ids.
    @Test("The fallback of an app-defined kind reaches a v4 client with ids")
    func fallbackHasIDs() async throws {
        let body = try await Self.service(fields: ["title": "Don Giovanni"])
            .encodedScreen(path: "offer", apiVersion: .v4, clientKinds: [], user: .anonymous)
        let screen = try ScreenplayDecoder(mode: .strict, apiVersion: .v4).decode(Screen.self, from: Data(body.bytes)).value
        #expect(screen.allComponents.map(\.kind) == [Component.Text.kind])
        for component in screen.allComponents { #expect(component.id != nil, "a \(component.kind) without an id") }
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayTestSupport
import Testing

@testable import ScreenplayServer

@Suite("Client mix: who asks for screens")
struct ClientMixTests {
    static let monday = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("requests are counted by version, platform and language, and shares say what a version range reaches")
    func counts() {
        let mix = ClientMix()
        for _ in 0..<6 { mix.record(version: .v6, platform: .iOS, locale: "de-CH", now: Self.monday) }
        for _ in 0..<3 { mix.record(version: .v5, platform: .android, locale: "en", now: Self.monday) }
        mix.record(version: .v2, platform: Platform("web"), locale: nil, now: Self.monday)
        let counts = mix.counts(now: Self.monday)
        #expect(counts.total == 10)
        #expect(counts.versions == [6: 6, 5: 3, 2: 1])
        #expect(counts.platforms == ["ios": 6, "android": 3, "web": 1])
        #expect(counts.languages == ["de": 6, "en": 3, "none": 1])
        #expect(counts.share(of: .v6) == 0.6)
        #expect(counts.share(from: .v5) == 0.9)
        #expect(counts.share(from: .v3) == 0.9)
        #expect(ClientMix.Counts().share(of: .v6) == nil, "nothing counted: no share, not 0 %")
    }

    @Test("only the last seven days count; older days are dropped")
    func window() {
        let mix = ClientMix(days: 7)
        for day in 0..<10 {
            mix.record(version: .v6, platform: .iOS, locale: "en", now: Self.monday.addingTimeInterval(Double(day) * 86_400))
        }
        #expect(mix.counts(now: Self.monday.addingTimeInterval(9 * 86_400)).total == 7)
        #expect(mix.counts(now: Self.monday.addingTimeInterval(30 * 86_400)).total == 0)
    }

    @Test("made-up platforms and languages cannot grow it: past the limit they count as other")
    func bounded() {
        let mix = ClientMix()
        for index in 0..<500 {
            mix.record(version: .v6, platform: Platform("p\(index)"), locale: "x\(index)", now: Self.monday)
        }
        let counts = mix.counts(now: Self.monday)
        #expect(counts.platforms.count == ClientMix.distinctLimit + 1)
        #expect(counts.languages.count == ClientMix.distinctLimit + 1)
        #expect(counts.platforms["other"] == 500 - ClientMix.distinctLimit)
        #expect(counts.total == 500)
    }

    @Test(
        "a request answered before routing is counted from what it says: its API version, platform and language; a web page as the web at the newest version",
        arguments: [
            ("/api/v4/screens/home", "android", "fr-CA", 4, "android", "fr"),
            ("/api/v12/screens/home", nil, nil, 12, "unknown", "none"),
            ("/api/vx/screens/home", "ios", "de", 6, "ios", "de"),
            ("/screens/shop", nil, "de-DE", 6, "web", "de"),
            ("/screens/shop", "ios", nil, 6, "ios", "none"),
        ] as [(String, String?, String?, Int, String, String)])
    func fromRequest(path: String, platform: String?, language: String?, version: Int, counted: String, languageCounted: String) {
        let mix = ClientMix()
        var fields: HTTPFields = [:]
        if let platform { fields[ScreenplayService.platformHeader] = platform }
        if let language { fields[.acceptLanguage] = language }
        mix.record(HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path, headerFields: fields), apiPrefix: "/api", now: Self.monday)
        let counts = mix.counts(now: Self.monday)
        #expect(counts.versions == [version: 1])
        #expect(counts.platforms == [counted: 1])
        #expect(counts.languages == [languageCounted: 1])
    }

    @Test("the service counts the screen requests it answers")
    func service() async throws {
        var routes = ScreenplayRoutes()
        routes.screen("home") { _ in Screen(id: "home", title: "Home", sections: []) }
        let service = ScreenplayService(routes: routes, identity: CountingIdentities())
        for (version, platform) in [(6, "ios"), (6, "android"), (4, "ios")] {
            let response = await service.respond(
                to: HTTPRequest(
                    method: .get, scheme: "http", authority: "localhost", path: "/api/v\(version)/screens/home",
                    headerFields: [ScreenplayService.platformHeader: platform, .acceptLanguage: "de-CH, en;q=0.5"]),
                body: [])
            #expect(response.head.status == .ok)
        }
        let counts = service.clientMix.counts()
        #expect(counts.versions == [6: 2, 4: 1])
        #expect(counts.platforms == ["ios": 2, "android": 1])
        #expect(counts.languages == ["de": 3])
    }
}

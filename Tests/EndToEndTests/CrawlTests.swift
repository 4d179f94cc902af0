import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayTestSupport
import Synchronization
import Testing

@Suite("End to end: screens over loopback", .serialized)
struct CrawlTests {
    @Test(
        "at every supported version, every screen reachable from home loads with zero decoding issues and zero unknown kinds, and each navigate header matches its destination",
        arguments: [APIVersion.v1, .v2, .v3])
    func crawl(version: APIVersion) async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            // The loader decodes as a client of `version` would: later kinds are unknown to it.
            let client = DemoClient(root: root, apiVersion: version)
            var queue: [(url: String, header: ScreenHeader?)] = [("screens/home", nil)]
            var seen: Set<String> = []
            var loaded = 0
            var components = 0
            while !queue.isEmpty {
                let (url, header) = queue.removeFirst()
                let screen = try await client.loader.screen(at: url)
                #expect(screen.issues.isEmpty, "\(url): \(screen.issues)")
                if let header {
                    #expect(
                        screen.screen.header == header, "the navigate action to \(url) carries a different header than the screen shows")
                }
                loaded += 1
                components += screen.screen.sections.reduce(0) { $0 + $1.components.count }
                let kinds = Set(screen.screen.sections.flatMap(\.components).flatMap(\.allKinds))
                #expect(kinds.isSubset(of: Component.kinds(knownAt: version)), "\(url) at \(version): \(kinds)")
                for action in screen.screen.allActions {
                    guard case .navigate(let navigate) = action, !seen.contains(navigate.url) else { continue }
                    seen.insert(navigate.url)
                    queue.append((navigate.url, navigate.header))
                }
            }
            // home, favorites, cities, 16 composers, 80 works, 3 editorial playlists
            #expect(loaded >= 100, "crawled only \(loaded) screens")
            #expect(components > 500)
            #expect(seen.contains("screens/cities"))
        }
    }

    @Test("v1 clients get fallbacks for v2 kinds and a deprecation notice; v3 gets the new kinds and no notice")
    func downgradeAndDeprecation() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let old = try await raw(.get, root, "/api/v1/screens/home")
            // RFC 9745: the date v1 was deprecated (2026-11-01), as @<unix time>.
            #expect(old.headers[HTTPField.Name("Deprecation")!] == "@1793491200")
            #expect(old.headers[HTTPField.Name("Screenplay-Deprecation")!]?.contains("API v1 is deprecated") == true)
            let v1Home = try ScreenplayDecoder(mode: .strict, apiVersion: .v1).decode(Screen.self, from: Data(old.body)).value
            let v1Editorial = try #require(v1Home.sections.first { $0.id == "editorial" })
            #expect(v1Editorial.components.allSatisfy { $0.kind == Component.DetailButton.kind })
            #expect(v1Editorial.components.count == 3)

            let new = try await raw(.get, root, "/api/v3/screens/home")
            #expect(new.headers[HTTPField.Name("Deprecation")!] == nil)
            let v3Home = try ScreenplayDecoder(mode: .strict, apiVersion: .v3).decode(Screen.self, from: Data(new.body)).value
            #expect(v3Home.sections.first { $0.id == "editorial" }?.components.map(\.kind) == [Component.Grid.kind])
            #expect(old.headers[.eTag] != new.headers[.eTag])

            // The v2 favorite toggle reaches v1 as a button carrying the same command.
            let v1Playlist = try ScreenplayDecoder(mode: .strict, apiVersion: .v1)
                .decode(Screen.self, from: Data(try await raw(.get, root, "/api/v1/screens/playlist/1").body)).value
            let v3Playlist = try ScreenplayDecoder(mode: .strict, apiVersion: .v3)
                .decode(Screen.self, from: Data(try await raw(.get, root, "/api/v3/screens/playlist/1").body)).value
            // Beside Play all, in a stack.
            func last(_ screen: Screen) -> Component? {
                guard case .horizontalStack(let stack) = screen.sections[0].components.last?.content else { return nil }
                return stack.children.last
            }
            guard case .button(let button) = last(v1Playlist)?.content, case .favoriteButton(let toggle) = last(v3Playlist)?.content
            else {
                Issue.record("expected a button for v1 and a favorite toggle for v3")
                return
            }
            #expect(button.action == .command(toggle.command))
            #expect(button.title == "Add to favorites")

            // v3 sends durations as seconds; v1 and v2 as text.
            let v1Work = try await raw(.get, root, "/api/v1/screens/work/1")
            let v3Work = try await raw(.get, root, "/api/v3/screens/work/1")
            #expect(v1Work.text.contains(#""duration":"\#(Component.TrackRow.format(Self.firstDuration(v3Work)))""#))
            #expect(v3Work.text.contains(#""duration":\#(Self.firstDuration(v3Work))"#))
        }
    }

    static func firstDuration(_ response: RawResponse) -> Int {
        let screen = try? ScreenplayDecoder(apiVersion: .v3).decode(Screen.self, from: Data(response.body)).value
        for section in screen?.sections ?? [] {
            for component in section.components {
                if case .trackRow(let row) = component.content, let duration = row.duration { return duration }
            }
        }
        return -1
    }

    @Test("ETag round trip: the second load is revalidated with a 304 and reuses the decoded screen")
    func etagRoundTrip() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let client = DemoClient(root: root)
            let first = try await client.loader.screen(at: "screens/composer/mozart")
            #expect(!first.revalidated)
            let etag = try #require(first.etag)
            let second = try await client.loader.screen(at: "screens/composer/mozart")
            #expect(second.revalidated)
            #expect(second.screen == first.screen)

            let path = "/api/\(APIVersion.latest)/screens/composer/mozart"
            let conditional = try await raw(.get, root, path, headers: [.ifNoneMatch: etag])
            #expect(conditional.status == .notModified)
            #expect(conditional.body.isEmpty)
            // The client asked for no gzip (its transport does not decompress): its tag is the
            // plain form's, and a client that asks for gzip is told the gzip form's.
            #expect(!etag.hasSuffix("-gz\""))
            let stale = try await raw(.get, root, path, headers: [.ifNoneMatch: "\"sp-0\"", .acceptEncoding: "gzip"])
            #expect(stale.status == .ok)
            #expect(stale.headers[.eTag] == String(etag.dropLast()) + "-gz\"")
        }
    }

    @Test("the screen behind a navigate shows its header while loading, then the body")
    func navigationStates() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let client = DemoClient(root: root)
            await client.navigator.start(at: "screens/home")
            let home = try await client.navigator.snapshot.topScreen()
            guard case .carousel(let carousel) = home.sections[0].components[0].content,
                case .navigate(let navigate) = carousel.items[1].action
            else {
                Issue.record("home should open with a carousel of composers")
                return
            }
            let stream = await client.navigator.snapshots(bufferingPolicy: .unbounded)
            await client.navigator.navigate(navigate)
            let timed = await stream.elements(through: { $0.top?.state.screen != nil && $0.entries.count == 2 }, within: .seconds(60))
            let recorded = timed.seen.map { $0.top?.state }
            try #require(timed.elements != nil, "the navigation settled within 60 s: \(recorded)")
            #expect(recorded.contains(.loading(header: navigate.header)))
            let final = try await client.navigator.snapshot.topScreen()
            #expect(final.header == navigate.header)
            #expect(await client.navigator.snapshot.entries.count == 2)
        }
    }
}

extension Component {
    /// This component's kind and its descendants' kinds.
    var allKinds: [ComponentKind] { [kind] + children.flatMap(\.allKinds) }
}

@Suite("End to end: app-defined component kinds", .serialized)
struct CustomKindTests {
    static func offers(in screen: Screen) -> [Component] {
        screen.sections.flatMap(\.components).filter { $0.kind.rawValue == "ticketOffer" }
    }

    @Test("only clients that registered the kind, at v2 or later, receive it; the rest get its fallback")
    func customKinds() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            for (version, registered, expectsOffer) in [
                (APIVersion.v3, true, true), (.v2, true, true), (.v3, false, false), (.v1, true, false),
            ] {
                let loader = ScreenLoader(
                    endpoint: ServerEndpoint(root: root, apiVersion: version), transport: PlainHTTPTransport(),
                    customKinds: registered ? ["ticketOffer"] : [])
                let loaded = try await loader.screen(at: "screens/cities")
                #expect(loaded.issues.isEmpty, "\(version) registered=\(registered): \(loaded.issues)")
                let offers = Self.offers(in: loaded.screen)
                #expect(offers.count == (expectsOffer ? 3 : 0), "\(version) registered=\(registered)")
                let buttons = loaded.screen.sections.flatMap(\.components).compactMap { component -> Component.Button? in
                    if case .button(let button) = component.content { return button }
                    return nil
                }
                #expect(buttons.count == (expectsOffer ? 0 : 3), "\(version) registered=\(registered)")
                if let first = buttons.first {
                    #expect(first.title == "Tickets: Concerts in Vienna · from €25")
                    #expect(first.action == .openURL(.init(url: "https://tickets.example/vienna")))
                }
            }
            // Made-up names in the header change nothing, and do not split the cache.
            let plain = try await raw(.get, root, "/api/v3/screens/cities")
            let noise = try await raw(
                .get, root, "/api/v3/screens/cities", headers: [HTTPField.Name("Screenplay-Components")!: "bogus, other"])
            #expect(plain.headers[.eTag] == noise.headers[.eTag])
        }
    }
}

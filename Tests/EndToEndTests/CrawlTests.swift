import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Synchronization
import Testing

@Suite("End to end: screens over loopback", .serialized)
struct CrawlTests {
    @Test("every screen reachable from home by navigate actions loads with zero decoding issues, and each navigate header matches its destination")
    func crawl() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let client = DemoClient(root: root)
            var queue: [(url: String, header: ScreenHeader?)] = [("screens/home", nil)]
            var seen: Set<String> = []
            var loaded = 0
            var components = 0
            while !queue.isEmpty {
                let (url, header) = queue.removeFirst()
                let screen = try await client.loader.screen(at: url)
                #expect(screen.issues.isEmpty, "\(url): \(screen.issues)")
                if let header {
                    #expect(screen.screen.header == header, "the navigate action to \(url) carries a different header than the screen shows")
                }
                loaded += 1
                components += screen.screen.sections.reduce(0) { $0 + $1.components.count }
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

            let conditional = try await raw(.get, root, "/api/v1/screens/composer/mozart", headers: [.ifNoneMatch: etag])
            #expect(conditional.status == .notModified)
            #expect(conditional.body.isEmpty)
            let stale = try await raw(.get, root, "/api/v1/screens/composer/mozart", headers: [.ifNoneMatch: "\"sp-0\""])
            #expect(stale.status == .ok)
            #expect(stale.headers[.eTag] == etag)
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
            guard case .carousel(let carousel) = home.sections[0].components[0], case .navigate(let navigate) = carousel.items[1].action else {
                Issue.record("home should open with a carousel of composers")
                return
            }
            let states = StateLog()
            await client.navigator.observe { snapshot in states.append(snapshot.top?.state) }
            await client.navigator.navigate(navigate)
            let recorded = states.values
            #expect(recorded.contains(.loading(header: navigate.header)))
            let final = try await client.navigator.snapshot.topScreen()
            #expect(final.header == navigate.header)
            #expect(await client.navigator.snapshot.entries.count == 2)
        }
    }
}

final class StateLog: Sendable {
    private let storage = Mutex<[ScreenState?]>([])
    func append(_ state: ScreenState?) { storage.withLock { $0.append(state) } }
    var values: [ScreenState?] { storage.withLock { $0 } }
}

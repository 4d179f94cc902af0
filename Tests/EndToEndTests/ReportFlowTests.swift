import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayTestSupport
import Testing

@testable import ScreenplayDemo

/// An app's reports (v6) through the client core's reporter, against the real server on
/// loopback: kept on disk while the server cannot be reached, sent in batches once it can, stored
/// once however often they are sent; what they feed shows (home's Continue listening, the
/// experiments' plays per exposed user).
@Suite("End to end: reports", .serialized)
struct ReportFlowTests {
    static func file() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-reports-\(UUID().uuidString).json")
    }

    @Test("offline the events wait on disk; once the server answers they go in batches of 100, stored once, and home continues listening")
    func offlineThenSent() async throws {
        let file = Self.file()
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = Shared(Date())
        let now: @Sendable () -> Date = { clock.value }

        // Nothing listens on port 9 of loopback: the app is offline.
        let offline = await EventReporter(
            endpoint: ServerEndpoint(root: URL(string: "http://127.0.0.1:9/")!), transport: PlainHTTPTransport(),
            storage: FileReportQueue(file: file), now: now)
        for index in 0..<150 { await offline.record(.visible, key: "home/row:\(index)", screen: "home") }
        clock.update { $0.addTimeInterval(-120) }
        await offline.record(.played, key: "40")
        clock.update { $0.addTimeInterval(60) }
        await offline.record(.played, key: "2")
        clock.update { $0.addTimeInterval(60) }
        let failed = await offline.flush()
        #expect(failed.sent == 0 && failed.kept == 152 && failed.retryAt != nil, "\(failed)")
        let recorded = await offline.queued

        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            // The app starts again, online: the queue comes back from the file and goes.
            let tokens = InMemoryTokenStore()
            let online = await EventReporter(
                endpoint: ServerEndpoint(root: root), transport: PlainHTTPTransport(), tokens: tokens, storage: FileReportQueue(file: file),
                now: now)
            #expect(await online.queued.map(\.id) == recorded.map(\.id))
            let sent = await online.flush()
            #expect(sent == EventReporter.FlushResult(sent: 152, kept: 0, discarded: 0, retryAt: nil), "\(sent)")
            #expect(await FileReportQueue(file: file).load().isEmpty, "the file is emptied once the server has them")
            let token = try #require(await tokens.token(), "the first report made the app an identity")
            let user = try await demo.service.resolveIdentity(token: token, creating: false).user
            let log = SQLClientEventLog(store: demo.store)
            #expect(try await log.count(of: user) == 152)

            // The same events again (an answer lost on the way): nothing doubles.
            let again = await EventReporter(
                endpoint: ServerEndpoint(root: root), transport: PlainHTTPTransport(), tokens: tokens,
                storage: InMemoryReportQueue(events: recorded), now: now)
            #expect(await again.flush().sent == 152)
            #expect(try await log.count(of: user) == 152)

            // Home: what was played, the most recent first, each starting at the track last heard.
            let client = DemoClient(root: root, token: token)
            await client.navigator.start(at: "screens/home")
            let home = try await client.navigator.snapshot.topScreen()
            let section = try #require(home.sections.first { $0.id == "continue-listening" }, "no Continue listening")
            guard case .carousel(let carousel) = section.components.first?.content else {
                Issue.record("Continue listening is not a carousel: \(section.components)")
                return
            }
            let firstTracks = carousel.items.compactMap { item -> String? in
                guard case .play(let play)? = item.action else { return nil }
                return play.firstTrack.id
            }
            #expect(firstTracks == ["2", "40"])
            #expect(section.components.first?.attributes.report.visible == "home/continue-listening")

            // The home teaser experiment: the user is exposed now; a play after it counts for
            // their variant, the earlier ones do not.
            let variant = try #require(try await demo.experiments.report(for: "home-shop-teaser").exposures.first { $0.value == 1 }?.key)
            // After the exposure on the server's clock, however long the server took to start.
            clock.update { $0 = Date().addingTimeInterval(2) }
            await again.record(.played, key: "41")
            #expect(await again.flush().sent == 1)
            let results = try await demo.experiments.results(for: "home-shop-teaser", metric: DemoMetrics.plays)
            let counted = try #require(results.variants.first { $0.name == variant })
            #expect(counted.users == 1 && counted.mean == 1, "\(results)")
        }
    }

    @Test("one bad event is refused alone; the web route is the same store with the site's cookie, and only from the site")
    func refusals() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let now = ClientEvent.text(Date())
            let body = #"{"events":[{"id":"a","kind":"played","key":"2","at":"\#(now)"},{"id":"b","kind":"tapped","key":"x","at":"\#(now)"}]}"#
            let answer = try await raw(.post, root, "/api/v6/reports", headers: [.contentType: "application/json"], body: Array(body.utf8))
            #expect(answer.status == .ok)
            let receipt = try JSONDecoder().decode(ClientEventReceipt.self, from: Data(answer.body))
            #expect(receipt.stored == 1 && receipt.refused.map(\.path) == ["$.events[1].kind"])
            let token = try #require(answer.headers[ScreenplayService.tokenHeader])

            // The web's route: the same store, the identity as the site's cookie, only from the site.
            let web = try await raw(
                .post, root, "/web/reports",
                headers: [.contentType: "application/json", .cookie: "\(ScreenplayService.tokenCookie)=\(token)", .origin: "http://\(root.host!):\(root.port!)"],
                body: Array(body.utf8))
            #expect(web.status == .ok)
            #expect(try JSONDecoder().decode(ClientEventReceipt.self, from: Data(web.body)).repeated == 1, "the cookie's user already had it")
            let fresh = try await raw(.post, root, "/web/reports", headers: [.contentType: "application/json"], body: Array(body.utf8))
            #expect(fresh.headers[.setCookie]?.hasPrefix("\(ScreenplayService.tokenCookie)=") == true, "a new listener gets the cookie")
            let foreign = try await raw(
                .post, root, "/web/reports", headers: [.contentType: "application/json", .origin: "https://elsewhere.example"], body: Array(body.utf8))
            #expect(foreign.status == .forbidden)
            #expect(foreign.headers[.setCookie] == nil, "no identity handed to another site's page")
        }
    }
}

/// What a play changes: a new play of a real track moves the listener's revision (home shows it);
/// the same play again, an impression, or a key naming no track moves nothing.
@Suite("End to end: what a reported play changes", .serialized)
struct ReportRevisionTests {
    @Test("only a newly stored play of a track moves the user's revision; a repeat, an impression or a junk key does not")
    func revision() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { _, demo in
            let identity = try await demo.service.resolveIdentity(token: nil, creating: true)
            let user = identity.user
            let sink = try #require(demo.service.reports)
            let now = Date()
            func revision() async throws -> Int64 { try await demo.catalog.users.revision(of: user) }
            let start = try await revision()
            _ = try await sink.store([ClientEvent(id: "v", kind: .visible, key: "home/x", at: now)], from: user, receivedAt: now)
            _ = try await sink.store(
                [ClientEvent(id: "j1", kind: .played, key: "007", at: now), ClientEvent(id: "j2", kind: .played, key: "abc", at: now)],
                from: user, receivedAt: now)
            #expect(try await revision() == start, "an impression or a key naming no track changes no screen")
            _ = try await sink.store([ClientEvent(id: "p", kind: .played, key: "7", at: now)], from: user, receivedAt: now)
            let afterPlay = try await revision()
            #expect(afterPlay > start)
            let again = try await sink.store([ClientEvent(id: "p", kind: .played, key: "7", at: now)], from: user, receivedAt: now)
            #expect(again.stored == 0 && again.repeated == 1)
            #expect(try await revision() == afterPlay, "a play sent again changes nothing")
            #expect(try await demo.catalog.recentlyPlayed(by: user).map(\.track.id) == [7], "\"007\" is not track 7")
        }
    }
}

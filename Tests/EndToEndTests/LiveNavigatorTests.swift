import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import ScreenplayTestSupport
import ScreenplayDemo
import ScreenplayServer
import Testing

/// The client core against the real demo over loopback: a navigator follows the live screens of
/// its stack (only those, only in the foreground), and its hearts flip before the server answers.
@Suite("A navigator keeps its live screens current")
struct LiveNavigatorTests {
    /// Waits (20 ms steps, at most `limit`) until `condition` holds; returns how long it took.
    @discardableResult
    static func waitUntil(_ limit: Duration = .seconds(3), _ condition: () async -> Bool) async throws -> Duration? {
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < limit {
            if await condition() { return clock.now - start }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    static func favorite(_ navigator: ScreenNavigator) async -> JSONValue? {
        await navigator.snapshot.top?.entities["playlist/1"]?["favorite"]
    }

    @Test("another device's write shows, pushed by the stream; a pop, the background and letting go each close the stream")
    func followsTheStack() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let hub = try #require(demo.service.events)
            let token = try await LiveDemoTests.newUser(root)  // playlist 1 is a favorite of theirs now
            var client: DemoClient? = DemoClient(root: root, token: token, apiVersion: .v5)
            try await Self.walk(try #require(client?.navigator), root: root, token: token, hub: hub)
            // An app that lets its navigator go stops following.
            client = nil
            #expect(try await Self.waitUntil { hub.openStreams == 0 } != nil, "a navigator let go holds no stream")
        }
    }

    /// One phone's walk through the demo with its navigator.
    static func walk(_ navigator: ScreenNavigator, root: URL, token: String, hub: ScreenEventHub) async throws {
        // The cities board is polled, not followed: no stream for it.
        await navigator.start(at: "screens/cities")
        #expect(await navigator.watching == LiveWatch(streamEntries: [], intervals: ["screens/cities": 60]))
        await navigator.navigate(.init(url: "screens/playlist/1"))
        #expect(await navigator.watching.streamEntries == ["playlist/1"])
        #expect(try await Self.waitUntil { hub.openStreams == 1 } != nil, "the stream opened")
        // The server counts a stream before its head reaches the navigator: wait for both, or a
        // stream cancelled in between would be the server's and never the navigator's.
        #expect(try await Self.waitUntil { await navigator.streamsOpened >= 1 } != nil, "the navigator has its stream")
        #expect(await Self.favorite(navigator) == true)

        // The same user's tablet takes the heart off: this phone shows it without asking.
        let removed = try await raw(
            .post, root, "/api/v5/commands/favorites/remove",
            headers: [.contentType: "application/json", .authorization: "Bearer \(token)"], body: Array(#"{"playlistId":1}"#.utf8))
        #expect(removed.status == .ok)
        let took = try await Self.waitUntil(heardPromptly + .seconds(3)) { await Self.favorite(navigator) == false }
        #expect(took.map { $0 < heardPromptly } == true, "shown promptly: \(String(describing: took))")

        // Popped: the playlist leaves the stack and the server's count of streams drops.
        await navigator.back()
        #expect(await navigator.watching.streamEntries.isEmpty)
        #expect(try await Self.waitUntil { hub.openStreams == 0 } != nil, "popping closed the stream")

        // Pushed again, then the app goes to the background and comes back.
        await navigator.navigate(.init(url: "screens/playlist/1"))
        #expect(try await Self.waitUntil { hub.openStreams == 1 } != nil)
        #expect(try await Self.waitUntil { await navigator.streamsOpened >= 2 } != nil, "the navigator has its second stream")
        await navigator.enterBackground()
        #expect(try await Self.waitUntil { hub.openStreams == 0 } != nil, "the background closed the stream")
        await navigator.enterForeground()
        #expect(try await Self.waitUntil { hub.openStreams == 1 } != nil, "the foreground reopened it")
        #expect(try await Self.waitUntil { await navigator.streamsOpened >= 3 } != nil, "three streams opened: the first, after the pop, after the background")
    }

    @Test("render --follow prints what changed when another device writes, then the new state")
    func renderFollows() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            let hub = try #require(demo.service.events)
            let token = try await LiveDemoTests.newUser(root)
            async let rendered = runCLI([
                "render", root.absoluteString + "api/v5/screens/playlist/1", "--token", token, "--follow", "--changes", "1",
            ])
            // Required: a change posted before the command has its first answer is in that answer,
            // and the command would wait (until its time limit) for a change that never comes.
            try #require(try await Self.waitUntil(.seconds(20)) { hub.openStreams == 1 } != nil, "the command opened its stream")
            let removed = try await raw(
                .post, root, "/api/v5/commands/favorites/remove",
                headers: [.contentType: "application/json", .authorization: "Bearer \(token)"], body: Array(#"{"playlistId":1}"#.utf8))
            #expect(removed.status == .ok)
            let (status, output) = try await rendered
            #expect(status == 0, "\(output)")
            #expect(output.contains("── following playlist/1"), "\(output)")
            let change = try #require(output.components(separatedBy: "── change 1\n").last, "\(output)")
            #expect(change.contains("~ ") && change.contains("text, toggle"), "the heart's node changed its text and state: \(change)")
            #expect(change.contains("Add to favorites"), "the new state is printed: \(change)")

            // A screen that is not live says so instead of waiting for ever.
            let still = try await runCLI(["render", root.absoluteString + "api/v5/screens/search?q=bach", "--follow"])
            #expect(still.status == 1 && still.output.contains("is not live"), "\(still.output)")
        }
    }

    @Test("a heart flips before the server answers, shown pending until it does, and the answer confirms it")
    func optimisticHeart() async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let token = try await LiveDemoTests.newUser(root)
            let client = DemoClient(root: root, token: token, apiVersion: .v5)
            await client.navigator.start(at: "screens/playlist/1")
            let snapshots = await client.navigator.snapshots(bufferingPolicy: .unbounded)
            let screen = try #require(await client.navigator.snapshot.top?.state.screen)
            guard case .favoriteButton(let heart) = screen.allComponents.first(where: { $0.kind.rawValue == "favoriteButton" })?.content else {
                Issue.record("no heart on the playlist")
                return
            }
            #expect(heart.remove.optimistic?.entities == ["playlist/1": ["favorite": false]])
            await client.navigator.perform(.command(heart.remove))
            // Until the answer confirms the flip (after a snapshot with it pending), or 60 s.
            let timed = await snapshots.elements(
                through: { $0.pendingEntities.isEmpty && $0.top?.entities["playlist/1"]?["favorite"] == false },
                within: .seconds(60))
            let seen = timed.seen
            try #require(timed.elements != nil, "the heart's command settled within 60 s: \(seen.count) snapshots")
            let pending = try #require(seen.first { !$0.pendingEntities.isEmpty }, "a snapshot showed the outcome pending")
            #expect(pending.top?.entities["playlist/1"]?["favorite"] == false)
            #expect(pending.isPerformingCommand == false, "an optimistic tap blocks nothing")
            let done = try #require(seen.last)
            if case .message(let message) = done.presented { #expect(message.contains("Removed")) } else { Issue.record("no confirmation: \(String(describing: done.presented))") }
        }
    }
}

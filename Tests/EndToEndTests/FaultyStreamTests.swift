import Foundation
import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import Testing

/// The navigator's event stream against a server that misbehaves on purpose (``FaultServer``):
/// it rides out refusals, drops, delays and garbage, logs what it could not read with where, and
/// never loses or un-does the screen it has.
@Suite("A navigator rides out a faulty event stream")
struct FaultyStreamTests {
    static func navigator(_ root: URL) -> ScreenNavigator {
        let loader = ScreenLoader(endpoint: ServerEndpoint(root: root, apiVersion: .v5), transport: PlainHTTPTransport())
        return ScreenNavigator(loader: loader)
    }

    static func title(_ navigator: ScreenNavigator) async -> String? {
        await navigator.snapshot.top?.state.screen?.title
    }

    static func issues(_ navigator: ScreenNavigator) async -> [DecodingIssue] {
        await navigator.snapshot.issues
    }

    @Test("a 500, a 503 with Retry-After, a drop mid-stream, a failed revalidation, garbage, an overlong line and a slow server: the newest screen shows, each fault logged or retried")
    func ridesOutFaults() async throws {
        try await FaultServer.run { root, server in
            server.play(
                .refuse(status: 500),
                .refuse(status: 503, retryAfter: 1),
                // Opens; the screen changes, but the revalidation it causes fails; then the
                // connection drops mid-body.
                .stream([
                    .event("ready", id: "s.1", data: #"{"screens":{"feed":\#(json(FaultServer.etag(1)))}}"#, retry: 100),
                    .pause(.milliseconds(100)), .version(2), .failReads([500]),
                    .event("screen", id: "s.2", data: #"{"path":"feed","etag":\#(json(FaultServer.etag(2)))}"#),
                    .pause(.milliseconds(300)), .drop,
                ]),
                // Back with the last id it heard: ready says version 2, then garbage (not JSON,
                // an unknown kind, a screen not watched, a type that is not UTF-8), then a line
                // past the client's limit.
                .stream([
                    .event("ready", id: "s.3", data: #"{"screens":{"feed":\#(json(FaultServer.etag(2)))}}"#, retry: 100),
                    .pause(.milliseconds(200)),
                    .event("screen", data: "{not json"),
                    .event("fanfare", data: "{}"),
                    .event("screen", data: #"{"path":"elsewhere","etag":"\"x\""}"#),
                    .bytes(Array("event: ".utf8) + [0xFF, 0xFE] + Array("\ndata: {}\n\n".utf8)),
                    .text("data: " + String(repeating: "x", count: (1 << 20) + 10) + "\n\n"),
                ]),
                // A slow server: nothing for a second and a half, then version 3.
                .stream([
                    .pause(.milliseconds(1500)), .version(3),
                    .event("ready", id: "s.5", data: #"{"screens":{"feed":\#(json(FaultServer.etag(3)))}}"#),
                ]))
            let navigator = Self.navigator(root)
            await navigator.start(at: "screens/feed")
            #expect(await Self.title(navigator) == "Feed 1")
            #expect(await navigator.watching.streamEntries == ["feed"])

            // The failed revalidation keeps what was shown.
            let failed = try await LiveNavigatorTests.waitUntil(.seconds(6)) { server.screenReads.count >= 2 }
            #expect(failed != nil, "the change was heard after a 500 and a 503: \(server.connections) connections")
            try await Task.sleep(for: .milliseconds(100))
            #expect(await Self.title(navigator) == "Feed 1", "a failed revalidation loses nothing")
            #expect(server.screenReads.last == FaultServer.etag(1), "revalidated with If-None-Match")

            // After the drop, ready names version 2 again: this time it is read.
            #expect(try await LiveNavigatorTests.waitUntil(.seconds(4)) { await Self.title(navigator) == "Feed 2" } != nil)

            // The garbage is logged with where it was; the screen stays.
            let logged = try await LiveNavigatorTests.waitUntil(.seconds(4)) {
                await Self.issues(navigator).contains { $0.path == "events" }
            }
            #expect(logged != nil, "the overlong line was logged")
            let issues = await Self.issues(navigator)
            let paths = issues.map(\.path)
            #expect(paths.filter { $0 == "events.screen" }.count == 2, "not JSON, and a screen not watched: \(issues)")
            #expect(paths.contains("events.fanfare"))
            #expect(issues.contains { $0.path.hasPrefix("events.") && $0.message.contains("\u{FFFD}") }, "a type that is not UTF-8: \(issues)")
            #expect(issues.contains { $0.path == "events" && $0.message.contains("1048576 bytes") })
            #expect(await Self.title(navigator) == "Feed 2")

            // A slow server is waited for; its news is applied.
            #expect(try await LiveNavigatorTests.waitUntil(.seconds(6)) { await Self.title(navigator) == "Feed 3" } != nil)
            #expect(server.lastEventIDs == [nil, nil, nil, "s.2", "s.3"], "resumed with the last id heard each time")
            #expect(await navigator.streamsOpened == 3, "three streams opened; the refusals opened none")
        }
    }
}

/// `text` as a JSON string literal.
private func json(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
}

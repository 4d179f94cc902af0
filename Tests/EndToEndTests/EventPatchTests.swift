import Foundation
import HTTPTypes
@testable import ScreenplayClient
import ScreenplayClientNIO
import ScreenplayContract
import ScreenplayServer
import Synchronization
import Testing

/// Patches over the event stream (v6, `patches=1`) against a real server: a one-row change of a
/// 300-row list is a few hundred bytes on the wire and gives exactly the announced version; the
/// client core applies it without a request, and falls back to a `GET` on any mismatch.
@Suite("Patches over the event stream")
struct EventPatchTests {
    /// A 300-row list per user; `subtitles` overrides rows' subtitles.
    final class Rows: Sendable {
        let subtitles = Mutex<[Int: String]>([:])
        let world = EventStreamTests.World()

        func screen(for user: Int64) -> Screen {
            let overrides = subtitles.withLock { $0 }
            return Screen(id: "list", title: "Recordings", live: .events) {
                Section("rows", header: "All 300") {
                    for index in 1...300 {
                        ListRow(
                            title: "Recording \(index) of user \(user)", subtitle: overrides[index] ?? "Take \(index) · 2024",
                            action: .navigate(to: "screens/recording/\(index)"))
                    }
                }
            }
        }

        func change(row: Int, to subtitle: String, user: Int64 = 1) async {
            subtitles.withLock { $0[row] = subtitle }
            await world.bus.publish(.userRevision(userID: user))
        }
    }

    static func withServer(
        _ rows: Rows, limits: EventStreamLimits = EventStreamTests.patient, _ body: (URL, ScreenplayService) async throws -> Void
    ) async throws {
        try await EventStreamTests.withServer(rows.world, limits: limits, routes: { routes in
            routes.screen("list") { request in rows.screen(for: request.user.id) }
        }, body)
    }

    static func get(_ root: URL, _ path: String = "/api/v6/screens/list") async throws -> RawResponse {
        try await raw(.get, root, path, headers: [.authorization: "Bearer u1"])
    }

    /// The event's size on the wire, as the server writes it (id, type and data lines, then the blank line).
    static func wireSize(_ event: StreamEvent, id: String) -> Int {
        ("id: " + id + "\n").utf8.count + ("event: " + event.type + "\n").utf8.count + ("data: " + event.data + "\n").utf8.count + 1
    }

    @Test("a one-row change of a 300-row list is one screen event of at most 300 bytes whose patch gives the announced ETag")
    func oneRowChange() async throws {
        let rows = Rows()
        try await Self.withServer(rows) { root, _ in
            let before = try await Self.get(root)
            let listener = try await EventListener.open(root, screens: [], token: "u1", path: "api/v6/events?screens=list&patches=1")
            #expect(listener.status == 200)
            try #require(await listener.wait { $0.contains { $0.type == "ready" } } != nil)

            await rows.change(row: 151, to: "Take 151 · 2025, remastered")
            try #require(await listener.wait { $0.contains { $0.type == "screen" } } != nil)
            let event = try #require(listener.events.first { $0.type == "screen" })
            let data = try JSONDecoder().decode(PatchedEvent.self, from: Data(event.data.utf8))
            let after = try await Self.get(root)
            #expect(data.from == before.headers[.eTag])
            #expect(data.etag == after.headers[.eTag])

            // The client's own check: the patch on the bytes it holds gives the new version's tag.
            let old = try JSONDecoder().decode(JSONValue.self, from: Data(before.body))
            let patched = try ScreenPatch(json: data.patch).applied(to: old).canonicalBytes
            #expect(EntityTag.strong(for: patched) == data.etag)
            #expect(patched == after.body, "the patched bytes are the server's own")

            let size = Self.wireSize(event, id: listener.lastEventID)
            #expect(size <= 300, "the event is \(size) bytes on the wire: \(event.data)")
            #expect(after.body.count > 30_000, "the whole screen would have been \(after.body.count) bytes")
            print("patch: a one-row change of a 300-row list is \(size) bytes on the wire; the screen is \(after.body.count) bytes")
            await listener.close()
        }
    }

    @Test("without patches=1, or before v6, the event names the tag alone; patches=2 is refused")
    func onlyWhenAsked() async throws {
        let rows = Rows()
        try await Self.withServer(rows) { root, _ in
            let plain = try await EventListener.open(root, screens: ["list"], token: "u1", version: 6)
            let older = try await EventListener.open(root, screens: [], token: "u1", path: "api/v5/events?screens=list&patches=1")
            try #require(await plain.wait { $0.contains { $0.type == "ready" } } != nil)
            try #require(await older.wait { $0.contains { $0.type == "ready" } } != nil)
            await rows.change(row: 2, to: "changed")
            try #require(await plain.wait { $0.contains { $0.type == "screen" } } != nil)
            try #require(await older.wait { $0.contains { $0.type == "screen" } } != nil)
            for listener in [plain, older] {
                let data = try #require(listener.events.first { $0.type == "screen" }?.data)
                #expect(!data.contains("patch") && !data.contains("from"), "\(data)")
                await listener.close()
            }
            let refused = try await raw(.get, root, "/api/v6/events?screens=list&patches=2", headers: [.authorization: "Bearer u1"])
            #expect(refused.status == .unprocessableContent)
            #expect(try refused.errorBody().error.message.contains("1 asks for patches"), "\(refused.text)")
        }
    }

    @Test("each stream holds its client's version within the patch memory, given back when it closes; past it, events carry the tag alone")
    func patchMemory() async throws {
        let rows = Rows()
        try await Self.withServer(rows) { root, service in
            let hub = try #require(service.events)
            let first = try await EventListener.open(root, screens: [], token: "u1", path: "api/v6/events?screens=list&patches=1")
            try #require(await first.wait { $0.contains { $0.type == "ready" } } != nil)
            let screen = try await Self.get(root)
            #expect(hub.heldForPatches == screen.body.count, "the stream holds the version its client has")
            await first.close()
            #expect(try await LiveNavigatorTests.waitUntil { hub.heldForPatches == 0 } != nil, "a closed stream gives it back")
        }
        var small = EventStreamTests.patient
        small.patchMemory = 20_000
        try await Self.withServer(rows, limits: small) { root, service in
            let listener = try await EventListener.open(root, screens: [], token: "u1", path: "api/v6/events?screens=list&patches=1")
            try #require(await listener.wait { $0.contains { $0.type == "ready" } } != nil)
            #expect(service.events?.heldForPatches == 0, "a 54 KB screen does not fit in 20 KB")
            await rows.change(row: 3, to: "changed")
            try #require(await listener.wait { $0.contains { $0.type == "screen" } } != nil)
            let data = try #require(listener.events.first { $0.type == "screen" }?.data)
            #expect(!data.contains("patch"), "\(data)")
            await listener.close()
        }
    }

    @Test("the client core applies a patch without a request, and fetches the screen whole when one does not fit")
    func clientAppliesOrFallsBack() async throws {
        let rows = Rows()
        try await Self.withServer(rows) { root, _ in
            let loader = ScreenLoader(
                endpoint: ServerEndpoint(root: root, apiVersion: .v6), transport: PlainHTTPTransport(), tokens: InMemoryTokenStore(token: "u1"))
            let first = try await loader.screen(at: "screens/list")
            let listener = try await EventListener.open(root, screens: [], token: "u1", path: "api/v6/events?screens=list&patches=1")
            try #require(await listener.wait { $0.contains { $0.type == "ready" } } != nil)

            // Applied: the screen changes without asking the server.
            await rows.change(row: 7, to: "Take 7 · live")
            try #require(await listener.wait { $0.filter { $0.type == "screen" }.count >= 1 } != nil)
            let event = try JSONDecoder().decode(PatchedEvent.self, from: Data(listener.events.last { $0.type == "screen" }!.data.utf8))
            #expect(event.from == first.etag)
            await loader.offer(patch: event.patch, from: event.from, to: event.etag, for: "screens/list")
            let patched = try await loader.screen(at: "screens/list")
            #expect(await loader.patchesApplied == 1)
            #expect(patched.etag == event.etag && !patched.revalidated)
            let served = try await loader.screen(at: "screens/list")
            #expect(served.revalidated, "the server's 304 confirms the patched version is its own")
            #expect(served.screen == patched.screen)
            #expect(patched.screen.allComponents.contains { component in
                if case .listRow(let row) = component.content { row.subtitle == "Take 7 · live" } else { false }
            })

            // A patch that does not give the announced version (tampered with) is refused: the
            // load fetches the screen whole.
            await rows.change(row: 8, to: "Take 8 · live")
            try #require(await listener.wait { $0.filter { $0.type == "screen" }.count >= 2 } != nil)
            let second = try JSONDecoder().decode(PatchedEvent.self, from: Data(listener.events.last { $0.type == "screen" }!.data.utf8))
            let tampered = second.patch.jsonText.replacingOccurrences(of: "Take 8 · live", with: "Take 8 · fake")
            #expect(tampered != second.patch.jsonText)
            let forged = try JSONDecoder().decode(JSONValue.self, from: Data(tampered.utf8))
            await loader.offer(patch: forged, from: second.from, to: second.etag, for: "screens/list")
            let fetched = try await loader.screen(at: "screens/list")
            #expect(await loader.patchesRefused == 1)
            #expect(fetched.etag == second.etag, "the whole screen, as the server has it")

            // A patch from a version the client does not hold is refused too.
            await loader.offer(patch: second.patch, from: "\"sp-0000000000000000\"", to: second.etag, for: "screens/list")
            _ = try await loader.screen(at: "screens/list")
            #expect(await loader.patchesRefused == 2)
            #expect(await loader.patchesApplied == 1)
            await listener.close()
        }
    }

    @Test("a navigator at v6 shows another device's change from the stream's patch, without fetching the screen")
    func navigatorApplies() async throws {
        let rows = Rows()
        try await Self.withServer(rows) { root, service in
            let client = DemoClient(root: root, token: "u1", apiVersion: .v6)
            await client.navigator.start(at: "screens/list")
            #expect(try await LiveNavigatorTests.waitUntil { await client.navigator.streamsOpened >= 1 } != nil)
            try await EventStreamTests.waitForStreams(service, 1)
            // The navigator has heard `ready` (its last event id is the stream's).
            #expect(try await LiveNavigatorTests.waitUntil { await !client.navigator.lastEventID.isEmpty } != nil)
            let heardBefore = await client.navigator.lastEventID
            let hubBefore = service.events?.currentEventID ?? "-"
            await rows.change(row: 300, to: "Take 300 · the last")
            let shown = try await LiveNavigatorTests.waitUntil(.seconds(10)) {
                await client.navigator.snapshot.top?.state.screen?.allComponents.contains { component in
                    if case .listRow(let row) = component.content { row.subtitle == "Take 300 · the last" } else { false }
                } == true
            }
            #expect(shown != nil, "the change is shown")
            let (applied, refused) = (await client.loader.patchesApplied, await client.loader.patchesRefused)
            let opened = await client.navigator.streamsOpened
            let issues = await client.navigator.snapshot.issues
            let heardAfter = await client.navigator.lastEventID
            #expect(
                applied == 1,
                "streams opened: \(opened); issues: \(issues); heard \(heardBefore) → \(heardAfter); hub \(hubBefore) → \(service.events?.currentEventID ?? "-")")
            #expect(refused == 0)
        }
    }
}

/// A `screen` event's data with its patch.
struct PatchedEvent: Decodable {
    let path: String
    let etag: String
    let from: String
    let patch: JSONValue
}

import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Testing

/// v6 local actions through the navigator: a sequence runs its set, then its command; a refused
/// step stops it; app-scoped values are kept in the offline storage across launches.
@Suite("Navigator: local actions and app values (v6)")
struct NavigatorLocalActionTests {
    /// A v6 app (the shared test endpoint is a v1 one).
    static let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v6)
    static func api(_ reference: String) -> String { "/api/v6/" + reference }

    static let saved = Action.SetVariable(variable: "saved", value: "true")
    static let screen = Screen(
        id: "work", title: "Work",
        sections: [
            ScreenSection(
                id: "main",
                components: [
                    Component.button(.init(title: "Save", action: .sequence(.init([.set(saved), .command(.init(url: "commands/save"))]))))
                        .id("save").computing(.text, "saved ? 'Saved' : 'Save'"),
                    Component.text(.init("")).id("resume").computing(.text, "'Resume at ' + formatDuration(resumeAt)"),
                    Component.text(.init("")).id("now").computing(.text, "player.title"),
                ])
        ],
        state: [
            "saved": try! StateVariable(.bool, initial: .bool(false)),
            "resumeAt": try! StateVariable(.number, initial: .number(0), scope: .app),
        ])

    static func transport() -> FakeTransport {
        let transport = FakeTransport()
        transport.on(.get, Self.api("screens/work"), .screen(screen, etag: "\"w\""))
        transport.on(.post, Self.api("commands/save"), .result(.done(.init(message: "Saved"))))
        return transport
    }

    static func text(_ id: String, _ navigator: ScreenNavigator) async -> String? {
        guard let entry = await navigator.snapshot.top else { return nil }
        func find(_ node: ViewNode) -> ViewNode? { node.id.rawValue == "id:" + id ? node : node.children.lazy.compactMap(find).first }
        return find(ViewTreeResolver().resolve(entry).root)?.text
    }

    @Test("a sequence sets its variable, then sends its command; a step that is refused stops the ones after it")
    func sequence() async throws {
        let transport = Self.transport()
        let navigator = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: transport))
        await navigator.start(at: "screens/work")
        #expect(await Self.text("save", navigator) == "Save")
        await navigator.perform(.sequence(.init([.set(Self.saved), .command(.init(url: "commands/save"))])))
        #expect(await Self.text("save", navigator) == "Saved")
        #expect(transport.requests(to: Self.api("commands/save")).count == 1)
        await navigator.perform(.sequence(.init([.set(.init(variable: "missing", value: "1")), .command(.init(url: "commands/save"))])))
        #expect(transport.requests(to: Self.api("commands/save")).count == 1, "the command after a refused set is not sent")
        #expect(await navigator.snapshot.presented != nil, "the refusal is shown")
    }

    @Test("an app value set in one launch is where the next launch's screens start")
    func keptAcrossLaunches() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = ScreenNavigator(
            loader: ScreenLoader(endpoint: Self.endpoint, transport: Self.transport(), offlineStorage: try FileOfflineStorage(directory: folder)))
        await first.start(at: "screens/work")
        #expect(await Self.text("resume", first) == "Resume at 0:00")
        await first.perform(.set(.init(variable: "resumeAt", value: "125.5")))
        #expect(await Self.text("resume", first) == "Resume at 2:05")

        let storage = try FileOfflineStorage(directory: folder)
        let next = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: Self.transport(), offlineStorage: storage))
        await next.start(at: "screens/work")
        #expect(await Self.text("resume", next) == "Resume at 2:05")
        #expect(await storage.references().contains(AppStateStorage.reference))
        // A kept value of another type than the screen now declares is dropped for the initial one.
        await AppStateStorage.write(["resumeAt": .string("soon")], types: ["resumeAt": .string], to: storage)
        let third = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: Self.transport(), offlineStorage: storage))
        await third.start(at: "screens/work")
        #expect(await Self.text("resume", third) == "Resume at 0:00")
    }

    @Test("playback resumes where it stopped in the last launch: the play action, its track and the position are kept, and the sync keeps them")
    func playbackBookmark() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookmark-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let play = Action.Play(
            metadataURL: "media/recordings/7/queue", firstTrack: .init(id: "31", title: "I. Allegro", streamURL: "media/tracks/31.wav"))
        let storage = try FileOfflineStorage(directory: folder)
        let first = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: Self.transport(), offlineStorage: storage))
        await first.start(at: "screens/work")
        #expect(await first.playbackBookmark == nil, "nothing played yet")
        await first.perform(.play(play))
        #expect(await first.playbackBookmark == PlaybackBookmark(play: play, trackID: "31", position: 0))
        // The player reports every second; the storage is written at a track, a pause or 5 s.
        await first.updatePlayer(PlayerState(trackID: "31", playing: true, position: 1))
        #expect(await PlaybackBookmark.read(from: storage)?.position == 0, "one second is not worth a write")
        await first.updatePlayer(PlayerState(trackID: "32", playing: true, position: 2))
        #expect(await PlaybackBookmark.read(from: storage) == PlaybackBookmark(play: play, trackID: "32", position: 2))
        await first.updatePlayer(PlayerState(trackID: "32", playing: true, position: 64.5))
        await first.updatePlayer(PlayerState(trackID: "32", playing: false, position: 65))
        #expect(await PlaybackBookmark.read(from: storage) == PlaybackBookmark(play: play, trackID: "32", position: 65))

        let next = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: Self.transport(), offlineStorage: storage))
        #expect(await next.playbackBookmark == nil, "read at the first start")
        await next.start(at: "screens/work")
        #expect(await next.playbackBookmark == PlaybackBookmark(play: play, trackID: "32", position: 65))
        #expect(ScreenLoader.isKeptForTheApp(PlaybackBookmark.reference), "the offline sync neither fetches nor removes it")
        #expect(!ScreenLoader.isKeptForTheApp("screens/work"))
        // What screens read as `player` follows the app's player.
        #expect(await Self.text("now", next) == "")
        await next.updatePlayer(PlayerState(trackID: "32", playing: true, position: 66, title: "II. Adagio"))
        #expect(await Self.text("now", next) == "II. Adagio")
    }
}

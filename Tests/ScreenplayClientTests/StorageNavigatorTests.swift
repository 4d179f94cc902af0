import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import Synchronization
import Testing

/// The navigator actor carrying out v4 state: typed text sent as storage over the wire, and a
/// result's effects run through the app's local handlers.
@Suite("ScreenNavigator with storage and effects")
struct StorageNavigatorTests {
    static let endpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v4)
    static func v4(_ reference: String) -> String { "/api/v4/" + reference }

    static let search = Screen(
        id: "search", title: "Search",
        sections: [
            ScreenSection(
                id: "field",
                components: [
                    Component.textField(.init(label: "Search", storageKey: "query", submit: .command(.init(url: "commands/search"))))
                ])
        ], storage: ["page": "1"])

    @Test("typed text goes out in the command body's storage; effects run locally; a remote effect is refused and logged")
    func wire() async throws {
        let transport = FakeTransport()
        transport.on(.get, Self.v4("screens/search"), .screen(Self.search))
        let answer = CommandResult(
            .done(.init(message: "Searched")),
            updates: .init(
                storage: ["query": ""],
                effects: [.openURL(.init(url: "https://example.com/help")), .navigate(.init(url: "screens/elsewhere"))]))
        transport.on(.post, Self.v4("commands/search"), .result(answer))
        let navigator = ScreenNavigator(loader: ScreenLoader(endpoint: Self.endpoint, transport: transport))
        let opened = Mutex<[String]>([])
        await navigator.handle("openURL") { action in
            if case .openURL(let open) = action { opened.withLock { $0.append(open.url) } }
        }
        await navigator.start(at: "screens/search")
        #expect(try await navigator.type("bach", into: "query") == "bach")

        let entry = try #require(await navigator.snapshot.top)
        let field = try #require(ViewTreeResolver().resolve(entry).root.allNodes.first { $0.role == .textField })
        #expect(field.field?.value == "bach")
        await navigator.perform(try #require(field.action?.action), from: field.id)

        let body = try #require(transport.requests(to: Self.v4("commands/search")).first).json()
        #expect(body["storage"] == ["query": "bach", "page": "1"])
        #expect(opened.withLock { $0 } == ["https://example.com/help"])
        let snapshot = await navigator.snapshot
        #expect(snapshot.entries.count == 1, "a navigate effect never moves")
        #expect(snapshot.top?.storage == ["query": "", "page": "1"])
        #expect(snapshot.presented == .message("Searched"))
        #expect(snapshot.issues.map(\.path) == ["$.effects[1]"])
        #expect(snapshot.issues.first?.message.contains("'navigate' was not run") == true)
    }

    @Test("every command carries an Idempotency-Key; a dropped connection is retried once with the same key")
    func idempotentRetry() async throws {
        let transport = FakeTransport()
        transport.on(.post, Self.v4("commands/save"), replies: [.fail, .respond(.result(.done(.init(message: "Saved"))))])
        let loader = ScreenLoader(endpoint: Self.endpoint, transport: transport)
        let answer = try await loader.perform(.init(url: "commands/save"))
        #expect(answer.value == .done(.init(message: "Saved")))
        let keys = transport.requests(to: Self.v4("commands/save")).map { $0[HTTPField.Name("Idempotency-Key")!] }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] == keys[1])
        _ = try await loader.perform(.init(url: "commands/save"))
        let third = transport.requests(to: Self.v4("commands/save")).last?[HTTPField.Name("Idempotency-Key")!]
        #expect(third != keys[0], "a new command, a new key")
    }
}

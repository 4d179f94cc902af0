import Foundation
import HTTPTypes
import ScreenplayClient
import ScreenplayContract
import ScreenplayDemo
import ScreenplayServer
import Testing

@Suite("Demo search and command storage")
struct SearchTests {
    static func search(_ demo: DemoApp, _ payload: JSONValue, version: APIVersion = .v4) async throws -> CommandResult {
        let user = try await demo.service.resolveIdentity(token: nil).user
        return try await demo.service.perform(command: "search", payload: payload, apiVersion: version, user: user)
    }

    static func titles(_ result: CommandResult) -> [String] {
        guard case .screen(let screen) = result.outcome else { return [] }
        return screen.sections.first { $0.id == "results" }?.components.compactMap { component in
            if case .listRow(let row) = component.content { return row.title }
            return nil
        } ?? []
    }

    @Test("the text from storage finds composers and works; decomposed accents find composed names; the answer keeps the text")
    func finds() async throws {
        try await withDemo { demo, _ in
            let result = try await Self.search(demo, ["storage": ["query": "  mozart "]])
            #expect(Self.titles(result).first == "Wolfgang Amadeus Mozart")
            guard case .screen(let screen) = result.outcome else { return }
            #expect(screen.storage == ["query": "mozart"])
            let decomposed = try await Self.search(demo, ["storage": ["query": "Fre\u{301}de\u{301}ric"]])
            #expect(Self.titles(decomposed).contains("Frédéric Chopin"), "\(Self.titles(decomposed))")
            let literal = try await Self.search(demo, ["storage": ["query": "100%_\\"]])
            #expect(Self.titles(literal).isEmpty, "wildcards match themselves")
        }
    }

    @Test("without the text, an older app is asked for it; with it under `query`, it searches")
    func olderApps() async throws {
        try await withDemo { demo, _ in
            guard case .prompt(let prompt) = try await Self.search(demo, [:], version: .v3).outcome else {
                Issue.record("expected a prompt")
                return
            }
            #expect(prompt.field.name == "query")
            #expect(Self.titles(try await Self.search(demo, ["query": "bach"], version: .v3)).contains("Johann Sebastian Bach"))
        }
    }

    @Test(
        "bad text or storage is a 422 naming the member, for every command",
        arguments: [
            ("search", #"{"query":5}"#, "$.query"),
            ("search", #"{"storage":{"query":"a"}}"#, "$.storage.query"),
            ("search", #"{"storage":{"query":" \u00a0 "}}"#, "$.storage.query"),
            ("favorites/add", #"{"playlistId":1,"storage":"bad"}"#, "$.storage"),
            ("favorites/add", #"{"playlistId":1,"storage":{"other":5}}"#, "$.storage.other"),
            ("favorites/add", #"{"playlistId":1,"storage":{"has space":"x"}}"#, "$.storage"),
            ("playlists/create", #"{"name":"x","storage":{"k":"\#(String(repeating: "x", count: 4_097))"}}"#, "$.storage.k"),
        ])
    func refused(command: String, body: String, path: String) async throws {
        try await withDemo { demo, _ in
            let user = try await demo.service.resolveIdentity(token: nil).user
            let payload = try JSONDecoder().decode(JSONValue.self, from: Data(body.utf8))
            do {
                _ = try await demo.service.perform(command: command, payload: payload, apiVersion: .v4, user: user)
                Issue.record("\(command) \(body.prefix(60)) should be refused")
            } catch let error as ScreenplayError {
                #expect(error.status == .unprocessableContent)
                #expect(error.path == path, "\(error)")
            }
        }
    }

    @Test("the server applies the rule the text field publishes: the client's verdict and the server's agree")
    func sameRule() async throws {
        try await withDemo { demo, _ in
            let screen = try await demo.service.screen(path: "search", apiVersion: .v4, user: .init(id: 1))
            guard case .textField(let field) = screen.allComponents.first(where: { $0.id == "search-field" })?.content else {
                Issue.record("no search field")
                return
            }
            for text in ["ab", "a", "  a  ", "a b", "é́", "\u{301}\u{301}", "ü ü", "\t", "mozart"] {
                let clientAccepts = TextInput.validate(text, against: field.validation) == .valid
                var serverAccepts = true
                do {
                    _ = try await Self.search(demo, ["storage": ["query": .string(text)]])
                } catch let error as ScreenplayError {
                    serverAccepts = error.status != .unprocessableContent
                }
                #expect(clientAccepts == serverAccepts, "\(text.debugDescription): client \(clientAccepts), server \(serverAccepts)")
            }
        }
    }
}

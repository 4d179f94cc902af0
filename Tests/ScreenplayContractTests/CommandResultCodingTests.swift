import Foundation
import ScreenplayContract
import Testing

/// One command-result kind with the exact members it has on the wire.
struct CommandResultSample: Sendable, CustomTestStringConvertible {
    let kind: String
    let value: CommandResult
    let keys: Set<String>

    var testDescription: String { "\(kind) \(keys.sorted())" }

    static let submit = Action.Command(url: "commands/playlists/create", payload: ["source": "menu"])

    static let all: [CommandResultSample] = [
        CommandResultSample(
            kind: "done", value: .done(.init(message: "Added to favorites", refresh: true)), keys: ["type", "message", "refresh"]),
        CommandResultSample(kind: "done", value: .done(.init()), keys: ["type", "refresh"]),
        CommandResultSample(
            kind: "screen",
            value: .screen(
                Screen(
                    id: "playlist/9", title: "My list", sections: [ScreenSection(id: "tracks", components: [.trackRow(.init(title: "A"))])])
            ),
            keys: ["type", "screen"]),
        CommandResultSample(
            kind: "choice",
            value: .choice(
                .init(
                    title: "Add to playlist", message: "Pick one",
                    options: [
                        .init(
                            title: "Road trip", subtitle: "12 tracks",
                            command: .init(url: "commands/playlists/add", payload: ["playlist": 1])),
                        .init(title: "New…", command: .init(url: "commands/playlists/new")),
                    ])),
            keys: ["type", "title", "message", "options"]),
        CommandResultSample(
            kind: "choice", value: .choice(.init(title: "Add to playlist", options: [])), keys: ["type", "title", "options"]),
        CommandResultSample(
            kind: "prompt",
            value: .prompt(
                .init(
                    title: "New playlist", message: "Give it a name",
                    field: .init(name: "name", placeholder: "Name", initialValue: "Untitled", maxLength: 40), submitTitle: "Create",
                    submit: submit)),
            keys: ["type", "title", "message", "field", "submitTitle", "submit"]),
        CommandResultSample(
            kind: "prompt",
            value: .prompt(.init(title: "New playlist", field: .init(name: "name"), submitTitle: "Create", submit: submit)),
            keys: ["type", "title", "field", "submitTitle", "submit"]),
        CommandResultSample(
            kind: "navigate", value: .navigate(.init(url: "screens/playlist/9", presentation: .push)),
            keys: ["type", "url", "presentation"]),
        CommandResultSample(kind: "error", value: .error(.init(message: "That playlist is gone")), keys: ["type", "message"]),
    ]
}

@Suite("Command result coding")
struct CommandResultCodingTests {
    @Test("The samples cover every known result kind")
    func samplesCoverCatalog() {
        #expect(Set(CommandResultSample.all.map(\.kind)) == Set(CommandResult.knownKinds))
        #expect(CommandResultSample.all.allSatisfy { $0.value.kind == $0.kind })
    }

    @Test("Every result survives encode and decode", arguments: CommandResultSample.all)
    func roundTrip(sample: CommandResultSample) throws {
        #expect(try Fixture.roundTrip(sample.value) == sample.value)
    }

    @Test("`type` names the kind; fields are flattened and nil ones omitted", arguments: CommandResultSample.all)
    func wireShape(sample: CommandResultSample) throws {
        let object = try Fixture.wireObject(sample.value)
        #expect(object["type"] as? String == sample.kind)
        #expect(Set(object.keys) == sample.keys)
    }

    @Test("A replacement screen sits under `screen`, not flattened")
    func screenNested() throws {
        let sample = try #require(CommandResultSample.all.first { $0.kind == "screen" })
        let object = try Fixture.wireObject(sample.value)
        let screen = try #require(object["screen"] as? [String: Any])
        #expect(screen["id"] as? String == "playlist/9")
        #expect(object["id"] == nil)
    }

    @Test("A prompt field omits its nil placeholder, initial value and limit")
    func promptFieldOmitsNil() throws {
        let minimal = try #require(CommandResultSample.all.last { $0.kind == "prompt" })
        let field = try #require(try Fixture.wireObject(minimal.value)["field"] as? [String: Any])
        #expect(Set(field.keys) == ["name"])
    }

    @Test("A prompt field's required message (v6) is written for v6 and read back; v5 neither writes nor reads it; a long one is refused at its path")
    func promptRequiredMessage() throws {
        let prompt = CommandResult.prompt(
            .init(
                title: "New playlist", field: .init(name: "name", maxLength: 100, requiredMessage: "Name the playlist"),
                submitTitle: "Create", submit: .init(url: "commands/playlists/create")))
        let v6 = try ScreenplayEncoder(apiVersion: .v6).encode(prompt)
        #expect(String(decoding: v6, as: UTF8.self).contains(#""requiredMessage":"Name the playlist""#))
        #expect(try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(CommandResult.self, from: v6).value == prompt)
        let v5 = try ScreenplayEncoder(apiVersion: .v5).encode(prompt)
        #expect(!String(decoding: v5, as: UTF8.self).contains("requiredMessage"))
        let readByV5 = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(CommandResult.self, from: v6).value
        guard case .prompt(let read) = readByV5.outcome else {
            Issue.record("not a prompt")
            return
        }
        #expect(read.field.requiredMessage == nil, "a v5 client does not know the member")
        let long = #"{"type":"prompt","title":"T","submitTitle":"OK","submit":{"url":"commands/x"},"field":{"name":"n","requiredMessage":""#
            + String(repeating: "x", count: 201) + #""}}"#
        #expect {
            try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(CommandResult.self, from: Data(long.utf8))
        } throws: { error in
            "\(error)".contains("requiredMessage")
        }
    }

    @Test("`done` without `refresh` decodes as no refresh")
    func doneDefaultsRefresh() throws {
        let decoded = try ScreenplayDecoder(mode: .strict).decode(CommandResult.self, from: Data(#"{"type":"done"}"#.utf8))
        #expect(decoded.value == .done(.init(message: nil, refresh: false)))
    }

    @Test("A bad option is skipped, the others kept in order")
    func lossyOptions() throws {
        let json = #"""
            {"type":"choice","title":"Pick","options":[
              {"title":"A","command":{"url":"commands/a"}},
              {"title":"B","command":{"url":"javascript:alert(1)"}},
              {"title":"C","command":{"url":"commands/c"}}
            ]}
            """#
        let decoded = try ScreenplayDecoder().decode(CommandResult.self, from: Data(json.utf8))
        guard case .choice(let choice) = decoded.value.outcome else {
            Issue.record("expected a choice, got \(decoded.value)")
            return
        }
        #expect(choice.options.map(\.title) == ["A", "C"])
        #expect(decoded.issues.count == 1)
        #expect(decoded.issues.first?.path == "$.options[1].command.url")
        #expect(decoded.issues.first?.message.contains("'javascript'") == true)
    }

    @Test("An unknown result is kept with its JSON and reported")
    func unknownKept() throws {
        let json = #"{"confetti":true,"type":"celebrate"}"#
        let decoded = try ScreenplayDecoder().decode(CommandResult.self, from: Data(json.utf8))
        #expect(decoded.value == .unknown(type: "celebrate", json: ["type": "celebrate", "confetti": true]))
        #expect(decoded.value.kind == "celebrate")
        #expect(decoded.issues == [DecodingIssue(kind: .unknownKind, path: "$", message: "unknown command result type 'celebrate'")])
        #expect(try ScreenplayEncoder().encode(decoded.value).utf8Text == json)
    }

    @Test("The error body nests code, message and path under `error`")
    func errorBody() throws {
        let body = ErrorBody(code: "notFound", message: "No playlist 9", path: "$.playlistId")
        #expect(
            try ScreenplayEncoder().encode(body).utf8Text
                == #"{"error":{"code":"notFound","message":"No playlist 9","path":"$.playlistId"}}"#)
        #expect(try ScreenplayEncoder().encode(ErrorBody(code: "x", message: "y")).utf8Text == #"{"error":{"code":"x","message":"y"}}"#)
        #expect(try Fixture.roundTrip(body) == body)
    }
}

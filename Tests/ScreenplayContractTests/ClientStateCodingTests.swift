import Foundation
import ScreenplayContract
import Testing

/// v6 on the wire: a screen's `state`, a component's `compute`, the `set` and `sequence` actions;
/// what is checked when a screen is decoded, and what each bad piece costs (only itself).
@Suite("Client state on the wire (v6)")
struct ClientStateCodingTests {
    /// A screen of `components` declaring `state` (raw JSON members).
    static func screenJSON(state: String = #"{"expanded": {"type": "bool", "initial": false}, "query": {"type": "string", "initial": ""}}"#, _ components: String...) -> Data {
        Data(#"{"id": "s", "title": "S", "state": \#(state), "sections": [{"id": "main", "components": [\#(components.joined(separator: ","))]}]}"#.utf8)
    }

    static func decode(_ data: Data, version: APIVersion = .v6, mode: DecodingMode = .lossy) throws -> Decoded<Screen> {
        try ScreenplayDecoder(mode: mode, apiVersion: version).decode(Screen.self, from: data)
    }

    static func issue(at path: String, in decoded: Decoded<Screen>) -> DecodingIssue? {
        decoded.issues.first { $0.path == path }
    }

    static let sample = Screen(
        id: "work/1", title: "Requiem",
        sections: [
            ScreenSection(
                id: "main",
                components: [
                    Component.text(.init("Biography…")).id("bio").computing(.visible, "expanded"),
                    Component.button(.init(title: "More", action: .set(.init(variable: "expanded", value: "!expanded")))).id("more")
                        .computing(.text, "expanded ? 'Less' : 'More'"),
                    Component.button(
                        .init(
                            title: "Save",
                            action: .sequence(.init([.set(.init(variable: "saved", value: "true")), .command(.init(url: "commands/save"))]))
                    )).id("save").computing(.enabled, "!saved"),
                ])
        ],
        state: [
            "expanded": try! StateVariable(.bool, initial: .bool(false)),
            "saved": try! StateVariable(.bool, initial: .bool(false)),
            "resumeAt": try! StateVariable(.number, initial: .number(0), scope: .app),
        ])

    @Test("a v6 screen with state, bindings and local actions survives encode and decode; v5 writes none of them")
    func roundTrip() throws {
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(Self.sample)
        let decoded = try Self.decode(data, mode: .strict)
        #expect(decoded.value == Self.sample)
        #expect(decoded.issues.isEmpty)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let state = try #require(json["state"] as? [String: [String: Any]])
        #expect(state["resumeAt"]?["scope"] as? String == "app")
        #expect(state["expanded"]?["scope"] == nil, "the default scope is not written")

        let old = String(decoding: try ScreenplayEncoder(apiVersion: .v5).encode(Self.sample), as: UTF8.self)
        #expect(!old.contains("\"state\"") && !old.contains("\"compute\""))
        // A v5 reader of a v6 body: state and compute are unknown members (ignored), `set` is an
        // unknown action kind (kept aside, never performed).
        let asV5 = try Self.decode(data, version: .v5)
        #expect(asV5.value.state.isEmpty && asV5.value.allComponents.allSatisfy { $0.attributes.compute.isEmpty })
        #expect(asV5.issues.map(\.message).contains("unknown action type 'set'"))
    }

    @Test("a bad declaration is reported at its path and left out; the others stay")
    func badDeclarations() throws {
        let state = #"""
            {"ok": {"type": "int", "initial": 3}, "badType": {"type": "date", "initial": 1},
             "badInitial": {"type": "int", "initial": 1.5}, "player": {"type": "bool", "initial": true},
             "1x": {"type": "bool", "initial": true}, "later": {"type": "string", "initial": "", "scope": "session"},
             "list": {"type": {"array": {"record": {"id": "int"}}}, "initial": [{"id": 1}, {"id": 2}]}}
            """#
        let decoded = try Self.decode(Self.screenJSON(state: state))
        #expect(decoded.value.state.keys.sorted() == ["later", "list", "ok"])
        #expect(decoded.value.state["later"]?.scope == .screen, "an unknown scope is read as screen")
        #expect(decoded.value.state["list"]?.initial == .array([.record(["id": .int(1)]), .record(["id": .int(2)])]))
        #expect(Self.issue(at: "$.state.badType.type", in: decoded)?.message.contains("'type' is \"date\"") == true)
        #expect(Self.issue(at: "$.state.badInitial.initial", in: decoded)?.message.contains("not a value of type int") == true)
        #expect(Self.issue(at: "$.state.player", in: decoded)?.message.contains("client variable") == true)
        #expect(Self.issue(at: "$.state.1x", in: decoded)?.message.contains("not a variable name") == true)
        #expect(Self.issue(at: "$.state.later.scope", in: decoded)?.kind == .unknownValue)
        #expect(decoded.issues.count == 5, "\(decoded.issues)")
    }

    @Test("more variables than the limit: the state is refused whole, the screen still shows")
    func tooManyVariables() throws {
        let members = (0...ClientState.maximumVariables).map { #""v\#($0)": {"type": "int", "initial": 0}"# }.joined(separator: ",")
        let decoded = try Self.decode(Self.screenJSON(state: "{\(members)}", #"{"type": "text", "text": "still here"}"#))
        #expect(decoded.value.state.isEmpty)
        #expect(decoded.value.allComponents.count == 1)
        #expect(Self.issue(at: "$.state", in: decoded)?.message.contains("the limit is \(ClientState.maximumVariables)") == true)
    }

    @Test("a binding that does not check keeps the static value, and the issue names its JSON path and the reason")
    func badBindings() throws {
        let decoded = try Self.decode(
            Self.screenJSON(
                #"{"type": "text", "text": "A", "id": "a", "compute": {"visible": "expandd", "text": "query + '!'", "selected": "query"}}"#,
                #"{"type": "text", "text": "B", "id": "b", "compute": {"text": "len(", "enabled": "expanded", "glow": "true"}}"#,
                #"{"type": "text", "text": "C", "compute": {"visible": "expanded"}}"#,
                #"{"type": "text", "text": "D", "id": "d", "compute": {"text": 7}}"#))
        let components = decoded.value.allComponents
        #expect(components.map(\.attributes.compute) == [[.text: "query + '!'"], [.enabled: "expanded"], [:], [:]])
        let base = "$.sections[0].components"
        #expect(Self.issue(at: "\(base)[0].compute.visible", in: decoded)?.message.contains("no variable 'expandd'") == true)
        #expect(Self.issue(at: "\(base)[0].compute.selected", in: decoded)?.message.contains("expected a bool") == true)
        #expect(Self.issue(at: "\(base)[1].compute.text", in: decoded)?.message.contains("syntax error") == true)
        #expect(Self.issue(at: "\(base)[1].compute.glow", in: decoded)?.kind == .unknownValue)
        #expect(Self.issue(at: "\(base)[2].compute", in: decoded)?.message.contains("needs the component's 'id'") == true)
        #expect(Self.issue(at: "\(base)[3].compute.text", in: decoded) != nil)
        #expect(decoded.issues.count == 6, "\(decoded.issues)")
        // Strict decoding (contract tests) fails at the first bad binding instead.
        #expect(throws: ScreenplayDecodingError.self) { try Self.decode(Self.screenJSON(#"{"type": "text", "text": "A", "id": "a", "compute": {"visible": "nope"}}"#), mode: .strict) }
    }

    @Test("hostile expressions are refused by their limits, never by a crash")
    func hostileExpressions() throws {
        let long = String(repeating: "expanded || ", count: 400) + "expanded"
        let deep = String(repeating: "(", count: 100) + "true" + String(repeating: ")", count: 100)
        let decoded = try Self.decode(
            Self.screenJSON(
                #"{"type": "text", "text": "A", "id": "a", "compute": {"visible": "\#(long)"}}"#,
                #"{"type": "text", "text": "B", "id": "b", "compute": {"visible": "\#(deep)"}}"#))
        #expect(decoded.value.allComponents.allSatisfy { $0.attributes.compute.isEmpty })
        #expect(decoded.issues.count == 2)
        #expect(decoded.issues.allSatisfy { $0.message.contains("syntax error") }, "\(decoded.issues)")
    }

    @Test("a set of an undeclared variable, a client variable or a value of another type fails its action where it stands")
    func badSets() throws {
        func button(_ variable: String, _ value: String) -> String {
            #"{"type": "button", "title": "T", "action": {"type": "set", "variable": "\#(variable)", "value": "\#(value)"}}"#
        }
        let state = #"{"expanded": {"type": "bool", "initial": false}, "at": {"type": "number", "initial": 0}}"#
        let decoded = try Self.decode(
            Self.screenJSON(
                state: state, button("expanded", "!expanded"), button("missing", "true"), button("player", "player"),
                button("expanded", "'yes'"), button("at", "1"), button("at", "at + 0.5")))
        #expect(decoded.value.allComponents.count == 3, "the three good buttons stay")
        let base = "$.sections[0].components"
        #expect(Self.issue(at: "\(base)[1].action.variable", in: decoded)?.message.contains("does not declare") == true)
        #expect(Self.issue(at: "\(base)[2].action.variable", in: decoded) != nil)
        #expect(Self.issue(at: "\(base)[3].action.value", in: decoded)?.message.contains("expected a bool") == true)
        #expect(decoded.issues.count == 3, "\(decoded.issues)")
    }

    @Test("a sequence holds one to 16 steps, each checked like any action")
    func sequences() throws {
        func sequence(_ steps: [String]) -> String {
            #"{"type": "button", "title": "T", "action": {"type": "sequence", "actions": [\#(steps.joined(separator: ","))]}}"#
        }
        let set = #"{"type": "set", "variable": "expanded", "value": "true"}"#
        let command = #"{"type": "command", "url": "commands/x"}"#
        let decoded = try Self.decode(
            Self.screenJSON(
                sequence([set, command]), sequence([]), sequence(Array(repeating: set, count: 17)),
                sequence([#"{"type": "set", "variable": "expanded", "value": "1"}"#, command]), sequence(Array(repeating: set, count: 16))))
        #expect(decoded.value.allComponents.count == 2)
        #expect(decoded.issues.map(\.path).sorted() == [
            "$.sections[0].components[1].action.actions", "$.sections[0].components[2].action.actions",
            "$.sections[0].components[3].action.actions[0].value",
        ])
        guard case .button(let first) = decoded.value.allComponents.first?.content else {
            Issue.record("the good sequence was lost")
            return
        }
        #expect(first.action.isLocal == false)
        #expect(Action.sequence(.init([.set(.init(variable: "a", value: "1"))])).isLocal)
    }

    @Test("a command result's screen is checked against its own state; a set among effects is checked for syntax only")
    func nestedScopes() throws {
        let json = #"""
            {"type": "screen", "screen": {"id": "r", "title": "R", "state": {"n": {"type": "int", "initial": 1}},
             "sections": [{"id": "m", "components": [{"type": "text", "text": "x", "id": "t", "compute": {"text": "string(n)"}}]}]},
             "effects": [{"type": "set", "variable": "anything", "value": "1 +"}]}
            """#
        let decoded = try ScreenplayDecoder(apiVersion: .v6).decode(CommandResult.self, from: Data(json.utf8))
        guard case .screen(let screen) = decoded.value.outcome else {
            Issue.record("not a screen")
            return
        }
        #expect(screen.allComponents.first?.attributes.compute == [.text: "string(n)"])
        #expect(decoded.value.updates.effects.isEmpty)
        #expect(decoded.issues.map(\.path) == ["$.effects[0].value"], "\(decoded.issues)")
    }

    @Test("a fresh screen's values: bindings evaluated with the initial state and the client's defaults, applied as each property says")
    func evaluatingBindings() throws {
        let screen = Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(
                    id: "main",
                    components: [
                        Component.text(.init("hidden when collapsed")).id("a").computing(.visible, "expanded"),
                        Component.text(.init("static")).id("b").computing(.text, "'Count: ' + string(count)").computing(.style, "'accent'"),
                        Component.button(.init(title: "Go", action: .command(.init(url: "commands/go")))).id("c")
                            .computing(.style, "count > 1 ? 'primary' : 'nonsense'"),
                        Component.listRow(.init(title: "row")).id("d").computing(.text, "player.playing ? 'Playing' : 'Stopped'"),
                        Component.verticalStack(.init(children: [Component.text(.init("inner")).id("e").computing(.text, "upper('x')")])),
                        Component.text(.init("kept")).id("f").computing(.text, "string(10 / (count - 2))"),
                    ])
            ],
            state: ["expanded": try StateVariable(.bool, initial: .bool(false)), "count": try StateVariable(.int, initial: .int(2))])
        let fresh = screen.evaluatingBindings()
        #expect(fresh.state.isEmpty)
        #expect(fresh.allComponents.allSatisfy { $0.attributes.compute.isEmpty })
        let texts = fresh.allComponents.map { component -> String in
            switch component.content {
            case .text(let text): "\(text.text)|\(text.color == .token(.accent) ? "accent" : "-")"
            case .button(let button): "\(button.title)|\(button.style.map(\.rawValue) ?? "-")"
            case .listRow(let row): row.title
            default: component.kind.rawValue
            }
        }
        // `a` hidden; `f` divides by zero at runtime and keeps its static text.
        #expect(texts == ["Count: 2|accent", "Go|primary", "Stopped", "verticalStack", "X|-", "kept|-"])
    }
}

import ScreenplayClient
import ScreenplayContract
import Testing

/// v6 state in the navigation state machine: one engine per shown screen, local `set`s, the
/// client's variables, app-scoped values shared by screens; the resolved tree shows the results.
@Suite("Client state (v6) in the navigation state machine")
struct NavigatorClientStateTests {
    static func work(_ id: String, resumeType: ExpressionType = .number) throws -> Screen {
        Screen(
            id: id, title: id,
            sections: [
                ScreenSection(
                    id: "main",
                    components: [
                        Component.text(.init("Biography")).id("bio").computing(.visible, "expanded"),
                        Component.button(.init(title: "More", action: .set(.init(variable: "expanded", value: "!expanded")))).id("more")
                            .computing(.text, "expanded ? 'Less' : 'More'"),
                        Component.trackRow(.init(title: "I. Introitus")).id("t1").computing(.selected, "player.trackID == 't1'"),
                        Component.button(.init(title: "Save", action: .command(.init(url: "commands/save")))).id("save")
                            .computing(.enabled, "resumeAt > 0"),
                    ])
            ],
            state: [
                "expanded": try StateVariable(.bool, initial: .bool(false)),
                "resumeAt": try StateVariable(resumeType, initial: resumeType == .number ? .number(0) : .string(""), scope: .app),
            ])
    }

    static func node(_ id: String, in machine: NavigationStateMachine) -> ViewNode? {
        guard let entry = machine.top else { return nil }
        func find(_ node: ViewNode) -> ViewNode? { node.id.rawValue == "id:" + id ? node : node.children.lazy.compactMap(find).first }
        return find(ViewTreeResolver().resolve(entry).root)
    }

    @Test("a set changes the state, and the tree shows what its bindings now compute; a bad one changes nothing")
    func localSet() throws {
        var machine = ClientStateTests.machine([try Self.work("w1")])
        #expect(Self.node("bio", in: machine) == nil, "hidden while collapsed")
        #expect(Self.node("more", in: machine)?.text == "More")
        try machine.perform(.init(variable: "expanded", value: "!expanded"))
        #expect(Self.node("bio", in: machine)?.text == "Biography")
        #expect(Self.node("more", in: machine)?.text == "Less")
        #expect(throws: NavigationStateMachine.LocalActionError.self) { try machine.perform(.init(variable: "expanded", value: "1 +")) }
        #expect(throws: NavigationStateMachine.LocalActionError.self) { try machine.perform(.init(variable: "nope", value: "true")) }
        #expect(machine.top?.bindings?.values["expanded"] == .bool(true))
    }

    @Test("the player's track marks its row selected; a value of the wrong type is ignored")
    func clientVariables() throws {
        var machine = ClientStateTests.machine([try Self.work("w1")])
        #expect(Self.node("t1", in: machine)?.accessibility.traits.contains(.selected) == false)
        machine.updateClient([
            "player": .record(["trackID": .string("t1"), "playing": .bool(true), "position": .number(3), "title": .string("I")])
        ])
        #expect(Self.node("t1", in: machine)?.accessibility.traits.contains(.selected) == true)
        machine.updateClient(["player": .string("t1")])
        #expect(Self.node("t1", in: machine)?.accessibility.traits.contains(.selected) == true)
        #expect(Self.node("save", in: machine)?.action?.isEnabled == false, "enabled computes false: resumeAt is 0")
        #expect(Self.node("save", in: machine)?.accessibility.traits.contains(.disabled) == true)
    }

    @Test("app-scoped values reach every screen that declares them (of the same type); screen values survive a reload only")
    func scopes() throws {
        var machine = ClientStateTests.machine([try Self.work("w1")])
        try machine.perform(.init(variable: "resumeAt", value: "125"))
        try machine.perform(.init(variable: "expanded", value: "true"))
        #expect(machine.appValues == ["resumeAt": .number(125)])
        // A second screen starts from the app value, with its own screen state fresh.
        guard case .load(let entry, _, let generation) = machine.navigate(.init(url: "screens/w2")) else {
            Issue.record("no load")
            return
        }
        _ = machine.loaded(entry: entry, generation: generation, result: ClientStateTests.load(try Self.work("w2")))
        #expect(machine.top?.bindings?.values["resumeAt"] == .number(125))
        #expect(machine.top?.bindings?.values["expanded"] == .bool(false))
        #expect(Self.node("save", in: machine)?.action?.isEnabled == true)
        // A set on the second screen reaches the first one too.
        try machine.perform(.init(variable: "resumeAt", value: "7"))
        #expect(machine.entries[0].bindings?.values["resumeAt"] == .number(7))
        // A new copy of the first screen (a reload) keeps `expanded`; one that changes a type starts fresh.
        _ = machine.pop()
        guard case .load(let first, _, let again) = machine.refresh() else {
            Issue.record("no reload")
            return
        }
        _ = machine.loaded(entry: first, generation: again, result: ClientStateTests.load(try Self.work("w1"), etag: "\"2\""))
        #expect(machine.top?.bindings?.values["expanded"] == .bool(true))
        #expect(machine.top?.bindings?.values["resumeAt"] == .number(7))
        var fresh = NavigationStateMachine()
        fresh.restore(appValues: ["resumeAt": .string("not a number")])
        guard case .load(let e, _, let g) = fresh.start(at: "screens/w1", header: nil) else { return }
        _ = fresh.loaded(entry: e, generation: g, result: ClientStateTests.load(try Self.work("w1")))
        #expect(fresh.top?.bindings?.values["resumeAt"] == .number(0), "a kept value of the wrong type is dropped for the initial one")
    }

    @Test("a screen without state has no engine, and resolves as before")
    func noState() {
        let machine = ClientStateTests.machine([Screen(id: "plain", title: "Plain", sections: [])])
        #expect(machine.top?.bindings == nil)
    }
}

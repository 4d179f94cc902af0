import ScreenplayClient
import ScreenplayContract
import Testing

/// The state of a shown screen: bindings compiled once, re-evaluated only when what they read
/// changes, falling back to the static value whenever they cannot say.
@Suite("Binding engine")
struct BindingEngineTests {
    typealias Key = BindingEngine.Key

    static func engine(kept: [String: ExpressionValue] = [:], client: [String: ExpressionValue] = [:]) throws -> BindingEngine {
        let state: [String: StateVariable] = [
            "expanded": try StateVariable(.bool, initial: .bool(false)),
            "count": try StateVariable(.int, initial: .int(0)),
            "query": try StateVariable(.string, initial: .string("")),
            "resumeAt": try StateVariable(.number, initial: .number(0), scope: .app),
        ]
        var bindings: [Key: String] = [
            Key("bio", .visible): "expanded",
            Key("more", .text): "expanded ? 'Show less' : 'Show more'",
            Key("average", .text): "string(100 / count)",
            Key("resume", .text): "'Resume at ${formatDuration(resumeAt)}'",
            Key("wrongType", .visible): "query",
            Key("unknown", .enabled): "isReady",
            Key("broken", .text): "'unterminated",
        ]
        for row in 1...3 { bindings[Key("row\(row)", .selected)] = "player.trackID == 't\(row)' && player.playing" }
        return BindingEngine(state: state, bindings: bindings, kept: kept, client: client)
    }

    static func player(_ track: String, playing: Bool = true) -> ExpressionValue {
        .record(["trackID": .string(track), "playing": .bool(playing), "position": .number(12), "title": .string("Adagio")])
    }

    @Test("results come from the initial state; a change returns exactly the bindings whose value changed")
    func changes() throws {
        var engine = try Self.engine()
        #expect(engine.results[Key("bio", .visible)] == .bool(false))
        #expect(engine.results[Key("more", .text)] == .string("Show more"))
        #expect((1...3).allSatisfy { engine.results[Key("row\($0)", .selected)] == .bool(false) })
        #expect(try engine.set("player", to: Self.player("t2")) == [Key("row2", .selected)])
        #expect(try engine.set("player", to: Self.player("t3")) == [Key("row2", .selected), Key("row3", .selected)])
        #expect(try engine.set("player", to: Self.player("t3", playing: false)) == [Key("row3", .selected)])
        #expect(try engine.set("player", to: Self.player("t3", playing: false)) == [], "the same value changes nothing")
        #expect(try engine.set("expanded", to: .bool(true)) == [Key("bio", .visible), Key("more", .text)])
        #expect(engine.results[Key("more", .text)] == .string("Show less"))
    }

    @Test("a binding that cannot compile keeps its static value and says why; one stopped at run time recovers when the state allows")
    func problems() throws {
        var engine = try Self.engine()
        #expect(engine.problems[Key("wrongType", .visible)]?.code == "typeMismatch")
        #expect(engine.problems[Key("unknown", .enabled)]?.code == "unknownVariable")
        #expect(engine.problems[Key("broken", .text)]?.kind == .syntax)
        #expect(engine.results[Key("wrongType", .visible)] == nil && engine.results[Key("broken", .text)] == nil)
        let average = Key("average", .text)
        #expect(engine.problems[average]?.code == "divisionByZero" && engine.results[average] == nil)
        #expect(try engine.set("count", to: .int(4)) == [average])
        #expect(engine.results[average] == .string("25") && engine.problems[average] == nil)
        #expect(try engine.set("count", to: .int(0)) == [average], "losing a result is a change too")
        #expect(engine.results[average] == nil)
    }

    @Test("setting refuses names the screen does not have and values of another type")
    func refusedSets() throws {
        var engine = try Self.engine()
        #expect(throws: ExpressionError.self) { try engine.set("nothing", to: .bool(true)) }
        #expect(throws: ExpressionError.self) { try engine.set("count", to: .string("3")) }
        #expect(throws: ExpressionError.self) { try engine.set("count", to: .int(ExpressionValue.maximumInt + 1)) }
        #expect(engine.values["count"] == .int(0))
    }

    @Test("local actions: set a screen or app variable to an expression of the state; never a client variable")
    func localActions() throws {
        var engine = try Self.engine()
        let toggle = try engine.compile("!expanded")
        #expect(try engine.perform(set: "expanded", to: toggle) == [Key("bio", .visible), Key("more", .text)])
        #expect(try engine.perform(set: "expanded", to: toggle).count == 2)
        #expect(engine.values["expanded"] == .bool(false))
        // An int expression for a number variable is widened.
        #expect(try engine.perform(set: "resumeAt", to: try engine.compile("60 + 7")) == [Key("resume", .text)])
        #expect(engine.values["resumeAt"] == .number(67) && engine.results[Key("resume", .text)] == .string("Resume at 1:07"))
        #expect(throws: ExpressionError.self) { try engine.perform(set: "player", to: try engine.compile("player")) }
        #expect(throws: ExpressionError.self) { try engine.perform(set: "count", to: try engine.compile("'x'")) }
        #expect(throws: ExpressionError.self) { try engine.compile("count +") }
    }

    @Test("no cycle can form: a binding writes no variable, and sets that read each other (or themselves) run once per tap")
    func noCycles() throws {
        var engine = BindingEngine(
            state: ["a": try StateVariable(.int, initial: .int(1)), "b": try StateVariable(.int, initial: .int(1))],
            bindings: [Key("ab", .text): "string(a) + '/' + string(b)"])
        let (a, b, double) = (try engine.compile("b + 1"), try engine.compile("a + 1"), try engine.compile("a * 2"))
        // a = b + 1, then b = a + 1, twice: each tap evaluates its one expression with the values of the moment.
        for (variable, expression, expected) in [("a", a, "2/1"), ("b", b, "2/3"), ("a", a, "4/3"), ("b", b, "4/5")] {
            _ = try engine.perform(set: variable, to: expression)
            #expect(engine.results[Key("ab", .text)] == .string(expected))
        }
        _ = try engine.perform(set: "a", to: double)
        #expect(engine.values["a"] == .int(8), "a set that reads its own variable is evaluated once, with the value before it")
    }

    @Test("variables start from what the client kept (when it is of their type); only app-scoped ones are what it keeps")
    func appScope() throws {
        // The navigator passes app values from its storage, and a screen's own values only over a
        // reload of the same screen (NavigatorClientStateTests); the engine takes what it is given.
        let resumed = try Self.engine(kept: ["resumeAt": .number(125), "count": .int(9)])
        #expect(resumed.values["resumeAt"] == .number(125))
        #expect(resumed.values["count"] == .int(9))
        #expect(try Self.engine().values["count"] == .int(0))
        #expect(resumed.appValues == ["resumeAt": .number(125)])
        #expect(resumed.results[Key("resume", .text)] == .string("Resume at 2:05"))
        let junk = try Self.engine(kept: ["resumeAt": .string("soon")])
        #expect(junk.values["resumeAt"] == .number(0))
    }

    @Test("client variables: defaults until the client says otherwise; a value of the wrong type is ignored; screens cannot declare them")
    func clientVariables() throws {
        let engine = try Self.engine(client: ["player": Self.player("t1"), "platform": .int(3)])
        #expect(engine.results[Key("row1", .selected)] == .bool(true))
        #expect(engine.values["platform"] == ClientVariables.defaults["platform"])
        #expect(!StateVariable.isDeclarable("player") && !StateVariable.isDeclarable("now") && !StateVariable.isDeclarable("true"))
        #expect(!StateVariable.isDeclarable("9lives") && !StateVariable.isDeclarable("with-dash") && StateVariable.isDeclarable("resume_at2"))
        #expect(throws: ContractViolation.self) { try StateVariable(.int, initial: .string("0")) }
        // A declaration under a client variable's name is ignored: the client's value stands.
        let shadowed = BindingEngine(
            state: ["player": try StateVariable(.string, initial: .string("x"))], bindings: [Key("a", .text): "player.title"],
            client: ["player": Self.player("t9")])
        #expect(shadowed.results[Key("a", .text)] == .string("Adagio"))
    }
}

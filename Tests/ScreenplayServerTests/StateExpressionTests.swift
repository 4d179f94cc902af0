import Foundation
import ScreenplayContract
import ScreenplayServer
import Testing

/// The DSL's typed expressions: each writes source the contract's checker gives the Swift type's
/// type, and that evaluates as the Swift reads; literals survive any text.
@Suite("Typed expressions in the DSL (v6)")
struct StateExpressionTests {
    static let expanded = ScreenVariable("expanded", initial: false)
    static let count = ScreenVariable("count", initial: 2)
    static let resumeAt = ScreenVariable("resumeAt", initial: 0.0, scope: .app)
    static let query = ScreenVariable("query", initial: "")
    static let state = StateVariables(declaring: expanded.declaration, count.declaration, resumeAt.declaration, query.declaration)
    static let types = ClientVariables.types(with: state)

    /// The expression checked as the contract checks it, then evaluated with the initial state.
    static func run<Value>(_ expression: StateExpression<Value>) throws -> ExpressionValue {
        let checked = try ScreenExpression(expression.source, types: types)
        #expect(checked.type == Value.expressionType, "\(expression.source) is a \(checked.type)")
        var values = ClientVariables.defaults
        for (name, variable) in state { values[name] = variable.initial }
        return try checked.evaluate(values)
    }

    @Test("operations write source of their Swift type that evaluates as it reads")
    func operations() throws {
        #expect(try Self.run(Self.expanded.then("Less", else: "More")) == .string("More"))
        #expect(try Self.run(!Self.expanded.value && Self.count.value.isMore(than: 1)) == .bool(true))
        #expect(try Self.run(Self.count.value.is(2) || Self.expanded.value) == .bool(true))
        #expect(try Self.run(Self.count.value.isNot(2)) == .bool(false))
        #expect(try Self.run(Self.count.value.plus(-3).isLess(than: 0)) == .bool(true))
        #expect(try Self.run(Self.resumeAt.value.plus(61.9).duration) == .string("1:01"))
        #expect(try Self.run(Self.resumeAt.value.minus(2).formatted(decimals: 1)) == .string("-2.0"))
        #expect(try Self.run(StateExpression("Count: ").appending(Self.count.value.text)) == .string("Count: 2"))
        #expect(try Self.run(StateExpression("Mozart").lowercased.contains(Self.query.value.trimmed)) == .bool(true))
        #expect(try Self.run(Self.query.value.count) == .int(0))
        #expect(try Self.run(ClientValues.trackID.is("t1") && ClientValues.playing) == .bool(false))
        #expect(try Self.run(ClientValues.position.isMore(than: 0.5)) == .bool(false))
        #expect(try Self.run(StateExpression(2.0)) == .number(2))
        #expect(try Self.run(Self.query.value.isAny(of: ["a", "", "it's"])) == .bool(true))
        #expect(try Self.run(ClientValues.trackID.isAny(of: ["31", "32"])) == .bool(false))
        #expect(ClientValues.trackID.isAny(of: []).source == "false", "an empty array literal does not type-check: none is false")
        #expect(try Self.run(ClientValues.runsLocalActions) == .bool(false), "the server's evaluation names no platform")
    }

    @Test("a string literal keeps quotes, backslashes, interpolation marks and line breaks as text")
    func literals() throws {
        for text in ["It's", #"back\slash"#, "${count}", "two\nlines\ttab", "🎵 ünïcode", ""] {
            #expect(try Self.run(StateExpression(text)) == .string(text), "\(text.debugDescription)")
        }
    }

    @Test("variables declare themselves, and actions and components carry the source")
    func declarationsAndModifiers() throws {
        #expect(Self.state["resumeAt"] == (try StateVariable(.number, initial: .number(0), scope: .app)))
        #expect(Self.expanded.toggle() == .set(.init(variable: "expanded", value: "!(expanded)")))
        #expect(Self.count.set(to: 5) == .set(.init(variable: "count", value: "5")))
        let screen = Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(
                    id: "a",
                    components: [
                        Text("Biography").visible(Self.expanded).id("bio"),
                        Button(title: "More", action: Self.expanded.toggle()).text(Self.expanded.then("Less", else: "More")).id("more"),
                        ListRow(title: "Row").selected(ClientValues.trackID.is("t1")).style(StateExpression("accent")).id("row"),
                        Button(title: "Go", action: .command(.init(url: "commands/go"))).enabled(Self.count.value.isMore(than: 0)).id("go"),
                    ])
            ],
            state: Self.state)
        // What the typed DSL writes decodes strictly at v6, every binding checked.
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(screen)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Screen.self, from: data)
        #expect(decoded.value == screen)
        #expect(decoded.value.allComponents.map { $0.attributes.compute.count } == [1, 1, 2, 1])
    }
}

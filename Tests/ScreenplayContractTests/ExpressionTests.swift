import ScreenplayContract
import Testing

/// What the shared cases cannot say: hostile sources, what an expression depends on, where an
/// error points, and reading state from JSON.
@Suite("Expressions")
struct ExpressionTests {
    static let types: [String: ExpressionType] = [
        "n": .int, "name": .string, "player": .record(["trackID": .string, "playing": .bool]),
        "rows": .array(.record(["id": .string])),
    ]

    static func error(_ source: String, types: [String: ExpressionType] = types) -> ExpressionError? {
        do {
            _ = try ScreenExpression(source, types: types)
            return nil
        } catch {
            return error
        }
    }

    @Test("hostile sources are refused by their size or depth at once, without deep recursion")
    func hostile() {
        let megabyte = String(repeating: "1+", count: 500_000) + "1"
        #expect(Self.error(megabyte)?.code == "tooLong")
        #expect(Self.error(String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000))?.code == "tooLong")
        // Within the size limit, as deep as it allows: each refused by its depth.
        for nested in [
            String(repeating: "(", count: 2_000) + "1" + String(repeating: ")", count: 2_000),
            String(repeating: "-", count: 4_000) + "1",
            String(repeating: "!", count: 4_000) + "true",
            String(repeating: "'${", count: 600) + "1" + String(repeating: "}'", count: 600),
            String(repeating: "[", count: 2_000) + "1" + String(repeating: "]", count: 2_000),
            String(repeating: "len(", count: 500) + "'x'" + String(repeating: ")", count: 500),
            String(repeating: "true ? ", count: 300) + "1" + String(repeating: " : 2", count: 300),
            String(repeating: "rows[", count: 500) + "0" + String(repeating: "]", count: 500),
        ] {
            #expect(nested.utf8.count <= ScreenExpression.maximumBytes)
            #expect(Self.error(nested)?.code == "tooDeep", "\(nested.prefix(20))…")
        }
        // 64 levels is the limit: 63 groups around a literal pass, 64 do not.
        #expect(Self.error(String(repeating: "(", count: 63) + "1" + String(repeating: ")", count: 63)) == nil)
        #expect(Self.error(String(repeating: "(", count: 64) + "1" + String(repeating: ")", count: 64))?.code == "tooDeep")
        // A long flat chain is deep too: each `+` is a level.
        #expect(Self.error(Array(repeating: "1", count: 64).joined(separator: "+")) == nil)
        #expect(Self.error(Array(repeating: "1", count: 65).joined(separator: "+"))?.code == "tooDeep")
        // A hostile string is text: its ${ is not evaluated, and no character is special.
        let text = try? ScreenExpression("'<b>' + name + '</b>'", types: Self.types).evaluate(["name": .string("${n} <script>")])
        #expect(text == .string("<b>${n} <script></b>"))
    }

    @Test("an expression knows the variables it reads, and only those")
    func dependencies() throws {
        let playing = try ScreenExpression("player.trackID == rows[0].id && player.playing ? 'on' : '${n}'", types: Self.types)
        #expect(playing.variables == ["player", "rows", "n"])
        #expect(playing.type == .string)
        #expect(try ScreenExpression("len('constant')", types: Self.types).variables.isEmpty)
    }

    @Test("errors say what and where: kind, code, and the offset in code points")
    func errorPlaces() throws {
        let unknown = try #require(Self.error("n + nmae"))
        #expect(unknown.kind == .type && unknown.code == "unknownVariable" && unknown.offset == 4)
        #expect(unknown.description.contains("nmae"))
        let mismatch = try #require(Self.error("'é' + n"))
        #expect(mismatch.code == "typeMismatch" && mismatch.offset == 0 && mismatch.description.contains("string and int"))
        #expect(Self.error("player.volume")?.code == "noField")
        #expect(Self.error("n +")?.code == "unexpectedEnd")
        #expect(Self.error("'🎵' # 1")?.offset == 4, "offsets count code points")
        #expect(Self.error("shout(name)")?.code == "unknownFunction")
        #expect(Self.error("len(n)")?.code == "wrongArguments")
        let zero = try ScreenExpression("10 / n", types: Self.types)
        #expect(throws: ExpressionError.self) { try zero.evaluate(["n": .int(0)]) }
        do {
            _ = try zero.evaluate(["n": .int(0)])
        } catch {
            #expect(error.kind == .runtime && error.code == "divisionByZero")
        }
        #expect(try zero.evaluate(["n": .int(4)]) == .int(2))
    }

    @Test("state is read from JSON only as its declared type: whole ints in range, finite numbers, records with exactly their fields")
    func readingState() {
        #expect(ExpressionValue(json: 3, as: .int) == .int(3))
        #expect(ExpressionValue(json: 3.5, as: .int) == nil)
        #expect(ExpressionValue(json: .integer(9_007_199_254_740_992), as: .int) == nil)
        #expect(ExpressionValue(json: 3, as: .number) == .number(3))
        #expect(ExpressionValue(json: "3", as: .int) == nil)
        #expect(ExpressionValue(json: ["a", "b"], as: .array(.string)) == .array([.string("a"), .string("b")]))
        #expect(ExpressionValue(json: ["a", 1], as: .array(.string)) == nil)
        let record = ExpressionType.record(["id": .string, "n": .int])
        #expect(ExpressionValue(json: ["id": "x", "n": 1], as: record) == .record(["id": .string("x"), "n": .int(1)]))
        #expect(ExpressionValue(json: ["id": "x"], as: record) == nil, "a field missing")
        #expect(ExpressionValue(json: ["id": "x", "n": 1, "extra": true], as: record) == nil, "a field not declared")
        var deep: JSONValue = 1
        var type = ExpressionType.int
        for _ in 0..<40 {
            deep = .array([deep])
            type = .array(type)
        }
        #expect(ExpressionValue(json: deep, as: type) == nil, "nested past the reading depth")
        for type in [ExpressionType.bool, .int, .number, .string, .array(.array(.int)), record, .array(record)] {
            #expect(ExpressionType(json: type.json) == type)
        }
        #expect(ExpressionType(json: "float") == nil && ExpressionType(json: ["array": "int", "record": [:]]) == nil)
    }

    @Test("numbers as text follow JavaScript's Number.prototype.toString")
    func numberText() throws {
        let cases: [(Double, String)] = [
            (0.1 + 0.2, "0.30000000000000004"), (3, "3"), (-0.0, "0"), (1e21, "1e+21"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"), (123_456_789_012_345_680_000, "123456789012345680000"), (2.5, "2.5"), (-1234.5, "-1234.5"),
            (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (100, "100"), (1e20, "100000000000000000000"),
        ]
        for (value, text) in cases {
            #expect(try ScreenExpression("string(v)", types: ["v": .number]).evaluate(["v": .number(value)]) == .string(text), "\(value)")
        }
    }
}

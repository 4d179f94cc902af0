import ScreenplayContract
import Testing

@Suite("JSON paths")
struct JSONPathTests {
    @Test("Names become dotted members and indexes become brackets")
    func plain() {
        let path: [any CodingKey] = [
            AnyCodingKey("sections"), AnyCodingKey(intValue: 2), AnyCodingKey("components"), AnyCodingKey(intValue: 0),
            AnyCodingKey("title"),
        ]
        #expect(JSONPath.render(path) == "$.sections[2].components[0].title")
    }

    @Test("The empty path is the root")
    func root() {
        #expect(JSONPath.render([]) == "$")
    }

    @Test("Names that are not identifiers are quoted in brackets")
    func quoted() {
        #expect(JSONPath.render([AnyCodingKey("my key")]) == #"$["my key"]"#)
        #expect(JSONPath.render([AnyCodingKey("a.b")]) == #"$["a.b"]"#)
        #expect(JSONPath.render([AnyCodingKey("")]) == #"$[""]"#)
        #expect(JSONPath.render([AnyCodingKey(#"say "hi""#)]) == #"$["say \"hi\""]"#)
        #expect(JSONPath.render([AnyCodingKey("snake_case1")]) == "$.snake_case1")
    }

    @Test("A backslash in a quoted name is escaped")
    func backslash() {
        #expect(JSONPath.render([AnyCodingKey(#"x\"#)]) == #"$["x\\"]"#)
    }

    @Test("Index keys carry their index and a readable name")
    func indexKey() {
        let key = AnyCodingKey(intValue: 5)
        #expect(key.intValue == 5)
        #expect(key.stringValue == "Index 5")
        #expect(AnyCodingKey(stringValue: "x").intValue == nil)
    }
}

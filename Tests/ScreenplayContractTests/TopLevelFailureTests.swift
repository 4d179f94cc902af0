import Foundation
import ScreenplayContract
import Testing

@Suite("Top-level failures")
struct TopLevelFailureTests {
    static let valid = #"""
        {"id":"home","title":"Home","sections":[
          {"id":"a","components":[{"type":"text","text":"Hello"},{"type":"spacer","length":8}]}
        ]}
        """#

    @Test("The fixture itself is valid")
    func fixtureValid() throws {
        let decoded = try Fixture.screen(Self.valid, mode: .strict)
        #expect(decoded.value.sections[0].components.count == 2)
    }

    @Test("Missing `sections` names the field and its path", arguments: [DecodingMode.lossy, .strict])
    func missingSections(mode: DecodingMode) {
        let error = #expect(throws: ScreenplayDecodingError.self) {
            try Fixture.screen(#"{"id":"home","title":"Home"}"#, mode: mode)
        }
        #expect(error?.path == "$.sections")
        #expect(error?.message == "missing required field 'sections'")
        #expect(error?.description == "$.sections: missing required field 'sections'")
    }

    @Test(
        "Missing `id` or `title` fails the screen",
        arguments: [("id", #"{"title":"T","sections":[]}"#), ("title", #"{"id":"s","sections":[]}"#)])
    func missingIdentity(field: String, json: String) {
        let error = #expect(throws: ScreenplayDecodingError.self) { try Fixture.screen(json) }
        #expect(error?.path == "$.\(field)")
        #expect(error?.message == "missing required field '\(field)'")
    }

    @Test("`sections` of the wrong type fails the screen even in lossy mode")
    func sectionsWrongType() {
        let error = #expect(throws: ScreenplayDecodingError.self) {
            try Fixture.screen(#"{"id":"s","title":"T","sections":{"id":"a"}}"#)
        }
        #expect(error?.path == "$.sections")
        #expect(error?.message.hasPrefix("expected an array") == true)
    }

    @Test("JSON cut in half reports the line and column where it ends")
    func truncated() throws {
        let data = Data(Self.valid.utf8)
        let half = data.prefix(data.count / 2)
        let error = try #require(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder().decode(Screen.self, from: Data(half))
        }
        #expect(error.path == "$")
        #expect(error.message.contains("line"))
        #expect(error.message.contains("column"))
        let failure = try #require(JSONSyntax.firstError(in: Data(half)))
        #expect(error.message == "malformed JSON at \(failure)")
        #expect(failure.line == 2)
    }

    @Test("A syntax error on a later line points at that line")
    func syntaxErrorLine() throws {
        let json = "{\"id\":\"s\",\n\"title\":\"T\",\n\"sections\": [\n  {\"id\": \"a\" \"components\": []}\n]}"
        let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(json) }
        #expect(error.path == "$")
        #expect(error.message == "malformed JSON at line 4, column 14: unexpected '\"': expected ',' or '}'")
    }

    @Test("Empty data is an empty document")
    func emptyData() throws {
        let error = try #require(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder().decode(Screen.self, from: Data())
        }
        #expect(error.path == "$")
        #expect(error.message == "empty document: expected a JSON value")
    }

    @Test("Whitespace only is an empty document too")
    func whitespaceOnly() throws {
        let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(" \n\t ") }
        #expect(error.path == "$")
        #expect(error.message.contains("empty document"))
    }

    @Test("An array where a screen belongs says it expected an object")
    func arrayAtTop() throws {
        let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(#"[{"id":"s"}]"#) }
        #expect(error.path == "$")
        #expect(error.message.hasPrefix("expected an object"))
    }

    @Test("A string where a screen belongs fails with the root path")
    func stringAtTop() throws {
        let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(#""screen""#) }
        #expect(error.path == "$")
    }
}

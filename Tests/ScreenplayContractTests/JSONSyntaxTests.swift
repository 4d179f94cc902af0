import Foundation
import ScreenplayContract
import Testing

/// A malformed document and exactly where and why it stops being JSON.
struct MalformedDocument: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let line: Int
    let column: Int
    let reason: String

    var testDescription: String { name }
}

@Suite("JSON syntax errors")
struct JSONSyntaxTests {
    static let malformed: [MalformedDocument] = [
        .init(name: "unterminated string", text: #"{"title":"Mozart"#, line: 1, column: 10, reason: "unterminated string"),
        .init(name: "bad escape", text: #"["a\qb"]"#, line: 1, column: 4, reason: #"invalid escape '\q'"#),
        .init(
            name: "short unicode escape", text: #"["\u12G4"]"#, line: 1, column: 3, reason: #"invalid \u escape: expected four hex digits"#),
        .init(name: "trailing comma in array", text: "[1,2,]", line: 1, column: 6, reason: "unexpected ']': expected a value"),
        .init(
            name: "trailing comma in object", text: #"{"a":1,}"#, line: 1, column: 8,
            reason: "unexpected '}': expected a member name in double quotes"),
        .init(name: "missing colon", text: #"{"a" 1}"#, line: 1, column: 6, reason: "unexpected '1': expected ':' after the member name"),
        .init(name: "garbage after the end", text: "{} x", line: 1, column: 4, reason: "unexpected 'x' after the end of the document"),
        .init(name: "leading zero", text: "[01]", line: 1, column: 3, reason: "unexpected '1': expected ',' or ']'"),
        .init(name: "leading zero at top level", text: "007", line: 1, column: 2, reason: "unexpected '0' after the end of the document"),
        .init(name: "unquoted key", text: "{a:1}", line: 1, column: 2, reason: "unexpected 'a': expected a member name in double quotes"),
        .init(name: "single quotes", text: "['a']", line: 1, column: 2, reason: "unexpected ''': expected a value"),
        .init(name: "truncated literal", text: "[tru", line: 1, column: 5, reason: "unexpected end of input: expected 'true'"),
        .init(name: "misspelled literal", text: "nul1", line: 1, column: 4, reason: "unexpected '1': expected 'null'"),
        .init(name: "lone minus", text: "-", line: 1, column: 2, reason: "unexpected end of input: expected a digit"),
        .init(name: "no digit after point", text: "[1.]", line: 1, column: 4, reason: "unexpected ']': expected a digit after '.'"),
        .init(name: "empty exponent", text: "1e+", line: 1, column: 4, reason: "unexpected end of input: expected a digit in the exponent"),
        .init(
            name: "raw control character in a string", text: "\"a\u{01}b\"", line: 1, column: 3,
            reason: "control character in a string (escape it)"),
        .init(name: "raw newline in a string", text: "[\"a\nb\"]", line: 1, column: 4, reason: "control character in a string (escape it)"),
        .init(name: "mismatched close", text: "\n\n  [1,\n  }", line: 4, column: 3, reason: "unexpected '}': expected a value"),
        .init(name: "unclosed object", text: "{\"a\":[1,2]", line: 1, column: 11, reason: "unexpected end of input: expected ',' or '}'"),
        .init(
            name: "unclosed array on line 3", text: "[\n1,\n2", line: 3, column: 2, reason: "unexpected end of input: expected ',' or ']'"),
        .init(name: "empty document", text: "", line: 1, column: 1, reason: "empty document: expected a JSON value"),
        .init(
            name: "non-ASCII byte shown as hex", text: "[\u{00E9}]", line: 1, column: 2, reason: "unexpected byte 0xc3: expected a value"),
    ]

    @Test("Reports the exact line, column and reason", arguments: malformed)
    func exactPosition(document: MalformedDocument) throws {
        let failure = try #require(JSONSyntax.firstError(in: Data(document.text.utf8)))
        #expect(failure.line == document.line)
        #expect(failure.column == document.column)
        #expect(failure.reason == document.reason)
        #expect(failure.description == "line \(document.line), column \(document.column): \(document.reason)")
    }

    @Test("The offset counts bytes from the start of the document")
    func offsetCountsBytes() throws {
        let failure = try #require(JSONSyntax.firstError(in: Data("{\"a\":1,\n \"b\" 2}".utf8)))
        #expect(failure.offset == 13)
        #expect(failure.line == 2)
        #expect(failure.column == 6)
    }

    @Test("Columns count bytes, so multi-byte characters widen them")
    func columnsInBytes() throws {
        // "é" is two bytes, so `x` (the sixth character) is at byte offset 7, column 8.
        let failure = try #require(JSONSyntax.firstError(in: Data(#"["é", x]"#.utf8)))
        #expect(failure.column == 8)
        #expect(failure.offset == 7)
    }

    static let valid: [String] = [
        #"{"a":"\u00e9\uD83D\uDE00","b":"\"\\\/\b\f\n\r\t"}"#,
        "[1e10, -2.5E-3, 0.1, 0, -0, 1E+2, 123456789012345678901234567890]",
        "true", "false", "null", "0", "\"\"", "[]", "{}", " \r\n\t[ ] ",
        #"{"nested":{"deeper":[[[{}]]]},"é":"ü"}"#,
    ]

    @Test("Well-formed documents have no error", arguments: valid)
    func wellFormed(text: String) {
        #expect(JSONSyntax.firstError(in: Data(text.utf8)) == nil)
    }

    @Test("Asked to, a member named twice in one object is refused at its second name, saying where the first was")
    func duplicateNames() throws {
        let repeated = #"{"screens":[{"path":"a"},{"path":"b",\#n "p\u0061th":"c"}]}"#
        // Foundation reads it without complaint (and keeps one of the two): only the check refuses it.
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(repeated.utf8)) }
        #expect(JSONSyntax.firstError(in: Data(repeated.utf8)) == nil, "by default a repeated name is well-formed JSON")
        let failure = try #require(JSONSyntax.firstError(in: Data(repeated.utf8), refusingDuplicateNames: true))
        #expect(failure.line == 2 && failure.column == 2)
        #expect(failure.reason == #"the member name "path" appears twice in one object (first at line 1, column 27)"#)
        // The same name in sibling or nested objects is no repetition; names are case-sensitive.
        for fine in [#"{"a":{"a":1},"b":[{"a":1},{"a":2}],"A":{}}"#, #"[{"x":1},{"x":2}]"#, "{}", #"{"a":{},"b":{}}"#] {
            #expect(JSONSyntax.firstError(in: Data(fine.utf8), refusingDuplicateNames: true) == nil, "\(fine)")
        }
        // An object closed empty or with members pops its names: the outer object's names go on.
        let outer = try #require(JSONSyntax.firstError(in: Data(#"{"a":{},"b":{"c":1},"a":2}"#.utf8), refusingDuplicateNames: true))
        #expect(outer.column == 21 && outer.reason.hasPrefix(#"the member name "a" appears twice"#))
    }

    @Test("Agrees with Foundation on well-formed documents")
    func agreesWithFoundation() throws {
        for text in Self.valid {
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }
        }
    }
}

import Foundation
import ScreenplayContract
import Testing

/// Shared helpers for the contract tests: decoding fixtures and looking inside encoded JSON
/// without going through the types under test.
enum Fixture {
    /// Decodes a screen from inline JSON.
    static func screen(_ json: String, mode: DecodingMode = .lossy) throws(ScreenplayDecodingError) -> Decoded<Screen> {
        try ScreenplayDecoder(mode: mode).decode(Screen.self, from: Data(json.utf8))
    }

    /// A screen with one section `main` holding `components` (a JSON array body, no brackets).
    static func screenJSON(components: String) -> String {
        #"{"id":"fixture","title":"Fixture","sections":[{"id":"main","components":["# + components + "]}]}"
    }

    /// The components of the first section of a lossily decoded fixture screen.
    static func components(_ components: String) throws -> (components: [Component], issues: [DecodingIssue]) {
        let decoded = try screen(screenJSON(components: components))
        let section = try #require(decoded.value.sections.first)
        return (section.components, decoded.issues)
    }

    /// Encodes with the contract encoder and parses the bytes with `JSONSerialization`, so
    /// assertions on the wire shape do not depend on the contract's own decoding.
    static func wireObject(_ value: some Encodable) throws -> [String: Any] {
        let data = try ScreenplayEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Encodes `value` and decodes it back as `type` in strict mode, requiring no issues.
    static func roundTrip<Value: Codable & Sendable>(_ value: Value, as type: Value.Type = Value.self) throws -> Value {
        let data = try ScreenplayEncoder().encode(value)
        let decoded = try ScreenplayDecoder(mode: .strict).decode(type, from: data)
        #expect(decoded.issues.isEmpty, "unexpected issues: \(decoded.issues)")
        return decoded.value
    }
}

extension Data {
    /// The bytes as UTF-8 text, for assertions on exact output.
    var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

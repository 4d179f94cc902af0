import Foundation
import Testing

@testable import ScreenplayServer

/// The `screen` event's data, written by hand for speed, says what `JSONEncoder` would: the same
/// bytes for what the server puts there (ETags, paths with queries), and for anything else text a
/// JSON parser reads back as the same strings.
@Suite("Event data written by hand")
struct EventDataTests {
    /// What the encoder the rest of the stream uses writes for the same event.
    struct Encoded: Encodable {
        let path: String
        let etag: String
    }

    @Test(
        "an ETag and a path are written as the encoder writes them",
        arguments: [
            ("playlist/1", "\"a1b2c3\""), ("search?q=bach&page=2", "W/\"x-9\""), ("shop", ""), ("é/ü/日本", "\"tag/with/slashes\""),
        ])
    func sameBytes(path: String, etag: String) throws {
        let byEncoder = EventData.json(Encoded(path: path, etag: etag))
        #expect(ScreenChanged.json(path: path, etag: etag) == byEncoder)
    }

    @Test(
        "quotes, backslashes and every control character are escaped so the text reads back the same",
        arguments: ["a\"b", "back\\slash", "line\nbreak\r\n", "tab\tbell\u{07}nul\u{00}", "\u{08}\u{0C}\u{1F}", "emoji 🎻 \u{7F}"])
    func readsBack(value: String) throws {
        let text = ScreenChanged.json(path: value, etag: value + "!")
        #expect(!text.contains("\n") && !text.contains("\r"), "one line: \(text)")
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        #expect(decoded == ["path": value, "etag": value + "!"])
    }

    @Test("with a patch: the patch's text is spliced between the tags, keys sorted")
    func withPatch() throws {
        let text = ScreenChanged.json(path: "p\"1", etag: "\"new\"", from: "\"old\"", patch: Array(#"{"ops":[]}"#.utf8))
        #expect(text == #"{"etag":"\"new\"","from":"\"old\"","patch":{"ops":[]},"path":"p\"1"}"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect(decoded?["path"] as? String == "p\"1")
    }
}

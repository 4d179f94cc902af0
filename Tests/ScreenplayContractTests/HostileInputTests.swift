import Foundation
import ScreenplayContract
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    static let depth = 10_000

    @Test("10 000 nested arrays are refused at the depth limit, not by crashing")
    func deepArrays() throws {
        let json = String(repeating: "[", count: Self.depth) + String(repeating: "]", count: Self.depth)
        let error = try #require(throws: ScreenplayDecodingError.self) {
            try ScreenplayDecoder().decode(JSONValue.self, from: Data(json.utf8))
        }
        #expect(error.path == "$")
        #expect(error.message.contains("nesting deeper than \(JSONSyntax.maximumDepth) levels"))

        let failure = try #require(JSONSyntax.firstError(in: Data(json.utf8)))
        #expect(failure.offset == JSONSyntax.maximumDepth)
        #expect(failure.line == 1)
        #expect(failure.column == JSONSyntax.maximumDepth + 1)
        #expect(failure.reason == "nesting deeper than 512 levels")
    }

    @Test("10 000 nested objects are refused at the depth limit")
    func deepObjects() throws {
        let json = String(repeating: #"{"a":"#, count: Self.depth) + "1" + String(repeating: "}", count: Self.depth)
        let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(json) }
        #expect(error.path == "$")
        #expect(error.message.contains("nesting deeper than \(JSONSyntax.maximumDepth) levels"))

        let failure = try #require(JSONSyntax.firstError(in: Data(json.utf8)))
        // Each level is `{"a":`, five bytes; the 513th brace is the first one too deep.
        #expect(failure.offset == JSONSyntax.maximumDepth * 5)
        #expect(failure.column == JSONSyntax.maximumDepth * 5 + 1)
    }

    @Test("10 000 nested vertical stacks are refused, not recursed into")
    func deepStacks() throws {
        let open = String(repeating: #"{"type":"verticalStack","children":["#, count: Self.depth)
        let close = String(repeating: "]}", count: Self.depth)
        let json = Fixture.screenJSON(components: open + close)
        for mode in [DecodingMode.lossy, .strict] {
            let error = try #require(throws: ScreenplayDecodingError.self) { try Fixture.screen(json, mode: mode) }
            #expect(error.path == "$")
            #expect(error.message.contains("nesting deeper than \(JSONSyntax.maximumDepth) levels"))
            #expect(error.message.contains("line 1, column "))
        }
    }

    @Test("Exactly the maximum depth is accepted; one more is not")
    func depthBoundary() {
        let limit = JSONSyntax.maximumDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        let overLimit = "[" + atLimit + "]"
        #expect(JSONSyntax.firstError(in: Data(atLimit.utf8)) == nil)
        #expect(JSONSyntax.firstError(in: Data(overLimit.utf8))?.offset == limit)
    }

    @Test("Stacks nested 200 deep (well within the limit) decode completely")
    func reasonablyDeepStacks() throws {
        let levels = 200
        let open = String(repeating: #"{"type":"verticalStack","children":["#, count: levels)
        let json = Fixture.screenJSON(components: open + #"{"type":"text","text":"core"}"# + String(repeating: "]}", count: levels))
        let decoded = try Fixture.screen(json, mode: .strict)
        #expect(decoded.issues.isEmpty)
        var node = try #require(decoded.value.sections.first?.components.first)
        var depth = 0
        while case .verticalStack(let stack) = node.content {
            depth += 1
            node = try #require(stack.children.first)
        }
        #expect(depth == levels)
        #expect(node == .text(.init("core")))
    }

    @Test("A 50 MB text decodes and re-encodes byte for byte")
    func hugeString() throws {
        let length = 50_000_000
        // Canonical form (sorted keys, no spaces), so the re-encoded bytes must equal the input.
        let data: Data = {
            var json = #"{"id":"big","sections":[{"components":[{"text":""#
            json.reserveCapacity(length + 128)
            json += String(repeating: "x", count: length)
            json += #"","type":"text"}],"id":"a"}],"title":"Big"}"#
            return Data(json.utf8)
        }()
        let decoded = try ScreenplayDecoder().decode(Screen.self, from: data)
        #expect(decoded.issues.isEmpty)
        guard case .text(let text) = try #require(decoded.value.sections.first?.components.first).content else {
            Issue.record("expected a text component")
            return
        }
        #expect(text.text.utf8.count == length)
        let encoded = try ScreenplayEncoder().encode(decoded.value)
        #expect(encoded.count == data.count)
        #expect(encoded == data)
    }

    @Test("A screen with 20 000 components decodes with zero issues and keeps order")
    func manyComponents() throws {
        let count = 20_000
        let components = (0..<count).map { index -> String in
            switch index % 3 {
            case 0: #"{"type":"text","text":"t\#(index)"}"#
            case 1: #"{"type":"trackRow","title":"Track \#(index)","duration":60}"#
            default: #"{"type":"listRow","title":"Row \#(index)","recordingCount":\#(index)}"#
            }
        }.joined(separator: ",")
        let decoded = try Fixture.screen(Fixture.screenJSON(components: components))
        #expect(decoded.issues.isEmpty)
        let section = try #require(decoded.value.sections.first)
        #expect(section.components.count == count)
        #expect(section.components.first == .text(.init("t0")))
        #expect(section.components[1] == .trackRow(.init(title: "Track 1", duration: 60)))
        #expect(section.components.last == .trackRow(.init(title: "Track 19999", duration: 60)))
        #expect(section.components[19_997] == .listRow(.init(title: "Row 19997", recordingCount: 19_997)))
    }

    @Test("A URL just over the length limit is refused inside a screen")
    func overlongURL() throws {
        let url = "screens/" + String(repeating: "a", count: LinkPolicy.maximumLength)
        let (components, issues) = try Fixture.components(#"{"type":"button","title":"x","action":{"type":"navigate","url":"\#(url)"}}"#)
        #expect(components.isEmpty)
        #expect(issues.first?.message == "URL is \(url.unicodeScalars.count) characters long; the limit is 4096")
        #expect(issues.first?.path == "$.sections[0].components[0].action.url")
    }
}

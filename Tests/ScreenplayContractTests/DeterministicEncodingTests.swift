import Foundation
import ScreenplayContract
import Testing

@Suite("Deterministic encoding")
struct DeterministicEncodingTests {
    /// A payload with enough keys that dictionary iteration order would show if it leaked.
    static let bigPayload: JSONValue = .object(
        Dictionary(
            uniqueKeysWithValues: (0..<200).map { index in
                (
                    String(format: "key%03d", index),
                    JSONValue.array([.integer(index), .string("v\(index)"), .object(["z": .bool(true), "a": .null])])
                )
            }))

    static let screen = Screen(
        id: "composer/mozart", title: "Mozart",
        header: ScreenHeader(title: "Wolfgang Amadeus Mozart", subtitle: "1756–1791", image: RemoteImage(url: "https://cdn.example/m.jpg")),
        sections: [
            ScreenSection(
                id: "works", header: .init(title: "Works"),
                components: [
                    .listRow(
                        .init(
                            title: "Requiem", composer: "Mozart", recordingCount: 3,
                            action: .command(.init(url: "commands/x", payload: bigPayload)))),
                    .rectangle(.init(width: 10, height: 2, color: .rgb(1, 2, 3))),
                ])
        ],
        menu: [MenuItem(title: "More", icon: "ellipsis", action: .custom(.init(name: "more", payload: bigPayload)))])

    @Test("The same screen encodes to identical bytes every time")
    func identicalBytes() throws {
        let first = try ScreenplayEncoder().encode(Self.screen)
        for _ in 0..<25 {
            #expect(try ScreenplayEncoder().encode(Self.screen) == first)
        }
    }

    @Test("Equal payloads built in different insertion orders encode identically")
    func insertionOrderIrrelevant() throws {
        var forward: [String: JSONValue] = [:]
        for index in 0..<300 { forward["k\(index)"] = .integer(index) }
        var backward: [String: JSONValue] = [:]
        backward.reserveCapacity(4096)
        for index in (0..<300).reversed() { backward["k\(index)"] = .integer(index) }
        #expect(try ScreenplayEncoder().encode(JSONValue.object(forward)) == ScreenplayEncoder().encode(JSONValue.object(backward)))
    }

    @Test("Object keys come out sorted at every level")
    func keysSorted() throws {
        let text = try ScreenplayEncoder().encode(Self.screen).utf8Text
        let positions = (0..<200).map { index in
            text.range(of: "\"" + String(format: "key%03d", index) + "\"")?.lowerBound
        }
        #expect(positions.allSatisfy { $0 != nil })
        let found = positions.compactMap { $0 }
        #expect(found == found.sorted())
        // Top level: header < id < menu < sections < title.
        let top = ["\"header\":", "\"id\":\"composer/mozart\"", "\"menu\":", "\"sections\":", "\"title\":\"Mozart\""]
        let topPositions = top.compactMap { text.range(of: $0)?.lowerBound }
        #expect(topPositions.count == top.count)
        #expect(topPositions == topPositions.sorted())
    }

    @Test("The exact bytes: sorted keys, unescaped slashes, no whitespace")
    func exactBytes() throws {
        let screen = Screen(
            id: "a/b", title: "T",
            sections: [ScreenSection(id: "s", components: [.text(.init("hi", color: .token(.accent)))])],
            menu: [MenuItem(title: "m", action: .command(.init(url: "commands/x", payload: ["b": 1, "a": [true, nil, 2.5]])))])
        let expected =
            #"{"id":"a/b","menu":[{"action":{"payload":{"a":[true,null,2.5],"b":1},"type":"command","url":"commands/x"},"title":"m"}],"sections":[{"components":[{"color":"accent","text":"hi","type":"text"}],"id":"s"}],"title":"T"}"#
        #expect(try ScreenplayEncoder().encode(screen).utf8Text == expected)
    }

    @Test("Decoding and re-encoding canonicalises member order")
    func canonicalAfterDecode() throws {
        let shuffled =
            #"{"title":"T","sections":[{"components":[{"type":"text","text":"hi","color":"accent"}],"id":"s"}],"id":"a/b","menu":[{"title":"m","action":{"url":"commands/x","type":"command","payload":{"b":1,"a":[true,null,2.5]}}}]}"#
        let decoded = try Fixture.screen(shuffled, mode: .strict)
        let expected =
            #"{"id":"a/b","menu":[{"action":{"payload":{"a":[true,null,2.5],"b":1},"type":"command","url":"commands/x"},"title":"m"}],"sections":[{"components":[{"color":"accent","text":"hi","type":"text"}],"id":"s"}],"title":"T"}"#
        #expect(try ScreenplayEncoder().encode(decoded.value).utf8Text == expected)
    }
}

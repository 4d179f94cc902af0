import Foundation
import ScreenplayContract
import Testing

/// Reorderable lists (v6) on the wire: what a list keeps, what a bad row costs (only itself), and
/// the order a move makes and sends.
@Suite("Reorderable lists on the wire (v6)")
struct ReorderableListCodingTests {
    typealias List = Component.ReorderableList

    static let move = Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4])

    static let list = List(
        label: "Works of Late Night", move: move,
        children: [
            Component.listRow(.init(title: "Nocturnes", subtitle: "Frédéric Chopin")).id("work-3"),
            Component.horizontalStack(
                .init(children: [
                    .listRow(.init(title: "Clair de lune")),
                    .button(.init(title: "Remove", action: .command(.init(url: "commands/playlists/remove-work", payload: ["workId": 7])))),
                ])
            ).id("work-7"),
            Component.text(.init("Gymnopédie No. 1")).id("work-9"),
        ])

    static let sample = Screen(
        id: "playlist/4", title: "Late Night",
        sections: [ScreenSection(id: "works", components: [list.component.id("works"), .text(.init("after"))])])

    /// A screen whose one section holds `components` (raw JSON).
    static func screen(_ components: String...) -> Data {
        Data(#"{"id": "s", "title": "S", "sections": [{"id": "main", "components": [\#(components.joined(separator: ","))]}]}"#.utf8)
    }

    /// A list's JSON with `children` (raw JSON, comma separated); `label` and `move` raw too.
    static func listJSON(
        label: String? = #""Works""#, move: String? = #"{"url": "commands/reorder", "payload": {"playlistId": 4}}"#, children: [String]
    ) -> String {
        var members = [#""type": "reorderableList""#, #""id": "list""#]
        if let label { members.append(#""label": \#(label)"#) }
        if let move { members.append(#""move": \#(move)"#) }
        members.append(#""children": [\#(children.joined(separator: ","))]"#)
        return "{" + members.joined(separator: ", ") + "}"
    }

    static func row(_ id: String?, _ title: String = "Row") -> String {
        id.map { #"{"type": "listRow", "id": "\#($0)", "title": "\#(title)"}"# } ?? #"{"type": "listRow", "title": "\#(title)"}"#
    }

    static func decode(_ data: Data, version: APIVersion = .v6, mode: DecodingMode = .lossy) throws -> Decoded<Screen> {
        try ScreenplayDecoder(mode: mode, apiVersion: version).decode(Screen.self, from: data)
    }

    /// The first component of the first section, as a reorderable list.
    static func firstList(_ decoded: Decoded<Screen>) throws -> List {
        let first = try #require(decoded.value.sections.first?.components.first)
        return try #require(list(first), "not a reorderable list: \(first)")
    }

    static func list(_ component: Component) -> List? {
        if case .reorderableList(let list) = component.content { list } else { nil }
    }

    @Test("a v6 list survives encode and decode as it was: label, move with its payload, rows with their ids, in order")
    func roundTrip() throws {
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(Self.sample)
        let decoded = try Self.decode(data, mode: .strict)
        #expect(decoded.value == Self.sample)
        #expect(decoded.issues.isEmpty)
        let list = try Self.firstList(decoded)
        #expect(list.order == ["work-3", "work-7", "work-9"])
        #expect(list.label == "Works of Late Night")
        #expect(list.move == Self.move)
        // On the wire: its kind, and the members the docs name.
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        let component = try #require((sections.first?["components"] as? [[String: Any]])?.first)
        #expect(component["type"] as? String == "reorderableList")
        #expect(component["label"] as? String == "Works of Late Night")
        #expect((component["move"] as? [String: Any])?["url"] as? String == "commands/playlists/reorder")
        #expect((component["children"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["work-3", "work-7", "work-9"])
        #expect(Self.sample.allComponents.contains { $0.kind == List.kind })
    }

    @Test("a v5 reader sees an unknown kind, kept aside; the rest of the section stays")
    func unknownToV5() throws {
        let data = try ScreenplayEncoder(apiVersion: .v6).encode(Self.sample)
        let decoded = try Self.decode(data, version: .v5)
        #expect(decoded.issues.map(\.message).contains("unknown component type 'reorderableList'"), "\(decoded.issues)")
        let components = decoded.value.sections[0].components
        #expect(components.last == .text(.init("after")))
        #expect(!components.contains { Self.list($0) != nil })
        #expect(List.versioning.introduced == .v6)
        #expect(Component.kinds(knownAt: .v5).contains(List.kind) == false)
        #expect(Component.kinds(knownAt: .v6).contains(List.kind))
    }

    @Test("a row without an id is kept where it is, named in no order; strict decoding takes it too")
    func rowWithoutID() throws {
        let decoded = try Self.decode(Self.screen(Self.listJSON(children: [Self.row("a"), Self.row(nil, "Nameless"), Self.row("c")])))
        let list = try Self.firstList(decoded)
        #expect(list.order == ["a", "c"])
        #expect(list.children.count == 3)
        #expect(list.children[1].id == nil)
        #expect(decoded.issues.isEmpty, "\(decoded.issues)")
        let strict = try Self.decode(Self.screen(Self.listJSON(children: [Self.row("a"), Self.row(nil)])), mode: .strict)
        #expect(try Self.firstList(strict).children.count == 2)
    }

    @Test("a row with another row's id is left out and reported at its path; the first keeps its place")
    func duplicateID() throws {
        let decoded = try Self.decode(
            Self.screen(Self.listJSON(children: [Self.row("a", "First"), Self.row("b"), Self.row("a", "Second"), Self.row("c")])))
        let list = try Self.firstList(decoded)
        #expect(list.order == ["a", "b", "c"])
        guard case .listRow(let first) = list.children[0].content else {
            Issue.record("\(list.children[0])")
            return
        }
        #expect(first.title == "First", "the first row with the id is the one kept")
        let issue = try #require(decoded.issues.first { $0.path == "$.sections[0].components[0].children[2]" }, "\(decoded.issues)")
        #expect(issue.message.contains("'a'") && issue.message.contains("another row's"))
        #expect(decoded.issues.count == 1, "\(decoded.issues)")
    }

    @Test("a row that does not decode is left out alone; a later row's issue still names that row's own place")
    func badRowThenRepeated() throws {
        // Row 0 is a list row without a title (not a row at all); row 3 repeats row 1's id.
        let decoded = try Self.decode(
            Self.screen(Self.listJSON(children: [#"{"type": "listRow", "id": "x"}"#, Self.row("a"), Self.row("c"), Self.row("a")])))
        let list = try Self.firstList(decoded)
        #expect(list.order == ["a", "c"])
        let paths = decoded.issues.map(\.path)
        #expect(paths.contains("$.sections[0].components[0].children[0].title"), "\(decoded.issues)")
        #expect(paths.contains("$.sections[0].components[0].children[3]"), "the repeated row is the fourth in the JSON: \(decoded.issues)")
        #expect(!paths.contains("$.sections[0].components[0].children[2]"), "row 2 is fine: \(decoded.issues)")
    }

    @Test("more than 500 rows: the first 500 are kept, and the rest reported once at the first left out")
    func tooManyRows() throws {
        let rows = (0...List.maximumRows + 4).map { Self.row("r\($0)") }
        let decoded = try Self.decode(Self.screen(Self.listJSON(children: rows)))
        let list = try Self.firstList(decoded)
        #expect(List.maximumRows == 500)
        #expect(list.children.count == 500)
        #expect(list.order.first == "r0" && list.order.last == "r499")
        #expect(decoded.issues.count == 1, "\(decoded.issues.prefix(3))")
        let issue = try #require(decoded.issues.first)
        #expect(issue.path == "$.sections[0].components[0].children[500]")
        #expect(issue.message.contains("at most 500"))
        // Exactly 500 is no problem.
        let full = try Self.decode(Self.screen(Self.listJSON(children: (0..<List.maximumRows).map { Self.row("r\($0)") })))
        #expect(try Self.firstList(full).children.count == 500)
        #expect(full.issues.isEmpty)
    }

    @Test("a list without a label or a move, or with a bad one, is lost with an issue; the rest of the section stays")
    func missingMembers() throws {
        let cases: [(String, String)] = [
            (Self.listJSON(label: nil, children: [Self.row("a")]), "label"),
            (Self.listJSON(move: nil, children: [Self.row("a")]), "move"),
            (Self.listJSON(label: "42", children: [Self.row("a")]), "label"),
            (Self.listJSON(label: "\"" + String(repeating: "l", count: 201) + "\"", children: [Self.row("a")]), "label"),
            (Self.listJSON(move: #"{"payload": {}}"#, children: [Self.row("a")]), "move"),
        ]
        for (json, member) in cases {
            let decoded = try Self.decode(Self.screen(json, #"{"type": "text", "text": "still here"}"#))
            #expect(decoded.value.sections[0].components == [.text(.init("still here"))], "\(member): \(decoded.value.sections[0].components)")
            #expect(
                decoded.issues.contains { $0.path.hasPrefix("$.sections[0].components[0].\(member)") }, "\(member): \(decoded.issues)")
        }
    }

    @Test(
        "a move makes the order the command sends: up, down, to either end, clamped; an index off the list changes nothing",
        arguments: [
            (2, 0, ["c", "a", "b", "d"]),
            (1, 0, ["b", "a", "c", "d"]),
            (0, 1, ["b", "a", "c", "d"]),
            (0, 3, ["b", "c", "d", "a"]),
            (1, 3, ["a", "c", "d", "b"]),
            (3, 0, ["d", "a", "b", "c"]),
            (1, 99, ["a", "c", "d", "b"]),
            (2, -5, ["c", "a", "b", "d"]),
            (2, 2, ["a", "b", "c", "d"]),
            (4, 0, ["a", "b", "c", "d"]),
            (-1, 0, ["a", "b", "c", "d"]),
        ])
    func order(from: Int, to: Int, expected: [String]) {
        #expect(List.order(["a", "b", "c", "d"], moving: from, to: to) == expected)
    }

    @Test("an empty order stays empty, whatever the move")
    func emptyOrder() {
        #expect(List.order([], moving: 0, to: 0) == [])
        #expect(List.order(["only"], moving: 0, to: 5) == ["only"])
    }

    @Test("a move's payload keeps the command's members and adds order; a payload that is not an object is replaced")
    func payload() {
        let list = List(
            label: "L", move: .init(url: "commands/reorder", payload: ["playlistId": 4, "source": "web"]),
            children: [Component.text(.init("a")).id("a"), Component.text(.init("b")).id("b")])
        #expect(list.payload(for: ["b", "a"]) == ["playlistId": 4, "source": "web", "order": ["b", "a"]])
        #expect(List.orderMember == "order")
        // An order in the payload already is the new one.
        let stale = List(label: "L", move: .init(url: "commands/reorder", payload: ["order": ["x"], "playlistId": 1]), children: [])
        #expect(stale.payload(for: ["a"]) == ["playlistId": 1, "order": ["a"]])
        for payload: JSONValue? in [nil, "text", 7, ["a", "b"]] {
            let odd = List(label: "L", move: .init(url: "commands/reorder", payload: payload), children: [])
            #expect(odd.payload(for: ["a", "b"]) == ["order": ["a", "b"]], "\(String(describing: payload))")
        }
        #expect(List.payload(of: .init(url: "u", payload: ["k": true]), for: []) == ["k": true, "order": []])
    }

    @Test("a list's order is its rows' ids; its children are the rows, so walks over the screen reach them")
    func orderAndChildren() {
        #expect(Self.list.order == ["work-3", "work-7", "work-9"])
        #expect(Self.list.component.children.map(\.id) == ["work-3", "work-7", "work-9"])
        let ids = Self.sample.allComponents.compactMap(\.id)
        #expect(ids.contains("work-7"), "\(ids)")
    }

    @Test("before v6 the fallback is a vertical stack of the same rows, in their order")
    func fallback() {
        let fallback = Self.list.fallback(for: .v5)
        #expect(fallback.count == 1)
        guard case .verticalStack(let stack) = fallback.first?.content else {
            Issue.record("\(fallback)")
            return
        }
        #expect(stack.children == Self.list.children)
    }
}

import ScreenplayClient
import ScreenplayContract
import ScreenplayTerminal
import Testing

@Suite("Terminal outline of reorderable lists")
struct ReorderableOutlineTests {
    static let move = Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4])

    static func outline(_ rows: [Component], url: String = "commands/playlists/reorder", context: ResolutionContext = ResolutionContext(localActions: []))
        -> [String]
    {
        let list = Component.reorderableList(.init(label: "Works of Late Night", move: .init(url: url, payload: ["playlistId": 4]), children: rows))
            .id("works")
        let screen = Screen(
            id: "s", title: "Late Night", header: .init(title: "Late Night"),
            sections: [ScreenSection(id: "works", components: [list, .text(.init("after"))])])
        let tree = ViewTreeResolver(context: context).resolve(screen).root
        return TerminalRenderer().outline(tree).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static let rows: [Component] = [
        Component.listRow(.init(title: "Nocturnes", subtitle: "Chopin")).id("a"),
        Component.listRow(.init(title: "Clair de lune")).id("b"),
        Component.listRow(.init(title: "Gymnopédie")).id("c"),
    ]

    @Test("the list says how many rows and what a move sends; its rows are numbered in order, one level in")
    func numbered() {
        #expect(
            Self.outline(Self.rows) == [
                #"screen "Late Night""#,
                #"  header [header] h1 "Late Night""#,
                "  section [section:works]",
                #"    reorderable(3 rows, a move sends commands/playlists/reorder with the new order) [id:works] {label: "Works of Late Night"}"#,
                #"      1. row [id:a] "Nocturnes" — "Chopin""#,
                #"      2. row [id:b] "Clair de lune""#,
                #"      3. row [id:c] "Gymnopédie""#,
                #"    text [section:works/text:after] "after""#,
                "",
            ])
    }

    @Test("only the list's own rows are numbered: what a row holds, and what follows the list, are not")
    func onlyRows() {
        let stack = Component.horizontalStack(
            .init(children: [
                .listRow(.init(title: "Requiem")),
                .button(.init(title: "Remove", action: .command(.init(url: "commands/playlists/remove-work", payload: ["workId": 1])))),
            ])
        ).id("s1")
        let lines = Self.outline([stack, Self.rows[1]])
        let list = lines.firstIndex { $0.contains("reorderable(2 rows,") }
        #expect(list != nil, "\(lines)")
        guard let list else { return }
        #expect(lines[list + 1].hasPrefix("      1. hstack [id:s1]"), "\(lines)")
        #expect(lines[list + 2].hasPrefix("        row ["), "\(lines)")
        #expect(lines[list + 3].hasPrefix("        button ["), "\(lines)")
        #expect(lines[list + 4].hasPrefix("      2. row [id:b]"), "\(lines)")
        #expect(lines[list + 5].hasPrefix("    text ["), "\(lines)")
        #expect(lines.filter { $0.drop { $0 == " " }.first?.isNumber == true }.count == 2)
    }

    @Test("an empty list says it has no rows")
    func empty() {
        #expect(Self.outline([]).contains(#"    reorderable(0 rows, a move sends commands/playlists/reorder with the new order) [id:works] {label: "Works of Late Night"}"#))
    }

    @Test("a move URL from the server cannot move the cursor")
    func hostileURL() throws {
        let lines = Self.outline(Self.rows, url: "commands/x\u{1B}[2J")
        let line = try #require(lines.first { $0.contains("reorderable(") })
        #expect(!line.unicodeScalars.contains { $0.value == 0x1B })
        #expect(line.contains(#"commands/x\u{1b}[2J"#), "\(line)")
    }

    @Test("a node of the role without its facts still has a line")
    func bareNode() {
        #expect(TerminalRenderer().line(for: ViewNode(id: "n", role: .reorderable)) == "reorderable(0 rows, a move sends nothing with the new order) [n]")
    }
}

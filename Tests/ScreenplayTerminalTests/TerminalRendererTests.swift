import ScreenplayClient
import ScreenplayContract
import ScreenplayTerminal
import Testing

@Suite("Terminal outline")
struct TerminalRendererTests {
    @Test("one indented line per node: role, id, text, details, action and its state")
    func outline() {
        let screen = Screen(
            id: "s", title: "Mozart", header: .init(title: "Mozart"),
            sections: [
                ScreenSection(
                    id: "works",
                    components: [
                        .listRow(
                            .init(title: "Requiem", composer: "Mozart", recordingCount: 2, action: .navigate(.init(url: "screens/work/1")))),
                        .button(.init(title: "Buy", action: .custom(.init(name: "purchase")))),
                    ])
            ])
        let tree = ViewTreeResolver(context: ResolutionContext(localActions: [])).resolve(screen).root
        #expect(
            TerminalRenderer().outline(tree) == """
                screen "Mozart"
                  header [header] h1 "Mozart"
                  section [section:works]
                    row [section:works/listRow:screens/work/1] "Requiem" · Mozart · 2 recordings → navigate screens/work/1
                    button [section:works/button:purchase] "Buy" → custom purchase (disabled)

                """)
    }

    @Test("text from the server cannot break the outline or move the cursor")
    func hostileText() {
        let node = ViewNode(id: "x", role: .text, text: "line\nbreak \u{1B}[2J \"quoted\"")
        #expect(TerminalRenderer().line(for: node) == #"text [x] "line\nbreak \u{1b}[2J \"quoted\"""#)
    }

    @Test("every role has its own word in the outline", arguments: NodeRole.allCases)
    func everyRole(role: NodeRole) {
        let line = TerminalRenderer().line(for: ViewNode(id: "n", role: role))
        #expect(!line.isEmpty)
        #expect(
            line.hasPrefix(role == .stack ? "vstack" : role == .textField ? "textfield" : role.rawValue) || role == .grid
                || role == .carousel || role == .spacer || role == .rectangle || role == .custom)
    }
}

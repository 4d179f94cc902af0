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

    @Test("Play all and Shuffle read differently: a shuffle says where it starts")
    func shuffle() {
        let track = Action.Play.Track(id: "7", title: "II. Largo", streamURL: "/a.wav")
        let screen = Screen(
            id: "s", title: "Baroque", header: .init(title: "Baroque"),
            sections: [
                ScreenSection(
                    id: "about",
                    components: [
                        .button(.init(title: "Play all", action: .play(.init(metadataURL: "/q", firstTrack: track)))).id("all"),
                        .button(.init(title: "Shuffle", action: .play(.init(metadataURL: "/q", firstTrack: track, shuffle: true)))).id("shuffle"),
                    ])
            ])
        let lines = TerminalRenderer().outline(ViewTreeResolver(context: ResolutionContext(localActions: [])).resolve(screen).root)
            .split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(#""Play all" → play II. Largo"#) }, "\(lines)")
        #expect(lines.contains { $0.contains(#""Shuffle" → shuffle, from II. Largo"#) }, "\(lines)")
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

    @Test("ids, details and actions from the server are made visible too, and odd sizes do not trap")
    func hostileEverywhere() {
        let node = ViewNode(
            id: NodeID(rawValue: "sec\u{1B}[41m"), role: .row, text: "t", details: ["C\u{1B}]0;pwned\u{07}", "\u{202E}txt"],
            action: BoundAction(.custom(.init(name: "x\u{1B}[2J"))))
        let line = TerminalRenderer().line(for: node)
        #expect(!line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(line.contains(#"\u{1b}[41m"#) && line.contains(#"\u{202e}"#))
        #expect(TerminalRenderer().line(for: ViewNode(id: "s", role: .spacer, style: NodeStyle(height: 1e300))).hasPrefix("spacer("))
        #expect(
            TerminalRenderer().line(for: ViewNode(id: "r", role: .rectangle, style: NodeStyle(width: .infinity, height: -1e200))).hasPrefix(
                "rectangle("))
    }
}

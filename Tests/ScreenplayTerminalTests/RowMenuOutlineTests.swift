import ScreenplayClient
import ScreenplayContract
import ScreenplayTerminal
import Testing

/// Row actions (v6) in the terminal: what a row's "⋯" holds, listed after its line.
@Suite("Terminal outline of row menus")
struct RowMenuOutlineTests {
    @Test("the terminal lists a row's menu after its line; a row without one lists none")
    func terminal() {
        let items = [
            MenuItem(title: "Go to Bach", icon: "person", action: .navigate(.init(url: "screens/composer/bach"))),
            MenuItem(title: "Add to favorites", action: .command(.init(url: "commands/favorites/recordings/add", payload: ["recordingId": 1]))),
        ]
        let rows = [Component.listRow(.init(title: "I. Prélude")).id("t1").menu(items), Component.listRow(.init(title: "II. Allemande")).id("t2")]
        let screen = Screen(id: "s", title: "S", sections: [ScreenSection(id: "main", components: rows)])
        let outline = TerminalRenderer().outline(ViewTreeResolver(context: ResolutionContext(localActions: [])).resolve(screen).root)
        let lines = outline.split(separator: "\n").map(String.init)
        let first = lines.first { $0.contains("I. Prélude") } ?? ""
        #expect(first.hasSuffix(#"⋯ ["Go to Bach" → navigate screens/composer/bach; "Add to favorites" → command commands/favorites/recordings/add]"#), "\(outline)")
        #expect(lines.first { $0.contains("II. Allemande") }?.contains("⋯") == false)
    }
}

import Foundation
import ScreenplayClient
import ScreenplayContract
@testable import ScreenplayWeb
import Testing

/// Row actions (v6) as a person meets them: on the web a "⋯" disclosure beside the row's own
/// action, each item a link or a command form (so it works without the script).
@Suite("Row menus on the web")
struct RowMenuHTMLTests {
    static let items = [
        MenuItem(title: "Go to Bach", icon: "person", action: .navigate(.init(url: "screens/composer/bach"))),
        MenuItem(title: "Add to favorites", action: .command(.init(url: "commands/favorites/recordings/add", payload: ["recordingId": 1]))),
    ]

    static let row = Component.trackRow(
        .init(
            title: "I. Prélude", duration: 143,
            action: .play(.init(metadataURL: "/q/1", firstTrack: .init(id: "1", title: "I. Prélude", streamURL: "/media/audio/track/1.wav"))))
    )
    .id("t1")

    @Test("a row with a menu gets a ⋯ disclosure named for it, holding a link and a command form; a row without gets none")
    func web() throws {
        let html = HTMLRenderer().page(for: Fixture.screen([Self.row.menu(Self.items), Self.row.id("t2")]), currentPath: "/screens/work/1")
        #expect(html.components(separatedBy: "<details class=\"more\">").count == 2, "one menu, on the row that has one")
        #expect(html.contains(#"<summary class="more-toggle" aria-label="More for I. Prélude">"#))
        let panel = try #require(html.components(separatedBy: "<div class=\"more-panel\">").dropFirst().first?.components(separatedBy: "</details>").first)
        #expect(panel.contains(#"href="/screens/composer/bach""#))
        #expect(panel.contains(#"<form method="post" action="/web/command""#))
        #expect(panel.contains(#"value="commands/favorites/recordings/add""#))
        #expect(panel.contains("{&quot;recordingId&quot;:1}"))
        // The row still plays on its own: the menu sits beside the play, not inside it.
        let rowHTML = try #require(html.components(separatedBy: "<details class=\"more\">").first)
        #expect(rowHTML.contains("data-play=\"1\""))
    }
}

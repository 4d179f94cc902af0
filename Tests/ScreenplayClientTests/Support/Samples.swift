import Foundation
import ScreenplayClient
import ScreenplayContract

/// The endpoint every client test talks to.
let testEndpoint = ServerEndpoint(root: URL(string: "http://127.0.0.1:8080")!, apiVersion: .v1)

/// The request path of an API-relative reference: `api("screens/home")` is `/api/v1/screens/home`.
func api(_ reference: String) -> String { "/api/v1/" + reference }

/// Sample contract values.
enum Samples {
    static let mozartHeader = ScreenHeader(title: "Mozart", subtitle: "1756–1791 · Austrian")
    static let homeHeader = ScreenHeader(title: "Home")

    /// A screen with one section of text components.
    static func screen(_ id: String, title: String? = nil, header: ScreenHeader? = nil, texts: [String] = ["Hello"]) -> Screen {
        Screen(
            id: id, title: title ?? id, header: header,
            sections: [ScreenSection(id: "main", components: texts.map { .text(Component.Text($0)) })])
    }

    static let home = screen("home", title: "Home", header: homeHeader, texts: ["Welcome"])
    static let mozart = screen("composer/mozart", title: "Mozart", header: mozartHeader, texts: ["Requiem", "Don Giovanni"])

    /// A screen whose second component is a `text` with no `text`: one issue, two components left.
    static func brokenScreenJSON(id: String) -> String {
        """
        {"id":"\(id)","title":"Broken","sections":[{"id":"main","components":[\
        {"type":"text","text":"first"},{"type":"text","size":12},{"type":"text","text":"third"}]}]}
        """
    }

    static let favoriteCommand = Action.Command(url: "commands/favorites/add", payload: ["workId": 42, "kind": "work"])

    static let newPlaylistPrompt = CommandResult.Prompt(
        title: "New playlist", message: "Name it", field: .init(name: "name", placeholder: "Evening", maxLength: 40),
        submitTitle: "Create", submit: Action.Command(url: "commands/playlists/create", payload: ["source": "menu"]))

    static let playlistChoice = CommandResult.Choice(
        title: "Add to playlist",
        options: [
            .init(title: "Morning", command: Action.Command(url: "commands/playlists/add", payload: ["playlist": 1, "workId": 42])),
            .init(
                title: "Evening", subtitle: "12 works",
                command: Action.Command(url: "commands/playlists/add", payload: ["playlist": 2, "workId": 42])),
        ])
}

import Foundation
import ScreenplayClient
import ScreenplayContract
@testable import ScreenplayWeb
import Testing

/// A reorderable list (v6) on the web: an ordered list whose rows each have a "Move up" and a
/// "Move down" form carrying the order that move makes (what works without the script), and the
/// data the script needs for a drag.
@Suite("Reorderable lists on the web")
struct ReorderableHTMLTests {
    static let move = Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4])

    static let rows: [Component] = [
        Component.listRow(.init(title: "Nocturnes", subtitle: "Chopin")).id("a"),
        Component.horizontalStack(
            .init(children: [
                .listRow(.init(title: "Clair de lune")),
                .button(.init(title: "Remove", action: .command(.init(url: "commands/playlists/remove-work", payload: ["workId": 7])))),
            ])
        ).id("b"),
        Component.listRow(.init(title: "Gymnopédie")).id("c"),
    ]

    static func list(_ rows: [Component] = rows, label: String = "Works of Late Night") -> Component {
        Component.reorderableList(.init(label: label, move: move, children: rows)).id("works")
    }

    static let back = "/screens/playlist/4"

    static func page(_ components: [Component] = [list()]) -> String {
        HTMLRenderer().page(for: Fixture.screen(components), currentPath: back)
    }

    /// What an attribute's value says, its character references read back.
    static func unescape(_ text: some StringProtocol) -> String {
        String(text).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The value of the first `name="…"` attribute in `html`, unescaped.
    static func attribute(_ name: String, in html: some StringProtocol) throws -> String? {
        let regex = try Regex(" \(name)=\"([^\"]*)\"")
        guard let match = String(html).firstMatch(of: regex), let value = match.output[1].substring else { return nil }
        return unescape(value)
    }

    /// The list's rows: the HTML of each `<li>`.
    static func items(_ html: String) -> [String] {
        guard let start = html.range(of: "<ol class=\"reorder\""), let end = html.range(of: "</ol>", range: start.upperBound..<html.endIndex) else {
            return []
        }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "<li ").dropFirst().map { "<li " + $0 }
    }

    /// One "Move" control of a row: its label, and the payload of its form (`nil`: disabled).
    struct Move: Equatable {
        var label: String
        var payload: JSONValue?
        var url: String?
        var back: String?
    }

    static func moves(in item: String) throws -> [Move] {
        let form = try Regex(
            #"<form method="post" action="/web/command"><input type="hidden" name="url" value="([^"]*)"><input type="hidden" name="payload" value="([^"]*)"><input type="hidden" name="back" value="([^"]*)"><button type="submit" class="reorder-move" aria-label="([^"]*)">"#
                + "|" + #"<button type="button" class="reorder-move" aria-label="([^"]*)" disabled>"#)
        return try item.matches(of: form).map { match in
            if let disabled = match.output[5].substring { return Move(label: unescape(disabled)) }
            let payload = try JSONDecoder().decode(JSONValue.self, from: Data(unescape(match.output[2].substring ?? "").utf8))
            return Move(
                label: unescape(match.output[4].substring ?? ""), payload: payload, url: match.output[1].substring.map(unescape),
                back: match.output[3].substring.map(unescape))
        }
    }

    static func payload(_ order: [String]) -> JSONValue { ["playlistId": 4, "order": .array(order.map(JSONValue.string))] }

    @Test("the list is an ordered list named by its label, naming the module and the command a drag sends")
    func list() throws {
        let html = Self.page()
        let module = try #require(WebScript.reorder?.versionedPath)
        #expect(module.hasPrefix("/web/reorder.js?v="))
        #expect(html.contains(#"<ol class="reorder" data-node="id:works" aria-label="Works of Late Night""#), "\(html)")
        let start = try #require(html.range(of: "<ol class=\"reorder\""))
        let tag = html[start.lowerBound...].prefix { $0 != ">" }
        #expect(try Self.attribute("data-reorder", in: tag) == module)
        #expect(try Self.attribute("data-reorder-url", in: tag) == "commands/playlists/reorder")
        let payload = try #require(try Self.attribute("data-reorder-payload", in: tag))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(payload.utf8)) == ["playlistId": 4])
        #expect(!html.contains("<script type=\"module\" src=\"\(module)\""), "the list names the module; it is not loaded by a tag")
        // A page without a list names no module.
        #expect(!Self.page([.text(.init("plain"))]).contains("data-reorder"))
    }

    @Test("each row is a list item keyed by the list and its id, holding the row's own node")
    func rows() throws {
        let items = Self.items(Self.page())
        #expect(items.count == 3)
        #expect(try items.map { try Self.attribute("data-key", in: $0) } == ["a", "b", "c"])
        #expect(try items.map { try Self.attribute("data-node", in: $0) } == ["id:works/a", "id:works/b", "id:works/c"])
        #expect(items.allSatisfy { $0.hasPrefix("<li class=\"reorder-row\"") })
        #expect(items[0].contains(#"<div class="row" data-node="id:a">"#))
        #expect(items[1].contains(#"data-node="id:b""#) && items[1].contains("Clair de lune") && items[1].contains("Remove"))
        #expect(items.allSatisfy { $0.contains(#"<div class="reorder-moves">"#) })
    }

    @Test("the first row cannot go up and the last cannot go down; every other move is a form posting the order it makes")
    func moveForms() throws {
        let items = Self.items(Self.page())
        let first = try Self.moves(in: items[0])
        #expect(
            first == [
                Move(label: "Move Nocturnes up in Works of Late Night"),
                Move(
                    label: "Move Nocturnes down in Works of Late Night", payload: Self.payload(["b", "a", "c"]), url: "commands/playlists/reorder",
                    back: Self.back),
            ])
        let middle = try Self.moves(in: items[1])
        #expect(middle.map(\.payload) == [Self.payload(["b", "a", "c"]), Self.payload(["a", "c", "b"])])
        let last = try Self.moves(in: items[2])
        #expect(last.map(\.label) == ["Move Gymnopédie up in Works of Late Night", "Move Gymnopédie down in Works of Late Night"])
        #expect(last.map(\.payload) == [Self.payload(["a", "c", "b"]), nil])
        // The up control comes first, each a button with its arrow hidden from assistive technologies.
        #expect(items[0].contains(#"aria-label="Move Nocturnes up in Works of Late Night" disabled><span aria-hidden="true">↑</span></button>"#))
        #expect(items[2].contains(#"aria-label="Move Gymnopédie down in Works of Late Night" disabled><span aria-hidden="true">↓</span></button>"#))
    }

    @Test("a move form, as a browser posts it, is the command with the new order")
    func posted() throws {
        let item = Self.items(Self.page())[0]
        let move = try #require(try Self.moves(in: item).last)
        let form = try WebForm(
            urlEncoded: Fixture.body([("url", move.url ?? ""), ("payload", move.payload?.jsonText ?? ""), ("back", move.back ?? "")]))
        #expect(form.commandURL == "commands/playlists/reorder")
        #expect(form.payload == Self.payload(["b", "a", "c"]))
        #expect(form.back == Self.back)
    }

    @Test("each row has a handle the script shows, named after the row")
    func handles() throws {
        let items = Self.items(Self.page())
        #expect(items.map { Fixture.count(of: "class=\"reorder-handle\"", in: $0) } == [1, 1, 1])
        #expect(items[0].contains(#"<button type="button" class="reorder-handle" aria-label="Reorder Nocturnes: arrow keys move it">"#))
    }

    @Test("a row that is a stack is named by the text it holds, not by its button")
    func stackTitle() throws {
        let item = Self.items(Self.page())[1]
        #expect(try Self.moves(in: item).map(\.label) == ["Move Clair de lune up in Works of Late Night", "Move Clair de lune down in Works of Late Night"])
        #expect(item.contains(#"aria-label="Reorder Clair de lune: arrow keys move it""#))
        // A button first and the text after: still the text.
        let buttonFirst = Component.horizontalStack(
            .init(children: [.button(.init(title: "Remove", action: .command(.init(url: "commands/x")))), .text(.init("Ballade"))])
        ).id("d")
        let items = Self.items(Self.page([Self.list([Self.rows[0], buttonFirst])]))
        #expect(try Self.moves(in: items[1]).first?.label == "Move Ballade up in Works of Late Night")
    }

    @Test("a row with no text of its own is named by its id")
    func untitled() throws {
        let spacer = Component.rectangle(.init(width: 10, height: 10, color: .token(.accent))).id("blank-row")
        let items = Self.items(Self.page([Self.list([Self.rows[0], spacer])]))
        #expect(try Self.moves(in: items[1]).first?.label == "Move blank-row up in Works of Late Night")
    }

    @Test("what the server wrote is escaped in every name and attribute")
    func escaped() throws {
        let hostile = Component.listRow(.init(title: #"Night & "Day" <b>"#)).id(#"x"><script>"#)
        let html = Self.page([Self.list([hostile, Self.rows[2]], label: "<i>List</i> 'one'")])
        #expect(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"))
        #expect(html.contains(#"aria-label="&lt;i&gt;List&lt;/i&gt; &#39;one&#39;""#))
        let items = Self.items(html)
        #expect(try Self.attribute("data-key", in: items[0]) == #"x"><script>"#)
        #expect(try Self.moves(in: items[0]).last?.label == #"Move Night & "Day" <b> down in <i>List</i> 'one'"#)
        #expect(try Self.moves(in: items[0]).last?.payload == Self.payload(["c", #"x"><script>"#]))
    }

    @Test("while a command blocks, the rows show with no form, no handle and nothing for a drag")
    func blocked() throws {
        let screen = Fixture.screen([Self.list([Self.rows[0], Self.rows[2]])])
        let section = try #require(ViewTreeResolver(context: ResolutionContext(isBlocked: true)).resolve(screen).root.children.first { $0.role == .section })
        let node = try #require(section.children.first)
        let html = HTMLRenderer().html(for: node, back: Self.back)
        #expect(html.hasPrefix(#"<ol class="reorder" data-node="id:works" aria-label="Works of Late Night">"#), "\(html)")
        #expect(!html.contains("<form"))
        #expect(!html.contains("reorder-handle") && !html.contains(#"class="reorder-move""#))
        #expect(!html.contains("data-reorder"))
        #expect(Self.items(html).count == 2)
        #expect(html.contains("Nocturnes") && html.contains("Gymnopédie"))
    }

    @Test("a one-row list has nothing to move: both its moves are disabled")
    func oneRow() throws {
        let items = Self.items(Self.page([Self.list([Self.rows[0]])]))
        #expect(try Self.moves(in: items[0]).map(\.payload) == [nil, nil])
        #expect(!items[0].contains("<form"))
    }
}

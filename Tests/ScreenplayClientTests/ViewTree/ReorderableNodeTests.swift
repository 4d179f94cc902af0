import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

/// A reorderable list (v6) in the view tree: one node whose children are the rows, each keyed by
/// the id its order names, and the one place a move becomes a command.
@Suite("Reorderable lists in the view tree")
struct ReorderableNodeTests {
    static let move = Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4])

    static let rows: [Component] = [
        Component.listRow(.init(title: "Nocturnes", subtitle: "Chopin")).id("a"),
        Component.listRow(.init(title: "Clair de lune")).id("b"),
        Component.listRow(.init(title: "Gymnopédie")).id("c"),
    ]

    static func list(_ rows: [Component] = rows, move: Action.Command = move) -> Component {
        Component.reorderableList(.init(label: "Works of Late Night", move: move, children: rows)).id("works")
    }

    static func node(_ component: Component = list(), context: ResolutionContext = ResolutionContext()) throws -> ViewNode {
        let screen = Screen(id: "s", title: "S", sections: [ScreenSection(id: "main", components: [component])])
        let section = try #require(ViewTreeResolver(context: context).resolve(screen).root.children.first { $0.role == .section })
        return try #require(section.children.first)
    }

    @Test("the list is one reorderable node: its children are the rows, in order, each keyed by its id")
    func resolved() throws {
        let node = try Self.node()
        #expect(node.role == .reorderable)
        #expect(node.id == "id:works")
        #expect(node.children.map(\.role) == [.row, .row, .row])
        #expect(node.children.map(\.text) == ["Nocturnes", "Clair de lune", "Gymnopédie"])
        #expect(node.children.map(\.reorderKey) == ["a", "b", "c"])
        #expect(node.reorderKey == nil, "the list is not a row")
        #expect(node.accessibility.label == "Works of Late Night")
        let reorder = try #require(node.reorder)
        #expect(reorder.order == ["a", "b", "c"])
        #expect(reorder.label == "Works of Late Night")
        #expect(reorder.move == Self.move)
        #expect(reorder.isEnabled)
        // Rows elsewhere carry no key, and nodes of other roles no reorder.
        let plain = try Self.node(.verticalStack(.init(children: Self.rows)))
        #expect(plain.reorder == nil)
        #expect(plain.children.allSatisfy { $0.reorderKey == nil })
    }

    @Test("a move is one command to the move URL: its payload's members and the new order")
    func moveCommand() throws {
        let reorder = try #require(try Self.node().reorder)
        #expect(reorder.action(moving: 2, to: 0) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["c", "a", "b"]])))
        #expect(reorder.action(moving: 0, to: 1) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["b", "a", "c"]])))
        #expect(reorder.action(moving: 0, to: 10) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["b", "c", "a"]])))
        #expect(reorder.action(for: ["b", "c", "a"]) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["b", "c", "a"]])))
    }

    @Test("a move that changes nothing is no command", arguments: [(0, 0), (0, -1), (2, 2), (2, 7), (3, 0), (-1, 1)])
    func noMove(from: Int, to: Int) throws {
        let reorder = try #require(try Self.node().reorder)
        #expect(reorder.action(moving: from, to: to) == nil)
    }

    @Test("an optimistic move stays optimistic")
    func optimistic() throws {
        let move = Action.Command(url: "commands/q", payload: ["q": 1], optimistic: .init(entities: ["queue/1": ["count": 3]]))
        let reorder = try #require(try Self.node(Self.list(move: move)).reorder)
        #expect(reorder.action(moving: 1, to: 0) == .command(.init(url: "commands/q", payload: ["q": 1, "order": ["b", "a", "c"]], optimistic: move.optimistic)))
    }

    @Test("the move controls are named after the row and the list")
    func moveLabel() throws {
        let reorder = try #require(try Self.node().reorder)
        #expect(reorder.moveLabel("Nocturnes", up: true) == "Move Nocturnes up in Works of Late Night")
        #expect(reorder.moveLabel("Gymnopédie", up: false) == "Move Gymnopédie down in Works of Late Night")
    }

    @Test("while a blocking command is in flight nothing can be moved; the rows still show")
    func blocked() throws {
        let node = try Self.node(context: ResolutionContext(isBlocked: true))
        #expect(node.reorder?.isEnabled == false)
        #expect(node.children.map(\.reorderKey) == ["a", "b", "c"])
        #expect(try Self.node(context: ResolutionContext(busyNodes: ["id:other"])).reorder?.isEnabled == true)
    }

    @Test("a row that resolves to nothing is not shown, but the order still names it, where it was")
    func rowsThatAreNotOne() throws {
        let rows = [
            Self.rows[0],
            Component.unknown(.init(type: "mystery", json: ["type": "mystery", "x": 1])).id("m"),
            Self.rows[2],
        ]
        let node = try Self.node(Self.list(rows))
        #expect(node.children.map(\.reorderKey) == ["a", "c"])
        #expect(node.reorder?.order == ["a", "m", "c"])
        #expect(node.reorder?.visible == ["a", "c"])
        // c, shown second, moves above a: it lands just before a, and m keeps its place after a.
        #expect(node.reorder?.action(moving: 1, to: 0) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["c", "a", "m"]])))
        // a moves below c, the last shown: it lands just after c.
        #expect(node.reorder?.action(moving: 0, to: 1) == .command(.init(url: Self.move.url, payload: ["playlistId": 4, "order": ["m", "c", "a"]])))
    }

    struct Pair: Decodable, Sendable { let title: String }

    @Test("an app-defined row that resolves to several nodes is its first, keyed by the row's id")
    func severalNodes() throws {
        var registry = ComponentRegistry()
        registry.register("pair", as: Pair.self) { pair, id in
            [ViewNode(id: id, role: .text, text: pair.title), ViewNode(id: NodeID(rawValue: id.rawValue + "/2"), role: .text, text: "second")]
        }
        let rows = [Self.rows[0], Component.unknown(.init(type: "pair", json: ["type": "pair", "title": "First"])).id("p")]
        let node = try Self.node(Self.list(rows), context: ResolutionContext(registry: registry))
        #expect(node.children.map(\.text) == ["Nocturnes", "First"])
        #expect(node.children.map(\.reorderKey) == ["a", "p"])
        #expect(node.reorder?.order == ["a", "p"])
    }

    @Test("a row that is a stack keeps what it holds; its key is the stack's id")
    func stackRow() throws {
        let row = Component.horizontalStack(
            .init(children: [
                .listRow(.init(title: "Nocturnes")),
                .button(.init(title: "Remove", action: .command(.init(url: "commands/remove", payload: ["workId": 3])))),
            ])
        ).id("work-3")
        let node = try Self.node(Self.list([row, Self.rows[1]]))
        #expect(node.children.map(\.role) == [.stack, .row])
        #expect(node.children.map(\.reorderKey) == ["work-3", "b"])
        #expect(node.children[0].children.map(\.role) == [.row, .button])
        #expect(node.children[0].children.allSatisfy { $0.reorderKey == nil }, "only the list's own rows are keyed")
    }

    @Test("a row the state hides is not shown, but a move still names it: the order the server checks is every row")
    func hiddenRow() throws {
        let rows = [Self.rows[0], Self.rows[1].computing(.visible, "showAll"), Self.rows[2]]
        let screen = Screen(
            id: "s", title: "S", sections: [ScreenSection(id: "main", components: [Self.list(rows)])],
            state: ["showAll": try StateVariable(.bool, initial: .bool(false))])
        let section = try #require(ViewTreeResolver().resolve(screen).root.children.first { $0.role == .section })
        let node = try #require(section.children.first)
        #expect(node.children.map(\.reorderKey) == ["a", "c"], "the hidden row is not drawn")
        // Moving "c" above "a" must not send an order without "b": a server that checks the order
        // names each of its rows (as the demo's playlists/reorder does) refuses it as stale.
        guard case .command(let command)? = node.reorder?.action(moving: 1, to: 0) else {
            Issue.record("a move is a command")
            return
        }
        let order = command.payload?.objectValue?["order"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Set(order) == ["a", "b", "c"], "the order sent: \(order)")
    }

    @Test("an empty list is an empty reorderable node, and no move is a command")
    func empty() throws {
        let node = try Self.node(Self.list([]))
        #expect(node.role == .reorderable && node.children.isEmpty)
        #expect(node.reorder?.order == [])
        #expect(node.reorder?.action(moving: 0, to: 0) == nil)
    }

    @Test("a diff sees a new order as rows that moved, not rows replaced")
    func diff() throws {
        let before = try Self.node()
        let after = try Self.node(Self.list([Self.rows[2], Self.rows[0], Self.rows[1]]))
        #expect(after.children.map(\.id) == [before.children[2].id, before.children[0].id, before.children[1].id])
        #expect(after.reorder?.order == ["c", "a", "b"])
    }
}

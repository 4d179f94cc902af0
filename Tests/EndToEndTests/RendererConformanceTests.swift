import Foundation
import ScreenplayClient
import ScreenplayContract
import ScreenplayTerminal
import ScreenplayWeb
import Testing

/// The same screens through the one client core into every renderer that runs on Linux: every
/// demo screen at every API version, and a synthetic screen with every kind and option, resolve
/// with no issue, and every node reaches both the HTML and the terminal outline.
@Suite("End to end: one view tree, every renderer", .serialized)
struct RendererConformanceTests {
    /// Every kind and option, plus every screen state and presented kind, so every role occurs.
    static func everyRoleTrees() -> [ViewNode] {
        let play = Action.play(.init(metadataURL: "queues/1", firstTrack: .init(id: "1", title: "A", streamURL: "streams/1.m4a")))
        let image = RemoteImage(url: "/images/a.svg", lowResURL: "/images/a-low.svg", size: .init(width: 40, height: 40), alt: "A")
        let command = Action.Command(url: "commands/go", payload: ["id": 1])
        let components: [Component] = [
            .pageHeader(.init(title: "Inner", subtitle: "sub", image: image)),
            .sectionHeader(.init(title: "Heading", subtitle: "sub", action: .navigate(.init(url: "screens/a")))),
            .paragraphs(.init(["One.", "Two."])),
            .detailButton(.init(title: "Detail", subtitle: "sub", image: image, action: .navigate(.init(url: "screens/b")))),
            .listRow(.init(title: "List", subtitle: "sub", image: image, composer: "Bach", recordingCount: 2, action: .command(command))),
            .trackRow(.init(title: "Track", subtitle: "sub", duration: 61, action: play)),
            .carousel(
                .init(
                    itemStyle: .portrait,
                    items: [.init(title: "Tile", subtitle: "sub", image: image, action: .navigate(.init(url: "screens/c")))])),
            .grid(.init(columns: 2, cards: [.init(title: "Card", image: image)])),
            .verticalStack(.init(alignment: .leading, spacing: 4, background: .token(.surface), padding: 8, children: [.text(.init("V"))])),
            .horizontalStack(
                .init(
                    alignment: .bottom, spacing: 2,
                    children: [.rectangle(.init(width: 4, height: 9, color: .rgb(1, 2, 3), cornerRadius: 1))])),
            .text(.init("Styled", size: 12, weight: .bold, color: .token(.accent))),
            .image(.init(image, action: .openURL(.init(url: "https://example.com")))),
            .button(.init(title: "Primary", style: .primary, action: .command(command))),
            .button(.init(title: "Go", style: .secondary, action: .navigate(.init(url: "screens/d", presentation: .modal)))),
            .button(.init(title: "Share", style: .plain, action: .share(.init(title: "s", url: "https://example.com/s")))),
            .spacer(.init(length: 8)), .spacer(.init()),
            .favoriteButton(.init(isFavorite: false, label: "L", add: command, remove: command)).id("heart")
                .bind("isFavorite", to: "playlist/1", "favorite"),
            .unknown(.init(type: "map", json: ["type": "map", "place": "Vienna"])),
            .textField(
                .init(
                    label: "Search", hint: "Composer", storageKey: "query", keyboard: .search, maxLength: 20,
                    validation: .init(pattern: "^..+$", message: "Two or more"), submit: .command(command))),
            .textField(.init(label: "Note", storageKey: "note", keyboard: .email)),
            .horizontalStack(.init(children: [.text(.init("Mon 3"))])).accessibility(label: "Attendance: Monday 3"),
            .text(.init("Vienna")).accessibility(headingLevel: 3),
            // v6: rows the user reorders, and a row with a "…" menu.
            .reorderableList(
                .init(
                    label: "Works", move: .init(url: "commands/reorder", payload: ["listId": 1]),
                    children: [.listRow(.init(title: "First")).id("r1"), .listRow(.init(title: "Second")).id("r2")])),
            .listRow(.init(title: "With menu", action: .command(command))).id("menu-row")
                .menu([MenuItem(title: "Open", action: .navigate(.init(url: "screens/e")))]),
        ]
        let screen = Screen(
            id: "all", title: "All", header: .init(title: "All"), sections: [ScreenSection(id: "all", components: components)],
            toolbar: [MenuItem(title: "Share", icon: "square.and.arrow.up", action: .share(.init(title: "s", url: "https://example.com")))],
            storage: ["query": "a"], entities: ["playlist/1": ["favorite": true]])
        var registry = ComponentRegistry()
        registry.registerCustomNode("map") { $0["place"]?.stringValue }
        let resolver = ViewTreeResolver(context: ResolutionContext(registry: registry))
        let prompt = CommandResult.Prompt(
            title: "Name", field: .init(name: "name", placeholder: "Name"), submitTitle: "OK", submit: command)
        return [
            resolver.resolve(screen).root,
            resolver.resolve(.loading(header: .init(title: "Loading"))).root,
            resolver.resolve(.failed(header: nil, error: ClientError(kind: .transport, message: "offline"))).root,
            resolver.resolve(ScreenNavigator.Presented.prompt(prompt)),
        ]
    }

    @Test("every node role occurs in the synthetic trees and has a mapping in HTML and in the terminal")
    func everyRoleMapped() throws {
        let renderer = HTMLRenderer(customNodes: ["map": { node in "<div class=\"map\">\(node.accessibility.label ?? "")</div>" }])
        let nodes = Self.everyRoleTrees().flatMap(\.allNodes)
        #expect(
            Set(nodes.map(\.role)) == Set(NodeRole.allCases),
            "roles never produced: \(Set(NodeRole.allCases).subtracting(nodes.map(\.role)))")
        for node in nodes {
            #expect(!renderer.html(for: node, back: "/").isEmpty, "HTML has no mapping for \(node.role) (\(node.id))")
            #expect(!TerminalRenderer().line(for: node).isEmpty)
        }
    }

    @Test(
        "every demo screen at every version resolves with no issue, and every node reaches HTML and the terminal",
        arguments: (APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue).map(APIVersion.init(rawValue:)))
    func demoScreens(version: APIVersion) async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withServer { root in
            let client = DemoClient(root: root, apiVersion: version)
            var queue = ["screens/home"]
            var seen = Set(queue)
            var roles: Set<NodeRole> = []
            var screens = 0
            while let url = queue.first {
                queue.removeFirst()
                let screen = try await client.loader.screen(at: url).screen
                let resolved = ViewTreeResolver(context: ResolutionContext(localActions: ["play", "share", "openURL"])).resolve(screen)
                #expect(resolved.issues.isEmpty, "\(url): \(resolved.issues)")
                let html = HTMLRenderer().page(for: screen, currentPath: "/" + url)
                let outline = TerminalRenderer().outline(resolved.root)
                for node in resolved.root.allNodes {
                    roles.insert(node.role)
                    if node.role != .screen { #expect(outline.contains("[\(node.id)]"), "\(url): \(node.id) missing from the outline") }
                    if let text = node.text, node.role != .screen {
                        #expect(html.contains(HTML.escape(text)), "\(url): \(node.role) \(node.id) text missing from the HTML")
                    }
                }
                screens += 1
                for action in screen.allActions {
                    if case .navigate(let navigate) = action, seen.insert(navigate.url).inserted { queue.append(navigate.url) }
                }
            }
            #expect(screens >= 100)
            #expect(
                roles.isSuperset(of: [
                    .screen, .header, .section, .heading, .row, .tile, .carousel, .link, .button, .stack, .text, .rectangle,
                ]))
            if version >= .v4 { #expect(roles.isSuperset(of: [.textField, .toggle]), "the search field and the hearts") }
        }
    }
}

import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Downgrade of reorderable lists")
struct ReorderableDowngradeTests {
    static let move = Action.Command(url: "commands/playlists/reorder", payload: ["playlistId": 4])

    static let rows: [Component] = [
        Component.listRow(.init(title: "Nocturnes", subtitle: "Chopin")).id("work-3"),
        Component.horizontalStack(
            .init(children: [
                .listRow(.init(title: "Clair de lune")),
                .button(.init(title: "Remove", action: .command(.init(url: "commands/playlists/remove-work", payload: ["workId": 7])))),
            ])
        ).id("work-7"),
        Component.text(.init("Gymnopédie No. 1")).id("work-9"),
    ]

    static func list(_ rows: [Component] = rows) -> Component {
        Component.reorderableList(.init(label: "Works of Late Night", move: move, children: rows)).id("works")
    }

    static func screen(_ components: [Component]) -> Screen {
        Screen(id: "playlist/4", title: "Late Night", sections: [ScreenSection(id: "works", components: components)])
    }

    static func firstList(_ screen: Screen) -> Component.ReorderableList? {
        if case .reorderableList(let list) = screen.sections.first?.components.first?.content { list } else { nil }
    }

    /// An app-defined kind from v3 whose fallback is a text with its title.
    static let offer = CustomComponentKind(
        type: "ticketOffer", versioning: KindVersioning(introduced: .v3, fallback: "a text with its title"),
        fallback: { json in json["title"]?.stringValue.map { [.text(Component.Text($0))] } ?? [] })
    /// An app-defined kind whose fallback is two components.
    static let pair = CustomComponentKind(
        type: "pairRow", versioning: KindVersioning(introduced: .v3, fallback: "a text and a button"),
        fallback: { _ in [.text(.init("first of two")), .button(.init(title: "second of two", action: .navigate(to: "screens/x")))] })

    @Test("v5 gets a vertical stack of the same rows, in order, with their ids; the stack takes the list's id")
    func v5() throws {
        let downgraded = Downgrade(to: .v5).screen(Self.screen([Self.list(), .text(.init("after"))]))
        let components = downgraded.sections[0].components
        #expect(components.count == 2)
        guard case .verticalStack(let stack) = components[0].content else {
            Issue.record("the list became \(components[0])")
            return
        }
        #expect(stack.children == Self.rows)
        #expect(stack.children.map(\.id) == ["work-3", "work-7", "work-9"])
        #expect(components[0].id == "works")
        #expect(components[1] == .text(.init("after")))
        #expect(!downgraded.allComponents.contains { $0.kind == Component.ReorderableList.kind })
    }

    @Test("what v5 gets, a strict decoder of each older version accepts whole", arguments: [APIVersion.v1, .v3, .v4, .v5])
    func olderDecodersAccept(version: APIVersion) throws {
        let downgraded = Downgrade(to: version).screen(Self.screen([Self.list()]).assigningComponentIDs())
        let bytes = try ScreenplayEncoder(apiVersion: version).encode(downgraded)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Screen.self, from: bytes)
        #expect(decoded.issues.isEmpty)
        #expect(decoded.value.allComponents.count == downgraded.allComponents.count)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("reorderableList"))
    }

    @Test("without the downgrade, a v5 client would lose the whole list: the fallback is what keeps its rows")
    func withoutDowngrade() throws {
        let bytes = try ScreenplayEncoder(apiVersion: .v5).encode(Self.screen([Self.list()]))
        let decoded = try ScreenplayDecoder(apiVersion: .v5).decode(Screen.self, from: bytes)
        #expect(decoded.issues.map(\.message) == ["unknown component type 'reorderableList'"])
    }

    @Test("what the list asked to be reported goes to the stack that stands in for it")
    func reportKept() {
        let downgraded = Downgrade(to: .v5).screen(Self.screen([Self.list().reportingVisible("playlist/works")]))
        #expect(downgraded.sections[0].components.first?.attributes.report.visible == "playlist/works")
    }

    @Test("v6 keeps the list as it is")
    func v6() {
        let screen = Self.screen([Self.list(), .text(.init("after"))])
        #expect(Downgrade(to: .v6).screen(screen) == screen)
        #expect(Self.firstList(Downgrade(to: .v6).screen(screen))?.order == ["work-3", "work-7", "work-9"])
    }

    @Test("inside a v6 list, a row of a kind the client lacks becomes one component with the row's id; an unregistered one goes")
    func rowsDowngradedInPlace() throws {
        let rows: [Component] = [
            Component.custom("ticketOffer", fields: ["title": "Tonight"]).id("offer"),
            Component.listRow(.init(title: "Kept")).id("kept"),
            Component.custom("pairRow", fields: [:]).id("pair"),
            Component.custom("mystery", fields: ["x": 1]).id("mystery"),
        ]
        let downgrade = Downgrade(to: .v6, customKinds: ["ticketOffer": Self.offer, "pairRow": Self.pair])
        let list = try #require(Self.firstList(downgrade.screen(Self.screen([Self.list(rows)]))))
        #expect(list.order == ["offer", "kept", "pair"], "each row stays one component, named as it was")
        #expect(list.children[0] == Component.text(.init("Tonight")).id("offer"))
        #expect(list.children[2] == Component.text(.init("first of two")).id("pair"), "of a fallback of two, the first stands for the row")
        #expect(list.children[1] == rows[1])
        // A client that renders the kind gets it as it is.
        let renders = Downgrade(to: .v6, customKinds: ["ticketOffer": Self.offer], clientKinds: ["ticketOffer"])
        #expect(Self.firstList(renders.screen(Self.screen([Self.list(Array(rows.prefix(2)))])))?.children == Array(rows.prefix(2)))
    }

    @Test("before v6 the same rows go into the stack whole: a fallback of two stays two")
    func rowsInTheStack() throws {
        let rows: [Component] = [Component.custom("pairRow", fields: [:]).id("pair"), Component.listRow(.init(title: "Kept")).id("kept")]
        let downgraded = Downgrade(to: .v5, customKinds: ["pairRow": Self.pair]).screen(Self.screen([Self.list(rows)]))
        guard case .verticalStack(let stack) = downgraded.sections[0].components.first?.content else {
            Issue.record("\(downgraded.sections[0].components)")
            return
        }
        #expect(stack.children.count == 3)
        #expect(stack.children.first?.id == "pair")
        #expect(stack.children.last == rows[1])
    }

    @Test("screens inside command results are downgraded the same way")
    func commandResult() {
        guard case .screen(let screen) = Downgrade(to: .v5).result(.screen(Self.screen([Self.list()]))).outcome else {
            Issue.record("still a screen")
            return
        }
        #expect(screen.sections[0].components.first?.kind == Component.VerticalStack.kind)
        guard case .screen(let kept) = Downgrade(to: .v6).result(.screen(Self.screen([Self.list()]))).outcome else { return }
        #expect(kept.sections[0].components.first?.kind == Component.ReorderableList.kind)
    }

    @Test("ids are assigned inside the list as inside a stack: the rows' own kept, what they hold named under them")
    func assignedIDs() throws {
        let screen = Self.screen([Self.list()]).assigningComponentIDs()
        let list = try #require(Self.firstList(screen))
        #expect(list.order == ["work-3", "work-7", "work-9"])
        let inner = list.children[1].children
        #expect(inner.count == 2)
        #expect(inner.allSatisfy { $0.id?.hasPrefix("work-7/") == true }, "\(inner.map(\.id))")
        #expect(screen.structuralProblems.isEmpty)
    }
}

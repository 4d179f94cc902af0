import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Downgrade for older clients")
struct DowngradeTests {
    static let toggle = Component.FavoriteButton(
        isFavorite: false, label: "Mornings", add: .init(url: "commands/favorites/add", payload: ["playlistId": 4]),
        remove: .init(url: "commands/favorites/remove", payload: ["playlistId": 4]))

    static let grid = Component.Grid(
        columns: 2,
        cards: [
            .init(title: "With action", action: .navigate(to: "screens/a")),
            .init(title: "Without action"),
        ])

    static func screen() -> Screen {
        Screen(id: "s", title: "S") {
            Section("a") {
                Text("kept")
                toggle
                VStack {
                    HStack { grid }
                    Text("nested kept")
                }
            }
        }
    }

    @Test("v1 gets fallbacks everywhere, nested ones included; nothing v1 cannot decode remains")
    func v1() throws {
        let downgraded = Downgrade(to: .v1).screen(Self.screen())
        let components = downgraded.sections[0].components
        #expect(components[0] == .text(.init("kept")))
        #expect(components[1] == .button(.init(title: "Add to favorites", style: .secondary, action: .command(Self.toggle.add))))
        guard case .verticalStack(let outer) = components[2].content, case .horizontalStack(let inner) = outer.children[0].content else {
            Issue.record("stacks stay stacks")
            return
        }
        #expect(
            inner.children == [
                .detailButton(.init(title: "With action", action: .navigate(to: "screens/a"))),
                .listRow(.init(title: "Without action")),
            ] as [Component])
        // A strict v1 decoder accepts every byte of it.
        let bytes = try ScreenplayEncoder(apiVersion: .v1).encode(downgraded)
        let decoded = try ScreenplayDecoder(mode: .strict, apiVersion: .v1).decode(Screen.self, from: bytes)
        #expect(decoded.issues.isEmpty)
        #expect(decoded.value == downgraded)
    }

    @Test("v2 and later keep the v2 kinds untouched")
    func v2() {
        #expect(Downgrade(to: .v2).screen(Self.screen()) == Self.screen())
        #expect(Downgrade(to: .v3).screen(Self.screen()) == Self.screen())
    }

    @Test("a v1 decoder sees v2 kinds as unknown; undowngraded bytes would cost a v1 client its component")
    func withoutDowngrade() throws {
        let bytes = try ScreenplayEncoder(apiVersion: .v1).encode(Self.screen())
        let decoded = try ScreenplayDecoder(apiVersion: .v1).decode(Screen.self, from: bytes)
        #expect(decoded.issues.map(\.message) == ["unknown component type 'favoriteButton'", "unknown component type 'grid'"])
    }

    @Test("screens inside command results are downgraded too")
    func commandResult() {
        let result = Downgrade(to: .v1).result(.screen(Self.screen()))
        guard case .screen(let screen) = result.outcome else {
            Issue.record("still a screen")
            return
        }
        #expect(screen.sections[0].components[1].kind == Component.Button.kind)
        #expect(Downgrade(to: .v1).result(.done(.init(message: "x"))) == .done(.init(message: "x")))
    }

    @Test("an unregistered app-defined component never leaves, at any version; in results too")
    func unregisteredCustom() {
        let screen = Screen(id: "s", title: "S") {
            Section("a") {
                Text("kept")
                Component.custom("mystery", fields: ["x": 1])
            }
        }
        for version in [APIVersion.v1, .v3] {
            #expect(Downgrade(to: version).screen(screen).sections[0].components == [.text(.init("kept"))])
        }
        guard case .screen(let result) = Downgrade(to: .v3).result(.screen(screen)).outcome else { return }
        #expect(result.sections[0].components.count == 1)
    }

    @Test("the catalog records when each kind arrived")
    func catalog() {
        #expect(Component.kinds(knownAt: .v1).count == 14)
        let v6: Set<ComponentKind> = [Component.Rows.kind, Component.ReorderableList.kind]
        #expect(Component.kinds(knownAt: .v3) == Component.knownKinds.filter { $0 != Component.TextField.kind && !v6.contains($0) })
        #expect(Component.kinds(knownAt: .v5) == Component.knownKinds.filter { !v6.contains($0) })
        #expect(Component.kinds(knownAt: .v6) == Component.knownKinds)
        #expect(Component.FavoriteButton.versioning.introduced == .v2)
        #expect(Component.TrackRow.fieldChanges.map(\.version) == [.v3])
    }
}

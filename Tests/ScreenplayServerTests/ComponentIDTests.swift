import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Component ids and bindings on the server (v4)")
struct ComponentIDTests {
    static func rows(_ titles: [String]) -> Screen {
        Screen(id: "s", title: "S") {
            Section("works", header: "Works") {
                for title in titles { ListRow(title: title, action: .navigate(to: "screens/work/\(title)")) }
                Text("Two rows")
                Text("Two rows")
                VStack { Spacer(length: 4) }
            }
        }
    }

    @Test("every component gets an id from its section, kind and identity key; duplicates get ~2")
    func derived() throws {
        let screen = Self.rows(["a", "b"]).assigningComponentIDs()
        #expect(
            screen.allComponents.map(\.id) == [
                "works/listRow:screens/work/a", "works/listRow:screens/work/b", "works/text:Two-rows", "works/text:Two-rows~2",
                "works/verticalStack", "works/verticalStack/spacer",
            ])
        #expect(screen.duplicateComponentID == nil)
        #expect(screen.structuralProblems.isEmpty)
        let strict = try ScreenplayDecoder(mode: .strict).decode(Screen.self, from: ScreenplayEncoder().encode(screen))
        #expect(strict.value == screen, "derived ids are valid ids")
    }

    @Test("a derived id follows its component when the screen is reordered")
    func stableUnderReorder() {
        let before = Self.rows(["a", "b", "c"]).assigningComponentIDs().allComponents
        let after = Self.rows(["c", "a", "b"]).assigningComponentIDs().allComponents
        func id(of title: String, in components: [Component]) -> String? {
            components.first { if case .listRow(let row) = $0.content { row.title == title } else { false } }?.id
        }
        for title in ["a", "b", "c"] { #expect(id(of: title, in: before) == id(of: title, in: after)) }
    }

    @Test("author ids are kept and never handed out again")
    func authorIDs() {
        let screen = Screen(id: "s", title: "S") {
            Section("works") {
                Text("Two rows").id("works/text:Two-rows")
                Text("Two rows")
            }
        }.assigningComponentIDs()
        #expect(screen.allComponents.map(\.id) == ["works/text:Two-rows", "works/text:Two-rows~2"])
    }

    @Test("a long or strange identity key still makes a valid id")
    func strangeKeys() throws {
        let screen = Screen(id: "s", title: "S") {
            Section("a b") {
                Text(String(repeating: "ü", count: 300))
                Button(title: "x", action: .command("commands/x", payload: ["q": "a\"b?c", "n": 1]))
            }
        }.assigningComponentIDs()
        for id in screen.allComponents.compactMap(\.id) {
            #expect(id.count <= 128)
            let json = #"{"id":"s","title":"S","sections":[{"id":"a","components":[{"type":"spacer","id":"\#(id)"}]}]}"#
            #expect(try ScreenplayDecoder(mode: .strict).decode(Screen.self, from: Data(json.utf8)).issues.isEmpty, "\(id)")
        }
    }

    @Test(
        "a screen with duplicate author ids or a dangling binding is a 500 naming the problem, never sent",
        arguments: ["duplicate", "dangling"])
    func refused(path: String) async throws {
        var routes = ScreenplayRoutes()
        routes.screen("duplicate") { _ in
            Screen(id: "d", title: "D") {
                Section("s") {
                    Text("a").id("same")
                    Text("b").id("same")
                }
            }
        }
        routes.screen("dangling") { _ in
            Screen(id: "d", title: "D", entities: ["price": ["amount": "€1"]]) {
                Section("s") { Text("€1").bind("text", to: "cost", "amount") }
            }
        }
        let service = ScreenplayService(routes: routes, identity: CountingIdentities())
        for version in ["v1", "v4"] {
            let response = await service.respond(to: request(.get, "/api/\(version)/screens/\(path)"), body: [])
            #expect(response.head.status == .internalServerError)
            let message = try decodeError(response).error.message
            #expect(
                message.contains(path == "duplicate" ? "duplicate component id 'same'" : "no entity 'cost' on the screen"), "\(message)")
            #expect(message.contains("$.sections[0].components[1]") || path == "dangling", "\(message)")
        }
    }
}

@Suite("Downgrading v4 to older clients")
struct SharedStateDowngradeTests {
    static let screen = Screen(id: "s", title: "S", entities: ["playlist/3": ["favorite": true]]) {
        Section("a") {
            Component.FavoriteButton(isFavorite: false, label: "x", add: .init(url: "commands/a"), remove: .init(url: "commands/r"))
                .bind("isFavorite", to: "playlist/3", "favorite")
            TextField(label: "Search", storageKey: "query", submit: .command("commands/search"))
            TextField(label: "Note", storageKey: "note")
        }
    }

    @Test("v3 gets bindings resolved into the fields, the text field as a button with its command, and no entities")
    func v3() throws {
        let downgraded = Downgrade(to: .v3).screen(Self.screen)
        let components = downgraded.sections[0].components
        #expect(components.count == 2, "a field with no submit has no fallback")
        guard case .favoriteButton(let heart) = components[0].content else {
            Issue.record("\(components)")
            return
        }
        #expect(heart.isFavorite, "the entity's value, not the stale inline one")
        #expect(components[1] == .button(.init(title: "Search", style: .secondary, action: .command("commands/search"))))
        let bytes = try ScreenplayEncoder(apiVersion: .v3).encode(downgraded)
        #expect(try ScreenplayDecoder(mode: .strict, apiVersion: .v3).decode(Screen.self, from: bytes).issues.isEmpty)
        #expect(!bytes.utf8Text.contains("entities") && !bytes.utf8Text.contains("bind"))
        // v1 gets the heart's own fallback, built from the resolved value.
        let v1 = Downgrade(to: .v1).screen(Self.screen).sections[0].components[0]
        #expect(v1 == .button(.init(title: "Remove from favorites", style: .secondary, action: .command(.init(url: "commands/r")))))
    }

    @Test("v4 keeps bindings and entities for the client to resolve")
    func v4() {
        #expect(Downgrade(to: .v4).screen(Self.screen) == Self.screen)
    }

    @Test("an entity patch becomes a reload for clients before v4; other updates are dropped")
    func resultUpdates() {
        let patch = CommandResult(
            .done(.init(message: "Saved")),
            updates: .init(storage: ["q": "x"], entities: ["e": ["m": 1]], effects: [.custom(.init(name: "x"))]))
        #expect(Downgrade(to: .v3).result(patch) == .done(.init(message: "Saved", refresh: true)))
        #expect(Downgrade(to: .v4).result(patch) == patch)
        let storageOnly = CommandResult(.done(.init(message: "Saved")), updates: .init(storage: ["q": "x"]))
        #expect(Downgrade(to: .v3).result(storageOnly) == .done(.init(message: "Saved", refresh: false)))
    }
}

extension Data {
    var utf8Text: String { String(decoding: self, as: UTF8.self) }
}

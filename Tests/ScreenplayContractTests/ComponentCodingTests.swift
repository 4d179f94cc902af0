import Foundation
import ScreenplayContract
import Testing

/// One component kind with a fully populated value and a minimal one, and the exact members
/// each must have on the wire.
struct ComponentSample: Sendable, CustomTestStringConvertible {
    let kind: String
    let full: Component
    let fullKeys: Set<String>
    let minimal: Component
    let minimalKeys: Set<String>

    var testDescription: String { kind }

    static let image = RemoteImage(
        url: "images/mozart.jpg", lowResURL: "images/mozart-small.jpg", size: .init(width: 96, height: 96), alt: "Portrait")
    static let navigate = Action.navigate(.init(url: "screens/composer/mozart", header: .init(title: "Mozart"), presentation: .push))

    static let all: [ComponentSample] = [
        ComponentSample(
            kind: "pageHeader",
            full: .pageHeader(ScreenHeader(title: "Mozart", subtitle: "1756–1791", image: image)),
            fullKeys: ["type", "title", "subtitle", "image"],
            minimal: .pageHeader(ScreenHeader(title: "Mozart")),
            minimalKeys: ["type", "title"]),
        ComponentSample(
            kind: "sectionHeader",
            full: .sectionHeader(.init(title: "Popular works", subtitle: "Top 10", action: navigate)),
            fullKeys: ["type", "title", "subtitle", "action"],
            minimal: .sectionHeader(.init(title: "Popular works")),
            minimalKeys: ["type", "title"]),
        ComponentSample(
            kind: "paragraphs",
            full: .paragraphs(.init(["First.", "Second."])),
            fullKeys: ["type", "paragraphs"],
            minimal: .paragraphs(.init([])),
            minimalKeys: ["type", "paragraphs"]),
        ComponentSample(
            kind: "detailButton",
            full: .detailButton(.init(title: "Biography", subtitle: "Read more", image: image, action: navigate)),
            fullKeys: ["type", "title", "subtitle", "image", "action"],
            minimal: .detailButton(.init(title: "Biography", action: navigate)),
            minimalKeys: ["type", "title", "action"]),
        ComponentSample(
            kind: "listRow",
            full: .listRow(
                .init(title: "Requiem", subtitle: "K. 626", image: image, composer: "Mozart", recordingCount: 12, action: navigate)),
            fullKeys: ["type", "title", "subtitle", "image", "composer", "recordingCount", "action"],
            minimal: .listRow(.init(title: "Requiem")),
            minimalKeys: ["type", "title"]),
        ComponentSample(
            kind: "trackRow",
            full: .trackRow(.init(title: "I. Allegro", subtitle: "Berliner Philharmoniker", duration: 461, action: navigate)),
            fullKeys: ["type", "title", "subtitle", "duration", "action"],
            minimal: .trackRow(.init(title: "I. Allegro")),
            minimalKeys: ["type", "title"]),
        ComponentSample(
            kind: "carousel",
            full: .carousel(
                .init(itemStyle: .portrait, items: [.init(title: "Mozart", subtitle: "Austrian", image: image, action: navigate)])),
            fullKeys: ["type", "itemStyle", "items"],
            minimal: .carousel(.init(itemStyle: .wide, items: [])),
            minimalKeys: ["type", "itemStyle", "items"]),
        ComponentSample(
            kind: "verticalStack",
            full: .verticalStack(
                .init(alignment: .leading, spacing: 8, background: .token(.surface), padding: 4, children: [.spacer(.init(length: 2))])),
            fullKeys: ["type", "alignment", "spacing", "background", "padding", "children"],
            minimal: .verticalStack(.init(children: [])),
            minimalKeys: ["type", "children"]),
        ComponentSample(
            kind: "horizontalStack",
            full: .horizontalStack(
                .init(alignment: .bottom, spacing: 2, background: .rgb(30, 144, 255), padding: 1, children: [.text(.init("a"))])),
            fullKeys: ["type", "alignment", "spacing", "background", "padding", "children"],
            minimal: .horizontalStack(.init(children: [])),
            minimalKeys: ["type", "children"]),
        ComponentSample(
            kind: "text",
            full: .text(.init("42", size: 17, weight: .semibold, color: .token(.accent))),
            fullKeys: ["type", "text", "size", "weight", "color"],
            minimal: .text(.init("42")),
            minimalKeys: ["type", "text"]),
        ComponentSample(
            kind: "image",
            full: .image(.init(image, action: navigate)),
            fullKeys: ["type", "image", "action"],
            minimal: .image(.init(RemoteImage(url: "https://cdn.example/a.png"))),
            minimalKeys: ["type", "image"]),
        ComponentSample(
            kind: "rectangle",
            full: .rectangle(.init(width: 120, height: 8.5, color: .rgba(red: 255, green: 0, blue: 0, alpha: 128), cornerRadius: 2)),
            fullKeys: ["type", "width", "height", "color", "cornerRadius"],
            minimal: .rectangle(.init(width: 0, height: 10_000, color: .token(.negative))),
            minimalKeys: ["type", "width", "height", "color"]),
        ComponentSample(
            kind: "button",
            full: .button(.init(title: "Add", style: .primary, action: .command(.init(url: "commands/favorites/add", payload: ["id": 7])))),
            fullKeys: ["type", "title", "style", "action"],
            minimal: .button(.init(title: "Add", action: navigate)),
            minimalKeys: ["type", "title", "action"]),
        ComponentSample(
            kind: "spacer",
            full: .spacer(.init(length: 16)),
            fullKeys: ["type", "length"],
            minimal: .spacer(.init()),
            minimalKeys: ["type"]),
        ComponentSample(
            kind: "favoriteButton",
            full: .favoriteButton(
                .init(
                    isFavorite: true, label: "Baroque Essentials", add: .init(url: "commands/favorites/add", payload: ["playlistId": 1]),
                    remove: .init(url: "commands/favorites/remove", payload: ["playlistId": 1]))),
            fullKeys: ["type", "isFavorite", "label", "add", "remove"],
            minimal: .favoriteButton(.init(isFavorite: false, label: "x", add: .init(url: "commands/a"), remove: .init(url: "commands/r"))),
            minimalKeys: ["type", "isFavorite", "label", "add", "remove"]),
        ComponentSample(
            kind: "grid",
            full: .grid(.init(columns: 3, cards: [.init(title: "Card", subtitle: "Sub", image: image, action: navigate)])),
            fullKeys: ["type", "columns", "cards"],
            minimal: .grid(.init(columns: 1, cards: [])),
            minimalKeys: ["type", "columns", "cards"]),
        ComponentSample(
            kind: "textField",
            full: .textField(
                .init(
                    label: "Search", hint: "Composer or work", storageKey: "query", keyboard: .search, maxLength: 100,
                    validation: .init(pattern: "^.{2,}$", message: "Type at least two characters"), requiredMessage: "Type a search",
                    submit: .command(.init(url: "commands/search")), suggestions: "screens/search/suggestions")),
            fullKeys: ["type", "label", "hint", "storageKey", "keyboard", "maxLength", "validation", "requiredMessage", "submit", "suggestions"],
            minimal: .textField(.init(label: "Name", storageKey: "name")),
            minimalKeys: ["type", "label", "storageKey"]),
        ComponentSample(
            kind: "rows",
            full: .rows(
                .init(
                    items: "works",
                    template: ["type": "listRow", "title": "${item.title}", "action": ["type": "navigate", "url": "/screens/work/${item.id}"]])),
            fullKeys: ["type", "items", "template"],
            minimal: .rows(.init(items: "names", template: ["type": "text", "text": "${item}"])),
            minimalKeys: ["type", "items", "template"]),
        ComponentSample(
            kind: "reorderableList",
            full: .reorderableList(
                .init(
                    label: "Works of Late Night", move: .init(url: "commands/playlists/reorder", payload: ["playlistId": 4]),
                    children: [.listRow(.init(title: "Nocturnes")).id("work-3"), .listRow(.init(title: "Clair de lune")).id("work-7")])),
            fullKeys: ["type", "label", "move", "children"],
            minimal: .reorderableList(.init(label: "Empty", move: .init(url: "commands/reorder"), children: [])),
            minimalKeys: ["type", "label", "move", "children"]),
    ]
}

@Suite("Component coding")
struct ComponentCodingTests {
    @Test("A text field says where its suggestions are to v6 only; a link that is no endpoint is refused at its path")
    func textFieldSuggestions() throws {
        let field = Component.textField(.init(label: "Search", storageKey: "query", suggestions: "screens/search/suggestions"))
        for version in [APIVersion.v4, .v5, .v6] {
            let json = String(decoding: try ScreenplayEncoder(apiVersion: version).encode(field), as: UTF8.self)
            #expect(json.contains("screens/search/suggestions") == (version >= .v6), "\(version): \(json)")
            guard case .textField(let read) = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Component.self, from: Data(json.utf8)).value.content
            else {
                Issue.record("not a text field")
                continue
            }
            #expect(read.suggestions == (version >= .v6 ? "screens/search/suggestions" : nil))
        }
        // A v5 reader ignores a v6 server's suggestions.
        let v6 = try ScreenplayEncoder(apiVersion: .v6).encode(field)
        guard case .textField(let old) = try ScreenplayDecoder(mode: .strict, apiVersion: .v5).decode(Component.self, from: v6).value.content else {
            Issue.record("not a text field")
            return
        }
        #expect(old.suggestions == nil)
        for hostile in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd"] {
            let text = #"{"type":"textField","label":"Search","storageKey":"query","suggestions":"\#(hostile)"}"#
            #expect("\(hostile)") {
                try ScreenplayDecoder(mode: .strict, apiVersion: .v6).decode(Component.self, from: Data(text.utf8))
            } throws: { error in
                String(describing: error).contains("suggestions")
            }
        }
    }

    @Test("The samples cover every known kind exactly once")
    func samplesCoverCatalog() {
        #expect(Component.knownKinds.count == 19)
        #expect(ComponentSample.all.map(\.kind) == Component.knownKinds.map(\.rawValue))
        #expect(ComponentSample.all.map(\.full.kind) == Component.knownKinds)
    }

    @Suite("Round trip")
    struct RoundTrip {
        @Test("A fully populated component survives encode and decode", arguments: ComponentSample.all)
        func fullValue(sample: ComponentSample) throws {
            #expect(try Fixture.roundTrip(sample.full) == sample.full)
        }

        @Test("A minimal component survives encode and decode", arguments: ComponentSample.all)
        func minimalValue(sample: ComponentSample) throws {
            #expect(try Fixture.roundTrip(sample.minimal) == sample.minimal)
        }

        @Test("A component inside a screen survives with its neighbours in order")
        func insideScreen() throws {
            // Rows are made into plain rows when a screen is decoded (RowsCodingTests): every other kind stays.
            let kinds = ComponentSample.all.filter { $0.kind != Component.Rows.kind.rawValue }
            let screen = Screen(
                id: "catalog", title: "Catalog",
                sections: [ScreenSection(id: "all", header: .init(title: "All"), components: kinds.map(\.full))])
            let decoded = try Fixture.roundTrip(screen)
            #expect(decoded == screen)
            #expect(decoded.sections[0].components.map(\.kind) == Component.knownKinds.filter { $0 != Component.Rows.kind })
        }
    }

    @Suite("Wire shape")
    struct WireShape {
        @Test("`type` names the kind and the fields sit next to it", arguments: ComponentSample.all)
        func flattenedFields(sample: ComponentSample) throws {
            let object = try Fixture.wireObject(sample.full)
            #expect(object["type"] as? String == sample.kind)
            #expect(Set(object.keys) == sample.fullKeys)
        }

        @Test("Nil optionals are left out of the object", arguments: ComponentSample.all)
        func nilOptionalsOmitted(sample: ComponentSample) throws {
            let object = try Fixture.wireObject(sample.minimal)
            #expect(object["type"] as? String == sample.kind)
            #expect(Set(object.keys) == sample.minimalKeys)
            for absent in sample.fullKeys.subtracting(sample.minimalKeys) {
                #expect(object[absent] == nil, "'\(absent)' should be omitted when nil")
            }
        }

        @Test("Colors travel as one string: token name or uppercase hex")
        func colorsAsStrings() throws {
            let rectangle = try Fixture.wireObject(ComponentSample.all.first { $0.kind == "rectangle" }!.full)
            #expect(rectangle["color"] as? String == "#FF000080")
            let stack = try Fixture.wireObject(ComponentSample.all.first { $0.kind == "horizontalStack" }!.full)
            #expect(stack["background"] as? String == "#1E90FF")
            let text = try Fixture.wireObject(Component.text(.init("x", color: .token(.accent))))
            #expect(text["color"] as? String == "accent")
        }

        @Test("Nested children and actions are objects with their own `type`")
        func nestedTypes() throws {
            let object = try Fixture.wireObject(ComponentSample.all.first { $0.kind == "horizontalStack" }!.full)
            let children = try #require(object["children"] as? [[String: Any]])
            #expect(children.count == 1)
            #expect(children[0]["type"] as? String == "text")
            #expect(children[0]["text"] as? String == "a")

            let button = try Fixture.wireObject(ComponentSample.all.first { $0.kind == "button" }!.full)
            let action = try #require(button["action"] as? [String: Any])
            #expect(action["type"] as? String == "command")
            #expect(action["url"] as? String == "commands/favorites/add")
            #expect((action["payload"] as? [String: Any])?["id"] as? Int == 7)
        }

        @Test("A page header is the same object as a screen header plus `type`")
        func pageHeaderMatchesScreenHeader() throws {
            let header = ScreenHeader(title: "Mozart", subtitle: "1756–1791")
            var asComponent = try Fixture.wireObject(Component.pageHeader(header))
            let asHeader = try Fixture.wireObject(header)
            #expect(asComponent.removeValue(forKey: "type") as? String == "pageHeader")
            #expect(NSDictionary(dictionary: asComponent).isEqual(to: asHeader))
        }
    }

    @Suite("Unknown kinds")
    struct UnknownKinds {
        @Test("An unknown component keeps its type and JSON, and encodes back verbatim")
        func keptVerbatim() throws {
            let json = #"{"cells":[{"title":"a"}],"columns":3,"type":"hologram"}"#
            let decoded = try ScreenplayDecoder().decode(Component.self, from: Data(json.utf8))
            guard case .unknown(let unknown) = decoded.value.content else {
                Issue.record("expected .unknown, got \(decoded.value)")
                return
            }
            #expect(unknown.type == "hologram")
            #expect(unknown.json["columns"] == .integer(3))
            #expect(decoded.value.kind.rawValue == "hologram")
            #expect(decoded.value.payload == nil)
            #expect(decoded.issues == [DecodingIssue(kind: .unknownKind, path: "$", message: "unknown component type 'hologram'")])
            #expect(try ScreenplayEncoder().encode(decoded.value).utf8Text == json)
        }

        @Test("Children lists only stack contents")
        func children() {
            let leaf = Component.text(.init("leaf"))
            #expect(Component.verticalStack(.init(children: [leaf, leaf])).children == [leaf, leaf])
            #expect(Component.horizontalStack(.init(children: [leaf])).children == [leaf])
            #expect(Component.carousel(.init(itemStyle: .square, items: [.init(title: "x")])).children.isEmpty)
            #expect(leaf.children.isEmpty)
        }
    }
}

import Foundation
import ScreenplayContract
import Testing

/// v4: the attributes every component shares, a screen's storage and entities, and what a command
/// result updates; each gated by version and each read lossily.
@Suite("Component attributes, storage, entities and result updates (v4)")
struct SharedStateCodingTests {
    static let favorite = Component.favoriteButton(
        .init(
            isFavorite: false, label: "Night Music", add: .init(url: "commands/favorites/add"),
            remove: .init(url: "commands/favorites/remove")))

    static let screen = Screen(
        id: "playlist/3", title: "Night Music",
        sections: [
            ScreenSection(
                id: "about",
                components: [
                    favorite.id("heart").accessibility(label: "Favorite", hint: "Saves the playlist", headingLevel: nil)
                        .bind("isFavorite", to: "playlist/3", "favorite"),
                    Component.text(.init("Night Music")).accessibility(headingLevel: 2),
                ])
        ],
        storage: ["query": "moz"], entities: ["playlist/3": ["favorite": true, "price": 12.5]])

    @Test("v4 writes and reads back ids, accessibility, bindings, storage and entities")
    func roundTrip() throws {
        #expect(try Fixture.roundTrip(Self.screen) == Self.screen)
        let object = try Fixture.wireObject(Self.screen)
        let section = try #require((object["sections"] as? [[String: Any]])?.first)
        let heart = try #require((section["components"] as? [[String: Any]])?.first)
        #expect(heart["id"] as? String == "heart")
        #expect((heart["bind"] as? [String: [String: String]])?["isFavorite"] == ["entity": "playlist/3", "field": "favorite"])
        #expect((heart["accessibility"] as? [String: String])?["label"] == "Favorite")
        #expect((object["storage"] as? [String: String]) == ["query": "moz"])
        #expect(((object["entities"] as? [String: Any])?["playlist/3"] as? [String: Any])?["favorite"] as? Bool == true)
    }

    @Test("a v3 encoder leaves all of it out, and a v3 decoder ignores it")
    func olderVersions() throws {
        let v3 = try ScreenplayEncoder(apiVersion: .v3).encode(Self.screen)
        let text = v3.utf8Text
        for member in ["\"id\":\"heart\"", "\"bind\"", "\"accessibility\"", "\"storage\"", "\"entities\""] {
            #expect(!text.contains(member), "\(member) leaked into v3")
        }
        let v4 = try ScreenplayEncoder(apiVersion: .v4).encode(Self.screen)
        let read = try ScreenplayDecoder(mode: .strict, apiVersion: .v3).decode(Screen.self, from: v4)
        #expect(read.issues.isEmpty)
        #expect(read.value.storage.isEmpty && read.value.entities.isEmpty)
        #expect(read.value.sections[0].components[0].attributes.isEmpty)
    }

    @Test(
        "a bad attribute, storage or entity map is reported at its path and left out; the component and the screen stay",
        arguments: [
            (#"{"type":"spacer","id":"has space"}"#, "$.sections[0].components[0].id"),
            (#"{"type":"spacer","id":""}"#, "$.sections[0].components[0].id"),
            (#"{"type":"spacer","accessibility":{"headingLevel":7}}"#, "$.sections[0].components[0].accessibility.headingLevel"),
            (#"{"type":"spacer","accessibility":{"label":""}}"#, "$.sections[0].components[0].accessibility.label"),
            (#"{"type":"spacer","bind":{"length":{"entity":"e"}}}"#, "$.sections[0].components[0].bind.length.field"),
            (#"{"type":"spacer","bind":"length"}"#, "$.sections[0].components[0].bind"),
        ])
    func badAttributes(component: String, path: String) throws {
        let decoded = try Fixture.screen(Fixture.screenJSON(components: component))
        #expect(decoded.value.sections[0].components.count == 1, "the component survives")
        #expect(decoded.value.sections[0].components[0].attributes.isEmpty)
        #expect(decoded.issues.map(\.path) == [path], "\(decoded.issues)")
    }

    @Test("storage over its limits, or entities that are not objects, lose only themselves")
    func oversizedStorage() throws {
        let long = String(repeating: "é", count: 4_097)
        let tooMany = (0...64).map { "\"k\($0)\":\"v\"" }.joined(separator: ",")
        for (member, path, reason) in [
            (#""storage":{"query":"\#(long)"}"#, "$.storage", "'query' is 4097 characters long; the limit is 4096"),
            ("\"storage\":{\(tooMany)}", "$.storage", "65 keys; the limit is 64"),
            (#""storage":{"n":1}"#, "$.storage.n", "expected a string"),
            (#""entities":{"a":true}"#, "$.entities.a", "expected an object"),
        ] {
            let decoded = try Fixture.screen(#"{"id":"s","title":"S","sections":[],"# + member + "}")
            #expect(decoded.value.storage.isEmpty && decoded.value.entities.isEmpty)
            #expect(decoded.issues.map(\.path) == [path], "\(member.prefix(40)): \(decoded.issues)")
            #expect(decoded.issues.first?.message.contains(reason) == true, "\(decoded.issues)")
        }
        let atLimit = try Fixture.screen(
            #"{"id":"s","title":"S","sections":[],"storage":{"q":"\#(String(repeating: "é", count: 4_096))"}}"#)
        #expect(atLimit.issues.isEmpty)
        #expect(atLimit.value.storage["q"]?.unicodeScalars.count == 4_096)
    }

    @Test("a result's storage, entity patches and effects round-trip at v4 and vanish at v3")
    func resultUpdates() throws {
        let result = CommandResult(
            .done(.init(message: "Saved")),
            updates: .init(
                storage: ["query": ""], entities: ["playlist/3": ["favorite": false]],
                effects: [.openURL(.init(url: "https://example.com/receipt")), .custom(.init(name: "confetti"))]))
        #expect(try Fixture.roundTrip(result) == result)
        let v3 = try ScreenplayEncoder(apiVersion: .v3).encode(result).utf8Text
        #expect(v3 == #"{"message":"Saved","refresh":false,"type":"done"}"#)
        let lossy = try ScreenplayDecoder().decode(
            CommandResult.self, from: Data(#"{"type":"done","effects":[{"type":"openURL","url":"javascript:x"},{"type":"play"}]}"#.utf8))
        #expect(lossy.value.updates.effects.isEmpty)
        #expect(lossy.issues.map(\.path) == ["$.effects[0].url", "$.effects[1].metadataURL"])
    }

    @Test(
        "the text field reads its rules and refuses what breaks them",
        arguments: [
            (#"{"type":"textField","label":"L","storageKey":"q"}"#, true),
            (#"{"type":"textField","label":"L","storageKey":"q","keyboard":"hologram"}"#, true),
            (#"{"type":"textField","label":"","storageKey":"q"}"#, false),
            (#"{"type":"textField","label":"L","storageKey":"has space"}"#, false),
            (#"{"type":"textField","label":"L","storageKey":"q","maxLength":0}"#, false),
            (#"{"type":"textField","label":"L","storageKey":"q","maxLength":4097}"#, false),
            (#"{"type":"textField","label":"L","storageKey":"q","validation":{"pattern":"^a$"}}"#, false),
        ])
    func textField(json: String, accepted: Bool) throws {
        let (components, issues) = try Fixture.components(json)
        #expect(components.count == (accepted ? 1 : 0), "\(issues)")
        if json.contains("hologram") {
            guard case .textField(let field) = components.first?.content else {
                Issue.record("no field")
                return
            }
            #expect(field.keyboard == .text)
            #expect(issues.map(\.kind) == [.unknownValue])
        }
    }
}

@Suite("Entity bindings")
struct EntityBindingTests {
    static let toggle = Component.favoriteButton(
        .init(isFavorite: false, label: "x", add: .init(url: "commands/a"), remove: .init(url: "commands/r")))

    @Test("a bound field takes the entity's member; the component's own value is the fallback")
    func applies() throws {
        let bound = Self.toggle.bind("isFavorite", to: "playlist/3", "favorite")
        let (on, problems) = bound.resolvingBindings(["playlist/3": ["favorite": true]])
        #expect(problems.isEmpty)
        guard case .favoriteButton(let value) = on.content else {
            Issue.record("kind changed")
            return
        }
        #expect(value.isFavorite)
        #expect(on.attributes == bound.attributes, "bindings stay for the next patch")
        let text = Component.text(.init("€10")).bind("text", to: "price", "display")
        guard case .text(let price) = text.resolvingBindings(["price": ["display": "€12"]]).component.content else { return }
        #expect(price.text == "€12")
    }

    @Test(
        "each broken binding is a problem that names it, and leaves the field as it was",
        arguments: [
            ("isFavorite", "missing", "favorite", "no entity 'missing' on the screen"),
            ("isFavorite", "playlist/3", "nope", "entity 'playlist/3' has no member 'nope'"),
            ("hologram", "playlist/3", "favorite", "a 'favoriteButton' has no field 'hologram'"),
            ("isFavorite", "playlist/3", "title", "the value does not fit"),
            ("type", "playlist/3", "favorite", "'type' cannot be bound"),
        ])
    func problems(field: String, entity: String, member: String, message: String) {
        let bound = Self.toggle.bind(field, to: entity, member)
        let (result, problems) = bound.resolvingBindings(["playlist/3": ["favorite": true, "title": "Night Music"]])
        #expect(result.content == Self.toggle.content)
        #expect(problems.count == 1)
        #expect(problems.first?.description.contains(message) == true, "\(problems)")
    }

    @Test(
        "the direct path for common fields gives exactly what decoding the patched JSON gives",
        arguments: [
            (
                Component.favoriteButton(.init(isFavorite: false, label: "x", add: .init(url: "c/a"), remove: .init(url: "c/r"))),
                "isFavorite", JSONValue.bool(true)
            ),
            (.favoriteButton(.init(isFavorite: false, label: "x", add: .init(url: "c/a"), remove: .init(url: "c/r"))), "label", "Night"),
            (.text(.init("a", size: 12)), "text", "€12"),
            (.button(.init(title: "a", action: .command(.init(url: "c/x")))), "title", "Buy"),
            (.listRow(.init(title: "a", subtitle: "b")), "title", "T"),
            (.listRow(.init(title: "a", subtitle: "b")), "subtitle", .null),
            (.detailButton(.init(title: "a", action: .navigate(.init(url: "s/x")))), "subtitle", "S"),
            (.text(.init("a")), "text", 12),
            (.favoriteButton(.init(isFavorite: false, label: "x", add: .init(url: "c/a"), remove: .init(url: "c/r"))), "isFavorite", "yes"),
        ])
    func directMatchesDecoder(component: Component, field: String, value: JSONValue) throws {
        let bound = component.bind(field, to: "e", "m")
        let (direct, problems) = bound.resolvingBindings(["e": ["m": value]])
        guard case .object(var object) = try JSONDecoder().decode(JSONValue.self, from: ScreenplayEncoder().encode(component)) else {
            return
        }
        object[field] = value
        let viaDecoder = try? JSONDecoder().decode(Component.self, from: ScreenplayEncoder().encode(JSONValue.object(object)))
        if let viaDecoder {
            #expect(problems.isEmpty)
            #expect(direct.content == viaDecoder.content)
        } else {
            #expect(problems.count == 1, "the decoder refuses \(value) for '\(field)', so must the direct path")
            #expect(direct.content == component.content)
        }
    }

    @Test("duplicate ids are found with the path of the second one, also inside stacks")
    func duplicates() {
        let screen = Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(id: "a", components: [Component.spacer(.init()).id("x")]),
                ScreenSection(
                    id: "b",
                    components: [Component.verticalStack(.init(children: [Component.text(.init("t")).id("x")]))]),
            ])
        #expect(screen.duplicateComponentID?.id == "x")
        #expect(screen.duplicateComponentID?.path == "$.sections[1].components[0].children[0]")
        #expect(Screen(id: "s", title: "S", sections: []).duplicateComponentID == nil)
    }
}

import ScreenplayClient
import ScreenplayContract
import Testing

/// v4 client state: storage typed into text fields and sent with commands, entity patches that
/// reach every screen showing the entity, effects run on the device.
@Suite("Client storage and entities in the navigation state machine")
struct ClientStateTests {
    static let search = Component.TextField(
        label: "Search", storageKey: "query", maxLength: 5, validation: .init(pattern: #"^\S{2,}$"#, message: "Two or more"),
        submit: .command(.init(url: "commands/search")))

    static func heart(_ id: Int) -> Component {
        Component.favoriteButton(
            .init(isFavorite: false, label: "p\(id)", add: .init(url: "commands/add"), remove: .init(url: "commands/remove"))
        ).bind("isFavorite", to: "playlist/\(id)", "favorite")
    }

    static func screen(_ id: String, components: [Component], storage: ClientStorage = [:], entities: Entities = [:]) -> Screen {
        Screen(id: id, title: id, sections: [ScreenSection(id: "main", components: components)], storage: storage, entities: entities)
    }

    static func load(_ screen: Screen, etag: String = "\"1\"", revalidated: Bool = false) -> Result<LoadedScreen, ClientError> {
        .success(LoadedScreen(screen: screen, issues: [], etag: etag, revalidated: revalidated))
    }

    /// A machine with `screens` pushed and loaded, root first.
    static func machine(_ screens: [Screen]) -> NavigationStateMachine {
        var machine = NavigationStateMachine()
        for (index, screen) in screens.enumerated() {
            let effect =
                index == 0 ? machine.start(at: "screens/\(screen.id)", header: nil) : machine.navigate(.init(url: "screens/\(screen.id)"))
            guard case .load(let entry, _, let generation) = effect else { continue }
            _ = machine.loaded(entry: entry, generation: generation, result: load(screen))
        }
        return machine
    }

    /// The body of the single command an effect sends.
    static func sent(_ effect: NavigationStateMachine.Effect) -> (id: Int, extra: [String: JSONValue])? {
        guard case .send(let id, let request) = effect else { return nil }
        return (id, request.extra)
    }

    @Test("storage round trip: the screen's values, then typed text, travel with a command; a result sets new values")
    func storageRoundTrip() throws {
        var machine = Self.machine([Self.screen("search", components: [Self.search.component], storage: ["query": "ba", "page": "1"])])
        #expect(machine.top?.storage == ["query": "ba", "page": "1"])
        #expect(try machine.type("bach", into: "query") == "bach")
        let sent = try #require(Self.sent(machine.send(.init(url: "commands/search", payload: ["n": 1]))))
        #expect(sent.extra == ["storage": ["query": "bach", "page": "1"]])
        _ = machine.commandFinished(sent.id, result: .success(CommandResult(.done(.init()), updates: .init(storage: ["query": ""]))))
        #expect(machine.top?.storage == ["query": "", "page": "1"])
    }

    @Test("typing is cut at the field's length; a key no field stores is refused")
    func typing() throws {
        var machine = Self.machine([Self.screen("search", components: [Self.search.component])])
        #expect(try machine.type("Mozart!", into: "query") == "Mozar")
        #expect(try machine.type("e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}", into: "query").count == 5, "characters, not scalars")
        #expect(throws: NavigationStateMachine.TypingError.noField("nope")) { try machine.type("x", into: "nope") }
        var empty = NavigationStateMachine()
        #expect(throws: NavigationStateMachine.TypingError.noScreen) { try empty.type("x", into: "query") }
    }

    @Test("no storage, no storage member: old-style commands are sent as before")
    func noStorage() throws {
        var machine = Self.machine([Self.screen("home", components: [])])
        #expect(try #require(Self.sent(machine.send(.init(url: "commands/x")))).extra.isEmpty)
    }

    @Test("an entity patch reaches every screen on the stack that shows the entity, and reloads none")
    func fanOut() throws {
        let home = Self.screen(
            "home", components: [Self.heart(3), Self.heart(4)],
            entities: ["playlist/3": ["favorite": false], "playlist/4": ["favorite": false]])
        let playlist = Self.screen("playlist/3", components: [Self.heart(3)], entities: ["playlist/3": ["favorite": false, "title": "x"]])
        var machine = Self.machine([home, playlist])
        let states = machine.entries.map(\.state)
        let sent = try #require(Self.sent(machine.send(.init(url: "commands/add"))))
        let effect = machine.commandFinished(
            sent.id,
            result: .success(CommandResult(.done(.init(message: "Added")), updates: .init(entities: ["playlist/3": ["favorite": true]]))))
        #expect(effect == .none, "no reload")
        #expect(machine.entries.map(\.state) == states)
        #expect(machine.entries[0].entities == ["playlist/3": ["favorite": true], "playlist/4": ["favorite": false]])
        #expect(machine.entries[1].entities == ["playlist/3": ["favorite": true, "title": "x"]], "other members stay")
        // What each renderer sees: both hearts for playlist 3 on, the one for 4 off.
        let hearts = machine.entries.flatMap { entry in
            ViewTreeResolver().resolve(entry).root.allNodes.filter { $0.role == .toggle }.map(\.text)
        }
        #expect(hearts == ["Remove from favorites", "Add to favorites", "Remove from favorites"])
    }

    @Test("a 304 keeps the patches; a new body brings the server's entities")
    func revalidation() throws {
        let screen = Self.screen("playlist/3", components: [Self.heart(3)], entities: ["playlist/3": ["favorite": false]])
        var machine = Self.machine([screen])
        let sent = try #require(Self.sent(machine.send(.init(url: "commands/add"))))
        _ = machine.commandFinished(
            sent.id, result: .success(CommandResult(.done(.init()), updates: .init(entities: ["playlist/3": ["favorite": true]]))))
        guard case .load(let entry, _, let generation) = machine.refresh() else {
            Issue.record("refresh loads")
            return
        }
        _ = machine.loaded(entry: entry, generation: generation, result: Self.load(screen, revalidated: true))
        #expect(machine.top?.entities == ["playlist/3": ["favorite": true]])
        guard case .load(_, _, let next) = machine.refresh() else { return }
        var fresh = screen
        fresh.entities = ["playlist/3": ["favorite": false]]
        _ = machine.loaded(entry: entry, generation: next, result: Self.load(fresh, etag: "\"2\""))
        #expect(machine.top?.entities == ["playlist/3": ["favorite": false]])
    }

    @Test("effects come back to be run after the outcome; a popped origin still gets its patches")
    func effects() throws {
        var machine = Self.machine([
            Self.screen("home", components: [Self.heart(3)], entities: ["playlist/3": ["favorite": false]]),
            Self.screen("other", components: []),
        ])
        let sent = try #require(Self.sent(machine.send(.init(url: "commands/add"))))
        _ = machine.pop()
        let open = Action.openURL(.init(url: "https://example.com"))
        let effect = machine.commandFinished(
            sent.id,
            result: .success(
                CommandResult(
                    .navigate(.init(url: "screens/x")), updates: .init(entities: ["playlist/3": ["favorite": true]], effects: [open]))))
        #expect(effect == .perform([open]), "the move is dropped (its screen is gone), the effect still runs")
        #expect(machine.entries[0].entities["playlist/3"]?["favorite"] == true)
    }

    @Test("a replacement screen brings its own storage, then the result's storage is set on it")
    func replacement() throws {
        var machine = Self.machine([Self.screen("search", components: [Self.search.component])])
        try machine.type("bach", into: "query")
        let sent = try #require(Self.sent(machine.send(.init(url: "commands/search"))))
        let results = Self.screen("search", components: [Self.search.component], storage: ["query": "bach", "page": "2"])
        _ = machine.commandFinished(sent.id, result: .success(CommandResult(.screen(results), updates: .init(storage: ["page": "3"]))))
        #expect(machine.top?.state.screen == results)
        #expect(machine.top?.storage == ["query": "bach", "page": "3"])
    }
}

@Suite("Text fields in the view tree")
struct TextFieldResolutionTests {
    static func resolve(_ field: Component.TextField, storage: ClientStorage) -> (ViewNode, [ResolutionIssue]) {
        let screen = Screen(id: "s", title: "S", sections: [ScreenSection(id: "main", components: [field.component.id("f")])])
        let resolved = ViewTreeResolver(context: .init(storage: storage)).resolve(screen)
        return (resolved.root.node(withID: "id:f") ?? ViewNode(id: "missing", role: .spacer), resolved.issues)
    }

    @Test(
        "the message shows once something is typed that breaks the rule; submit is enabled only for valid text",
        arguments: [
            ("", nil as String?, false), ("a", "Two or more", false), ("ab", nil, true), ("a b", "Two or more", false),
            ("abcdef", "At most 5 characters", false),
        ])
    func validation(text: String, message: String?, valid: Bool) {
        let (node, issues) = Self.resolve(ClientStateTests.search, storage: ["query": text])
        #expect(issues.isEmpty)
        #expect(node.role == .textField)
        #expect(node.field?.value == text)
        #expect(node.field?.validationMessage == message)
        #expect(node.field?.isValid == valid)
        #expect(node.action?.isEnabled == valid)
        #expect(node.accessibility.label == "Search")
    }

    @Test(
        "a required text (v6): blank sends nothing, and spaces say why; the message and the rule reach the renderer",
        arguments: [("", nil as String?, false), ("  ", "Type a name", false), ("Ada", nil, true)])
    func required(text: String, message: String?, valid: Bool) {
        let field = Component.TextField(
            label: "Name", storageKey: "name", requiredMessage: "Type a name", submit: .command(.init(url: "commands/rename")))
        let (node, issues) = Self.resolve(field, storage: ["name": text])
        #expect(issues.isEmpty)
        #expect(node.field?.validationMessage == message)
        #expect(node.field?.isValid == valid)
        #expect(node.action?.isEnabled == valid)
        #expect(node.field?.requiredMessage == "Type a name")
    }

    @Test("a verdict computed from the state (v6): its message is the field's, its submit waits, and typing re-evaluates it")
    func computedVerdict() throws {
        let field = Component.TextField(label: "Name", storageKey: "name", submit: .command(.init(url: "commands/rename")))
            .computing(.validation, "len(name) > 3 ? 'At most three letters, ' + string(len(name)) + ' typed' : ''").id("f")
        let screen = Screen(
            id: "s", title: "S", sections: [ScreenSection(id: "main", components: [field])],
            state: ["name": try StateVariable(.string, initial: .string("Ada"))])
        var engine = BindingEngine(screen: screen)
        func node(_ typed: String) -> ViewNode? {
            var context = ResolutionContext(storage: ["name": typed])
            context.computed = engine.results
            return ViewTreeResolver(context: context).resolve(screen).root.node(withID: "id:f")
        }
        #expect(node("Ada")?.field?.isValid == true && node("Ada")?.action?.isEnabled == true && node("Ada")?.field?.validationMessage == nil)
        #expect(try engine.set("name", to: .string("Adele")) == [BindingEngine.Key("f", .validation)])
        let refused = node("Adele")
        #expect(refused?.field?.validationMessage == "At most three letters, 5 typed")
        #expect(refused?.field?.isValid == false && refused?.action?.isEnabled == false)
        #expect(refused?.accessibility.hint == "At most three letters, 5 typed")
        // Another kind ignores it: a verdict is a text field's.
        let text = Component.text(.init("x")).computing(.validation, "'no'").id("t")
        let other = Screen(id: "o", title: "O", sections: [ScreenSection(id: "main", components: [text])])
        #expect(ViewTreeResolver().resolve(other).root.node(withID: "id:t")?.text == "x")
    }

    @Test("a pattern the device cannot compile is logged and accepts any text")
    func badPattern() {
        var field = ClientStateTests.search
        field.validation = .init(pattern: "([unclosed", message: "x")
        let (node, issues) = Self.resolve(field, storage: ["query": "ab"])
        #expect(node.field?.isValid == true)
        #expect(issues.map(\.message) == ["text field 'query': the pattern '([unclosed' does not compile; any text is accepted"])
    }

    @Test("the whole text must match: a pattern that matches a part is not enough")
    func anchored() {
        #expect(TextInput.validate("abc", against: .init(pattern: "b", message: "m")) == .invalid(message: "m"))
        #expect(TextInput.validate("b", against: .init(pattern: "b", message: "m")) == .valid)
        #expect(TextInput.validate("anything", against: nil) == .valid)
    }
}

@Suite("Ids, accessibility and bindings in the view tree")
struct SharedAttributeResolutionTests {
    @Test("a component with an id is keyed by it wherever it moves; a duplicate is logged and keyed by position")
    func ids() {
        let a = Component.text(.init("a")).id("first")
        let screen = Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(id: "one", components: [a]),
                ScreenSection(id: "two", components: [Component.text(.init("b")).id("first")]),
            ])
        let resolved = ViewTreeResolver().resolve(screen)
        #expect(resolved.root.node(withID: "id:first")?.text == "a")
        #expect(resolved.root.node(withID: "section:two/text:b")?.text == "b")
        #expect(resolved.issues.map(\.message) == ["duplicate component id 'first'; this one is keyed by position"])
        let moved = Screen(id: "s", title: "S", sections: [ScreenSection(id: "elsewhere", components: [Component.spacer(.init()), a])])
        #expect(ViewTreeResolver().resolve(moved).root.node(withID: "id:first")?.text == "a")
    }

    @Test("server accessibility text replaces the resolver's; a heading level makes a header")
    func accessibility() {
        let image = Component.image(.init(RemoteImage(url: "/x.svg"), action: .navigate(.init(url: "screens/x"))))
            .id("i").accessibility(label: "Open the map", hint: "Shows the venues")
        let title = Component.text(.init("Vienna")).id("t").accessibility(headingLevel: 3)
        let resolved = ViewTreeResolver().resolve(
            Screen(id: "s", title: "S", sections: [ScreenSection(id: "m", components: [image, title])]))
        let imageNode = resolved.root.node(withID: "id:i")
        #expect(imageNode?.accessibility.label == "Open the map")
        #expect(imageNode?.accessibility.hint == "Shows the venues")
        #expect(resolved.issues.isEmpty, "a labelled image with an action needs no made-up name")
        let titleNode = resolved.root.node(withID: "id:t")
        #expect(titleNode?.accessibility.headingLevel == 3)
        #expect(titleNode?.accessibility.traits.contains(.header) == true)
    }

    @Test("a bound node shows the entity's value; a binding to nothing is logged and shows the inline value")
    func bindings() {
        let screen = Screen(
            id: "s", title: "S",
            sections: [ScreenSection(id: "m", components: [ClientStateTests.heart(3).id("h3"), ClientStateTests.heart(9).id("h9")])],
            entities: ["playlist/3": ["favorite": true]])
        let resolved = ViewTreeResolver().resolve(screen)
        #expect(resolved.root.node(withID: "id:h3")?.text == "Remove from favorites")
        #expect(resolved.root.node(withID: "id:h9")?.text == "Add to favorites")
        #expect(
            resolved.issues.map(\.description) == [
                "id:h9: binding 'isFavorite' ← playlist/9.favorite: no entity 'playlist/9' on the screen"
            ])
        var patched = ViewTreeResolver()
        patched.context.entities = ["playlist/3": ["favorite": false]]
        #expect(
            patched.resolve(screen).root.node(withID: "id:h3")?.text == "Add to favorites", "the context's entities win over the screen's")
    }
}

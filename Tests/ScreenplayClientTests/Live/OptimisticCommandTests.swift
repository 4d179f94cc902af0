import ScreenplayClient
import ScreenplayContract
import Testing

/// Optimistic commands (v5) in the navigation state machine: the outcome shows at once on every
/// screen of the stack, the server's answer wins, a failure or a refusal puts it back, and two
/// quick taps end in the state of the last one whatever order the answers come back in.
@Suite("Optimistic commands")
struct OptimisticCommandTests {
    static let entity = "playlist/3"

    static func heart(_ favorite: Bool) -> Action.Command {
        Action.Command(
            url: favorite ? "commands/favorites/add" : "commands/favorites/remove", payload: ["playlistId": 3],
            optimistic: .init(entities: [entity: ["favorite": .bool(favorite)]]))
    }

    /// The server's answer to a heart: the entity as it now is.
    static func answer(_ favorite: Bool) -> Result<CommandResult, ClientError> {
        .success(CommandResult(.done(.init(message: nil)), updates: .init(entities: [entity: ["favorite": .bool(favorite)]])))
    }

    static func screen(_ id: String, favorite: Bool) -> Result<LoadedScreen, ClientError> {
        let screen = Screen(id: id, title: id, sections: [], entities: [entity: ["favorite": .bool(favorite), "name": "Night"]])
        return .success(LoadedScreen(screen: screen, issues: [], etag: "\"\(id)-\(favorite)\"", revalidated: false))
    }

    /// Home and the playlist on the stack, both showing the playlist's heart (not a favorite).
    static func stack() -> NavigationStateMachine {
        var machine = NavigationStateMachine()
        if case .load(let entry, _, let generation) = machine.start(at: "screens/home", header: nil) {
            _ = machine.loaded(entry: entry, generation: generation, result: screen("home", favorite: false))
        }
        if case .load(let entry, _, let generation) = machine.navigate(.init(url: "screens/playlist/3")) {
            _ = machine.loaded(entry: entry, generation: generation, result: screen("playlist", favorite: false))
        }
        return machine
    }

    static func favorites(_ machine: NavigationStateMachine) -> [JSONValue?] {
        machine.entries.map { $0.entities[entity]?["favorite"] }
    }

    static func commandID(_ effect: NavigationStateMachine.Effect) -> Int? {
        if case .send(let id, _) = effect { return id }
        return nil
    }

    @Test("the outcome shows at once on every screen that has the entity, without blocking; the answer confirms it")
    func applyAndConfirm() throws {
        var machine = Self.stack()
        let id = try #require(Self.commandID(machine.send(Self.heart(true), from: "about/heart")))
        #expect(Self.favorites(machine) == [true, true])
        #expect(machine.pendingEntities == [Self.entity])
        #expect(!machine.isPerformingCommand && machine.busyNodes.isEmpty, "an optimistic tap does not block the screen")
        _ = machine.commandFinished(id, result: Self.answer(true))
        #expect(Self.favorites(machine) == [true, true])
        #expect(machine.pendingEntities.isEmpty)
        #expect(machine.entries[0].entities[Self.entity]?["name"] == "Night", "members not named keep their values")
    }

    @Test("a failure (a 500, a timeout) puts the outcome back everywhere and shows the error")
    func rollbackOnFailure() throws {
        var machine = Self.stack()
        let id = try #require(Self.commandID(machine.send(Self.heart(true))))
        _ = machine.commandFinished(id, result: .failure(ClientError(kind: .server(status: 500, body: nil), message: "The server failed.")))
        #expect(Self.favorites(machine) == [false, false])
        #expect(machine.presented == .error("The server failed."))
        #expect(machine.pendingEntities.isEmpty)
    }

    @Test("a refusal (an error result) puts it back too")
    func rollbackOnRefusal() throws {
        var machine = Self.stack()
        let id = try #require(Self.commandID(machine.send(Self.heart(true))))
        _ = machine.commandFinished(id, result: .success(.error(.init(message: "That playlist is gone."))))
        #expect(Self.favorites(machine) == [false, false])
        #expect(machine.presented == .error("That playlist is gone."))
    }

    @Test("the server's answer wins over the guess")
    func serverWins() throws {
        var machine = Self.stack()
        let id = try #require(Self.commandID(machine.send(Self.heart(true))))
        _ = machine.commandFinished(id, result: Self.answer(false))
        #expect(Self.favorites(machine) == [false, false])
    }

    @Test("two quick taps end in the state of the last tap, whatever order the answers come in", arguments: [false, true])
    func twoQuickTaps(reversed: Bool) throws {
        var machine = Self.stack()
        let first = try #require(Self.commandID(machine.send(Self.heart(true))))
        let second = try #require(Self.commandID(machine.send(Self.heart(false))))
        #expect(Self.favorites(machine) == [false, false])
        let answers = [(first, Self.answer(true)), (second, Self.answer(false))]
        for (id, answer) in reversed ? answers.reversed() : answers {
            _ = machine.commandFinished(id, result: answer)
            #expect(Self.favorites(machine) == [false, false], "the last tap's state holds while answers arrive")
        }
        #expect(machine.pendingEntities.isEmpty)
    }

    @Test("the second of two taps fails after the first was confirmed: back to what the server confirmed")
    func laterTapFails() throws {
        var machine = Self.stack()
        let first = try #require(Self.commandID(machine.send(Self.heart(true))))
        let second = try #require(Self.commandID(machine.send(Self.heart(false))))
        _ = machine.commandFinished(first, result: Self.answer(true))
        #expect(Self.favorites(machine) == [false, false])
        _ = machine.commandFinished(second, result: .failure(ClientError(kind: .transport, message: "offline")))
        #expect(Self.favorites(machine) == [true, true])
    }

    @Test("the first of two taps fails while the second is on its way: the second's outcome stays, and its failure goes back to the start")
    func earlierTapFails() throws {
        var machine = Self.stack()
        let first = try #require(Self.commandID(machine.send(Self.heart(true))))
        let second = try #require(Self.commandID(machine.send(Self.heart(false))))
        _ = machine.commandFinished(first, result: .failure(ClientError(kind: .transport, message: "offline")))
        #expect(Self.favorites(machine) == [false, false])
        _ = machine.commandFinished(second, result: .failure(ClientError(kind: .transport, message: "offline")))
        #expect(Self.favorites(machine) == [false, false])
    }

    @Test("a refresh that lands while the command is out keeps showing the outcome, and a failure goes back to the refreshed value")
    func refreshWhilePending() throws {
        var machine = Self.stack()
        let id = try #require(Self.commandID(machine.send(Self.heart(true))))
        guard case .load(let entry, _, let generation) = machine.revalidate(["screens/playlist/3"]) else {
            Issue.record("no revalidation")
            return
        }
        // The server has not seen the tap yet: the new body still says not a favorite.
        _ = machine.loaded(entry: entry, generation: generation, result: Self.screen("playlist-again", favorite: false))
        #expect(Self.favorites(machine) == [true, true])
        _ = machine.commandFinished(id, result: .failure(ClientError(kind: .transport, message: "offline")))
        #expect(Self.favorites(machine) == [false, false])
    }

    @Test("a revalidation read before a command's answer does not undo the answer's patch when it lands after it")
    func staleRevalidation() throws {
        var machine = Self.stack()
        // An event asks for the playlist again; the server reads it before the tap below lands.
        guard case .load(let entry, _, let generation) = machine.revalidate(["screens/playlist/3"]) else {
            Issue.record("no revalidation")
            return
        }
        let id = try #require(Self.commandID(machine.send(Self.heart(true))))
        _ = machine.commandFinished(id, result: Self.answer(true))
        _ = machine.loaded(entry: entry, generation: generation, result: Self.screen("playlist-read-before", favorite: false))
        #expect(Self.favorites(machine) == [true, true])
        #expect(machine.top?.state.screen?.id == "playlist-read-before", "the rest of the body is taken")
    }

    @Test("an outcome for an entity no screen shows changes nothing and blocks nothing")
    func unknownEntity() throws {
        var machine = Self.stack()
        let command = Action.Command(url: "commands/x", optimistic: .init(entities: ["playlist/99": ["favorite": true]]))
        let id = try #require(Self.commandID(machine.send(command)))
        #expect(machine.entries.allSatisfy { $0.entities["playlist/99"] == nil })
        _ = machine.commandFinished(id, result: .failure(ClientError(kind: .transport, message: "offline")))
        #expect(Self.favorites(machine) == [false, false])
    }

    @Test("a bound node is marked pending while its entity waits for the server")
    func pendingNodes() throws {
        let heart = Component.favoriteButton(
            .init(isFavorite: false, label: "Night", add: Self.heart(true), remove: Self.heart(false))
        ).id("heart").bind("isFavorite", to: Self.entity, "favorite")
        let screen = Screen(
            id: "playlist/3", title: "Night", sections: [ScreenSection(id: "about", components: [heart, .text(.init("Plain")).id("plain")])],
            entities: [Self.entity: ["favorite": false]])
        var context = ResolutionContext(pendingEntities: [Self.entity])
        let pending = ViewTreeResolver(context: context).resolve(screen).root.allNodes
        #expect(pending.first { $0.id.rawValue.hasSuffix("heart") }?.isPending == true)
        #expect(pending.first { $0.id.rawValue.hasSuffix("plain") }?.isPending == false)
        context.pendingEntities = []
        let settled = ViewTreeResolver(context: context).resolve(screen).root
        #expect(settled.allNodes.allSatisfy { !$0.isPending })
        #expect(ScreenDiff(from: ViewTreeResolver(context: ResolutionContext(pendingEntities: [Self.entity])).resolve(screen).root, to: settled)
            .updated.values.map(\.fields) == [[.pending]])
    }
}

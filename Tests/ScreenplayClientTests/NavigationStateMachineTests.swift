import ScreenplayClient
import ScreenplayContract
import Testing

/// Each transition of the navigation state machine on its own: no network, no timing.
@Suite("Navigation state machine")
struct NavigationStateMachineTests {
    static let header = ScreenHeader(title: "Mozart")
    static func loaded(_ id: String) -> Result<LoadedScreen, ClientError> {
        .success(LoadedScreen(screen: Screen(id: id, title: id, sections: []), issues: [], etag: "\"\(id)\"", revalidated: false))
    }
    static let offline = ClientError(kind: .transport, message: "offline")

    /// A machine with `home` loaded.
    static func atHome() -> NavigationStateMachine {
        var machine = NavigationStateMachine()
        guard case .load(let entry, _, let generation) = machine.start(at: "screens/home", header: nil) else { return machine }
        _ = machine.loaded(entry: entry, generation: generation, result: loaded("home"))
        return machine
    }

    @Test("push shows the carried header at once and asks for the body")
    func push() {
        var machine = Self.atHome()
        let effect = machine.navigate(.init(url: "screens/composer/mozart", header: Self.header))
        #expect(effect == .load(entry: 2, url: "screens/composer/mozart", generation: 1))
        #expect(machine.top?.state == .loading(header: Self.header))
        #expect(machine.top?.presentation == .push)
        #expect(machine.entries.count == 2)
    }

    @Test("modal presentation is recorded on the entry; pop dismisses it")
    func modal() {
        var machine = Self.atHome()
        _ = machine.navigate(.init(url: "screens/settings", presentation: .modal))
        #expect(machine.top?.presentation == .modal)
        #expect(machine.pop() == .cancelLoads([2]))
        #expect(machine.top?.url == "screens/home")
    }

    @Test("pop never removes the root; pop-to-root removes everything above it and cancels their loads")
    func pops() {
        var machine = Self.atHome()
        #expect(machine.pop() == .none)
        _ = machine.navigate(.init(url: "screens/a"))
        _ = machine.navigate(.init(url: "screens/b"))
        #expect(machine.popToRoot() == .cancelLoads([2, 3]))
        #expect(machine.entries.map(\.url) == ["screens/home"])
        #expect(machine.popToRoot() == .none)
    }

    @Test("a deep link pushes its screen unless it is already on top")
    func deepLink() {
        var machine = Self.atHome()
        #expect(machine.open(deepLink: "screens/home") == .none)
        #expect(machine.open(deepLink: "screens/work/3") == .load(entry: 2, url: "screens/work/3", generation: 1))
    }

    @Test("a load that answers after its screen was popped changes nothing")
    func cancelledLoad() {
        var machine = Self.atHome()
        guard case .load(let entry, _, let generation) = machine.navigate(.init(url: "screens/a")) else {
            Issue.record()
            return
        }
        _ = machine.pop()
        let before = machine
        #expect(machine.loaded(entry: entry, generation: generation, result: Self.loaded("a")) == .none)
        #expect(machine == before)
    }

    @Test("an unchanged (304) refresh and a failed or cancelled refresh leave the loaded screen exactly as it was")
    func refreshes() {
        var machine = Self.atHome()
        let before = machine
        guard case .load(let entry, _, let generation) = machine.refresh() else {
            Issue.record()
            return
        }
        let unchanged = LoadedScreen(
            screen: Screen(id: "home", title: "home", sections: []), issues: [], etag: "\"home\"", revalidated: true)
        _ = machine.loaded(entry: entry, generation: generation, result: .success(unchanged))
        #expect(machine.top?.state == before.top?.state)
        guard case .load(_, _, let next) = machine.refresh() else {
            Issue.record()
            return
        }
        _ = machine.loaded(entry: entry, generation: next, result: .failure(ClientError(kind: .transport, message: "cancelled")))
        #expect(machine.top?.state == before.top?.state)
    }

    @Test("a failed first load shows the error with the header; retry goes back to loading")
    func failureAndRetry() {
        var machine = NavigationStateMachine()
        guard case .load(let entry, _, let generation) = machine.start(at: "screens/a", header: Self.header) else {
            Issue.record()
            return
        }
        _ = machine.loaded(entry: entry, generation: generation, result: .failure(Self.offline))
        #expect(machine.top?.state == .failed(header: Self.header, error: Self.offline))
        #expect(machine.retry() == .load(entry: entry, url: "screens/a", generation: generation + 1))
        #expect(machine.top?.state == .loading(header: Self.header))
    }

    @Test("a command blocks input and shows its node busy until it answers")
    func blockingCommand() {
        var machine = Self.atHome()
        let effect = machine.send(.init(url: "commands/go"), from: "section:a/button:go")
        #expect(effect == .send(command: 1, .init(command: .init(url: "commands/go"), extra: [:])))
        #expect(machine.isPerformingCommand && machine.busyNodes == ["section:a/button:go"])
        _ = machine.commandFinished(1, result: .success(.done(.init())))
        #expect(!machine.isPerformingCommand && machine.busyNodes.isEmpty)
    }

    @Test(
        "every command-result kind becomes its state",
        arguments: [
            (CommandResult.done(.init(message: "Saved", refresh: false)), NavigationStateMachine.Presented?.some(.message("Saved"))),
            (.choice(.init(title: "Pick", options: [])), .choice(.init(title: "Pick", options: []))),
            (
                .prompt(.init(title: "Name", field: .init(name: "n"), submitTitle: "OK", submit: .init(url: "commands/n"))),
                .prompt(.init(title: "Name", field: .init(name: "n"), submitTitle: "OK", submit: .init(url: "commands/n")))
            ),
            (.error(.init(message: "No")), .error("No")),
            (.unknown(type: "toast", json: [:]), .error("This version of the app cannot show the answer 'toast'.")),
        ])
    func resultKinds(result: CommandResult, presented: NavigationStateMachine.Presented?) {
        var machine = Self.atHome()
        _ = machine.send(.init(url: "commands/x"))
        #expect(machine.commandFinished(1, result: .success(result)) == .none)
        #expect(machine.presented == presented)
    }

    @Test("done with refresh reloads the screen the command came from, even after navigating away")
    func doneRefreshesOrigin() {
        var machine = Self.atHome()
        _ = machine.send(.init(url: "commands/x"))
        _ = machine.navigate(.init(url: "screens/a"))
        #expect(
            machine.commandFinished(1, result: .success(.done(.init(refresh: true)))) == .load(entry: 1, url: "screens/home", generation: 2)
        )
    }

    @Test("a replacement screen replaces its origin only; navigate pushes; a transport failure is an error")
    func otherResults() {
        var machine = Self.atHome()
        _ = machine.send(.init(url: "commands/x"))
        _ = machine.commandFinished(1, result: .success(.screen(Screen(id: "new", title: "New", sections: []))))
        #expect(machine.top?.state.screen?.id == "new")
        _ = machine.send(.init(url: "commands/y"))
        #expect(
            machine.commandFinished(2, result: .success(.navigate(.init(url: "screens/b"))))
                == .load(entry: 2, url: "screens/b", generation: 1))
        _ = machine.send(.init(url: "commands/z"))
        _ = machine.commandFinished(3, result: .failure(Self.offline))
        #expect(machine.presented == .error("offline"))
        #expect(machine.commandFinished(3, result: .failure(Self.offline)) == .none, "an answer to no pending command is ignored")
    }

    @Test("a command answered by going elsewhere leaves its origin stale: revalidated once it is on top again, once")
    func navigateLeavesOriginStale() {
        var machine = Self.atHome()
        _ = machine.send(.init(url: "commands/playlists/create"))
        _ = machine.commandFinished(1, result: .success(.navigate(.init(url: "screens/playlist/9"))))
        #expect(machine.entries.map(\.url) == ["screens/home", "screens/playlist/9"])
        #expect(machine.entries[0].isStale)
        #expect(machine.pop() == .all([.cancelLoads([2]), .load(entry: 1, url: "screens/home", generation: 2)]))
        #expect(!machine.entries[0].isStale)
        _ = machine.navigate(.init(url: "screens/a"))
        #expect(machine.pop() == .cancelLoads([3]), "revalidated once, not on every return")
    }

    @Test("a screen pushed again and answered from the loader's cache (a 304) still brings its entities and storage")
    func firstLoadFromCacheAdopts() {
        var machine = Self.atHome()
        guard case .load(let entry, _, let generation) = machine.navigate(.init(url: "screens/playlist/4")) else { return }
        let screen = Screen(id: "p", title: "P", sections: [], storage: ["q": "x"], entities: ["playlist/4": ["favorite": .bool(true)]])
        let cached = LoadedScreen(screen: screen, issues: [], etag: "\"p\"", revalidated: true)
        _ = machine.loaded(entry: entry, generation: generation, result: .success(cached))
        #expect(machine.top?.entities == ["playlist/4": ["favorite": .bool(true)]])
        #expect(machine.top?.storage == ["q": "x"])
    }

    @Test("submitting a prompt sends its text under the field's name; choosing sends the option's command")
    func answers() {
        var machine = Self.atHome()
        let prompt = CommandResult.Prompt(
            title: "Name", field: .init(name: "name"), submitTitle: "OK", submit: .init(url: "commands/create"))
        #expect(
            machine.submit(prompt, text: "Road trip")
                == .send(command: 1, .init(command: .init(url: "commands/create"), extra: ["name": "Road trip"])))
        let option = CommandResult.Choice.Option(title: "A", command: .init(url: "commands/a"))
        #expect(machine.choose(option) == .send(command: 2, .init(command: .init(url: "commands/a"), extra: [:])))
    }

    @Test("a prompt that requires a text (v6) sends nothing while it is blank: the prompt stays, its submit disabled, its message shown once typed")
    func requiredPrompt() {
        var machine = Self.atHome()
        let prompt = CommandResult.Prompt(
            title: "New playlist", field: .init(name: "name", maxLength: 5, requiredMessage: "Name the playlist"), submitTitle: "Create",
            submit: .init(url: "commands/create"))
        _ = machine.send(.init(url: "commands/new"))
        _ = machine.commandFinished(1, result: .success(.prompt(prompt)))
        #expect(machine.presented == .prompt(prompt))
        #expect(machine.submit(prompt, text: " \n\t") == .none)
        #expect(machine.presented == .prompt(prompt), "still asked")
        let resolver = ViewTreeResolver()
        let fresh = resolver.resolve(.prompt(prompt))
        #expect(fresh.children[0].field?.validationMessage == nil, "nothing typed yet: no blame")
        #expect(fresh.children[1].action?.isEnabled == false, "but nothing to send")
        let blank = resolver.resolve(.prompt(prompt), typed: "  ")
        #expect(blank.children[0].field?.validationMessage == "Name the playlist")
        #expect(blank.children[0].field?.isValid == false)
        let named = resolver.resolve(.prompt(prompt), typed: "Road trip")
        #expect(named.children[0].field?.validationMessage == nil && named.children[1].action?.isEnabled == true)
        // Cut at the limit, as typing would be.
        #expect(
            machine.submit(prompt, text: "Road trip")
                == .send(command: 2, .init(command: .init(url: "commands/create"), extra: ["name": "Road "])))
        #expect(machine.presented == nil)
    }

    @Test("a question or a move answered after its screen was popped does not land on another screen; a message still shows")
    func answersAfterPop() {
        var machine = Self.atHome()
        _ = machine.navigate(.init(url: "screens/a"))
        _ = machine.send(.init(url: "commands/ask"))
        _ = machine.send(.init(url: "commands/go"))
        _ = machine.send(.init(url: "commands/note"))
        _ = machine.pop()
        let prompt = CommandResult.Prompt(title: "Name", field: .init(name: "n"), submitTitle: "OK", submit: .init(url: "commands/n"))
        #expect(machine.commandFinished(1, result: .success(.prompt(prompt))) == .none)
        #expect(machine.presented == nil)
        #expect(machine.commandFinished(2, result: .success(.navigate(.init(url: "screens/b")))) == .none)
        #expect(machine.entries.map(\.url) == ["screens/home"])
        _ = machine.commandFinished(3, result: .success(.done(.init(message: "Saved"))))
        #expect(machine.presented == .message("Saved"))
    }
}

public import ScreenplayContract

/// The app's navigation stack of server-driven screens, and everything a tap can do to it.
///
/// One way data flow: a tap hands an ``Action`` to ``perform(_:)``; navigate pushes a screen
/// with its header at once and loads the body; commands POST, and their ``CommandResult`` turns
/// into new state (refresh, replace, a prompt or choice to answer, an alert). Local actions go
/// to handlers the app registers. Renderers only draw ``snapshot`` and send actions back.
public actor ScreenNavigator {
    /// One screen on the stack.
    public struct Entry: Sendable, Hashable, Identifiable {
        /// Unique for the navigator's life.
        public let id: Int
        /// The screen URL, relative to the API base.
        public let url: String
        /// How it was presented.
        public let presentation: Action.Navigate.Presentation
        /// Its state machine.
        public internal(set) var machine: ScreenStateMachine
        /// Its current state.
        public var state: ScreenState { machine.state }
    }

    /// Something the user must answer or acknowledge, shown over the top screen.
    public enum Presented: Sendable, Hashable {
        /// A confirmation toast ("Added to favorites").
        case message(String)
        /// A question with options.
        case choice(CommandResult.Choice)
        /// A text field.
        case prompt(CommandResult.Prompt)
        /// A failure to show.
        case error(String)
    }

    /// Everything a renderer draws.
    public struct Snapshot: Sendable, Hashable {
        /// The stack, root first.
        public var entries: [Entry]
        /// What is shown over the top screen, if anything.
        public var presented: Presented?
        /// Whether a command is in flight (the UI blocks input and shows a loader).
        public var isPerformingCommand: Bool
        /// Every decoding issue met so far, for logging.
        public var issues: [DecodingIssue]
        /// The top screen.
        public var top: Entry? { entries.last }
    }

    /// Handles an action only the device can do (play, share, open URL, custom).
    public typealias LocalHandler = @Sendable (Action) async -> Void

    let loader: ScreenLoader
    private var entries: [Entry] = []
    private var presented: Presented?
    /// Commands sent and not yet answered; the UI blocks input while any is.
    private var commandsInFlight = 0
    private var issues: [DecodingIssue] = []
    private var nextID = 0
    private var localHandlers: [String: LocalHandler] = [:]
    private var observers: [@Sendable (Snapshot) -> Void] = []

    /// Creates a navigator over a loader.
    public init(loader: ScreenLoader) { self.loader = loader }

    /// The current state.
    public var snapshot: Snapshot {
        Snapshot(entries: entries, presented: presented, isPerformingCommand: commandsInFlight > 0, issues: issues)
    }

    /// Calls `observer` with every new snapshot (renderers redraw from it).
    public func observe(_ observer: @escaping @Sendable (Snapshot) -> Void) {
        observers.append(observer)
        observer(snapshot)
    }

    /// Registers the handler for a local action kind (`play`, `share`, `openURL`) or, for
    /// `custom` actions, for a custom name.
    public func handle(_ kindOrCustomName: String, with handler: @escaping LocalHandler) {
        localHandlers[kindOrCustomName] = handler
    }

    // MARK: Navigation

    /// Replaces the stack with the screen at `url` and loads it.
    public func start(at url: String, header: ScreenHeader? = nil) async {
        entries.removeAll()
        await push(url: url, header: header, presentation: .push)
    }

    /// Pushes the destination with its header shown at once, then loads its body.
    public func navigate(_ navigate: Action.Navigate) async {
        await push(url: navigate.url, header: navigate.header, presentation: navigate.presentation ?? .push)
    }

    /// Pops the top screen.
    public func back() {
        guard entries.count > 1 else { return }
        entries.removeLast()
        publish()
    }

    /// Retries the top screen after a failure.
    public func retry() async {
        guard let index = entries.indices.last else { return }
        let action = entries[index].machine.retry()
        publish()
        await carryOut(action, entryID: entries[index].id)
    }

    /// Reloads the top screen, revalidating with its ETag.
    public func refresh() async {
        guard let index = entries.indices.last else { return }
        let action = entries[index].machine.refresh()
        await carryOut(action, entryID: entries[index].id)
    }

    private func push(url: String, header: ScreenHeader?, presentation: Action.Navigate.Presentation) async {
        nextID += 1
        var machine = ScreenStateMachine(header: header)
        let action = machine.start()
        let entry = Entry(id: nextID, url: url, presentation: presentation, machine: machine)
        entries.append(entry)
        presented = nil
        publish()
        await carryOut(action, entryID: entry.id)
    }

    private func carryOut(_ action: ScreenStateMachine.Action, entryID: Int) async {
        guard case .fetch(let generation) = action, let entry = entries.first(where: { $0.id == entryID }) else { return }
        let result: Result<LoadedScreen, ClientError>
        do {
            result = .success(try await loader.screen(at: entry.url))
        } catch {
            result = .failure(error)
        }
        // The stack may have changed while loading; apply only if the entry is still there.
        guard let index = entries.firstIndex(where: { $0.id == entryID }) else { return }
        if case .success(let loaded) = result, !loaded.revalidated { issues += loaded.issues }
        _ = entries[index].machine.received(result, generation: generation)
        publish()
    }

    // MARK: Actions

    /// Carries out a tap's action.
    public func perform(_ action: Action) async {
        switch action {
        case .navigate(let navigate):
            await self.navigate(navigate)
        case .command(let command):
            await run(command, extra: [:])
        case .custom(let custom):
            await localHandlers[custom.name]?(action)
        case .play, .share, .openURL:
            await localHandlers[action.kind]?(action)
        case .unknown(let type, _):
            presented = .error("This version of the app cannot do '\(type)'.")
            publish()
        }
    }

    /// Answers the presented prompt with `text`.
    public func submit(_ prompt: CommandResult.Prompt, text: String) async {
        presented = nil
        await run(prompt.submit, extra: [prompt.field.name: .string(text)])
    }

    /// Answers the presented choice.
    public func choose(_ option: CommandResult.Choice.Option) async {
        presented = nil
        await run(option.command, extra: [:])
    }

    /// Dismisses whatever is presented.
    public func dismiss() {
        presented = nil
        publish()
    }

    private func run(_ command: Action.Command, extra: [String: JSONValue]) async {
        // The screen the command was sent from: its answer applies there, even if the user
        // navigated while it was in flight.
        let origin = entries.last?.id
        commandsInFlight += 1
        publish()
        let outcome: Result<Decoded<CommandResult>, ClientError>
        do {
            outcome = .success(try await loader.perform(command, extra: extra))
        } catch {
            outcome = .failure(error)
        }
        commandsInFlight -= 1
        switch outcome {
        case .failure(let error):
            presented = .error(error.message)
            publish()
        case .success(let decoded):
            issues += decoded.issues
            await apply(decoded.value, to: origin)
        }
    }

    /// Turns a command's answer into state, for the screen (`origin`) it was sent from.
    func apply(_ result: CommandResult, to origin: Int?) async {
        switch result {
        case .done(let done):
            presented = done.message.map(Presented.message)
            publish()
            if done.refresh, let index = entries.firstIndex(where: { $0.id == origin }) {
                let action = entries[index].machine.refresh()
                await carryOut(action, entryID: entries[index].id)
            }
        case .screen(let screen):
            // A screen that was popped meanwhile gets nothing; the one on top now is not its target.
            if let index = entries.firstIndex(where: { $0.id == origin }) {
                entries[index].machine.replace(with: screen)
            }
            presented = nil
            publish()
        case .choice(let choice):
            presented = .choice(choice)
            publish()
        case .prompt(let prompt):
            presented = .prompt(prompt)
            publish()
        case .navigate(let navigate):
            await self.navigate(navigate)
        case .error(let failure):
            presented = .error(failure.message)
            publish()
        case .unknown(let type, _):
            presented = .error("This version of the app cannot show the answer '\(type)'.")
            publish()
        }
    }

    private func publish() {
        guard !observers.isEmpty else { return }
        let current = snapshot
        for observer in observers { observer(current) }
    }
}

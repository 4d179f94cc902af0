public import ScreenplayContract

/// The rules of the navigation stack and of commands, with no I/O: each mutating method changes
/// the state and returns what the runtime must do next.
///
/// ``ScreenNavigator`` owns one and carries out its actions (load a screen, cancel a load, send a
/// command); tests drive it directly, transition by transition, with no network and no timing.
public struct NavigationStateMachine: Sendable, Hashable {
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

    /// A command sent and not yet answered.
    public struct PendingCommand: Sendable, Hashable {
        /// Unique for the navigator's life.
        public let id: Int
        /// The screen it was sent from; its answer applies there.
        public let origin: Int?
        /// The node that sent it, shown busy meanwhile.
        public let node: NodeID?
    }

    /// What the runtime must do next (an "action" in Hummingbird's state machines; named apart
    /// from the contract's ``ScreenplayContract/Action``, which is what a tap does).
    public enum Effect: Sendable, Hashable {
        /// Nothing.
        case none
        /// Fetch `url` for entry `entry`; hand the answer to ``loaded(entry:generation:result:)``.
        case load(entry: Int, url: String, generation: Int)
        /// Stop the loads of these entries (their screens left the stack).
        case cancelLoads([Int])
        /// POST `command` with `extra` members; hand the answer to ``commandFinished(_:result:)``.
        case send(command: Int, Effect.CommandRequest)
        /// Several of the above, in order.
        case all([Effect])

        /// A command to send.
        public struct CommandRequest: Sendable, Hashable {
            /// What to POST.
            public let command: ScreenplayContract.Action.Command
            /// Members added to its payload (a prompt's text).
            public let extra: [String: JSONValue]

            /// Creates a request.
            public init(command: ScreenplayContract.Action.Command, extra: [String: JSONValue]) {
                self.command = command
                self.extra = extra
            }
        }
    }

    /// The stack, root first.
    public private(set) var entries: [Entry] = []
    /// What is shown over the top screen.
    public private(set) var presented: Presented?
    /// Commands in flight.
    public private(set) var pending: [PendingCommand] = []
    private var nextEntry = 0
    private var nextCommand = 0

    /// An empty stack.
    public init() {}

    /// The top screen.
    public var top: Entry? { entries.last }

    /// Whether a command is in flight: the UI blocks input and shows progress.
    public var isPerformingCommand: Bool { !pending.isEmpty }

    /// The nodes whose commands are in flight.
    public var busyNodes: Set<NodeID> { Set(pending.compactMap(\.node)) }

    // MARK: The stack

    /// Replaces the stack with one screen and loads it; loads of the screens dropped stop.
    public mutating func start(at url: String, header: ScreenHeader?) -> Effect {
        let dropped = entries.map(\.id)
        entries.removeAll()
        let load = push(url: url, header: header, presentation: .push)
        return dropped.isEmpty ? load : .all([.cancelLoads(dropped), load])
    }

    /// Pushes (or presents modally) the destination with its header shown at once, then loads it.
    public mutating func navigate(_ navigate: Action.Navigate) -> Effect {
        push(url: navigate.url, header: navigate.header, presentation: navigate.presentation ?? .push)
    }

    /// Opens a deep link: the screen at `url` on top of the stack, unless it is already the top
    /// screen (then nothing happens).
    public mutating func open(deepLink url: String) -> Effect {
        if top?.url == url { return .none }
        return push(url: url, header: nil, presentation: .push)
    }

    /// Pops the top screen (a modal is dismissed the same way); its load, if any, stops.
    public mutating func pop() -> Effect {
        guard entries.count > 1, let popped = entries.popLast() else { return .none }
        presented = nil
        return .cancelLoads([popped.id])
    }

    /// Pops everything above the root.
    public mutating func popToRoot() -> Effect {
        guard entries.count > 1 else { return .none }
        let popped = entries[1...].map(\.id)
        entries.removeSubrange(1...)
        presented = nil
        return .cancelLoads(popped)
    }

    /// Retries the top screen after a failure.
    public mutating func retry() -> Effect {
        guard let index = entries.indices.last else { return .none }
        return fetch(index, entries[index].machine.retry())
    }

    /// Reloads the top screen, revalidating with its ETag.
    public mutating func refresh() -> Effect {
        guard let index = entries.indices.last else { return .none }
        return fetch(index, entries[index].machine.refresh())
    }

    /// A load answered. An entry no longer on the stack, or a stale generation, changes nothing.
    public mutating func loaded(entry: Int, generation: Int, result: Result<LoadedScreen, ClientError>) -> Effect {
        guard let index = entries.firstIndex(where: { $0.id == entry }) else { return .none }
        _ = entries[index].machine.received(result, generation: generation)
        return .none
    }

    // MARK: Commands

    /// Sends a command from the top screen; `node` is shown busy until it answers.
    public mutating func send(_ command: Action.Command, extra: [String: JSONValue] = [:], from node: NodeID? = nil) -> Effect {
        nextCommand += 1
        pending.append(PendingCommand(id: nextCommand, origin: entries.last?.id, node: node))
        return .send(command: nextCommand, .init(command: command, extra: extra))
    }

    /// Answers the presented prompt with `text`.
    public mutating func submit(_ prompt: CommandResult.Prompt, text: String) -> Effect {
        presented = nil
        return send(prompt.submit, extra: [prompt.field.name: .string(text)])
    }

    /// Answers the presented choice.
    public mutating func choose(_ option: CommandResult.Choice.Option) -> Effect {
        presented = nil
        return send(option.command)
    }

    /// Dismisses whatever is presented.
    public mutating func dismiss() {
        presented = nil
    }

    /// Shows a failure the runtime met outside a command (an action this app cannot perform).
    public mutating func fail(_ message: String) {
        presented = .error(message)
    }

    /// A command answered (or failed to): its result becomes state, for the screen it was sent
    /// from, even if the user navigated meanwhile.
    public mutating func commandFinished(_ id: Int, result: Result<CommandResult, ClientError>) -> Effect {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return .none }
        let origin = pending.remove(at: index).origin
        // The user left the screen the command came from: a question or a move it asks for
        // would land on another screen, so only messages still show.
        let originIsGone = origin.map { id in !entries.contains { $0.id == id } } ?? false
        if originIsGone {
            switch result {
            case .success(.choice), .success(.prompt), .success(.navigate): return .none
            default: break
            }
        }
        switch result {
        case .failure(let error):
            presented = .error(error.message)
            return .none
        case .success(.done(let done)):
            presented = done.message.map(Presented.message)
            guard done.refresh, let target = entries.firstIndex(where: { $0.id == origin }) else { return .none }
            return fetch(target, entries[target].machine.refresh())
        case .success(.screen(let screen)):
            // A screen that was popped meanwhile gets nothing; the one on top now is not its target.
            if let target = entries.firstIndex(where: { $0.id == origin }) { entries[target].machine.replace(with: screen) }
            presented = nil
            return .none
        case .success(.choice(let choice)):
            presented = .choice(choice)
            return .none
        case .success(.prompt(let prompt)):
            presented = .prompt(prompt)
            return .none
        case .success(.navigate(let navigate)):
            presented = nil
            return self.navigate(navigate)
        case .success(.error(let failure)):
            presented = .error(failure.message)
            return .none
        case .success(.unknown(let type, _)):
            presented = .error("This version of the app cannot show the answer '\(type)'.")
            return .none
        }
    }

    // MARK: Helpers

    private mutating func push(url: String, header: ScreenHeader?, presentation: Action.Navigate.Presentation) -> Effect {
        nextEntry += 1
        var machine = ScreenStateMachine(header: header)
        let start = machine.start()
        entries.append(Entry(id: nextEntry, url: url, presentation: presentation, machine: machine))
        presented = nil
        return fetch(entries.count - 1, start)
    }

    private func fetch(_ index: Int, _ action: ScreenStateMachine.Action) -> Effect {
        guard case .fetch(let generation) = action else { return .none }
        return .load(entry: entries[index].id, url: entries[index].url, generation: generation)
    }
}

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
        /// The screen's client storage (v4): its own values, what the user typed, what command
        /// results set. Every command sent from the screen carries it.
        public internal(set) var storage: ClientStorage = [:]
        /// The screen's entities (v4), with every patch a command result made since it loaded.
        public internal(set) var entities: Entities = [:]
        /// Entity patches command answers made since its last fetch began: laid again over the
        /// fetch's answer, which may have been read before them.
        var patchesSinceFetch: Entities = [:]
        /// Whether what it shows may be out of date: a command sent from it answered by going
        /// elsewhere (a playlist created, then opened), so it is revalidated once it is on top again.
        public internal(set) var isStale = false
        /// The screen's state and what its bindings compute from it (v6); `nil` until it loads,
        /// and for a screen that declares no state and computes nothing.
        public internal(set) var bindings: BindingEngine?
        /// Its current state.
        public var state: ScreenState { machine.state }

        /// Takes a loaded screen's storage (its values win over typed ones for the keys it sends)
        /// and entities (the server's are the newest), and makes its state engine: app-scoped
        /// variables start from `appValues`, and a new copy of the same screen (a reload, a live
        /// update) keeps the values its screen-scoped variables had, where their type is unchanged.
        mutating func adopt(_ screen: Screen, appValues: [String: ExpressionValue], client: [String: ExpressionValue], locale: String) {
            storage.merge(screen.storage) { _, server in server }
            entities = screen.entities
            guard screen.hasClientState else {
                bindings = nil
                return
            }
            var kept = bindings?.values.filter { name, _ in bindings?.state[name]?.type == screen.state[name]?.type } ?? [:]
            for (name, variable) in screen.state where variable.scope == .app {
                kept[name] = appValues[name]
            }
            bindings = BindingEngine(screen: screen, kept: kept, client: client, locale: locale)
        }
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
        /// The node that sent it, shown busy meanwhile (not for an optimistic command: its
        /// outcome already shows, and the user may tap again).
        public let node: NodeID?
        /// The entity members it set before its answer (v5 `optimistic`); empty for others.
        public let optimistic: Entities
        /// What each member it set was before, per entry: put back if it fails (unless a later
        /// command wrote the member since).
        var rollback: [EntityMember: Previous] = [:]
    }

    /// A member's value before a command set it, and which command had written it then.
    struct Previous: Sendable, Hashable {
        let value: JSONValue?
        let writer: Int
    }

    /// One member of one entity on one screen of the stack.
    struct EntityMember: Sendable, Hashable {
        let entry: Int
        let entity: String
        let member: String
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
        /// Run these local actions (a command result's effects: open a URL, play, an app action).
        case perform([ScreenplayContract.Action])
        /// Several of the above, in order.
        case all([Effect])

        /// This effect, then `next` (either may be nothing).
        func then(_ next: Effect) -> Effect {
            switch (self, next) {
            case (.none, _): next
            case (_, .none): self
            default: .all([self, next])
            }
        }

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
    /// Which command last wrote each entity member (its optimistic value or its answer): an
    /// answer older than that write does not overwrite it, so two quick taps end in the state of
    /// the last one whatever order their answers come back in.
    private var writers: [EntityMember: Int] = [:]
    private var nextEntry = 0
    private var nextCommand = 0
    /// The values of app-scoped variables (v6), by name: what every screen that declares one
    /// starts from, kept across launches by the navigator's storage.
    public internal(set) var appValues: [String: ExpressionValue] = [:]
    /// The type each app value was declared with where it was set: what it is kept as.
    public internal(set) var appTypes: [String: ExpressionType] = [:]
    /// The client's variables now (`player`, `platform`, `now`): every screen's bindings read them.
    public private(set) var clientValues: [String: ExpressionValue] = [:]
    /// The reader's locale (a BCP 47 tag), for what bindings format.
    public var locale = "en"

    /// An empty stack.
    public init() {}

    /// The top screen.
    public var top: Entry? { entries.last }

    /// Whether a command that waits for its answer is in flight: the UI blocks input and shows
    /// progress. Optimistic commands do not block: their outcome is already on screen.
    public var isPerformingCommand: Bool { pending.contains { $0.optimistic.isEmpty } }

    /// The nodes whose (non-optimistic) commands are in flight.
    public var busyNodes: Set<NodeID> { Set(pending.filter { $0.optimistic.isEmpty }.compactMap(\.node)) }

    /// The entities an optimistic command has set and the server has not confirmed yet: nodes
    /// bound to them are shown pending.
    public var pendingEntities: Set<String> { Set(pending.flatMap(\.optimistic.keys)) }

    // MARK: The stack

    /// Replaces the stack with one screen and loads it; loads of the screens dropped stop.
    public mutating func start(at url: String, header: ScreenHeader?) -> Effect {
        let dropped = entries.map(\.id)
        entries.removeAll()
        forgetWritersOfEntriesGone()
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

    /// Pops the top screen (a modal is dismissed the same way); its load, if any, stops. The
    /// screen below is revalidated if it is stale (``Entry/isStale``).
    public mutating func pop() -> Effect {
        guard entries.count > 1, let popped = entries.popLast() else { return .none }
        presented = nil
        forgetWritersOfEntriesGone()
        return .cancelLoads([popped.id]).then(revalidateTopIfStale())
    }

    /// Pops everything above the root, revalidating it if it is stale.
    public mutating func popToRoot() -> Effect {
        guard entries.count > 1 else { return .none }
        let popped = entries[1...].map(\.id)
        entries.removeSubrange(1...)
        presented = nil
        forgetWritersOfEntriesGone()
        return .cancelLoads(popped).then(revalidateTopIfStale())
    }

    /// Keeps the record of who wrote which member to the screens still on the stack.
    private mutating func forgetWritersOfEntriesGone() {
        guard !writers.isEmpty else { return }
        let kept = Set(entries.map(\.id))
        writers = writers.filter { kept.contains($0.key.entry) }
    }

    /// Revalidates every loaded screen on the stack at one of `urls` (an event said it changed,
    /// or its polling interval came round): each keeps showing until the answer, and a 304
    /// changes nothing.
    public mutating func revalidate(_ urls: Set<String>) -> Effect {
        var effects: [Effect] = []
        for index in entries.indices where urls.contains(entries[index].url) && entries[index].state.screen != nil {
            effects.append(fetch(index, entries[index].machine.refresh()))
        }
        return effects.isEmpty ? .none : effects.count == 1 ? effects[0] : .all(effects)
    }

    /// A revalidation of the top screen when it is stale; nothing otherwise.
    private mutating func revalidateTopIfStale() -> Effect {
        guard let index = entries.indices.last, entries[index].isStale else { return .none }
        entries[index].isStale = false
        return fetch(index, entries[index].machine.refresh())
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
        let before = entries[index].machine.state
        _ = entries[index].machine.received(result, generation: generation)
        // A new body (not a 304, not a stale answer) brings the server's storage and entities; a
        // revalidation keeps the patches made since. A first load answered from the loader's cache
        // (a screen seen before, pushed again) brings them too: the entry has none of its own yet.
        if case .loaded(let loaded) = entries[index].machine.state, entries[index].machine.state != before,
            !loaded.revalidated || before.screen == nil
        {
            entries[index].adopt(loaded.screen, appValues: appValues, client: clientValues, locale: locale)
            for (id, members) in entries[index].patchesSinceFetch where entries[index].entities[id] != nil {
                entries[index].entities[id]!.merge(members) { _, patched in patched }
            }
            reapplyPending(at: index)
        }
        return .none
    }

    // MARK: Client state (v6)

    /// Why a local action was refused.
    public struct LocalActionError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the variable.
        public let message: String
        /// For people.
        public var description: String { message }
    }

    /// Performs a `set` on the top screen: its variable becomes the value's expression evaluated
    /// with the state now, and the bindings that read it are evaluated again. An app-scoped value
    /// is kept for every screen (and, by the navigator, across launches).
    ///
    /// - Throws: ``LocalActionError`` when no screen with state is shown, or the expression does
    ///   not check or run (the state is then left as it was).
    public mutating func perform(_ set: Action.SetVariable) throws(LocalActionError) {
        guard let index = entries.indices.last, var engine = entries[index].bindings else {
            throw LocalActionError(message: "this screen declares no variable '\(set.variable)'")
        }
        do throws(ExpressionError) {
            _ = try engine.perform(set: set.variable, to: try engine.compile(set.value))
        } catch {
            throw LocalActionError(message: "could not set '\(set.variable)': \(error)")
        }
        entries[index].bindings = engine
        if let declared = engine.state[set.variable], declared.scope == .app, let value = engine.values[set.variable] {
            appValues[set.variable] = value
            appTypes[set.variable] = declared.type
            // Every other screen on the stack that declares it shows the new value too.
            for other in entries.indices where other != index {
                guard let declared = entries[other].bindings?.state[set.variable], declared.scope == .app,
                    declared.type == engine.state[set.variable]?.type
                else { continue }
                _ = try? entries[other].bindings?.set(set.variable, to: value)
            }
        }
    }

    /// The client's variables changed (the player moved on, a second passed): every screen's
    /// bindings that read them are evaluated again. A value not of its variable's type is ignored.
    public mutating func updateClient(_ values: [String: ExpressionValue]) {
        for (name, value) in values {
            guard let type = ClientVariables.types[name], ExpressionValue(json: value.json, as: type) != nil else { continue }
            clientValues[name] = value
            for index in entries.indices { _ = try? entries[index].bindings?.set(name, to: value) }
        }
    }

    /// Whether a `set` of `name` on the top screen writes an app-scoped value (one to keep).
    public func setsAppValue(_ name: String) -> Bool { top?.bindings?.state[name]?.scope == .app }

    /// Takes app-scoped values kept from an earlier launch (each screen still checks its type).
    public mutating func restore(appValues kept: [String: ExpressionValue], types: [String: ExpressionType] = [:]) {
        for (name, value) in kept where appValues[name] == nil {
            appValues[name] = value
            if let type = types[name] { appTypes[name] = type }
        }
    }

    // MARK: Storage

    /// Why typing was refused.
    public enum TypingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// No screen is loaded.
        case noScreen
        /// The top screen has no text field with this storage key.
        case noField(String)

        /// For people.
        public var description: String {
            switch self {
            case .noScreen: "no screen is loaded"
            case .noField(let key): "the screen has no text field that stores '\(key)'"
            }
        }
    }

    /// The user typed `text` into the top screen's text field that stores `key`: the value is
    /// kept, cut at the field's length limit. A string variable of the screen's state named like
    /// the key (v6) takes it too, so what the screen computes follows the typing (a filter).
    /// Returns the value kept.
    @discardableResult
    public mutating func type(_ text: String, into key: String) throws(TypingError) -> String {
        guard let index = entries.indices.last, case .loaded(let loaded) = entries[index].state else { throw .noScreen }
        let field = loaded.screen.allComponents.lazy.compactMap { component -> Component.TextField? in
            if case .textField(let field) = component.content, field.storageKey == key { return field }
            return nil
        }.first
        guard let field else { throw .noField(key) }
        let kept = TextInput.limited(text, to: field.maxLength)
        entries[index].storage[key] = kept
        if entries[index].bindings?.state[key]?.type == .string {
            _ = try? entries[index].bindings?.set(key, to: .string(kept))
        }
        return kept
    }

    // MARK: Commands

    /// Sends a command from the top screen; `node` is shown busy until it answers.
    /// The top screen's storage travels with it under `storage` (v4).
    /// A command that declares its outcome (v5 `optimistic`) shows it at once on every screen of
    /// the stack that has the entity, before it is sent.
    public mutating func send(_ command: Action.Command, extra: [String: JSONValue] = [:], from node: NodeID? = nil) -> Effect {
        nextCommand += 1
        var sent = PendingCommand(id: nextCommand, origin: entries.last?.id, node: node, optimistic: command.optimistic?.entities ?? [:])
        for index in entries.indices {
            for (entity, members) in sent.optimistic where entries[index].entities[entity] != nil {
                for (member, value) in members {
                    let key = EntityMember(entry: entries[index].id, entity: entity, member: member)
                    sent.rollback[key] = Previous(value: entries[index].entities[entity]?[member], writer: writers[key] ?? 0)
                    entries[index].entities[entity]?[member] = value
                    writers[key] = sent.id
                }
            }
        }
        pending.append(sent)
        var extra = extra
        if let storage = entries.last?.storage, !storage.isEmpty {
            extra[Self.storageMember] = .object(storage.mapValues(JSONValue.string))
        }
        return .send(command: nextCommand, .init(command: command, extra: extra))
    }

    /// The member of a command's body that carries the sending screen's storage.
    public static let storageMember = "storage"

    /// Answers the presented prompt with `text`, cut at the field's length limit. A text the
    /// field refuses (blank where one is required, v6) sends nothing: the prompt stays, its
    /// submit disabled and its message shown (``ViewTreeResolver/resolve(_:typed:)``).
    public mutating func submit(_ prompt: CommandResult.Prompt, text: String) -> Effect {
        guard TextInput.problem(text, in: prompt.field) == nil else { return .none }
        presented = nil
        return send(prompt.submit, extra: [prompt.field.name: .string(TextInput.limited(text, to: prompt.field.maxLength))])
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
        let finished = pending.remove(at: index)
        let origin = finished.origin
        // The user left the screen the command came from: a question or a move it asks for
        // would land on another screen, so only messages still show.
        let originIsGone = origin.map { id in !entries.contains { $0.id == id } } ?? false
        let answer: CommandResult
        switch result {
        case .failure(let error):
            rollBack(finished)
            presented = .error(error.message)
            return .none
        case .success(let value):
            answer = value
        }
        // A refusal puts an optimistic outcome back, like a failure.
        if case .error = answer.outcome { rollBack(finished) }
        if case .unknown = answer.outcome { rollBack(finished) }
        // Entity patches reach every screen on the stack that shows the entity, whether or not the
        // origin is still there; storage belongs to the origin alone.
        apply(answer.updates, origin: origin, from: finished.id)
        let effects: Effect = answer.updates.effects.isEmpty ? .none : .perform(answer.updates.effects)
        if originIsGone {
            switch answer.outcome {
            case .choice, .prompt, .navigate: return effects
            default: break
            }
        }
        let next: Effect
        switch answer.outcome {
        case .done(let done):
            presented = done.message.map(Presented.message)
            if done.refresh, let target = entries.firstIndex(where: { $0.id == origin }) {
                next = fetch(target, entries[target].machine.refresh())
            } else {
                next = .none
            }
        case .screen(let screen):
            // A screen that was popped meanwhile gets nothing; the one on top now is not its target.
            if let target = entries.firstIndex(where: { $0.id == origin }) {
                entries[target].machine.replace(with: screen)
                entries[target].adopt(screen, appValues: appValues, client: clientValues, locale: locale)
                reapplyPending(at: target)
                entries[target].storage.merge(answer.updates.storage) { _, new in new }
            }
            presented = nil
            next = .none
        case .choice(let choice):
            presented = .choice(choice)
            next = .none
        case .prompt(let prompt):
            presented = .prompt(prompt)
            next = .none
        case .navigate(let navigate):
            presented = nil
            // The command changed something the origin may show (a new playlist on home).
            if let target = entries.firstIndex(where: { $0.id == origin }) { entries[target].isStale = true }
            next = self.navigate(navigate)
        case .error(let failure):
            presented = .error(failure.message)
            next = .none
        case .unknown(let type, _):
            presented = .error("This version of the app cannot show the answer '\(type)'.")
            next = .none
        }
        switch (next, effects) {
        case (_, .none): return next
        case (.none, _): return effects
        default: return .all([next, effects])
        }
    }

    /// Sets storage on the origin and patches entities everywhere they are shown. A member a later
    /// command wrote since `command` was sent keeps that value (the later tap is the user's last
    /// word); the answer becomes what that command rolls back to if it fails.
    private mutating func apply(_ updates: ClientUpdates, origin: Int?, from command: Int) {
        if !updates.storage.isEmpty, let target = entries.firstIndex(where: { $0.id == origin }) {
            entries[target].storage.merge(updates.storage) { _, new in new }
        }
        guard !updates.entities.isEmpty else { return }
        for index in entries.indices {
            for (id, members) in updates.entities where entries[index].entities[id] != nil {
                for (member, value) in members {
                    let key = EntityMember(entry: entries[index].id, entity: id, member: member)
                    let writer = writers[key] ?? 0
                    if writer > command {
                        if let later = pending.firstIndex(where: { $0.id == writer }), let before = pending[later].rollback[key],
                            before.writer <= command
                        {
                            pending[later].rollback[key] = Previous(value: value, writer: command)
                        }
                        continue
                    }
                    entries[index].entities[id]![member] = value
                    entries[index].patchesSinceFetch[id, default: [:]][member] = value
                    writers[key] = command
                }
            }
        }
    }

    /// Puts back what an optimistic command set, member by member, unless a later command wrote
    /// the member since; then that command's rollback takes this one's (the server never
    /// applied this command).
    private mutating func rollBack(_ command: PendingCommand) {
        for (key, before) in command.rollback {
            guard let index = entries.firstIndex(where: { $0.id == key.entry }) else {
                writers[key] = nil
                continue
            }
            if writers[key] == command.id {
                entries[index].entities[key.entity]?[key.member] = before.value
                writers[key] = before.writer
            } else if let later = pending.firstIndex(where: { $0.rollback[key]?.writer == command.id }) {
                pending[later].rollback[key] = before
            }
        }
    }

    /// After a new body replaced an entry's entities, the outcomes still pending show again on
    /// it; the server's values become what they roll back to.
    private mutating func reapplyPending(at index: Int) {
        let entry = entries[index].id
        for (position, command) in pending.enumerated() where !command.optimistic.isEmpty {
            for (entity, members) in command.optimistic where entries[index].entities[entity] != nil {
                for (member, value) in members {
                    let key = EntityMember(entry: entry, entity: entity, member: member)
                    guard (writers[key] ?? 0) <= command.id else { continue }
                    pending[position].rollback[key] = Previous(value: entries[index].entities[entity]?[member], writer: 0)
                    entries[index].entities[entity]?[member] = value
                    writers[key] = command.id
                }
            }
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

    private mutating func fetch(_ index: Int, _ action: ScreenStateMachine.Action) -> Effect {
        guard case .fetch(let generation) = action else { return .none }
        entries[index].patchesSinceFetch = [:]
        return .load(entry: entries[index].id, url: entries[index].url, generation: generation)
    }
}

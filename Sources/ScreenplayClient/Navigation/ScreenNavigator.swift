public import ScreenplayContract

/// The app's navigation stack of server-driven screens, and everything a tap can do to it.
///
/// One way data flow: a tap hands an ``Action`` to ``perform(_:from:)``; the rules live in a
/// ``NavigationStateMachine`` whose transitions return what to do next (load a screen, stop a
/// load, send a command), and this actor carries those out and publishes a ``Snapshot``.
/// Renderers draw snapshots (through the view tree) and send actions back.
public actor ScreenNavigator {
    /// One screen on the stack.
    public typealias Entry = NavigationStateMachine.Entry
    /// Something shown over the top screen.
    public typealias Presented = NavigationStateMachine.Presented

    /// Everything a renderer draws.
    public struct Snapshot: Sendable, Hashable {
        /// The stack, root first.
        public var entries: [Entry]
        /// What is shown over the top screen, if anything.
        public var presented: Presented?
        /// Whether a command is in flight (the UI blocks input and shows a loader).
        public var isPerformingCommand: Bool
        /// The nodes whose commands are in flight, shown busy.
        public var busyNodes: Set<NodeID>
        /// Entities an optimistic command set that the server has not confirmed: nodes bound to
        /// them are shown pending (``ResolutionContext/pendingEntities``).
        public var pendingEntities: Set<String>
        /// The most recent decoding issues (at most ``ScreenNavigator/issueLimit``), for logging.
        public var issues: [DecodingIssue]
        /// How many older issues were let go to keep the log bounded.
        public var droppedIssues: Int
        /// The top screen.
        public var top: Entry? { entries.last }
    }

    /// Handles an action only the device can do (play, share, open URL, custom).
    public typealias LocalHandler = @Sendable (Action) async -> Void

    /// The most decoding issues a navigator keeps; older ones are counted and dropped, so a
    /// long session on a misbehaving server cannot grow memory without bound.
    public static let issueLimit = 200

    let loader: ScreenLoader
    var machine = NavigationStateMachine()
    private var issues: [DecodingIssue] = []
    private var droppedIssues = 0
    private var localHandlers: [String: LocalHandler] = [:]
    private var observers: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    private var nextObserver = 0
    private var loads: [Int: (generation: Int, task: Task<Void, Never>)] = [:]

    // Live screens (see ScreenNavigator+Live.swift).
    var liveWatch = LiveWatch.none
    var streamTask: Task<Void, Never>?
    var pollTask: Task<Void, Never>?
    var isInBackground = false
    /// Whether the app said it is offline (``setOffline(_:)``).
    public internal(set) var isOffline = false
    var lastEventID = ""
    /// How many times an event stream was opened (reconnections included); for tests and
    /// diagnostics.
    public internal(set) var streamsOpened = 0
    /// How long an optimistic command may take before its outcome is undone.
    public let optimisticTimeout: Duration
    /// Whether the app-scoped values kept by an earlier launch were read (at the first start).
    var appStateRestored = false
    /// Where playback stopped: read from the offline storage at the first start (an earlier
    /// launch's), then kept as the app plays (``updatePlayer(_:)``). The app offers to resume it.
    public private(set) var playbackBookmark: PlaybackBookmark?
    /// Whether the app paused or played since the bookmark was last written.
    private var playingWhenWritten: Bool?

    /// Creates a navigator over a loader. An optimistic command not answered within
    /// `optimisticTimeout` is undone and reported, as if it had failed.
    public init(loader: ScreenLoader, optimisticTimeout: Duration = CommandTiming.optimisticTimeout) {
        self.loader = loader
        self.optimisticTimeout = optimisticTimeout
    }

    deinit {
        streamTask?.cancel()
        pollTask?.cancel()
    }

    /// The current state.
    public var snapshot: Snapshot {
        Snapshot(
            entries: machine.entries, presented: machine.presented, isPerformingCommand: machine.isPerformingCommand,
            busyNodes: machine.busyNodes, pendingEntities: machine.pendingEntities, issues: issues, droppedIssues: droppedIssues)
    }

    /// Every new snapshot, starting with the current one. The subscription ends, and is removed,
    /// when the consumer stops iterating (a view disappears). A view wants only the newest
    /// snapshot (the default); a log or a test may keep them all.
    public func snapshots(
        bufferingPolicy: AsyncStream<Snapshot>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream<Snapshot>.makeStream(bufferingPolicy: bufferingPolicy)
        nextObserver += 1
        let id = nextObserver
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        continuation.yield(snapshot)
        return stream
    }

    /// How many snapshot streams are open; for tests and diagnostics.
    public var observerCount: Int { observers.count }

    private func removeObserver(_ id: Int) { observers[id] = nil }

    /// Registers the handler for a local action kind (`play`, `share`, `openURL`) or, for
    /// `custom` actions, for a custom name.
    public func handle(_ kindOrCustomName: String, with handler: @escaping LocalHandler) {
        localHandlers[kindOrCustomName] = handler
    }

    // MARK: Navigation

    /// Replaces the stack with the screen at `url` and loads it. The first start reads the
    /// app-scoped values (v6) kept by an earlier launch, before any screen needs them.
    public func start(at url: String, header: ScreenHeader? = nil) async {
        if !appStateRestored, let storage = loader.offlineStorage {
            appStateRestored = true
            let kept = await AppStateStorage.read(from: storage)
            machine.restore(appValues: kept.values, types: kept.types)
            playbackBookmark = await PlaybackBookmark.read(from: storage)
        }
        await carryOut(machine.start(at: url, header: header))
    }

    /// Pushes the destination with its header shown at once, then loads its body.
    public func navigate(_ navigate: Action.Navigate) async {
        await carryOut(machine.navigate(navigate))
    }

    /// Opens a deep link (a screen URL relative to the API base) on top of the stack.
    public func open(deepLink url: String) async {
        await carryOut(machine.open(deepLink: url))
    }

    /// Pops the top screen; its load, if still running, is cancelled.
    public func back() async {
        await carryOut(machine.pop())
    }

    /// Pops every screen above the root.
    public func popToRoot() async {
        await carryOut(machine.popToRoot())
    }

    /// Retries the top screen after a failure.
    public func retry() async {
        await carryOut(machine.retry())
    }

    /// Reloads the top screen, revalidating with its ETag.
    public func refresh() async {
        await carryOut(machine.refresh())
    }

    // MARK: Actions

    /// Carries out a tap's action; `node` (the tapped node's id) shows busy while its command runs.
    public func perform(_ action: Action, from node: NodeID? = nil) async {
        _ = await performStep(action, from: node)
    }

    /// Carries out one action; `false` when it was refused here (an unknown kind, a `set` that
    /// did not check), which stops a sequence before its next step.
    private func performStep(_ action: Action, from node: NodeID?) async -> Bool {
        switch action {
        case .set(let set):
            do throws(NavigationStateMachine.LocalActionError) {
                try machine.perform(set)
                publish()
                // An app value outlives the screen, and the app (the offline storage keeps it).
                if machine.setsAppValue(set.variable), let storage = loader.offlineStorage {
                    await AppStateStorage.write(machine.appValues, types: machine.appTypes, to: storage)
                }
                return true
            } catch {
                machine.fail(error.message)
                publish()
                return false
            }
        case .sequence(let sequence):
            for step in sequence.actions {
                guard await performStep(step, from: node) else { return false }
            }
            return true
        default:
            await performRemote(action, from: node)
            if case .unknown = action { return false }
            return true
        }
    }

    private func performRemote(_ action: Action, from node: NodeID?) async {
        switch action {
        case .navigate(let navigate):
            await self.navigate(navigate)
        case .command(let command):
            await carryOut(machine.send(command, from: node))
        case .custom(let custom):
            if custom.name == ViewTreeResolver.retryActionName {
                await retry()
            } else {
                await localHandlers[custom.name]?(action)
            }
        case .play(let play):
            await started(play)
            await localHandlers[action.kind]?(action)
        case .share, .openURL:
            await localHandlers[action.kind]?(action)
        case .unknown(let type, _):
            machine.fail("This version of the app cannot do '\(type)'.")
            publish()
        case .set, .sequence:
            _ = await performStep(action, from: node)
        }
    }

    // MARK: The player

    /// The app's player moved on (another track, play or pause, a new position): screens that
    /// read `player` show it (the playing row marked), and the bookmark follows, written to the
    /// offline storage at a new track, a play or a pause, and every ``PlaybackBookmark/writeEvery``
    /// seconds of position.
    public func updatePlayer(_ state: PlayerState) async {
        machine.updateClient(["player": state.value])
        publish()
        guard var bookmark = playbackBookmark, !state.trackID.isEmpty else { return }
        guard bookmark.isStale(for: state) || playingWhenWritten != state.playing else { return }
        bookmark.trackID = state.trackID
        bookmark.position = state.position
        playbackBookmark = bookmark
        playingWhenWritten = state.playing
        if let storage = loader.offlineStorage { await bookmark.write(to: storage) }
    }

    /// A `play` action was carried out: the bookmark is its first track, from the start.
    private func started(_ play: Action.Play) async {
        let bookmark = PlaybackBookmark(play: play, trackID: play.firstTrack.id, position: 0)
        playbackBookmark = bookmark
        playingWhenWritten = true
        if let storage = loader.offlineStorage { await bookmark.write(to: storage) }
    }

    /// The rows a field's suggestions offer for `text` (v6): the field's suggestions screen for
    /// that text (``NodeField/suggestionsURL(for:)``), resolved as any screen is, its rows in
    /// order, each with the action choosing it takes. Empty for a blank text, a field without
    /// suggestions, or a load that failed: suggestions help the typing and are never an error.
    /// Call it after ``NodeField/suggestionPause`` without typing; an answer for an older text
    /// is the caller's to drop.
    public func suggestions(for field: NodeField, text: String) async -> [ViewNode] {
        guard let url = field.suggestionsURL(for: text), let loaded = try? await loader.screen(at: url) else { return [] }
        let tree = ViewTreeResolver(context: ResolutionContext()).resolve(loaded.screen).root
        return tree.allNodes.filter { $0.role == .row && $0.action != nil }
    }

    /// The user typed `text` into the top screen's field that stores `key`; the screen re-resolves
    /// with it (and its validation message), and the next command carries it. Returns the text
    /// kept (cut at the field's limit).
    @discardableResult
    public func type(_ text: String, into key: String) throws(NavigationStateMachine.TypingError) -> String {
        let kept = try machine.type(text, into: key)
        publish()
        return kept
    }

    /// Answers the presented prompt with `text`.
    public func submit(_ prompt: CommandResult.Prompt, text: String) async {
        await carryOut(machine.submit(prompt, text: text))
    }

    /// Answers the presented choice.
    public func choose(_ option: CommandResult.Choice.Option) async {
        await carryOut(machine.choose(option))
    }

    /// Dismisses whatever is presented.
    public func dismiss() {
        machine.dismiss()
        publish()
    }

    // MARK: Carrying out

    func carryOut(_ action: NavigationStateMachine.Effect) async {
        publish()
        switch action {
        case .none:
            return
        case .all(let actions):
            for action in actions { await carryOut(action) }
        case .perform(let effects):
            for (index, effect) in effects.enumerated() {
                switch effect {
                case .play(let play):
                    await started(play)
                    await localHandlers[effect.kind]?(effect)
                case .share, .openURL:
                    await localHandlers[effect.kind]?(effect)
                case .custom(let custom) where !custom.name.hasPrefix(ViewTreeResolver.reservedPrefix):
                    await localHandlers[custom.name]?(effect)
                case _ where effect.isLocal:
                    // A result may change the screen's state (a `set`: "saved", a counter reset).
                    _ = await performStep(effect, from: nil)
                default:
                    // Effects run on the device alone: a result cannot chain a request or a move
                    // through them (it would answer with `navigate` or another command instead).
                    record([
                        DecodingIssue(
                            kind: .invalidElement, path: "$.effects[\(index)]",
                            message: "a command result's effect must be a local action; '\(effect.kind)' was not run")
                    ])
                }
            }
        case .cancelLoads(let entries):
            for entry in entries { loads.removeValue(forKey: entry)?.task.cancel() }
        case .load(let entry, let url, let generation):
            // A load runs in a task of its own, so popping its screen can cancel it; the caller
            // still waits for it, which keeps `navigate` and `start` awaitable. A load it
            // supersedes (a live refresh over a pull) runs on: its answer shows until this one's.
            let task = Task { await self.load(entry: entry, url: url, generation: generation) }
            loads[entry] = (generation, task)
            await task.value
        case .send(let id, let request):
            let result = request.command.optimistic == nil ? await send(request) : await sendOptimistic(request)
            await carryOut(machine.commandFinished(id, result: result))
        }
    }

    private func send(_ request: NavigationStateMachine.Effect.CommandRequest) async -> Result<CommandResult, ClientError> {
        do {
            let decoded = try await loader.perform(request.command, extra: request.extra)
            record(decoded.issues)
            return .success(decoded.value)
        } catch {
            return .failure(error)
        }
    }

    /// An optimistic command races ``optimisticTimeout``: past it, the outcome is undone and the
    /// request abandoned (a late answer changes nothing; a live screen hears the truth anyway).
    private func sendOptimistic(_ request: NavigationStateMachine.Effect.CommandRequest) async -> Result<CommandResult, ClientError> {
        let timeout = optimisticTimeout
        return await withTaskGroup(of: Result<CommandResult, ClientError>?.self) { group in
            group.addTask { await self.send(request) }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .failure(ClientError(kind: .transport, message: "No answer in time; the change was undone."))
            }
            var first: Result<CommandResult, ClientError>?
            while first == nil, let next = await group.next() { first = next }
            group.cancelAll()
            return first ?? .failure(ClientError(kind: .transport, message: "The command was cancelled."))
        }
    }

    private func load(entry: Int, url: String, generation: Int) async {
        let result: Result<LoadedScreen, ClientError>
        do {
            result = .success(try await loader.screen(at: url))
        } catch {
            result = .failure(error)
        }
        guard !Task.isCancelled else { return }
        if case .success(let loaded) = result, !loaded.revalidated { record(loaded.issues) }
        if loads[entry]?.generation == generation { loads[entry] = nil }
        await carryOut(machine.loaded(entry: entry, generation: generation, result: result))
    }

    func record(_ new: [DecodingIssue]) {
        issues += new
        if issues.count > Self.issueLimit {
            droppedIssues += issues.count - Self.issueLimit
            issues.removeFirst(issues.count - Self.issueLimit)
        }
    }

    func publish() {
        updateLive()
        guard !observers.isEmpty else { return }
        let current = snapshot
        for continuation in observers.values { continuation.yield(current) }
    }
}

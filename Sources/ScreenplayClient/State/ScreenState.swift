public import ScreenplayContract

/// What one screen shows right now: the three states the talk's navigation has, visible to tests.
public enum ScreenState: Sendable, Hashable {
    /// The body is loading; the header (carried by the navigate action) is already shown.
    case loading(header: ScreenHeader?)
    /// The screen is here.
    case loaded(LoadedScreen)
    /// Loading failed; the header stays, with the error and a retry.
    case failed(header: ScreenHeader?, error: ClientError)

    /// The header to draw in any state.
    public var header: ScreenHeader? {
        switch self {
        case .loading(let header), .failed(let header, _): header
        case .loaded(let loaded): loaded.screen.header
        }
    }

    /// The screen, when loaded.
    public var screen: Screen? {
        if case .loaded(let loaded) = self { return loaded.screen }
        return nil
    }
}

/// The state machine of one screen: which transitions are legal, and what to do after each.
///
/// A struct whose mutating methods return an action, so the rules are tested without a network
/// and the runtime (``ScreenNavigator``) only carries out the actions.
public struct ScreenStateMachine: Sendable, Hashable {
    /// The current state.
    public private(set) var state: ScreenState
    /// Bumped on every fetch, so a late answer to an older fetch is ignored.
    public private(set) var generation = 0
    /// The fetch whose answer the state shows (or the last that failed).
    private var answeredGeneration = 0

    /// What the runtime must do next.
    public enum Action: Sendable, Hashable {
        /// Fetch the screen; pass `generation` back with the answer.
        case fetch(generation: Int)
        /// Nothing.
        case none
    }

    /// Starts in `loading` with the header the navigate action carried.
    public init(header: ScreenHeader?) { state = .loading(header: header) }

    /// The first fetch.
    public mutating func start() -> Action {
        generation += 1
        return .fetch(generation: generation)
    }

    /// Retry after a failure: back to `loading`, keeping the header.
    public mutating func retry() -> Action {
        guard case .failed(let header, _) = state else { return .none }
        state = .loading(header: header)
        generation += 1
        return .fetch(generation: generation)
    }

    /// Reload in place (after a command asked to refresh): the old screen stays until the new
    /// one arrives, so nothing flashes.
    public mutating func refresh() -> Action {
        generation += 1
        return .fetch(generation: generation)
    }

    /// A fetch answered. An answer older than one already taken is ignored; an older answer
    /// that lands while a newer fetch is still out is taken (a live refresh asked meanwhile must
    /// not throw away a good answer), unless it is a failure; a failed refresh keeps the loaded
    /// screen.
    public mutating func received(_ result: Result<LoadedScreen, ClientError>, generation answered: Int) -> Action {
        guard answered <= generation, answered > answeredGeneration else { return .none }
        if answered < generation, case .failure = result { return .none }
        answeredGeneration = answered
        switch result {
        case .success(let loaded):
            // An unchanged screen (a 304) keeps the state as it is: nothing to redraw (unless an
            // offline copy was shown: it is the server's again).
            if loaded.revalidated, case .loaded(let current) = state, current.screen == loaded.screen, !current.isOffline { return .none }
            state = .loaded(loaded)
        case .failure(let error):
            if case .loaded = state { return .none }
            state = .failed(header: state.header, error: error)
        }
        return .none
    }

    /// A command answered with a whole new screen.
    public mutating func replace(with screen: Screen) {
        generation += 1
        answeredGeneration = generation
        state = .loaded(LoadedScreen(screen: screen, issues: [], etag: nil, revalidated: false))
    }
}

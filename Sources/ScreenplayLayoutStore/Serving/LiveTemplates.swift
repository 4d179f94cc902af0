public import ScreenplayComposer
public import ScreenplayServer
import Synchronization

/// The live templates and experiments, from memory: what ``ComposedScreens`` reads on every
/// request, so serving a composed page touches no SQL once warm.
///
/// The set of routes that have a live template is loaded once (a path that is not in it is not a
/// composed page, without a query: random URLs cost nothing); each template is read on first
/// use, once however many requests miss at the same moment. A publish, rollback or widget switch
/// announced on the bus drops that route's template; an experiment change drops the experiments.
/// A read that races an invalidation is not kept.
public final class LiveTemplates: PageTemplateSource {
    private struct State {
        var routes: Set<String>?
        var templates: [String: PageTemplate] = [:]
        var experiments: ExperimentCatalog?
        /// Moves on with every invalidation: a read started before one is served, not kept.
        var generation = 0
        /// Reads under way, each shared by every request that misses meanwhile (a publish wakes
        /// every open event stream at once: one read of the new template, not one each).
        var templateReads: [String: (generation: Int, read: Task<PageTemplate?, any Error>)] = [:]
        var experimentsRead: (generation: Int, read: Task<ExperimentCatalog, any Error>)?
        var templatesRead = 0
    }

    let layouts: LayoutStore
    let experimentStore: ExperimentStore?
    private let state = Mutex(State())
    /// While it delivers nothing (another replica's publish could go unheard), every request
    /// reads the store and nothing is kept.
    private let bus: any InvalidationBus

    /// Live templates of `layouts` and experiments of `experiments`, dropped when `bus`
    /// announces a change (pass the bus the stores publish on).
    public init(layouts: LayoutStore, experiments: ExperimentStore?, bus: any InvalidationBus) {
        self.layouts = layouts
        self.experimentStore = experiments
        self.bus = bus
        bus.subscribe { [weak self] invalidation in self?.drop(invalidation) }
    }

    private func drop(_ invalidation: Invalidation) {
        switch invalidation {
        case .pagePublished(let route):
            state.withLock { state in
                state.routes?.insert(route)
                state.templates[route] = nil
                state.generation += 1
            }
        case .experimentsChanged:
            state.withLock { state in
                state.experiments = nil
                state.generation += 1
            }
        case .everything:
            state.withLock { state in
                state.routes = nil
                state.templates = [:]
                state.experiments = nil
                state.generation += 1
            }
        case .userRevision, .tokenRevoked, .draftChanged: break
        }
    }

    /// How many times a template was read from the store; for tests and diagnostics.
    public var templatesRead: Int { state.withLock { $0.templatesRead } }

    /// The live template of `route`, from memory after the first read.
    public func liveTemplate(for route: String) async throws -> PageTemplate? {
        let delivering = bus.isDelivering
        let (known, cached, generation) = state.withLock { ($0.routes, $0.templates[route], $0.generation) }
        if delivering, let cached { return cached }
        let routes: Set<String>
        if delivering, let known {
            routes = known
        } else {
            let loaded = Set(try await layouts.pages().filter { $0.liveRevision != nil }.map(\.route))
            state.withLock { state in
                if delivering, state.generation == generation, state.routes == nil { state.routes = loaded }
            }
            routes = loaded
        }
        guard routes.contains(route) else { return nil }
        let layouts = self.layouts
        let read = state.withLock { state in
            if let shared = state.templateReads[route], shared.generation == generation { return shared.read }
            let read = Task { try await layouts.published(route: route)?.template }
            state.templateReads[route] = (generation, read)
            state.templatesRead += 1
            return read
        }
        let template = try await read.value
        state.withLock { state in
            if state.templateReads[route]?.read == read { state.templateReads[route] = nil }
            if delivering, state.generation == generation, let template { state.templates[route] = template }
        }
        return template
    }

    /// The experiments, from memory after the first read.
    public func experiments() async throws -> ExperimentCatalog {
        let store = experimentStore
        let delivering = bus.isDelivering
        let (cached, generation, read) = state.withLock { state -> (ExperimentCatalog?, Int, Task<ExperimentCatalog, any Error>?) in
            if delivering, let cached = state.experiments { return (cached, state.generation, nil) }
            if let shared = state.experimentsRead, shared.generation == state.generation { return (nil, state.generation, shared.read) }
            let read = Task { try await store?.catalog() ?? ExperimentCatalog() }
            state.experimentsRead = (state.generation, read)
            return (nil, state.generation, read)
        }
        if let cached { return cached }
        guard let read else { return ExperimentCatalog() }
        let loaded = try await read.value
        state.withLock { state in
            if state.experimentsRead?.read == read { state.experimentsRead = nil }
            if delivering, state.generation == generation { state.experiments = loaded }
        }
        return loaded
    }
}

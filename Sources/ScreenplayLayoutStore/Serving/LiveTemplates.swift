public import ScreenplayComposer
public import ScreenplayServer
import Synchronization

/// The live templates and experiments, from memory: what ``ComposedScreens`` reads on every
/// request, so serving a composed page touches no SQL once warm.
///
/// The set of routes that have a live template is loaded once (a path that is not in it is not a
/// composed page, without a query: random URLs cost nothing); each template is read on first
/// use. A publish, rollback or widget switch announced on the bus drops that route's template;
/// an experiment change drops the experiments. A read that races an invalidation is not kept.
public final class LiveTemplates: PageTemplateSource {
    private struct State {
        var routes: Set<String>?
        var templates: [String: PageTemplate] = [:]
        var experiments: ExperimentCatalog?
        /// Moves on with every invalidation: a read started before one is served, not kept.
        var generation = 0
    }

    let layouts: LayoutStore
    let experimentStore: ExperimentStore?
    private let state = Mutex(State())

    /// Live templates of `layouts` and experiments of `experiments`, dropped when `bus`
    /// announces a change (pass the bus the stores publish on).
    public init(layouts: LayoutStore, experiments: ExperimentStore?, bus: any InvalidationBus) {
        self.layouts = layouts
        self.experimentStore = experiments
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
        case .userRevision, .tokenRevoked, .draftChanged: break
        }
    }

    /// The live template of `route`, from memory after the first read.
    public func liveTemplate(for route: String) async throws -> PageTemplate? {
        let (known, cached, generation) = state.withLock { ($0.routes, $0.templates[route], $0.generation) }
        if let cached { return cached }
        let routes: Set<String>
        if let known {
            routes = known
        } else {
            let loaded = Set(try await layouts.pages().filter { $0.liveRevision != nil }.map(\.route))
            state.withLock { state in
                if state.generation == generation, state.routes == nil { state.routes = loaded }
            }
            routes = loaded
        }
        guard routes.contains(route) else { return nil }
        guard let live = try await layouts.published(route: route) else { return nil }
        state.withLock { state in
            if state.generation == generation { state.templates[route] = live.template }
        }
        return live.template
    }

    /// The experiments, from memory after the first read.
    public func experiments() async throws -> ExperimentCatalog {
        let (cached, generation) = state.withLock { ($0.experiments, $0.generation) }
        if let cached { return cached }
        let loaded = try await experimentStore?.catalog() ?? ExperimentCatalog()
        state.withLock { state in
            if state.generation == generation { state.experiments = loaded }
        }
        return loaded
    }
}

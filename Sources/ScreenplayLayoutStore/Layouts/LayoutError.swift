public import ScreenplayComposer
public import ScreenplayServer
import ScreenplayStore

/// Why the layout store refused a change or a lookup.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The template breaks its contract or the store's limits; every problem with its JSON path.
    case invalid([TemplateProblem])
    /// Publishing a route that has no draft.
    case noDraft(route: String)
    /// A revision that does not exist.
    case noSuchRevision(route: String, revision: Int)
    /// Switching a widget on a route that was never published.
    case notPublished(route: String)
    /// Switching a widget the live template does not have.
    case noSuchWidget(route: String, instance: String)
    /// Someone else published since the editor loaded the page.
    case conflict(route: String, expected: Int, live: Int)
    /// Someone else saved the draft since the editor read it (a save or publish naming what it
    /// read): reading it again and redoing the change keeps both.
    case draftChanged(route: String)
    /// Deleting an experiment that live pages or drafts still name in their conditions: they
    /// would stop saving (a condition naming no experiment is an error), so they change first.
    case experimentInUse(key: String, routes: [String])
    /// What the write was made to changed since its writer read it (a version named by
    /// `If-Match` or a form no longer there): nothing was written.
    case stale(StaleWrite)
    /// An undo or redo that cannot be done as asked: nothing to take back, another step is the
    /// newest now, or someone else has since changed what the step changed (taking it back would
    /// undo their work too). The reason is in words, naming the step and what stands in the way.
    case stepRefused(route: String, reason: String)
    /// The database failed.
    case store(String)
    /// The database could not be reached (``StoreUnavailable``): a 503 to retry, not a failure.
    /// `wroteNothing` as the store said: whether the change certainly did not land.
    case unavailable(wroteNothing: Bool)

    /// `error` as a layout error: itself when it is one, ``unavailable(wroteNothing:)`` for an
    /// unreachable database, ``store(_:)`` for anything else.
    public init(wrapping error: any Error) {
        switch error {
        case let error as LayoutError: self = error
        case let error as StoreUnavailable: self = .unavailable(wroteNothing: error.wroteNothing)
        default: self = .store(String(describing: error))
        }
    }

    /// The same 503 the public API gives when the database is away.
    public var unavailableError: ScreenplayError? {
        guard case .unavailable(let wroteNothing) = self else { return nil }
        return StoreUnavailable("", wroteNothing: wroteNothing).screenplayError
    }

    /// One line naming the route and what went wrong.
    public var description: String {
        switch self {
        case .invalid(let problems): "the template has \(problems.count) problem(s): " + problems.map(\.description).joined(separator: "; ")
        case .noDraft(let route): "page '\(route)' has no draft to publish"
        case .noSuchRevision(let route, let revision): "page '\(route)' has no revision \(revision)"
        case .notPublished(let route): "page '\(route)' was never published"
        case .noSuchWidget(let route, let instance): "page '\(route)' has no widget '\(instance)' live"
        case .conflict(let route, let expected, let live):
            "page '\(route)' is at revision \(live) now, not \(expected): someone published meanwhile; reload and try again"
        case .draftChanged(let route): "the draft of '\(route)' changed since you read it: someone else saved meanwhile; reload and try again"
        case .experimentInUse(let key, let routes):
            "experiment '\(key)' is still named by the conditions of \(routes.map { "'\($0)'" }.joined(separator: ", ")); change those pages first"
        case .stale(let stale): stale.description
        case .stepRefused(_, let reason): reason
        case .store(let message): "the layout store failed: \(message)"
        case .unavailable(let wroteNothing):
            wroteNothing
                ? "the database is unavailable; nothing was changed, try again in a moment"
                : "the database became unavailable while this was being saved; reload to see whether it was"
        }
    }
}

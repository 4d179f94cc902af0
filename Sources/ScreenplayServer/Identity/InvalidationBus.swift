import Synchronization

/// A change that makes what a server holds in memory stale: a user's data changed (their
/// revision moved on), a token was revoked, a page was published, an experiment changed.
public enum Invalidation: Sendable, Hashable {
    /// The user's revision changed: drop any cached revision of theirs.
    case userRevision(userID: Int64)
    /// A token (by the SHA-256 the store keeps) no longer names anyone.
    case tokenRevoked(tokenHash: String)
    /// A page template was published (or rolled back, or a widget switched): drop the route's
    /// live template.
    case pagePublished(route: String)
    /// An experiment was created, changed or deleted.
    case experimentsChanged
    /// A page's draft was saved or discarded: nothing served changes, but the admin's previews of
    /// the route look again.
    case draftChanged(route: String)
    /// Announcements may have been lost (the bus's connection dropped, or one was too big to
    /// carry): drop everything held in memory, as if every other case had arrived.
    case everything
}

/// Carries invalidations from the process that wrote to every process that caches, so the hot
/// path (token → user, user → revision) can be answered from memory without serving stale data.
///
/// In process today (``InProcessInvalidationBus``); a PostgreSQL deployment with replicas
/// implements it with LISTEN/NOTIFY, and every subscriber sees every publish.
public protocol InvalidationBus: Sendable {
    /// Sends `invalidation` to every subscriber (this process's included), after the write that
    /// caused it has committed.
    func publish(_ invalidation: Invalidation) async
    /// Calls `handler` for every invalidation published from now on. Handlers of one
    /// invalidation are called in the order they subscribed, so a cache built on other caches
    /// (``RevalidationMemory``) forgets after them.
    func subscribe(_ handler: @escaping @Sendable (Invalidation) -> Void)
    /// Whether announcements are arriving now. While `false` (a replica's bus lost its database
    /// connection: what others announce meanwhile is lost), caches neither answer from memory nor
    /// keep what they read, so every answer goes the slow, correct way; when it comes back the bus
    /// announces ``Invalidation/everything``.
    var isDelivering: Bool { get }
}

extension InvalidationBus {
    /// An in-process bus always delivers.
    public var isDelivering: Bool { true }
}

/// The bus for a single process: publishing calls every subscriber at once.
public final class InProcessInvalidationBus: InvalidationBus {
    private let handlers = Mutex<[@Sendable (Invalidation) -> Void]>([])

    /// An empty bus.
    public init() {}

    /// Calls every subscriber with `invalidation`.
    public func publish(_ invalidation: Invalidation) async {
        for handler in handlers.withLock({ $0 }) { handler(invalidation) }
    }

    /// Adds a subscriber.
    public func subscribe(_ handler: @escaping @Sendable (Invalidation) -> Void) {
        handlers.withLock { $0.append(handler) }
    }
}

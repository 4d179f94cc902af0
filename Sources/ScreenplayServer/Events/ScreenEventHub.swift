import HTTPTypes
public import Logging
import Synchronization

/// Every open screen event stream of this process, woken by the invalidation bus.
///
/// The hub does not decide what changed: an invalidation only rings the doorbells of the streams
/// it may concern (a user's revision: that user's streams; a publish of a route: the streams that
/// watch that route's screen, which then look at that screen alone; an experiment change: every
/// stream; a revoked token: every signed-in stream, to check its identity again; a draft: the
/// streams that follow drafts, the admin's previews). Each stream then
/// asks the screen pipeline for the ETags of what it watches and tells its client about those that
/// moved, so an event is sent exactly when a `GET` would now answer differently.
///
/// Ringing never waits: a doorbell keeps at most one ring, so a stream whose client reads slowly
/// coalesces many changes into one look, and the bus is never held by a reader.
public final class ScreenEventHub: Sendable {
    /// The limits in force.
    public let limits: EventStreamLimits
    /// What this process's event ids start with: an id from another process (a restart, another
    /// replica) never matches, so its client is told to revalidate.
    public let instance: String
    /// The patches streams send, and the screens they hold for them.
    let patches: StreamPatches
    /// Invalidations seen since start; the second half of every event id.
    private let generation = Atomic<UInt64>(0)
    private let state = Mutex(Registry())

    struct Registry {
        var nextID: UInt64 = 0
        var streams: [UInt64: Entry] = [:]
        var byUser: [Int64: Set<UInt64>] = [:]
        /// The streams that watch each screen path (a published route's page is the screen at
        /// that path), so a publish rings only those.
        var byPath: [String: Set<UInt64>] = [:]
        /// The streams that follow drafts (the admin's previews, which show the live page too).
        var followingDrafts: Set<UInt64> = []
        var perKey: [String: Int] = [:]
        var isClosed = false
    }

    struct Entry {
        let doorbell: Doorbell
        let key: String
        let user: UserIdentity
        let paths: Set<String>
    }

    /// A hub woken by `bus` (subscribed here: create it after whatever caches subscribe, so they
    /// forget before any stream looks again).
    public init(limits: EventStreamLimits, bus: any InvalidationBus) {
        self.limits = limits
        self.patches = StreamPatches(budget: limits.patchMemory)
        self.instance = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16)
        bus.subscribe { [weak self] invalidation in self?.announce(invalidation) }
    }

    /// The id a stream that is up to date with every invalidation so far carries.
    public var currentEventID: String { "\(instance).\(generation.load(ordering: .acquiring))" }

    /// Whether ``closeAll()`` was called.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// How many streams are open.
    public var openStreams: Int { state.withLock { $0.streams.count } }

    /// Bytes of screens the streams hold to diff their clients' next versions against (within
    /// ``EventStreamLimits/patchMemory``).
    public var heldForPatches: Int { patches.held }

    /// Ends every open stream and refuses new ones: for a server shutting down, whose graceful
    /// shutdown would otherwise wait for streams that never end by themselves.
    public func closeAll() {
        let doorbells = state.withLock { registry in
            registry.isClosed = true
            return registry.streams.values.map(\.doorbell)
        }
        for doorbell in doorbells { doorbell.ring { $0.shutdown = true } }
    }

    /// Admits a stream for `user` counted under `key`, or refuses it: `429` past the per-identity
    /// limit, `503` past the total or after ``closeAll()``.
    func register(key: String, user: UserIdentity, followsDrafts: Bool = false, paths: Set<String> = []) throws(ScreenplayError) -> (
        id: UInt64, doorbell: Doorbell
    ) {
        let limits = self.limits
        let admitted: Result<(UInt64, Doorbell), ScreenplayError> = state.withLock { registry in
            guard !registry.isClosed, registry.streams.count < limits.total else {
                return .failure(
                    ScreenplayError(
                        status: .serviceUnavailable, code: "tooManyStreams",
                        message: "the server has \(limits.total) event streams open, its limit; try again later",
                        retryAfter: limits.retryAfter))
            }
            guard registry.perKey[key, default: 0] < limits.perIdentity else {
                return .failure(
                    .tooManyRequests(
                        "this client has \(limits.perIdentity) event streams open, the limit; close one first",
                        retryAfter: limits.retryAfter))
            }
            registry.nextID += 1
            let id = registry.nextID
            let doorbell = Doorbell()
            registry.streams[id] = Entry(doorbell: doorbell, key: key, user: user, paths: paths)
            registry.perKey[key, default: 0] += 1
            for path in paths { registry.byPath[path, default: []].insert(id) }
            if followsDrafts { registry.followingDrafts.insert(id) }
            if !user.isAnonymous { registry.byUser[user.id, default: []].insert(id) }
            return .success((id, doorbell))
        }
        return try admitted.get()
    }

    /// Forgets stream `id` (again is harmless).
    func unregister(_ id: UInt64) {
        state.withLock { registry in
            guard let entry = registry.streams.removeValue(forKey: id) else { return }
            let left = registry.perKey[entry.key, default: 1] - 1
            registry.perKey[entry.key] = left > 0 ? left : nil
            if !entry.user.isAnonymous {
                registry.byUser[entry.user.id]?.remove(id)
                if registry.byUser[entry.user.id]?.isEmpty == true { registry.byUser[entry.user.id] = nil }
            }
            registry.followingDrafts.remove(id)
            for path in entry.paths {
                registry.byPath[path]?.remove(id)
                if registry.byPath[path]?.isEmpty == true { registry.byPath[path] = nil }
            }
        }
    }

    /// Rings the doorbells `invalidation` concerns, after counting it (so a stream that looks
    /// because of it reports an id that includes it).
    func announce(_ invalidation: Invalidation) {
        generation.add(1, ordering: .releasing)
        let rings: [(Doorbell, Doorbell.Ring)] = state.withLock { registry in
            func ring(_ ids: some Sequence<UInt64>, _ ring: Doorbell.Ring) -> [(Doorbell, Doorbell.Ring)] {
                ids.compactMap { registry.streams[$0].map { ($0.doorbell, ring) } }
            }
            switch invalidation {
            case .userRevision(let userID):
                return ring(registry.byUser[userID] ?? [], .changed)
            case .tokenRevoked:
                return ring(registry.streams.filter { !$0.value.user.isAnonymous }.keys, .identity)
            case .pagePublished(let route):
                // Only the streams that watch the route's screen, and only that screen changed; and
                // the previews, whose live side may be that page.
                return ring(registry.byPath[route] ?? [], .path(route)) + ring(registry.followingDrafts, .changed)
            case .experimentsChanged:
                return ring(registry.streams.keys, .changed)
            case .everything:
                // Anything may have changed, a revoked token included: every stream looks again.
                return ring(registry.streams.keys, .identity)
            case .draftChanged:
                return ring(registry.followingDrafts, .changed)
            }
        }
        for (doorbell, ring) in rings {
            doorbell.ring { pending in
                switch ring {
                case .changed: pending.changed = true
                case .identity: pending.identity = true
                case .path(let path): pending.paths.insert(path)
                }
            }
        }
    }
}

extension ScreenEventHub {
    /// Opens a stream of changes to `entries` as `client` sees them, where `etag` says what a
    /// `GET` of an entry would answer now: the service's screens (its ``ScreenplayService/openEventStream(screens:client:lastEventID:)``),
    /// or anything else whose answer moves with the invalidations, such as the layout admin's
    /// preview of a route (`followsDrafts`, so a saved draft wakes it too).
    ///
    /// Refused with `400` past ``EventStreamLimits/screensPerStream``, `404` when `etag` answers
    /// `404` for an entry, `429`/`503` past the stream limits; any other failure of `etag` at the
    /// opening (a provider down) is a `null` tag in `ready`. `identity` says who the client's
    /// token names now (asked when any token is revoked); `lastEventID` is what a reconnecting
    /// client's `Last-Event-ID` said. With `endsWhenUnauthorized`, a later `401` from `etag`
    /// ends the stream (`end`, reason `identity`), for a stream whose right to look is
    /// checked by the lookup itself (an admin session); otherwise it keeps the client's tag.
    public func open(
        watching entries: [String], client: EventStreamClient, lastEventID: String? = nil, followsDrafts: Bool = false,
        endsWhenUnauthorized: Bool = false, etag: @escaping ScreenEventStream.ETagLookup,
        identity: @escaping ScreenEventStream.IdentityCheck, logger: Logger
    ) async throws(ScreenplayError) -> ScreenEventStream {
        guard entries.count <= limits.screensPerStream else {
            throw .invalidField("screens", "names \(entries.count) screens; one stream watches at most \(limits.screensPerStream)")
        }
        let screens = entries.map(WatchedScreen.init(entry:))
        // Read before the baseline: an invalidation during it makes the first look happen again.
        let openedID = currentEventID
        var baseline: [String: String] = [:]
        var ready: [String: String?] = [:]
        let held = client.wantsPatches ? HeldVersions(patches: patches) : nil
        for screen in screens {
            do {
                let version = try await etag(screen, client)
                baseline[screen.entry] = version.etag
                ready[screen.entry] = version.etag
                held?.hold(version.bytes, for: screen.entry)
            } catch where error.status == .notFound {
                held?.close()
                throw .notFound("no screen at '\(screen.path)' to watch", path: screen.entry)
            } catch {
                // Failing now (a provider down): announced once it builds.
                ready[screen.entry] = .some(nil)
            }
        }
        let registered: (id: UInt64, doorbell: Doorbell)
        do {
            registered = try register(key: client.limitKey, user: client.user, followsDrafts: followsDrafts, paths: Set(screens.map(\.path)))
        } catch {
            held?.close()
            throw error
        }
        let (id, doorbell) = registered
        var opening: [UInt8] = []
        if let lastEventID, lastEventID != openedID {
            opening += ServerSentEvent(type: "revalidate", data: EventData.json(["screens": entries])).bytes
        }
        let delay = limits.reconnectDelay.components
        opening += ServerSentEvent(
            type: "ready", id: openedID, data: EventData.json(["screens": ready]),
            retry: Int(delay.seconds * 1_000 + delay.attoseconds / 1_000_000_000_000_000)
        ).bytes
        return ScreenEventStream(
            id: id, hub: self, doorbell: doorbell, screens: screens, client: client, opening: opening, baseline: baseline,
            openedID: openedID, etag: etag, endsWhenUnauthorized: endsWhenUnauthorized, identity: identity, logger: logger, held: held)
    }
}

/// What wakes one stream: flags set by the hub, the heartbeat timer and shutdown, and a stream
/// that holds at most one ring, so any number of rings before the stream looks is one look.
final class Doorbell: Sendable {
    /// Why the hub rings a stream: anything may have changed; its identity must be checked again
    /// (and everything looked at); or only the screen at a path may have changed.
    enum Ring {
        case changed, identity, path(String)
    }

    /// What happened since the stream last looked.
    struct Pending: Sendable {
        /// Anything may have changed: every watched screen is looked at.
        var changed = false
        /// Only the screens at these paths may have changed (a publish of their route).
        var paths: Set<String> = []
        var identity = false
        var tick = false
        var closed = false
        var shutdown = false
    }

    let rings: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let pending = Mutex(Pending())

    init() {
        (rings, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Records `update` and wakes the stream.
    func ring(_ update: (inout Pending) -> Void) {
        pending.withLock { update(&$0) }
        continuation.yield()
    }

    /// What happened, cleared (a close and a shutdown stay).
    func take() -> Pending {
        pending.withLock { pending in
            let taken = pending
            pending = Pending(closed: pending.closed, shutdown: pending.shutdown)
            return taken
        }
    }
}

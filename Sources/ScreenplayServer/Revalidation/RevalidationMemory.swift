public import Foundation
public import HTTPTypes
import Synchronization

/// What the server remembers about revalidations it answered, so the next one of the same
/// request can be answered without resolving a token, calling a revision or touching the
/// service at all: the HTTP adapter asks it on the connection's event loop (see
/// `RevalidationHandler` in ScreenplayHummingbird) before the framework's routing runs.
///
/// Only screens that declare ``ScreenplayRoutes/Revalidation/fromMemory(until:)`` are remembered,
/// which is the app's promise that their revision changes only when an ``Invalidation`` is
/// published (or when the screen's own expiry passes). Exactness then rests on three rules:
/// - an entry is keyed by every request input the service reads for such a screen (the target,
///   the token's headers, the components header, `Accept-Encoding`), byte for byte;
/// - `userRevision` drops that user's entries; every other invalidation drops everything;
/// - an entry is stored only if no invalidation arrived since its request began
///   (``Ticket``), so an answer computed from data a write has since replaced is never kept.
///
/// Bounded by bytes: two generations of entries, the older dropped whole when the newer fills
/// half the budget (an approximate least-recently-used order at the cost of a dictionary).
public final class RevalidationMemory: Sendable {
    /// The request inputs a remembered answer depends on, exactly as received.
    struct Key: Hashable, Sendable {
        let target: String
        let authorization: String
        let cookie: String
        let components: String
        let acceptEncoding: String

        /// The key of a `GET` (other methods are never remembered), or `nil`.
        init?(_ request: HTTPRequest) {
            guard request.method == .get, let target = request.path else { return nil }
            var authorization = ""
            var cookie = ""
            var components = ""
            var acceptEncoding = ""
            // Repeated fields are joined in order: two requests share a key only when every
            // value the service could read is the same.
            func join(_ value: String, to joined: inout String) { joined += joined.isEmpty ? value : "\n" + value }
            for field in request.headerFields {
                switch field.name {
                case .authorization: join(field.value, to: &authorization)
                case .cookie: join(field.value, to: &cookie)
                case .acceptEncoding: join(field.value, to: &acceptEncoding)
                case ScreenplayService.componentsHeader: join(field.value, to: &components)
                default: continue
                }
            }
            self.target = target
            self.authorization = authorization
            self.cookie = cookie
            self.components = components
            self.acceptEncoding = acceptEncoding
        }

        /// Roughly what the entry costs in memory, for the budget.
        var size: Int {
            target.utf8.count + authorization.utf8.count + cookie.utf8.count + components.utf8.count + acceptEncoding.utf8.count + 80
        }
    }

    struct Entry: Sendable {
        /// Whose writes make it stale (`nil`: nobody's).
        let user: Int64?
        /// The identity representation's tag; its gzip variant matches too.
        let etag: String
        /// The 304's header fields, as the service wrote them.
        let fields: HTTPFields
        /// When the screen said its revision may change by itself, if it did.
        let expiry: Date?
        let size: Int
    }

    /// One generation: entries, and which users own which keys (for `userRevision`).
    struct Generation {
        var entries: [Key: Entry] = [:]
        var keysByUser: [Int64: [Key]] = [:]
        var bytes = 0

        mutating func insert(_ entry: Entry, for key: Key) {
            if let old = entries.updateValue(entry, forKey: key) {
                bytes -= old.size
            } else if let user = entry.user {
                keysByUser[user, default: []].append(key)
            }
            bytes += entry.size
        }

        mutating func remove(user: Int64) {
            for key in keysByUser.removeValue(forKey: user) ?? [] {
                if let old = entries.removeValue(forKey: key) { bytes -= old.size }
            }
        }
    }

    struct State {
        var current = Generation()
        var previous = Generation()
        /// Counts invalidations; a ticket from before the last one cannot store.
        var epoch: UInt64 = 0
    }

    /// Taken when a request starts, before anything it reads: its answer is stored only if no
    /// invalidation arrived in between.
    public struct Ticket: Sendable {
        let epoch: UInt64
        /// When it was taken: what a screen's expiry is counted from.
        let taken: Date
    }

    private let state = Mutex(State())
    /// The most bytes it holds.
    public let byteBudget: Int
    private let answeredCount = Atomic<Int>(0)
    /// Consulted on every answer: while it delivers nothing, memory answers nothing.
    private let bus: any InvalidationBus

    /// An empty memory of at most `byteBudget` bytes, kept exact by `bus` (subscribed here).
    ///
    /// Create it after every cache the remembered revisions read has subscribed to `bus`: an
    /// ``InvalidationBus`` calls subscribers in the order they subscribed, so by the time this
    /// memory forgets, those caches already have, and a request that starts afterwards reads
    /// fresh data.
    public init(byteBudget: Int, bus: any InvalidationBus) {
        self.byteBudget = max(0, byteBudget)
        self.bus = bus
        bus.subscribe { [weak self] invalidation in self?.forget(invalidation) }
    }

    /// A ticket for a request starting now.
    public func ticket() -> Ticket {
        Ticket(epoch: state.withLock { $0.epoch }, taken: Date())
    }

    /// How many revalidations were answered from memory so far.
    public var answered: Int { answeredCount.load(ordering: .relaxed) }

    /// The bytes held now.
    public var bytes: Int { state.withLock { $0.current.bytes + $0.previous.bytes } }

    /// The header fields of a `304 Not Modified` for `request`, if it is a `GET` with an
    /// `If-None-Match` naming the tag remembered for exactly this request; `nil` otherwise (the
    /// request then goes the normal way). Cheap when there is no `If-None-Match`.
    public func notModified(_ request: HTTPRequest, now: Date = Date()) -> HTTPFields? {
        guard request.method == .get, request.headerFields.contains(.ifNoneMatch), bus.isDelivering, let key = Key(request) else {
            return nil
        }
        let entry: Entry? = state.withLock { state in
            if let entry = state.current.entries[key] { return entry }
            // Used again: promote it, so it outlives the generation it was stored in.
            guard let entry = state.previous.entries[key] else { return nil }
            insert(entry, for: key, into: &state)
            return entry
        }
        guard let entry, entry.expiry.map({ now < $0 }) ?? true else { return nil }
        guard
            request.headerFields.contains(where: {
                $0.name == .ifNoneMatch && ETag.matches(ifNoneMatch: $0.value, etag: entry.etag, orGzipVariant: true)
            })
        else { return nil }
        answeredCount.add(1, ordering: .relaxed)
        return entry.fields
    }

    /// Remembers that `request` is answered with `etag` and, when it matches, a 304 with
    /// `fields`, unless an invalidation arrived since `ticket` or the entry would not fit.
    /// `owner`'s writes make it stale (`nil`: no user's, for screens shared by everyone).
    func remember(
        _ request: HTTPRequest, owner: UserIdentity?, etag: String, fields: HTTPFields, expiry: Date?, ticket: Ticket
    ) {
        guard bus.isDelivering, let key = Key(request) else { return }
        let size = key.size + etag.utf8.count + fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 16 }
        guard size <= byteBudget / 8 else { return }
        let entry = Entry(user: owner?.id, etag: etag, fields: fields, expiry: expiry, size: size)
        state.withLock { state in
            guard state.epoch == ticket.epoch else { return }
            insert(entry, for: key, into: &state)
        }
    }

    /// Inserts into the newer generation, first retiring it when the entry would take it over
    /// half the budget: each generation stays within half, so both within the budget.
    private func insert(_ entry: Entry, for key: Key, into state: inout State) {
        if state.current.bytes + entry.size > byteBudget / 2 {
            state.previous = state.current
            state.current = Generation()
        }
        state.current.insert(entry, for: key)
    }

    /// Drops what `invalidation` makes stale, and voids every ticket taken before it.
    func forget(_ invalidation: Invalidation) {
        // A draft is never served: what is remembered stays true.
        if case .draftChanged = invalidation { return }
        state.withLock { state in
            state.epoch &+= 1
            switch invalidation {
            case .userRevision(let id):
                state.current.remove(user: id)
                state.previous.remove(user: id)
            case .tokenRevoked, .pagePublished, .experimentsChanged, .draftChanged, .everything:
                state.current = Generation()
                state.previous = Generation()
            }
        }
    }
}

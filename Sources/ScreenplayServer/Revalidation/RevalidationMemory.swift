public import Foundation
public import HTTPTypes
import Synchronization

/// What the server remembers about answers it gave, so the next one of the same request can be
/// answered without resolving a token, calling a revision or touching the service at all: the
/// HTTP adapter asks it on the connection's event loop (see `RevalidationHandler` in
/// ScreenplayHummingbird) before the framework's routing runs. A revalidation whose tag still
/// names the answer gets its `304 Not Modified`; any other `GET` (or `HEAD`) of the same request
/// gets the `200` itself, its bytes as the service sent them (``answer(_:now:)``).
///
/// Only screens that declare ``ScreenplayRoutes/Revalidation/fromMemory(until:)`` are remembered,
/// which is the app's promise that their revision changes only when an ``Invalidation`` is
/// published (or when the screen's own expiry passes). Exactness then rests on three rules:
/// - an entry is keyed by every request input the service reads for such a screen (the target,
///   the token's headers, the components and platform headers, `Accept-Encoding`,
///   `Accept-Language`, the client's revision floor, and for web pages the `Host`), byte for byte;
/// - `userRevision` drops that user's entries; every other invalidation drops everything;
/// - an entry is stored only if no invalidation arrived since its request began
///   (``Ticket``), so an answer computed from data a write has since replaced is never kept.
///
/// Bounded by bytes, bodies included: two generations of entries, the older dropped whole when the newer fills
/// half the budget (an approximate least-recently-used order at the cost of a dictionary).
public final class RevalidationMemory: Sendable {
    /// The request inputs a remembered answer depends on, exactly as received.
    struct Key: Hashable, Sendable {
        let target: String
        let authorization: String
        let cookie: String
        let components: String
        let acceptEncoding: String
        let acceptLanguage: String
        let platform: String
        /// The client's revision floor (``RevisionWatermark``): an answer made under one floor
        /// is no answer for a higher one.
        let revision: String

        /// The key of a `GET` or a `HEAD` (the same key: a `HEAD` is answered with the `GET`'s
        /// head), or `nil` for any other method.
        init?(_ request: HTTPRequest) {
            guard request.method == .get || request.method == .head, let target = request.path else { return nil }
            var authorization = ""
            var cookie = ""
            var components = ""
            var acceptEncoding = ""
            var acceptLanguage = ""
            var platform = ""
            var revision = ""
            // Repeated fields are joined in order: two requests share a key only when every
            // value the service could read is the same.
            func join(_ value: String, to joined: inout String) { joined += joined.isEmpty ? value : "\n" + value }
            for field in request.headerFields {
                switch field.name {
                case .authorization: join(field.value, to: &authorization)
                case .cookie: join(field.value, to: &cookie)
                case .acceptEncoding: join(field.value, to: &acceptEncoding)
                case .acceptLanguage: join(field.value, to: &acceptLanguage)
                case ScreenplayService.revisionHeader: join(field.value, to: &revision)
                case ScreenplayService.platformHeader: join(field.value, to: &platform)
                case ScreenplayService.componentsHeader: join(field.value, to: &components)
                default: continue
                }
            }
            self.target = target
            self.authorization = authorization
            self.cookie = cookie
            self.components = components
            self.acceptEncoding = acceptEncoding
            self.acceptLanguage = acceptLanguage
            self.platform = platform
            self.revision = revision
        }

        /// Roughly what the entry costs in memory, for the budget.
        var size: Int {
            [target, authorization, cookie, components, acceptEncoding, acceptLanguage, platform, revision].reduce(96) { $0 + $1.utf8.count }
        }
    }

    struct Entry: Sendable {
        /// Whose writes make it stale (`nil`: nobody's).
        let user: Int64?
        /// The identity representation's tag; its gzip variant matches too.
        let etag: String
        /// The 304's header fields, as the service wrote them.
        let fields: HTTPFields
        /// The 200 itself, when it fits: its fields (`Content-Length` included) and body.
        let ok: (fields: HTTPFields, body: [UInt8])?
        /// The `Host` the answer was made for, when it names it (a web page's links name the
        /// origin it was reached at); `nil` when any host gets it (the API's screens).
        let host: String?
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
    /// Told of each request answered from memory (what the service counts in its client mix).
    private let answering: (@Sendable (HTTPRequest) -> Void)?

    /// An empty memory of at most `byteBudget` bytes, kept exact by `bus` (subscribed here).
    ///
    /// Create it after every cache the remembered revisions read has subscribed to `bus`: an
    /// ``InvalidationBus`` calls subscribers in the order they subscribed, so by the time this
    /// memory forgets, those caches already have, and a request that starts afterwards reads
    /// fresh data.
    ///
    /// `answering` hears each request memory answers (on the connection's event loop: keep it cheap).
    public init(byteBudget: Int, bus: any InvalidationBus, answering: (@Sendable (HTTPRequest) -> Void)? = nil) {
        self.byteBudget = max(0, byteBudget)
        self.bus = bus
        self.answering = answering
        bus.subscribe { [weak self] invalidation in self?.forget(invalidation) }
    }

    /// A ticket for a request starting now.
    public func ticket() -> Ticket {
        Ticket(epoch: state.withLock { $0.epoch }, taken: Date())
    }

    /// How many requests were answered from memory so far (304s and 200s).
    public var answered: Int { answeredCount.load(ordering: .relaxed) }

    /// The bytes held now.
    public var bytes: Int { state.withLock { $0.current.bytes + $0.previous.bytes } }

    /// What memory answers `request` with before routing, if anything.
    public enum Answer: Sendable, Equatable {
        /// `304 Not Modified` with these fields: the request named the remembered tag.
        case notModified(HTTPFields)
        /// `200 OK` with these fields (`Content-Length` included) and this body, empty for a
        /// `HEAD`: the answer the service gave the same request, byte for byte.
        case ok(HTTPFields, body: [UInt8])
    }

    /// The answer to `request` if it is a `GET` or `HEAD` remembered for exactly this request:
    /// a 304 when its `If-None-Match` names the remembered tag, else the remembered 200 when
    /// memory holds its body; `nil` otherwise (the request then goes the normal way).
    public func answer(_ request: HTTPRequest, now: Date = Date()) -> Answer? {
        guard bus.isDelivering, let entry = entry(for: request, now: now) else { return nil }
        let revalidates = request.headerFields.contains {
            $0.name == .ifNoneMatch && ETag.matches(ifNoneMatch: $0.value, etag: entry.etag, orGzipVariant: true)
        }
        let answer: Answer
        if revalidates {
            answer = .notModified(entry.fields)
        } else if let ok = entry.ok {
            answer = .ok(ok.fields, body: request.method == .head ? [] : ok.body)
        } else {
            return nil
        }
        answeredCount.add(1, ordering: .relaxed)
        answering?(request)
        return answer
    }

    /// The header fields of a `304 Not Modified` for `request`, if it is a `GET` or `HEAD` with an
    /// `If-None-Match` naming the tag remembered for exactly this request; `nil` otherwise (the
    /// request then goes the normal way). Cheap when there is no `If-None-Match`.
    public func notModified(_ request: HTTPRequest, now: Date = Date()) -> HTTPFields? {
        guard request.headerFields.contains(.ifNoneMatch), case .notModified(let fields) = answer(request, now: now) else { return nil }
        return fields
    }

    /// The unexpired entry remembered for `request` (for its host, when it names one), promoted to
    /// the newer generation if found in the older; an expired or other host's entry is not.
    private func entry(for request: HTTPRequest, now: Date) -> Entry? {
        guard let key = Key(request) else { return nil }
        // HTTP/1.1's `Host` is HTTPTypes' authority.
        let host = request.authority ?? ""
        func usable(_ entry: Entry) -> Bool { (entry.expiry.map { now < $0 } ?? true) && (entry.host.map { $0 == host } ?? true) }
        return state.withLock { state -> Entry? in
            if let entry = state.current.entries[key] { return usable(entry) ? entry : nil }
            // Used again: promote it, so it outlives the generation it was stored in.
            guard let entry = state.previous.entries[key], usable(entry) else { return nil }
            insert(entry, for: key, into: &state)
            return entry
        }
    }

    /// Remembers that `request` is answered with `etag`: when it matches, a 304 with `fields`;
    /// otherwise `ok`, the 200's fields and body, when given and they fit (an entry takes at most
    /// an eighth of the budget; a body that would not fit leaves the 304 alone remembered).
    /// Nothing is remembered if an invalidation arrived since `ticket`. `owner`'s writes make it
    /// stale (`nil`: no user's, for screens shared by everyone). `namesHost`: the answer depends on
    /// the request's `Host` (a web page's links), so only the same host gets it.
    public func remember(
        _ request: HTTPRequest, owner: UserIdentity?, etag: String, fields: HTTPFields, ok: (fields: HTTPFields, body: [UInt8])? = nil,
        namesHost: Bool = false, expiry: Date?, ticket: Ticket
    ) {
        guard request.method == .get, bus.isDelivering, let key = Key(request) else { return }
        func size(_ fields: HTTPFields) -> Int { fields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 16 } }
        let bare = key.size + etag.utf8.count + size(fields)
        guard bare <= byteBudget / 8 else { return }
        let whole = ok.map { bare + size($0.fields) + $0.body.count }
        let kept = whole.map { $0 <= byteBudget / 8 } ?? false
        let entry = Entry(
            user: owner?.id, etag: etag, fields: fields, ok: kept ? ok : nil, host: namesHost ? request.authority ?? "" : nil, expiry: expiry,
            size: kept ? whole ?? bare : bare)
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

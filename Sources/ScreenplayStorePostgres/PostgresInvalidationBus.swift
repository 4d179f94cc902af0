import Foundation
public import Logging
import NIOCore
import PostgresNIO
public import SQLKit
public import ScreenplayServer
public import ScreenplayStore
import Synchronization

/// The invalidation bus between replicas: PostgreSQL's LISTEN/NOTIFY on channel `screenplay`.
///
/// - Announcing: a write's invalidation travels in its own transaction (`pg_notify`, through
///   ``send(_:in:)``), so the other replicas hear it exactly when it commits; this replica's
///   subscribers are called after the commit (``deliverHere(_:)``). ``publish(_:)`` (outside a
///   transaction) notifies on a pooled connection.
/// - Listening: one dedicated connection, outside the pool. Each notification names the replica
///   that sent it; a replica ignores its own (its subscribers already ran).
/// - Losing the connection: notifications sent meanwhile are lost for good, so the bus stops
///   delivering (``isDelivering`` is `false`: caches answer nothing from memory and keep
///   nothing), announces ``Invalidation/everything`` here, and reconnects with backoff (0.1 s
///   doubling to 2 s). Once it listens again it announces ``Invalidation/everything`` once more
///   and delivers again.
/// - Payloads: NOTIFY carries under 8 000 bytes. An invalidation whose text would not fit (a
///   route of kilobytes) is sent as `everything`: coarse, never lost.
public final class PostgresInvalidationBus: SQLInvalidationBus {
    /// The channel every replica listens on: `screenplay`, or `screenplay_SCHEMA` for a store
    /// in its own schema (channels are per database, so deployments sharing one stay apart).
    public let channel: String
    /// The most bytes of payload sent; NOTIFY refuses 8 000 and more.
    public static let payloadLimit = 7_900

    private let store: PostgresStore
    private let logger: Logger
    /// This replica, as its notifications name it.
    public let origin: String
    private let handlers = Mutex<[@Sendable (Invalidation) -> Void]>([])
    private let delivering = Atomic<Bool>(false)
    private let received = Atomic<Int>(0)
    private let reconnections = Atomic<Int>(0)
    private let listening: Mutex<Task<Void, Never>?> = Mutex(nil)
    private let connected = Signal()

    /// How late this replica hears the others (zero but in tests; see ``init(store:replicaName:hearingDelay:logger:)``).
    private let hearingDelay: Duration
    /// Whether a statement may carry this bus's notification itself (see ``notification(for:)``).
    private let notifiesFromStatements: Bool

    /// A bus over `store`'s database. Call ``start(waitingUpTo:)`` to listen and ``stop()`` before
    /// closing the store. `hearingDelay` (for tests only) holds each notification from another
    /// replica that long before its subscribers hear it, in order: a replica across a slow network,
    /// to show what a client's revision floor (``RevisionWatermark``) protects against.
    /// `notifiesFromStatements: false` (for measurements) answers ``notification(for:)`` with
    /// `nil`, so every write goes through a transaction, as before one-statement writes.
    public init(
        store: PostgresStore, replicaName: String? = nil, hearingDelay: Duration = .zero, notifiesFromStatements: Bool = true,
        logger: Logger = Logger(label: "screenplay.bus.postgres")
    ) {
        self.store = store
        self.notifiesFromStatements = notifiesFromStatements
        self.hearingDelay = hearingDelay
        self.logger = logger
        self.channel = "screenplay" + (store.configuration.location.schema.map { "_" + $0.lowercased() } ?? "")
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        self.origin = (replicaName.map { Self.sanitized($0) + "-" } ?? "") + suffix
    }

    /// Starts listening, and waits up to `timeout` for the first LISTEN to be in place (so
    /// announcements made once this returns are heard). Returns whether it was.
    @discardableResult
    public func start(waitingUpTo timeout: Duration = .seconds(10)) async -> Bool {
        let task = Task { await self.listen() }
        listening.withLock { $0 = task }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask { [connected] in
                await connected.wait()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            connected.fire()  // releases the waiter when the timeout won
            return first && self.isDelivering
        }
    }

    /// Stops listening.
    public func stop() async {
        let task = listening.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        delivering.store(false, ordering: .releasing)
    }

    // MARK: InvalidationBus

    /// Whether the listening connection is up: announcements from other replicas arrive.
    public var isDelivering: Bool { delivering.load(ordering: .acquiring) }

    /// Notifications from other replicas received so far (diagnostics, tests).
    public var receivedCount: Int { received.load(ordering: .relaxed) }

    /// How many times the listening connection was lost and made again.
    public var reconnectionCount: Int { reconnections.load(ordering: .relaxed) }

    /// Calls this replica's subscribers, then notifies the others (outside any transaction).
    public func publish(_ invalidation: Invalidation) async {
        await deliverHere(invalidation)
        let payload = self.payload(for: invalidation)
        do {
            let channel = self.channel
            try await store.transaction { database in
                try await database.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").run()
            }
        } catch {
            // The others could not be told: they will drop everything when they next reconnect,
            // but until then only a write of the same data corrects them. Logged loudly.
            logger.error("an invalidation could not be sent to the other replicas", metadata: ["invalidation": "\(invalidation)", "error": "\(error)"])
        }
    }

    /// Adds a subscriber.
    public func subscribe(_ handler: @escaping @Sendable (Invalidation) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    // MARK: SQLInvalidationBus

    /// Queues the notification in `database`'s transaction: sent by PostgreSQL at commit.
    public func notification(for invalidation: Invalidation) -> (channel: String, payload: String)? {
        notifiesFromStatements ? (channel, payload(for: invalidation)) : nil
    }

    public func send(_ invalidation: Invalidation, in database: any SQLDatabase) async throws {
        try await database.raw("SELECT pg_notify(\(bind: channel), \(bind: payload(for: invalidation)))").run()
    }

    /// Calls this replica's subscribers, in the order they subscribed.
    public func deliverHere(_ invalidation: Invalidation) async {
        for handler in handlers.withLock({ $0 }) { handler(invalidation) }
    }

    // MARK: Listening

    private func listen() async {
        var backoff = Duration.milliseconds(100)
        var everConnected = false
        while !Task.isCancelled {
            do {
                var configuration = try PostgresStore.connectionConfiguration(
                    store.configuration.location, connectTimeout: store.configuration.connectTimeout)
                // `screenplay-bus REPLICA` in pg_stat_activity: the connection an operator (or a
                // test) may end to see the bus recover.
                configuration.options.additionalStartupParameters.append(("application_name", "screenplay-bus \(origin)"))
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                do {
                    try await connection.listen(on: channel) { notifications in
                        // Queries run in order on a connection: once this answers, LISTEN is in place.
                        _ = try await connection.query("SELECT 1", logger: logger)
                        if everConnected { reconnections.add(1, ordering: .relaxed) }
                        everConnected = true
                        backoff = .milliseconds(100)
                        delivering.store(true, ordering: .releasing)
                        // Whatever was read while deaf was not kept; what is held now may predate
                        // a notification sent while the connection was being made.
                        await deliverHere(.everything)
                        connected.fire()
                        logger.info("listening for other replicas' invalidations", metadata: ["replica": "\(origin)"])
                        for try await notification in notifications {
                            if hearingDelay > .zero { try? await Task.sleep(for: hearingDelay) }
                            receive(notification.payload)
                        }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if !Task.isCancelled {
                    logger.warning("the invalidation bus lost its connection; retrying", metadata: ["error": "\(PostgresStore.describe(error))"])
                }
            }
            if delivering.exchange(false, ordering: .acquiringAndReleasing) {
                // Deaf from now until reconnected: memory off, and what it held may already be stale.
                await deliverHere(.everything)
            }
            if Task.isCancelled { break }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(2))
        }
    }

    private func receive(_ payload: String) {
        guard let separator = payload.firstIndex(of: "|") else {
            logger.warning("an invalidation notification without its sender was ignored", metadata: ["payload": "\(payload.prefix(80))"])
            return
        }
        if payload[..<separator] == origin { return }
        received.add(1, ordering: .relaxed)
        guard let invalidation = Self.decode(payload[payload.index(after: separator)...]) else {
            // From a newer build, perhaps: not understood, so everything goes.
            logger.warning("an invalidation this build does not know; dropping everything", metadata: ["payload": "\(payload.prefix(80))"])
            for handler in handlers.withLock({ $0 }) { handler(.everything) }
            return
        }
        for handler in handlers.withLock({ $0 }) { handler(invalidation) }
    }

    // MARK: Payloads

    /// `ORIGIN|CODE`: the sender, then the invalidation; `everything` when it would not fit.
    func payload(for invalidation: Invalidation) -> String {
        let text = origin + "|" + Self.encode(invalidation)
        return text.utf8.count <= Self.payloadLimit ? text : origin + "|" + Self.encode(.everything)
    }

    /// The invalidation as the text notifications carry.
    static func encode(_ invalidation: Invalidation) -> String {
        switch invalidation {
        case .userRevision(let id): "u:\(id)"
        case .tokenRevoked(let hash): "t:\(hash)"
        case .pagePublished(let route): "p:\(route)"
        case .experimentsChanged: "e"
        case .draftChanged(let route): "d:\(route)"
        case .everything: "*"
        }
    }

    /// The invalidation a notification's text names, or `nil` when it names none this build knows.
    static func decode(_ text: Substring) -> Invalidation? {
        if text == "e" { return .experimentsChanged }
        if text == "*" { return .everything }
        guard text.count >= 2, text.dropFirst().first == ":" else { return nil }
        let value = String(text.dropFirst(2))
        switch text.first {
        case "u": return Int64(value).map { .userRevision(userID: $0) }
        case "t": return value.isEmpty ? nil : .tokenRevoked(tokenHash: value)
        case "p": return .pagePublished(route: value)
        case "d": return .draftChanged(route: value)
        default: return nil
        }
    }

    static func sanitized(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }.prefix(40))
    }
}

/// A one-shot event: `wait()` returns once `fire()` was called, even if it came first.
private final class Signal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if fired { continuation.resume() }
        }
    }
}

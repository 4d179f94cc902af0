public import Logging
import NIOCore
import PostgresKit
import PostgresNIO
public import SQLKit
public import ScreenplayStore
import Synchronization

/// The store on PostgreSQL: the same tables and code as the SQLite default (everything above
/// ``SQLStore`` is written once against SQLKit), for several stateless replicas behind a load
/// balancer on one database.
///
/// - A pool of connections (``Configuration/maximumConnections``); each transaction or read
///   leases one. A lease waits at most ``Configuration/acquireTimeout``: with the database down
///   or every connection busy past that, the request fails fast as ``StoreUnavailable`` (a 503
///   with `Retry-After`) instead of hanging until the client gives up.
/// - Transactions run at `READ COMMITTED`; code that must not interleave with another replica's
///   takes a row lock (a user's writes bump their revision first) or an advisory lock
///   (`SQLDatabase.serializeTransactions(on:)`), and publishes take turns per route.
/// - Reads run in one `REPEATABLE READ, READ ONLY` transaction: a consistent snapshot, as on SQLite.
/// - ``exclusively(_:_:)`` holds a session advisory lock, so replicas starting together migrate
///   and seed once.
/// - Losing the connection is ``StoreUnavailable``: `wroteNothing` unless it happened during
///   `COMMIT`, whose outcome is then unknown.
///
/// The pool reconnects by itself: after PostgreSQL restarts, the next lease opens new connections.
public final class PostgresStore: SQLStore {
    /// How the store connects.
    public struct Configuration: Sendable {
        /// The database.
        public var location: PostgresLocation
        /// The most connections the pool opens (each replica's share of the server's
        /// `max_connections`). At least 2: ``PostgresStore/exclusively(_:_:)`` holds one.
        public var maximumConnections: Int
        /// How long a request waits for a connection before it is answered 503.
        public var acquireTimeout: Duration
        /// How long opening a connection may take.
        public var connectTimeout: Duration
        /// The longest one transaction or read may hold its connection; past it the connection is
        /// closed and the request answered 503 (a server that vanished without closing the socket).
        public var operationTimeout: Duration

        /// A configuration for `location`; 16 connections, 3 s to get one, 5 s to connect, 15 s
        /// at most per transaction.
        public init(
            location: PostgresLocation, maximumConnections: Int = 16, acquireTimeout: Duration = .seconds(3), connectTimeout: Duration = .seconds(5),
            operationTimeout: Duration = .seconds(15)
        ) {
            self.location = location
            self.operationTimeout = operationTimeout
            self.maximumConnections = max(2, maximumConnections)
            self.acquireTimeout = acquireTimeout
            self.connectTimeout = connectTimeout
        }
    }

    /// What the store was opened with.
    public let configuration: Configuration
    let client: PostgresClient
    /// Fails a lease whose connection closes under it (see ``ConnectionCloseWatch``).
    let closeWatch = ConnectionCloseWatch()
    private let running: Task<Void, Never>
    let logger: Logger

    private init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let client = PostgresClient(configuration: Self.clientConfiguration(configuration), backgroundLogger: logger)
        self.client = client
        self.running = Task { await client.run() }
    }

    /// Connects to the database (creating ``PostgresLocation/schema`` when named), waiting up to
    /// `startupTimeout` for the server to accept connections (a replica may start beside it).
    ///
    /// - Throws: ``StoreUnavailable`` naming the location when the server cannot be reached in time.
    public static func open(
        _ configuration: Configuration, startupTimeout: Duration = .seconds(10), logger: Logger = Logger(label: "screenplay.store.postgres")
    ) async throws -> PostgresStore {
        let store = PostgresStore(configuration: configuration, logger: logger)
        let deadline = ContinuousClock.now + startupTimeout
        while true {
            do {
                if let schema = configuration.location.schema {
                    // The identifier was checked by PostgresLocation (letters, digits, _).
                    try await store.lease { connection in
                        _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
                    }
                } else {
                    try await store.lease { connection in _ = try await connection.query("SELECT 1", logger: logger) }
                }
                return store
            } catch {
                if ContinuousClock.now >= deadline {
                    await store.shutDown()
                    throw StoreUnavailable("cannot reach PostgreSQL at \(configuration.location): \(Self.describe(error))", wroteNothing: true)
                }
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Runs `body` in `BEGIN … COMMIT` on one leased connection, rolling back when it throws;
    /// inside a transaction of this store, as a savepoint of it (``SQLTransaction``).
    public func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        if let enclosing = SQLTransaction.active(on: self) { return try await Self.inside { try await enclosing.savepoint(body) } }
        let (result, transaction) = try await run(begin: "BEGIN") { [self] database in
            try await SQLTransaction.transaction(on: self, database: database, body)
        }
        await transaction.committed()
        return result
    }

    /// Runs `body`'s one statement in autocommit, on a leased connection: one round trip.
    public func statement<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        if let enclosing = SQLTransaction.active(on: self) { return try await Self.inside { try await body(enclosing.database) } }
        return try await lease { connection in
            do {
                return try await body(connection.sql(queryLogLevel: .trace))
            } catch {
                throw Self.translated(error, committing: true)
            }
        }
    }

    /// Runs `body` in one read-only snapshot (`REPEATABLE READ`): every query sees the same
    /// committed state, as a SQLite read transaction does. Inside a transaction of this store, on
    /// its connection: it sees what the transaction wrote.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        if let enclosing = SQLTransaction.active(on: self) { return try await Self.inside { try await body(enclosing.database) } }
        return try await run(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body)
    }

    /// `body`, inside a transaction already begun, with a lost connection translated as for the
    /// transaction itself (nothing of it was committed yet).
    private static func inside<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        do {
            return try await body()
        } catch {
            throw translated(error, committing: false)
        }
    }

    private func run<Result: Sendable>(begin: PostgresQuery, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws
        -> Result
    {
        let logger = self.logger
        return try await lease { connection in
            let database = connection.sql(queryLogLevel: .trace)
            do {
                _ = try await connection.query(begin, logger: logger)
            } catch {
                throw Self.translated(error, committing: false)
            }
            let result: Result
            do {
                result = try await body(database)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw Self.translated(error, committing: false)
            }
            do {
                _ = try await connection.query("COMMIT", logger: logger)
            } catch {
                throw Self.translated(error, committing: true)
            }
            return result
        }
    }

    /// Holds a session advisory lock named `name` (on a connection of its own) while `body` runs.
    ///
    /// - The name is scoped to the store's schema: deployments sharing a database in schemas of
    ///   their own do not wait for each other's migrations.
    /// - The lock is asked for with `pg_try_advisory_lock` every 100 ms rather than waited for in
    ///   one query: waiting for another replica's long migration is normal, and a query that does
    ///   not answer for that long would look like a dead connection.
    /// - The operation limit does not apply to the whole of `body` (a migration may take minutes);
    ///   each of its own transactions has it.
    public func exclusively<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let logger = self.logger
        let scoped = (configuration.location.schema.map { $0 + ":" } ?? "") + name
        return try await lease(watched: false) { connection in
            let lock = PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken", binds: Self.binds(scoped))
            let unlock = PostgresQuery(unsafeSQL: "SELECT pg_advisory_unlock(hashtextextended($1, 0))", binds: Self.binds(scoped))
            do {
                while true {
                    var taken = false
                    for try await row in try await connection.query(lock, logger: logger) { taken = try row.decode(Bool.self) }
                    if taken { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
            } catch {
                throw Self.translated(error, committing: false)
            }
            let result: Result
            do {
                result = try await body()
            } catch {
                _ = try? await connection.query(unlock, logger: logger)
                throw error
            }
            _ = try? await connection.query(unlock, logger: logger)
            return result
        }
    }

    /// Closes every connection and stops the pool.
    public func close() async throws {
        await shutDown()
    }

    private func shutDown() async {
        running.cancel()
        await running.value
    }

    // MARK: Leasing

    /// Runs `body` with a leased connection, or throws ``StoreUnavailable`` when none is had
    /// within ``Configuration/acquireTimeout``. Once `body` starts it runs to its end: the
    /// deadline only ever stops the wait, never a transaction half-way.
    ///
    /// A watched lease is answered ``StoreUnavailable`` (outcome unknown) when its body outlives
    /// the operation limit, or at once when its connection closes under it (a restarting server
    /// may leave a query on a closing connection unanswered; see ``ConnectionCloseWatch``).
    ///
    /// The wait is not awaited to its end: PostgresNIO's pool may hold a lease request while it
    /// keeps failing to connect (until its own circuit breaker, a minute later), so the caller is
    /// answered at the deadline and the abandoned request, should it still get a connection,
    /// hands it back without running `body`.
    func lease<Result: Sendable>(watched: Bool = true, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let timeout = configuration.acquireTimeout
        let operationLimit = configuration.operationTimeout
        let client = self.client
        let closeWatch = self.closeWatch
        let phase = LeasePhase()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let answer = AnswerOnce(continuation)
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled, phase.giveUp() {
                    answer.resume(throwing: StoreUnavailable("no connection within \(timeout)", wroteNothing: true))
                }
            }
            Task {
                do {
                    let result = try await client.withConnection { connection in
                        guard phase.start() else { throw StoreUnavailable("no connection within \(timeout)", wroteNothing: true) }
                        timer.cancel()
                        // A connection that stops answering (its server gone without a word) is
                        // closed after the operation limit, failing what waits on it.
                        let watchdog = Task {
                            guard watched else { return }
                            try? await Task.sleep(for: operationLimit)
                            guard !Task.isCancelled else { return }
                            try? await connection.close()
                            answer.resume(throwing: StoreUnavailable("no answer within \(operationLimit)", wroteNothing: false))
                        }
                        defer { watchdog.cancel() }
                        if watched {
                            closeWatch.running(on: connection) {
                                // A short grace first: the query's own error, when it comes, says
                                // more exactly whether anything was written.
                                Task {
                                    try? await Task.sleep(for: .milliseconds(100))
                                    answer.resume(throwing: StoreUnavailable("the connection closed before its answer", wroteNothing: false))
                                }
                            }
                        }
                        defer { if watched { closeWatch.finished(on: connection) } }
                        return try await body(connection)
                    }
                    answer.resume(returning: result)
                } catch let error as StoreUnavailable {
                    answer.resume(throwing: error)
                } catch where !phase.started {
                    // The pool failed to connect: nothing ran.
                    _ = phase.giveUp()
                    answer.resume(throwing: StoreUnavailable("no connection: \(Self.describe(error))", wroteNothing: true))
                } catch {
                    answer.resume(throwing: error)
                }
                timer.cancel()
            }
        }
    }

    // MARK: Errors

    /// `error` as the store's callers should see it: a lost or refused connection becomes
    /// ``StoreUnavailable`` (which says whether anything could have been written); a query's
    /// own failure (a constraint, a syntax error) stays what it is.
    static func translated(_ error: any Error, committing: Bool) -> any Error {
        if error is StoreUnavailable { return error }
        guard isConnectionFailure(error) else { return error }
        return StoreUnavailable(describe(error), wroteNothing: !committing)
    }

    /// Whether `error` means the connection, not the query, failed.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        if error is ChannelError || error is IOError { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            // Class 08 (connection exception), 57P01..57P03 (the server shutting down or starting).
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }

    /// A readable cause for logs: PostgreSQL's own message when it sent one.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (\(error.serverInfo?[.sqlState] ?? "?"))"
            }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return String(describing: error)
    }

    static func binds(_ text: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(text)
        return binds
    }

    // MARK: Configuration

    static func clientConfiguration(_ configuration: Configuration) -> PostgresClient.Configuration {
        let location = configuration.location
        var client: PostgresClient.Configuration
        switch location.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS
            switch location.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(.makeClientConfiguration())
            case .require: tls = .require(.makeClientConfiguration())
            }
            client = .init(host: host, port: port, username: location.username, password: location.password, database: location.database, tls: tls)
        case .socket(let path):
            client = .init(unixSocketPath: path, username: location.username, password: location.password, database: location.database)
        }
        client.options.maximumConnections = configuration.maximumConnections
        client.options.connectTimeout = configuration.connectTimeout
        // Named in pg_stat_activity, so an operator sees whose connections these are.
        client.options.additionalStartupParameters = [("application_name", "screenplay")]
        if let schema = location.schema { client.options.additionalStartupParameters.append(("search_path", schema)) }
        return client
    }

    /// The same place as one connection's configuration (the invalidation bus's listener).
    static func connectionConfiguration(_ location: PostgresLocation, connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var connection: PostgresConnection.Configuration
        switch location.endpoint {
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            switch location.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try .init(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try .init(configuration: .makeClientConfiguration()))
            }
            connection = .init(host: host, port: port, username: location.username, password: location.password, database: location.database, tls: tls)
        case .socket(let path):
            connection = .init(unixSocketPath: path, username: location.username, password: location.password, database: location.database)
        }
        connection.options.connectTimeout = .milliseconds(Int64(connectTimeout.components.seconds * 1000 + connectTimeout.components.attoseconds / 1_000_000_000_000_000))
        if let schema = location.schema { connection.options.additionalStartupParameters = [("search_path", schema)] }
        return connection
    }
}

/// Where one lease stands: waiting, started (the body runs to its end), or given up (the body
/// must not start). Whichever of the two racers moves it first decides.
private final class LeasePhase: Sendable {
    private let value = Atomic<Int>(0)

    /// Waiting → started; false when the wait was already given up.
    func start() -> Bool { value.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged }
    /// Waiting → given up; false when the body already started.
    func giveUp() -> Bool { value.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged }
    /// Whether the body started.
    var started: Bool { value.load(ordering: .acquiring) == 1 }
}

/// A continuation resumed by whichever comes first, the answer or the deadline; later calls do
/// nothing.
private final class AnswerOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) { self.continuation = Mutex(continuation) }

    func resume(returning value: Value) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }

    func resume(throwing error: any Error) {
        continuation.withLock { $0.take() }?.resume(throwing: error)
    }
}

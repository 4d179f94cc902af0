import Foundation
import Logging
import ScreenplayDemo
import ScreenplayStore

#if postgres
import ScreenplayStorePostgres
#endif

/// Where the CLI's commands find the demo's data: PostgreSQL when a URL is given (`--database`,
/// else `SCREENPLAY_DATABASE_URL`) and this build has the `postgres` trait, otherwise the
/// embedded SQLite file in the data folder.
///
/// The default build links no PostgreSQL driver (a fresh clone runs the demo sooner); a URL given
/// to it is refused with the one step that builds the driver in, never silently ignored.
struct DemoDatabase {
    /// The PostgreSQL URL, or `nil` for SQLite.
    let url: String?
    /// The SQLite data folder (absolute).
    let dataDirectory: String

    /// What a build without the `postgres` trait says to a database URL: what is missing and the
    /// command that builds it in.
    static func postgresLeftOut(source: String) -> String {
        "\(source) names a PostgreSQL database, but this build of screenplay has no PostgreSQL driver; "
            + "build it in with the postgres trait: swift run --traits postgres screenplay serve --database URL "
            + "(the README's PostgreSQL section)"
    }

    /// `--database` wins; an empty `SCREENPLAY_DATABASE_URL` is as good as none.
    init(database: String?, data: String) {
        let fromEnvironment = ProcessInfo.processInfo.environment["SCREENPLAY_DATABASE_URL"] ?? ""
        self.url = database ?? (fromEnvironment.isEmpty ? nil : fromEnvironment)
        self.dataDirectory = URL(fileURLWithPath: data).standardizedFileURL.path
    }

    /// The URL's problem, naming where it came from, or `nil` when it is fine (or absent).
    func problem(givenAsOption: Bool) -> String? {
        guard let url else { return nil }
        let source = givenAsOption ? "--database" : "SCREENPLAY_DATABASE_URL"
        #if postgres
        do {
            _ = try PostgresLocation(url: url)
            return nil
        } catch {
            return "\(source): \(error)"
        }
        #else
        _ = url  // whatever it says, this build cannot open it
        return Self.postgresLeftOut(source: source)
        #endif
    }

    /// What logs and the start banner say the data is (never a password).
    var shown: String {
        #if postgres
        if let url, let location = try? PostgresLocation(url: url) { return "\(location)" }
        #endif
        return dataDirectory
    }

    /// An opened demo and, on PostgreSQL, what to stop before closing it.
    struct Opened {
        let demo: DemoApp
        /// Stops listening for other replicas' invalidations (PostgreSQL); nothing on SQLite.
        let stopListening: @Sendable () async -> Void

        /// Stops listening, then closes the database.
        func close() async throws {
            await stopListening()
            try await demo.close()
        }
    }

    /// Opens the demo; `configure` passes the options every caller shares.
    func open(
        logger: Logger, replicaName: String? = nil, pool: Int = 16, hearingDelay: Duration = .zero, writesInTransactions: Bool = false,
        configure: (DemoApp.Storage?) async throws -> DemoApp
    ) async throws -> Opened {
        guard let url else { return Opened(demo: try await configure(nil), stopListening: {}) }
        #if postgres
        let location = try PostgresLocation(url: url)
        let store = try await PostgresStore.open(.init(location: location, maximumConnections: pool), logger: logger)
        let bus = PostgresInvalidationBus(
            store: store, replicaName: replicaName, hearingDelay: hearingDelay, notifiesFromStatements: !writesInTransactions, logger: logger)
        if !(await bus.start()) {
            logger.warning("not yet listening for other replicas' invalidations; answering without memory until it is")
        }
        do {
            let demo = try await configure(.init(store: store, bus: bus))
            return Opened(demo: demo, stopListening: { await bus.stop() })
        } catch {
            await bus.stop()
            try? await store.close()
            throw error
        }
        #else
        _ = (url, hearingDelay)  // refused in `problem` before any command gets here; kept as the last guard
        throw DatabaseLeftOut(description: Self.postgresLeftOut(source: "the database URL"))
        #endif
    }

    /// A database URL given to a build without PostgreSQL (see ``postgresLeftOut(source:)``).
    struct DatabaseLeftOut: Error, CustomStringConvertible {
        let description: String
    }
}

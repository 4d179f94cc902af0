import Foundation
import Logging
import ScreenplayDemo
import ScreenplayStore
import ScreenplayStorePostgres

/// Where the CLI's commands find the demo's data: PostgreSQL when a URL is given (`--database`,
/// else `SCREENPLAY_DATABASE_URL`), otherwise the embedded SQLite file in the data folder.
struct DemoDatabase {
    /// The PostgreSQL URL, or `nil` for SQLite.
    let url: String?
    /// The SQLite data folder (absolute).
    let dataDirectory: String

    /// `--database` wins; an empty `SCREENPLAY_DATABASE_URL` is as good as none.
    init(database: String?, data: String) {
        let fromEnvironment = ProcessInfo.processInfo.environment["SCREENPLAY_DATABASE_URL"] ?? ""
        self.url = database ?? (fromEnvironment.isEmpty ? nil : fromEnvironment)
        self.dataDirectory = URL(fileURLWithPath: data).standardizedFileURL.path
    }

    /// The URL's problem, naming where it came from, or `nil` when it is fine (or absent).
    func problem(givenAsOption: Bool) -> String? {
        guard let url else { return nil }
        do {
            _ = try PostgresLocation(url: url)
            return nil
        } catch {
            return "\(givenAsOption ? "--database" : "SCREENPLAY_DATABASE_URL"): \(error)"
        }
    }

    /// What logs and the start banner say the data is (never a password).
    var shown: String {
        guard let url, let location = try? PostgresLocation(url: url) else { return dataDirectory }
        return "\(location)"
    }

    /// An opened demo and, on PostgreSQL, the bus to stop before closing it.
    struct Opened {
        let demo: DemoApp
        let bus: PostgresInvalidationBus?

        /// Stops listening, then closes the database.
        func close() async throws {
            await bus?.stop()
            try await demo.close()
        }
    }

    /// Opens the demo; `configure` passes the options every caller shares.
    func open(
        logger: Logger, replicaName: String? = nil, pool: Int = 16,
        configure: (DemoApp.Storage?) async throws -> DemoApp
    ) async throws -> Opened {
        guard let url else { return Opened(demo: try await configure(nil), bus: nil) }
        let location = try PostgresLocation(url: url)
        let store = try await PostgresStore.open(.init(location: location, maximumConnections: pool), logger: logger)
        let bus = PostgresInvalidationBus(store: store, replicaName: replicaName, logger: logger)
        if !(await bus.start()) {
            logger.warning("not yet listening for other replicas' invalidations; answering without memory until it is")
        }
        do {
            let demo = try await configure(.init(store: store, bus: bus))
            return Opened(demo: demo, bus: bus)
        } catch {
            await bus.stop()
            try? await store.close()
            throw error
        }
    }
}

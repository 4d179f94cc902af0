import Foundation
import Logging
import SQLKit
import ScreenplayStore
public import ScreenplayStorePostgres
import Synchronization

/// The PostgreSQL cluster the store tests run against: the one `scripts/test.sh` started
/// (`SCREENPLAY_TEST_DATABASE_URL`), or, when a test run starts without it (`swift test` alone),
/// a private one this process starts through `scripts/postgres.sh` on first use and stops when it
/// exits. Each test gets a schema of its own, dropped afterwards, so tests run side by side on one
/// cluster without seeing each other's rows.
public enum TestPostgres {
    /// The URL of the cluster (without a schema), starting one if needed.
    public static func baseURL() throws -> String {
        try cluster.withLock { state in
            if let url = state.url { return url }
            if let given = ProcessInfo.processInfo.environment["SCREENPLAY_TEST_DATABASE_URL"], !given.isEmpty {
                state.url = given
                return given
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-test-pg-\(getpid())").path
            let port = 20_000 + Int(getpid() % 20_000)
            let url = try runScript(["start", folder, String(port)])
            state.url = url
            startedFolder.withLock { $0 = folder }
            atexit { TestPostgres.stopStartedCluster() }
            return url
        }
    }

    /// A location in a new, empty schema of the test cluster.
    public static func freshLocation() throws -> PostgresLocation {
        var location = try PostgresLocation(url: try baseURL())
        location.schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        return location
    }

    /// How long a test's lease may wait for a connection. The whole suite starts hundreds of
    /// tests at once on two cores, and a new PostgreSQL backend can take seconds to fork and
    /// authenticate then: the store's production default (3 s) fails tests that are only queued.
    public static let acquireTimeout: Duration = .seconds(20)

    /// A store configuration for `location` with the suite's lease wait (``acquireTimeout``).
    /// Tests that open their own stores use it rather than the production default.
    public static func configuration(
        _ location: PostgresLocation, maximumConnections: Int = 6, operationTimeout: Duration = .seconds(15)
    ) -> PostgresStore.Configuration {
        .init(location: location, maximumConnections: maximumConnections, acquireTimeout: acquireTimeout, operationTimeout: operationTimeout)
    }

    /// Opens a store on a fresh schema; ``dropSchema(of:)`` removes it.
    public static func openFreshStore(maximumConnections: Int = 6) async throws -> PostgresStore {
        var logger = Logger(label: "screenplay.test.postgres")
        logger.logLevel = .critical
        return try await PostgresStore.open(configuration(try freshLocation(), maximumConnections: maximumConnections), logger: logger)
    }

    /// Drops the schema `store` was opened in (every table in it).
    public static func dropSchema(of store: PostgresStore) async throws {
        guard let schema = store.configuration.location.schema else { return }
        try await store.transaction { database in
            try await database.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
        }
    }

    private struct State {
        var url: String?
    }

    private static let cluster = Mutex(State())
    private static let startedFolder = Mutex<String?>(nil)

    static func stopStartedCluster() {
        guard let folder = startedFolder.withLock({ $0 }) else { return }
        _ = try? runScript(["stop", folder])
    }

    /// Runs `scripts/postgres.sh` with `arguments`; its last output line.
    @discardableResult
    static func runScript(_ arguments: [String]) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/postgres.sh").path
        // posix_spawn and waitpid, output to a file: the server the script starts inherits the
        // descriptors it was given and would hold a pipe open, and Foundation's Process, waited
        // for on the cooperative pool, may never see the child exit.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-pg-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = (["/bin/bash", script] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, environ) == 0 else {
            throw TestClusterFailure(message: "could not run scripts/postgres.sh")
        }
        var waited: Int32 = 0
        while waitpid(pid, &waited, 0) == -1 && errno == EINTR {}
        let status = (waited & 0x7f) == 0 ? (waited >> 8) & 0xff : 128 + (waited & 0x7f)
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0 else {
            throw TestClusterFailure(message: "scripts/postgres.sh \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }

    struct TestClusterFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

import ArgumentParser
import Foundation
import Hummingbird
import Logging
import ScreenplayContract
import ScreenplayDemo
import ScreenplayHummingbird

/// The Screenplay command-line tool.
@main
struct ScreenplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenplay",
        abstract: "Server-driven UI for Swift: run the demo server and work with the contract.",
        subcommands: [
            Serve.self, SchemaCommand.self, Validate.self, DocsCommand.self, ContractDiffCommand.self, ContractCheckCommand.self,
            RenderCommand.self, PromotionsCommand.self, AdminCommand.self, OpenAPICommand.self,
        ])
}

/// `screenplay serve`: the demo catalog on an embedded SQLite database, or on PostgreSQL shared
/// by several replicas.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the demo server (classical-music catalog; embedded SQLite, or PostgreSQL for several replicas).")

    @Option(name: .long, help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(name: .long, help: "Folder for the database (created and seeded on first start).")
    var data = "./data"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL to share with other replicas: postgres://USER:PASSWORD@HOST:PORT/DATABASE (?host=/socket/dir, ?sslmode=, ?schema=). Default: SCREENPLAY_DATABASE_URL, else embedded SQLite in --data. Needs the postgres trait: swift run --traits postgres screenplay serve --database URL.",
            valueName: "url"))
    var database: String?

    @Option(name: .long, help: "This replica's name in logs (and in the invalidations it sends).")
    var replicaName: String?

    @Option(name: .long, help: "PostgreSQL connections this replica may open.")
    var databasePool = 16

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(name: .long, help: "Seconds a connection may send nothing (mid-request or between requests) before it is closed.")
    var idleTimeout = 30

    @Option(name: .long, help: "The most connections open at once; more wait until one closes (logged).")
    var maxConnections = 2_048

    @Option(
        name: .long,
        help:
            "The most connections one address (IPv4, or IPv6 /64) may have open; more are answered 503 and closed. Behind a proxy, set it to --max-connections."
    )
    var maxConnectionsPerAddress = 64

    @Option(
        name: .long,
        help: "Seconds a request's line and headers may take to arrive (from the connection opening, or the request's first byte); then 408.")
    var headerTimeout = 5.0

    @Option(name: .long, help: "Commands per second each client may send (burst: 6 seconds' worth); default 10.")
    var commandRate: Double?

    @Option(
        name: .long,
        help: "Mebibytes the caches may keep in all (encoded screens two thirds, composed pages and web pages a sixth each).")
    var cacheMib = 96

    @Option(name: .long, help: "Also serve this file's bytes, read once, at GET /baseline (for scripts/load.sh).")
    var baselineFile: String?

    @Option(
        name: .long,
        help: "Every this many seconds, write what memory holds (resident, each cache, streams) to standard error; 0: never (for scripts/load.sh).")
    var memoryReport = 0

    @Option(
        name: .long,
        help:
            "The shop's promotions vertical: 'auto' starts `screenplay promotions` as a child process, 'off' leaves promotions out, or a URL."
    )
    var promotions = "auto"

    @Option(name: .long, help: ArgumentHelp("For tests: milliseconds added before every screen is answered.", visibility: .hidden))
    var testScreenDelayMs = 0

    @Option(name: .long, help: ArgumentHelp("For tests: milliseconds added before every command runs.", visibility: .hidden))
    var testCommandDelayMs = 0

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp("For tests: a command (such as favorites/add) that fails with a 500; repeatable.", visibility: .hidden))
    var testFailingCommand: [String] = []

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp(
            "For tests: a command (such as playlists/create) after whose commit the process kills itself, before answering; repeatable.",
            visibility: .hidden))
    var testKilledAfterCommit: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For tests: milliseconds this replica hears the others' writes late (--database only), as across a slow network.",
            visibility: .hidden))
    var testHearingDelayMs = 0

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "For measurements: every write in a transaction, none in one statement (--database only), as before one-statement writes.",
            visibility: .hidden))
    var testWritesInTransactions = false

    func validate() throws {
        guard (0...60_000).contains(testScreenDelayMs), (0...60_000).contains(testCommandDelayMs), (0...60_000).contains(testHearingDelayMs)
        else {
            throw ValidationError("--test-screen-delay-ms, --test-command-delay-ms and --test-hearing-delay-ms must be 0...60000")
        }
        if let commandRate, !(0.1...1_000_000).contains(commandRate) {
            throw ValidationError("--command-rate must be 0.1...1000000 per second, got \(commandRate)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        guard (0...86_400).contains(memoryReport) else { throw ValidationError("--memory-report must be 0...86400 seconds, got \(memoryReport)") }
        guard ["auto", "off"].contains(promotions) || promotions.hasPrefix("http://") || promotions.hasPrefix("https://") else {
            throw ValidationError("--promotions must be auto, off or an http(s) URL, got '\(promotions)'")
        }
        if let problem = DemoDatabase(database: database, data: data).problem(givenAsOption: database != nil) {
            throw ValidationError(problem)
        }
        guard (2...1_000).contains(databasePool) else { throw ValidationError("--database-pool must be 2...1000, got \(databasePool)") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level '\(logLevel)' is not a log level") }
        guard (1...3_600).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be 1...3600 seconds, got \(idleTimeout)")
        }
        guard (1...65_536).contains(cacheMib) else { throw ValidationError("--cache-mib must be 1...65536, got \(cacheMib)") }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1...1000000, got \(maxConnections)")
        }
        guard (1...1_000_000).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address must be 1...1000000, got \(maxConnectionsPerAddress)")
        }
        guard (0.1...3_600).contains(headerTimeout) else {
            throw ValidationError("--header-timeout must be 0.1...3600 seconds, got \(headerTimeout)")
        }
    }

    func run() async throws {
        var logger = Logger(label: "screenplay")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        if let replicaName { logger[metadataKey: "replica"] = "\(replicaName)" }
        var child: PromotionsChild?
        var promotionsURL: String?
        switch promotions {
        case "off": break
        case "auto":
            do {
                child = try await PromotionsChild.start()
                promotionsURL = child?.url
            } catch {
                logger.error("the promotions service did not start; the shop shows no promotions", metadata: ["error": "\(error)"])
            }
        default: promotionsURL = promotions
        }
        defer { child?.stop() }
        let testHooks = DemoApp.TestHooks(
            screenDelay: .milliseconds(testScreenDelayMs), commandDelay: .milliseconds(testCommandDelayMs),
            failingCommands: Set(testFailingCommand), killedAfterCommit: Set(testKilledAfterCommit))
        let rate = commandRate.map { (perSecond: $0, burst: $0 * 6) }
        let database = DemoDatabase(database: self.database, data: data)
        let dataShown = database.shown
        let opened = try await database.open(
            logger: logger, replicaName: replicaName, pool: databasePool, hearingDelay: .milliseconds(testHearingDelayMs),
            writesInTransactions: testWritesInTransactions
        ) { storage in
            let budget = DemoApp.CacheBudget(mebibytes: cacheMib)
            if let storage {
                return try await DemoApp.open(
                    storage: storage, logger: logger, commandRate: rate, promotions: promotionsURL, cacheBudget: budget, testHooks: testHooks)
            }
            return try await DemoApp.open(
                dataDirectory: database.dataDirectory, logger: logger, commandRate: rate, promotions: promotionsURL, cacheBudget: budget,
                testHooks: testHooks)
        }
        let demo = opened.demo
        let host = self.host
        let limits = ConnectionLimits(
            idleTimeout: .seconds(idleTimeout), maximumConnections: maxConnections, maximumConnectionsPerAddress: maxConnectionsPerAddress,
            headerTimeout: .milliseconds(Int((headerTimeout * 1_000).rounded())))
        let app = demo.makeApplication(host: host, port: port, limits: limits, baselineFile: baselineFile) { boundPort in
            let shownHost = host == "0.0.0.0" ? "127.0.0.1" : host
            // Written straight to the file handle: when stdout is a pipe (a script, a log), print's
            // buffer would hold the URL back until the server stops.
            let message = """
                Screenplay demo is running. Open http://\(shownHost):\(boundPort)/ in a browser.
                API: http://\(shownHost):\(boundPort)/api/v\(APIVersion.latest.rawValue)/screens/home · data: \(dataShown) · Ctrl-C stops.

                """
            FileHandle.standardOutput.write(Data(message.utf8))
        }
        // What memory holds, now and then, for a soak to read beside the resident memory.
        let every = memoryReport
        let reporter = every == 0 ? nil : Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(every))
                guard !Task.isCancelled else { return }
                FileHandle.standardError.write(Data("memory: \(demo.memoryReport)\n".utf8))
            }
        }
        do {
            try await app.runService()
        } catch {
            reporter?.cancel()
            try? await opened.close()
            throw error
        }
        reporter?.cancel()
        try await opened.close()
    }
}

import ArgumentParser
import Foundation
import Logging
import ScreenplayContract
import ScreenplayDemo

/// `screenplay openapi`: the demo API's OpenAPI 3.1 description, generated from its route tables.
struct OpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print (or write) the OpenAPI 3.1 description of the demo's API at one API version.",
        discussion:
            "Generated from the server's route tables, with the contract's JSON Schemas for the version: what GET /api/openapi.json answers (for the latest version).")

    @OptionGroup var contract: ContractVersionOption

    @Option(name: .shortAndLong, help: "Write it to this file instead of printing it.")
    var output: String?

    @Option(help: "Which API: 'api' (the public API, served at /api/openapi.json) or 'admin' (the layout admin's JSON API, for scripts with an admin token).")
    var site: String = "api"

    func validate() throws {
        guard ["api", "admin"].contains(site) else { throw ValidationError("--site is 'api' or 'admin', not '\(site)'") }
    }

    func run() async throws {
        // The tables are the demo's: its routes, read from a demo opened on a scratch database.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-openapi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Quiet: what this command prints is the document (a migration's notice is no news here).
        var logger = Logger(label: "screenplay.openapi")
        logger.logLevel = .warning
        let demo = try await DemoApp.open(dataDirectory: scratch, logger: logger)
        let bytes: [UInt8]
        do {
            bytes = site == "admin" ? try demo.adminAPIDescription(pretty: true) : try demo.openAPIDescription(version: contract.version, pretty: true)
            try await demo.close()
        } catch {
            try? await demo.close()
            throw error
        }
        if let output {
            try Data(bytes).write(to: URL(fileURLWithPath: output))
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}

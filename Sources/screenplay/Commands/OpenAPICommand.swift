import ArgumentParser
import Foundation
import ScreenplayContract
import ScreenplayDemo

/// `screenplay openapi`: the demo API's OpenAPI 3.1 description, generated from its route tables.
struct OpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print (or write) the OpenAPI 3.1 description of the demo's API at one API version.",
        discussion:
            "Generated from the server's route tables, with the contract's JSON Schemas for the version: what GET /api/openapi.json answers (for the latest version).")

    @Option(
        name: .customLong("api-version"),
        help: "The API version (\(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)).")
    var apiVersion: Int = APIVersion.latest.rawValue

    @Option(name: .shortAndLong, help: "Write it to this file instead of printing it.")
    var output: String?

    func validate() throws {
        guard APIVersion.supported.contains(APIVersion(apiVersion)) else {
            throw ValidationError(
                "--api-version \(apiVersion) is not a contract version; this build knows \(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)"
            )
        }
    }

    func run() async throws {
        // The tables are the demo's: its routes, read from a demo opened on a scratch database.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("screenplay-openapi-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let demo = try await DemoApp.open(dataDirectory: scratch)
        let bytes: [UInt8]
        do {
            bytes = try demo.openAPIDescription(version: APIVersion(apiVersion), pretty: true)
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

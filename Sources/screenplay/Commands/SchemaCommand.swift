import ArgumentParser
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo

/// `screenplay schema --api-version N`: the contract as JSON Schema.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of the contract at one API version.",
        discussion:
            "Generated from the Swift definitions, with the app's widget kinds. Kinds carry x-introduced, x-deprecated and x-fallback.")

    @Option(
        name: .customLong("api-version"),
        help: "The API version (\(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)).")
    var apiVersion: Int = APIVersion.latest.rawValue

    func validate() throws {
        guard APIVersion.supported.contains(APIVersion(apiVersion)) else {
            throw ValidationError(
                "--api-version \(apiVersion) is not a contract version; this build knows \(APIVersion.supported.lowerBound.rawValue)...\(APIVersion.supported.upperBound.rawValue)"
            )
        }
    }

    func run() throws {
        print(try ContractSchema.text(for: APIVersion(apiVersion), appKinds: DemoApp.appDefinedKinds), terminator: "")
    }
}

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

    @OptionGroup var contract: ContractVersionOption

    func run() throws {
        print(try ContractSchema.text(for: contract.version, appKinds: DemoApp.appDefinedKinds), terminator: "")
    }
}

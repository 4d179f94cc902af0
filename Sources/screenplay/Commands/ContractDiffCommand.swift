import ArgumentParser
import Foundation
import ScreenplayContract

/// `screenplay contract-diff <old-schema> <new-schema>`: what changed between two contract
/// schemas and whether apps in the field survive it; a CI gate on the committed schema.
struct ContractDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract-diff",
        abstract: "Compare two contract schemas (from `screenplay schema`) and list breaking and non-breaking changes.",
        discussion: """
            Exit code 0 when nothing breaks, 1 when something does, 64 when an input cannot be read \
            or is not a contract schema. A type change counts as handled when the new schema declares it \
            in x-field-changes at a version after the old schema's x-api-version.
            """)

    @Argument(help: "The schema apps were built against (for example the committed one).")
    var oldSchema: String

    @Argument(help: "The schema to check (for example `screenplay schema` output of this build).")
    var newSchema: String

    func run() throws {
        let old = try Self.load(oldSchema)
        let new = try Self.load(newSchema)
        let diff: ContractDiff
        do {
            diff = try ContractDiff(old: old, new: new)
        } catch {
            let path = error.side == .old ? oldSchema : newSchema
            throw ValidationError("'\(path)' is not a contract schema: \(error.reason)")
        }

        func version(_ version: APIVersion?) -> String { version.map { "API \($0)" } ?? "no x-api-version" }
        print("Comparing \(oldSchema) (\(version(diff.oldAPIVersion))) with \(newSchema) (\(version(diff.newAPIVersion)))")
        for (title, changes) in [("Breaking changes:", diff.breakingChanges), ("Non-breaking changes:", diff.nonBreakingChanges)] {
            print(title)
            if changes.isEmpty { print("  (none)") }
            for change in changes { print("  \(change)") }
        }
        print("Summary: \(diff.summary)")
        if diff.isBreaking { throw ExitCode(1) }
    }

    /// Reads and parses one schema file; errors name the file and, for bad JSON, the line and
    /// column, because "not valid JSON" on a 1,400-line schema helps nobody.
    static func load(_ path: String) throws -> JSONValue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("no file at '\(path)'")
        }
        guard !isDirectory.boolValue else { throw ValidationError("'\(path)' is a directory, not a schema file") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read '\(path)': \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            // The scanner runs only on failure, where it turns Foundation's bare message into a position.
            if let failure = JSONSyntax.firstError(in: data) { throw ValidationError("'\(path)' is not JSON: \(failure)") }
            throw ValidationError("'\(path)' could not be read as JSON: \(error)")
        }
    }
}

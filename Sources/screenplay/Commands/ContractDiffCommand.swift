import ArgumentParser
import Foundation
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayDemo

/// How the contract commands print their findings.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    /// Lines for people.
    case text
    /// One JSON document for CI tools.
    case json
}

/// Exit codes the contract commands share: 1 means "breaking", so an input that cannot be used
/// must never exit 1.
enum ContractExit {
    static let breaking = ExitCode(1)
    static let badInput = ExitCode(2)

    /// Prints a file error to standard error and returns the exit code for it.
    static func report(_ error: ContractFileError) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        return badInput
    }

    /// Prints `value` as pretty, key-sorted JSON.
    static func printJSON(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// The findings of one comparison, breaking first, for people.
    static func printText(_ diff: ContractDiff, indent: String = "") {
        for (title, changes) in [("Breaking changes:", diff.breakingChanges), ("Non-breaking changes:", diff.nonBreakingChanges)] {
            print(indent + title)
            if changes.isEmpty { print(indent + "  (none)") }
            for change in changes {
                print(indent + "  \(change.location)  [\(change.direction.rawValue)] \(change.schemaPath)")
                print(indent + "    \(change.oldRule ?? "(none)") → \(change.newRule ?? "(none)")")
                print(indent + "    \(change.reason)")
            }
        }
        print(indent + "Summary: \(diff.summary)")
    }
}

/// `screenplay contract-diff <old-schema> <new-schema>`: what changed between two contract
/// schemas and whether apps in the field survive it.
struct ContractDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract-diff",
        abstract: "Compare two contract schemas (from `screenplay schema`) and list breaking and non-breaking changes.",
        discussion: """
            Responses (what the server sends) break old apps when they widen; requests (what apps send) break \
            when they narrow. Exit code 0 when nothing breaks, 1 when something does, 2 when an input cannot be \
            read or is not a contract schema this tool understands.
            """)

    @Argument(help: "The schema apps were built against (for example a released one in contract/).")
    var oldSchema: String

    @Argument(help: "The schema to check (for example `screenplay schema` output of this build).")
    var newSchema: String

    @Option(help: "text (for people) or json (for CI tools).")
    var format: ReportFormat = .text

    func run() throws {
        let diff: ContractDiff
        do {
            let old = try ContractFile.load(oldSchema)
            let new = try ContractFile.load(newSchema)
            diff = try ContractFile.diff(old: old, oldFile: oldSchema, new: new, newFile: newSchema)
        } catch {
            throw ContractExit.report(error)
        }
        switch format {
        case .json:
            try ContractExit.printJSON(diff.jsonReport)
        case .text:
            func version(_ version: APIVersion?) -> String { version.map { "API \($0)" } ?? "no x-api-version" }
            print("Comparing \(oldSchema) (\(version(diff.oldAPIVersion))) with \(newSchema) (\(version(diff.newAPIVersion)))")
            ContractExit.printText(diff)
        }
        if diff.isBreaking { throw ContractExit.breaking }
    }
}

/// `screenplay contract-check [--released DIR]`: every released contract against what this build
/// generates for the same version; the CI gate that keeps shipped apps working.
struct ContractCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract-check",
        abstract: "Compare every released contract (contract/v<N>.schema.json) with what this build generates.",
        discussion: """
            Exit code 0 when no released version breaks, 1 when one does, 2 when the folder or a file cannot be \
            used. `--write VERSION` (re)writes that version's released file from this build: the deliberate step \
            that releases a version or accepts a change to it.
            """)

    @Option(help: "The folder of released contracts.")
    var released = "contract"

    @Option(help: "text (for people) or json (for CI tools).")
    var format: ReportFormat = .text

    @Option(help: "Write the released file for this API version from this build, then check.")
    var write: Int?

    func validate() throws {
        if let write, !APIVersion.supported.contains(APIVersion(write)) {
            throw ValidationError(
                "--write \(write) is not a version this build supports (\(APIVersion.supported.lowerBound)...\(APIVersion.supported.upperBound))"
            )
        }
    }

    func run() throws {
        if let write {
            let version = APIVersion(write)
            let path = released + "/" + ContractCheck.fileName(for: version)
            do {
                try FileManager.default.createDirectory(atPath: released, withIntermediateDirectories: true)
                try Data(try ContractSchema.text(for: version, appKinds: DemoApp.appDefinedKinds).utf8).write(
                    to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                // Not "breaking" (exit 1): the release could not be written at all.
                throw ContractExit.report(ContractFileError(file: path, reason: "cannot be written: \(error.localizedDescription)"))
            }
            FileHandle.standardError.write(Data("wrote \(path)\n".utf8))
        }
        let check: ContractCheck
        do {
            check = try ContractCheck(releasedIn: released, appKinds: DemoApp.appDefinedKinds)
        } catch {
            throw ContractExit.report(error)
        }
        switch format {
        case .json:
            try ContractExit.printJSON(check.jsonReport)
        case .text:
            for result in check.results {
                guard let diff = result.diff else {
                    let why =
                        result.version > APIVersion.supported.upperBound
                        ? "is newer than this build" : "is no longer supported by this build"
                    print("\(result.version) (\(result.file)): BREAKING: released, but \(why)")
                    continue
                }
                print("\(result.version) (\(result.file)): \(diff.isBreaking ? "BREAKING" : "ok"), \(diff.summary)")
                if !diff.changes.isEmpty { ContractExit.printText(diff, indent: "  ") }
            }
            if !check.unreleased.isEmpty {
                print("Not released yet: " + check.unreleased.map(\.description).joined(separator: ", "))
            }
        }
        if check.isBreaking { throw ContractExit.breaking }
    }
}

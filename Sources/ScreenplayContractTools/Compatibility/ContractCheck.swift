public import Foundation
public import ScreenplayContract

/// A contract file that cannot be used: missing, unreadable, not JSON, not a contract schema.
/// Tools report it and exit 2, which CI must not mistake for "breaking" (exit 1).
public struct ContractFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or folder) at fault.
    public let file: String
    /// Where inside it, as a JSON pointer (`#/$defs/x`), or a line and column for bad JSON;
    /// `nil` when the file as a whole is at fault.
    public let location: String?
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(file: String, location: String? = nil, reason: String) {
        self.file = file
        self.location = location
        self.reason = reason
    }

    /// `contract/v3.schema.json at #/$defs/x: …`.
    public var description: String { file + (location.map { " at \($0)" } ?? "") + ": " + reason }
}

/// Reading contract schema files, for `contract-diff` and `contract-check`.
public enum ContractFile {
    /// The largest schema file read; generated schemas are tens of kilobytes.
    public static let maximumSize = 16 * 1024 * 1024

    /// Reads and parses one schema file; errors name the file and, for bad JSON, the line and column.
    public static func load(_ path: String) throws(ContractFileError) -> JSONValue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ContractFileError(file: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw ContractFileError(file: path, reason: "is a folder, not a schema file") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ContractFileError(file: path, reason: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(data, file: path)
    }

    /// Parses schema text; `file` names it in errors.
    public static func parse(_ data: Data, file: String) throws(ContractFileError) -> JSONValue {
        guard data.count <= maximumSize else {
            throw ContractFileError(file: file, reason: "is \(data.count) bytes; a contract schema is at most \(maximumSize)")
        }
        // The scanner gives a line and column and refuses absurd nesting before Foundation sees it.
        if let failure = JSONSyntax.firstError(in: data) {
            throw ContractFileError(file: file, location: "\(failure)", reason: "not JSON")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ContractFileError(file: file, reason: "could not be read as JSON: \(error)")
        }
    }

    /// Compares two parsed documents, naming the file of a document that is not a contract schema.
    public static func diff(old: JSONValue, oldFile: String, new: JSONValue, newFile: String) throws(ContractFileError) -> ContractDiff {
        do {
            return try ContractDiff(old: old, new: new)
        } catch {
            throw ContractFileError(
                file: error.side == .old ? oldFile : newFile, location: error.path,
                reason: "not a contract schema this tool understands: \(error.reason)")
        }
    }
}

/// Compares every released contract (`contract/v1.schema.json`, …) with what this build
/// generates for the same version: a released version is what apps in the field were built
/// against, so any breaking change to it must fail CI.
///
/// Releasing a version, or deliberately changing a released one, means regenerating its file
/// (`swift run screenplay contract-check --write`) and committing it; see the README.
public struct ContractCheck: Sendable {
    /// The verdict for one released version.
    public struct VersionResult: Sendable {
        /// The released version.
        public let version: APIVersion
        /// The released file.
        public let file: String
        /// The comparison with what this build generates; `nil` when this build no longer
        /// supports the version at all (itself breaking).
        public let diff: ContractDiff?

        /// Whether apps of this version can break.
        public var isBreaking: Bool { diff?.isBreaking ?? true }
    }

    /// One result per released version, oldest first.
    public let results: [VersionResult]
    /// Versions this build supports that have no released file yet.
    public let unreleased: [APIVersion]

    /// Whether any released version breaks.
    public var isBreaking: Bool { results.contains(where: \.isBreaking) }

    /// The file name a released version is kept under.
    public static func fileName(for version: APIVersion) -> String { "v\(version.rawValue).schema.json" }

    /// Reads every `v<N>.schema.json` in `directory` and compares each with this build's schema
    /// for version N, with `appKinds` (the app's widget kinds) listed as the released files list
    /// them.
    ///
    /// - Throws: ``ContractFileError`` when the folder is missing or empty, or a file is not JSON,
    ///   not a contract schema, or names another version than its file name.
    public init(releasedIn directory: String, appKinds: [AppDefinedKind] = []) throws(ContractFileError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ContractFileError(file: directory, reason: "no folder of released contracts here")
        }
        var released: [(APIVersion, String)] = []
        for name in names where name.hasSuffix(".schema.json") {
            let number = name.dropFirst().dropLast(".schema.json".count)
            guard name.hasPrefix("v"), !number.hasPrefix("0"), number.allSatisfy(\.isASCII), let value = Int(number), value >= 1 else {
                throw ContractFileError(file: directory + "/" + name, reason: "expected a name of the form v<N>.schema.json")
            }
            released.append((APIVersion(value), directory + "/" + name))
        }
        guard !released.isEmpty else { throw ContractFileError(file: directory, reason: "holds no v<N>.schema.json file") }
        var results: [VersionResult] = []
        for (version, file) in released.sorted(by: { $0.0 < $1.0 }) {
            let document = try ContractFile.load(file)
            guard document["x-api-version"]?.integerValue == version.rawValue else {
                throw ContractFileError(
                    file: file, location: "#/x-api-version", reason: "the file is named for \(version) but its x-api-version says otherwise"
                )
            }
            guard APIVersion.supported.contains(version) else {
                // Still validate the file, so a malformed one is reported as such.
                _ = try ContractFile.diff(old: document, oldFile: file, new: document, newFile: file)
                results.append(VersionResult(version: version, file: file, diff: nil))
                continue
            }
            let generated: JSONValue
            do {
                generated = try ContractSchema.document(for: version, appKinds: appKinds)
            } catch {
                throw ContractFileError(file: "(generated \(version))", reason: "the schema could not be generated: \(error)")
            }
            let diff = try ContractFile.diff(old: document, oldFile: file, new: generated, newFile: "(generated \(version))")
            results.append(VersionResult(version: version, file: file, diff: diff))
        }
        self.results = results
        let releasedVersions = Set(released.map(\.0))
        self.unreleased = (APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue).map { APIVersion($0) }
            .filter { !releasedVersions.contains($0) }
    }

    /// The whole check as data.
    public var jsonReport: JSONValue {
        [
            "breaking": .bool(isBreaking),
            "unreleased": .array(unreleased.map { .integer($0.rawValue) }),
            "versions": .array(
                results.map { result in
                    [
                        "version": .integer(result.version.rawValue), "file": .string(result.file), "breaking": .bool(result.isBreaking),
                        "supported": .bool(result.diff != nil), "diff": result.diff?.jsonReport ?? .null,
                    ]
                }),
        ]
    }
}

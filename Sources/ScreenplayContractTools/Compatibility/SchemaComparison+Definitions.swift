import Foundation
import ScreenplayContract

/// Definitions: kinds, deprecation, additions and removals, declared field changes.
extension SchemaComparison {
    /// Kinds are the tagged definitions a client dispatches on; they carry versioning annotations.
    static func isKind(_ name: String, _ definition: JSONValue) -> Bool {
        definition["x-introduced"] != nil || ["component.", "action.", "result."].contains(where: name.hasPrefix)
    }

    static func noun(forKind name: String) -> String {
        if name.hasPrefix("component.") { return "component kind" }
        if name.hasPrefix("action.") { return "action kind" }
        if name.hasPrefix("result.") { return "command result kind" }
        return "kind"
    }

    mutating func definitionAdded(_ name: String, _ definition: JSONValue, at path: SchemaPath) {
        guard Self.isKind(name, definition) else {
            report(
                .definitionAdded, path, old: nil, new: "defined", "a new shared definition; nothing that exists refers to it",
                breaking: false)
            return
        }
        let noun = Self.noun(forKind: name)
        let introduced = definition["x-introduced"]?.integerValue.map { APIVersion($0) }
        let downgrades = definition["x-server-downgrades"]?.boolValue ?? false
        let fallback = definition["x-fallback"]?.stringValue ?? ""
        let rule = "\(noun)" + (introduced.map { " introduced in \($0)" } ?? "")
        guard direction == .response else {
            report(.kindAdded, path, old: nil, new: rule, "old apps never send it; the server accepts more than before", breaking: false)
            return
        }
        if let header = definition["x-requested-by-header"]?.stringValue, downgrades {
            report(
                .kindAdded, path, old: nil, new: rule + ", app-defined",
                "sent only to apps that name it in \(header); every other client gets its fallback (\(fallback.isEmpty ? "dropped" : fallback))",
                breaking: false)
        } else if let introduced, let oldVersion, introduced > oldVersion, downgrades {
            report(
                .kindAdded, path, old: nil, new: rule,
                "clients of \(oldVersion) never receive it: the server downgrades it for them (\(fallback.isEmpty ? "dropped" : fallback))",
                breaking: false)
        } else if let introduced, let oldVersion, introduced > oldVersion {
            report(
                .kindAdded, path, old: nil, new: rule,
                "the server does not downgrade this family of kinds, so clients of \(oldVersion) would receive it and set it aside as unknown",
                breaking: true)
        } else {
            let version = oldVersion.map { "\($0)" } ?? "the old version"
            report(
                .kindAdded, path, old: nil, new: rule,
                "clients of \(version) do not know it and the server sends it to them as it is: they set it aside as unknown",
                breaking: true)
        }
    }

    mutating func definitionRemoved(_ name: String, _ definition: JSONValue, at path: SchemaPath) {
        guard Self.isKind(name, definition) else {
            report(
                .definitionRemoved, path, old: "defined", new: nil, "a shared definition is gone; code generated from it no longer matches",
                breaking: true)
            return
        }
        let noun = Self.noun(forKind: name)
        guard direction == .response else {
            report(
                .kindRemoved, path, old: noun, new: nil, "old apps may still send it and the server no longer accepts it", breaking: true)
            return
        }
        let deprecated = definition["x-deprecated"]?.integerValue.map { APIVersion($0) }
        let fallback = definition["x-fallback"]?.stringValue ?? ""
        if let deprecated, let newVersion, deprecated <= newVersion, !fallback.isEmpty {
            report(
                .deprecatedKindRemoved, path, old: "\(noun) deprecated in \(deprecated)", new: nil,
                "removed after its deprecation; clients that had it get the fallback: \(fallback)", breaking: false)
        } else if let deprecated {
            let reason =
                if fallback.isEmpty { "it has no fallback" } else if newVersion == nil { "the new schema has no x-api-version" } else {
                    "the new schema's version comes before that"
                }
            report(
                .kindRemoved, path, old: "\(noun) deprecated in \(deprecated)", new: nil,
                "removed, but \(reason): screens, caches and stored layouts that still carry it lose it on clients of this contract",
                breaking: true)
        } else {
            report(
                .kindRemoved, path, old: noun, new: nil,
                "removed without deprecation and fallback: content that used it has nothing to fall back to", breaking: true)
        }
    }

    mutating func compareDeprecation(_ old: JSONValue, _ new: JSONValue, at path: SchemaPath) {
        let before = old["x-deprecated"]?.integerValue
        let after = new["x-deprecated"]?.integerValue
        let at = path.keyword("x-deprecated")
        switch (before, after) {
        case (nil, let after?):
            report(
                .deprecated, at, old: nil, new: "deprecated from v\(after)", "servers stop sending it; clients still decode it",
                breaking: false)
        case (let before?, nil):
            report(.deprecationChanged, at, old: "deprecated from v\(before)", new: nil, "no longer deprecated", breaking: false)
        case (let before?, let after?) where before != after:
            report(
                .deprecationChanged, at, old: "deprecated from v\(before)", new: "deprecated from v\(after)", "deprecation moved",
                breaking: false)
        default:
            break
        }
    }

    /// The new definition's `x-field-changes`, by field path; malformed entries are skipped,
    /// so they can only make a change breaking, never hide one.
    func declaredChanges(in definition: JSONValue) -> [String: [DeclaredFieldChange]] {
        guard case .array(let entries)? = definition["x-field-changes"] else { return [:] }
        var declared: [String: [DeclaredFieldChange]] = [:]
        for entry in entries {
            guard let field = entry["field"]?.stringValue, let version = entry["version"]?.integerValue else { continue }
            declared[field, default: []].append(
                DeclaredFieldChange(version: APIVersion(version), summary: entry["summary"]?.stringValue ?? ""))
        }
        return declared
    }

    /// The declared change for `path` that a downgrade handles between the two versions: one
    /// made after the old version and no later than the new one.
    func handledChange(at path: SchemaPath, declared: [String: [DeclaredFieldChange]]) -> DeclaredFieldChange? {
        guard direction == .response, let oldVersion, let newVersion else { return nil }
        return declared[path.relative]?.first { oldVersion < $0.version && $0.version <= newVersion }
    }
}

import Foundation
import ScreenplayContract

/// A change a definition declares in `x-field-changes`.
struct DeclaredFieldChange {
    let version: APIVersion
    let summary: String
}

/// The walk behind ``ContractDiff``: collects changes definition by definition.
struct SchemaComparison {
    let oldVersion: APIVersion?
    let newVersion: APIVersion?
    let oldDefinitions: [String: JSONValue]
    let newDefinitions: [String: JSONValue]
    var changes: [ContractDiff.Change] = []
    /// The direction of the definition being compared.
    var direction: ContractDiff.Direction = .response

    typealias Code = ContractDiff.Change.Code

    /// Why a widening or narrowing breaks, or not, in the current direction.
    func verdict(widens: Bool) -> (breaking: Bool, reason: String) {
        switch (direction, widens) {
        case (.response, true):
            return (true, "widened: the server may now send values an app built against the old contract rejects, dropping the element")
        case (.response, false):
            return (false, "narrowed: the server sends a subset of what old apps accept")
        case (.request, true):
            return (false, "widened: the server still accepts everything old apps send")
        case (.request, false):
            return (true, "narrowed: the server now rejects values old apps may still send")
        }
    }

    mutating func report(
        _ code: Code, _ path: SchemaPath, old: String?, new: String?, _ reason: String, breaking: Bool
    ) {
        changes.append(
            ContractDiff.Change(
                code: code, direction: direction, location: path.location, schemaPath: path.pointer, oldRule: old, newRule: new,
                reason: reason, isBreaking: breaking))
    }

    static func direction(of definition: JSONValue?) -> ContractDiff.Direction {
        definition?["x-direction"]?.stringValue.flatMap(ContractDiff.Direction.init(rawValue:)) ?? .response
    }

    mutating func compareDocuments(old: [String: JSONValue], new: [String: JSONValue]) {
        // The root is a schema too (`$ref` to Screen); `$defs` are compared by name below.
        var oldRoot = old
        var newRoot = new
        for key in ["$defs", "$schema", "$id"] {
            oldRoot[key] = nil
            newRoot[key] = nil
        }
        direction = .response
        compareSchema(.object(oldRoot), .object(newRoot), at: SchemaPath(definition: "#"), declared: [:])

        for name in Set(oldDefinitions.keys).union(newDefinitions.keys).sorted() {
            let path = SchemaPath(definition: name)
            // A definition is judged by the direction its new form declares (its old one when it
            // is gone): that is who reads what the new side accepts or sends.
            direction = Self.direction(of: newDefinitions[name] ?? oldDefinitions[name])
            switch (oldDefinitions[name], newDefinitions[name]) {
            case (let old?, nil): definitionRemoved(name, old, at: path)
            case (nil, let new?): definitionAdded(name, new, at: path)
            case (let old?, let new?):
                let before = Self.direction(of: old)
                if before != direction {
                    report(
                        .directionChanged, path.keyword("x-direction"), old: before.rawValue, new: direction.rawValue,
                        "the other side now reads these values; nothing built against the old contract expects that", breaking: true)
                    continue
                }
                if Self.isKind(name, old) || Self.isKind(name, new) { compareDeprecation(old, new, at: path) }
                compareSchema(old, new, at: path, declared: declaredChanges(in: new))
            case (nil, nil): break
            }
        }
    }
}

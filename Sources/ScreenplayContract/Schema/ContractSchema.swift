import Foundation

/// The JSON Schema (draft 2020-12) of the whole contract at one API version, generated from the
/// Swift definitions by running their decoders against a recorder (see `SchemaRecorder`).
///
/// Android and web teams generate their models from it; `contract-diff` compares two of them;
/// the contract tests validate every screen the demo serves against it with an independent
/// validator. Each kind carries `x-introduced`, `x-deprecated` and `x-fallback` annotations, and
/// kinds whose fields changed carry `x-field-changes`.
public enum ContractSchema {
    /// The schema document for `version`.
    public static func document(for version: APIVersion) throws -> JSONValue {
        let userInfo: [CodingUserInfoKey: Any] = [.screenplayAPIVersion: version]
        func record<T: Decodable>(_ type: T.Type) throws -> JSONValue {
            let recorder = SchemaRecorder(codingPath: [], userInfo: userInfo)
            _ = try T(from: recorder)
            return recorder.schema
        }
        var definitions: [String: JSONValue] = [:]

        definitions["Screen"] = try record(Screen.self)

        var componentRefs: [JSONValue] = []
        for payload in Component.catalog where payload.versioning.introduced <= version {
            let name = "component." + payload.kind.rawValue
            var schema = tagged(try record(payload), type: payload.kind.rawValue)
            schema = annotated(schema, versioning: payload.versioning, changes: payload.fieldChanges.filter { $0.version <= version })
            definitions[name] = schema
            componentRefs.append(["$ref": .string("#/$defs/" + name)])
        }
        definitions["Component"] = ["oneOf": .array(componentRefs)]

        let actions: [(String, any Decodable.Type)] = [
            (Action.Navigate.kind, Action.Navigate.self), (Action.Command.kind, Action.Command.self), (Action.Play.kind, Action.Play.self),
            (Action.Share.kind, Action.Share.self), (Action.OpenURL.kind, Action.OpenURL.self), (Action.Custom.kind, Action.Custom.self),
        ]
        var actionRefs: [JSONValue] = []
        for (kind, type) in actions {
            definitions["action." + kind] = annotated(
                tagged(try record(type), type: kind), versioning: Action.versioning[kind] ?? .original, changes: [])
            actionRefs.append(["$ref": .string("#/$defs/action." + kind)])
        }
        definitions["Action"] = ["oneOf": .array(actionRefs)]

        let results: [(String, any Decodable.Type)] = [
            ("done", CommandResult.Done.self), ("choice", CommandResult.Choice.self), ("prompt", CommandResult.Prompt.self),
            ("navigate", Action.Navigate.self), ("error", CommandResult.Failure.self),
        ]
        var resultRefs: [JSONValue] = []
        for (kind, type) in results {
            definitions["result." + kind] = annotated(
                tagged(try record(type), type: kind), versioning: CommandResult.versioning[kind] ?? .original, changes: [])
            resultRefs.append(["$ref": .string("#/$defs/result." + kind)])
        }
        definitions["result.screen"] = annotated(
            [
                "type": "object", "additionalProperties": false, "required": ["type", "screen"],
                "properties": ["type": ["const": "screen"], "screen": ["$ref": "#/$defs/Screen"]],
            ], versioning: CommandResult.versioning["screen"] ?? .original, changes: [])
        resultRefs.append(["$ref": "#/$defs/result.screen"])
        definitions["CommandResult"] = ["oneOf": .array(resultRefs)]
        definitions["ErrorBody"] = try record(ErrorBody.self)

        return [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string("urn:screenplay:contract:v\(version.rawValue)"),
            "title": .string("Screenplay contract, API \(version)"),
            "description":
                "A screen, as GET /api/v{N}/screens/… returns it. Command results, actions, components and the error body are in $defs.",
            "x-api-version": .integer(version.rawValue),
            "$ref": "#/$defs/Screen",
            "$defs": .object(definitions),
        ]
    }

    /// The schema as pretty, key-sorted JSON text.
    public static func text(for version: APIVersion) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try document(for: version)), as: UTF8.self) + "\n"
    }

    /// Adds the `type` discriminator to a kind's object schema.
    static func tagged(_ schema: JSONValue, type: String) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        var properties = object["properties"]?.objectValue ?? [:]
        properties["type"] = ["const": .string(type)]
        object["properties"] = .object(properties)
        let required =
            (object["required"].flatMap { value -> [JSONValue]? in
                if case .array(let items) = value { return items }
                return nil
            }) ?? []
        object["required"] = .array(["type"] + required.filter { $0 != "type" })
        object["additionalProperties"] = false
        return .object(object)
    }

    static func annotated(_ schema: JSONValue, versioning: KindVersioning, changes: [FieldChange]) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["x-introduced"] = .integer(versioning.introduced.rawValue)
        object["x-deprecated"] = versioning.deprecated.map { .integer($0.rawValue) } ?? .null
        object["x-fallback"] = .string(versioning.fallback)
        if !changes.isEmpty {
            object["x-field-changes"] = .array(
                changes.map { ["field": .string($0.field), "version": .integer($0.version.rawValue), "summary": .string($0.summary)] })
        }
        return .object(object)
    }
}

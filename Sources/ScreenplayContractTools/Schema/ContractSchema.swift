import Foundation
public import ScreenplayContract

/// The JSON Schema (draft 2020-12) of the whole contract at one API version, generated from the
/// Swift definitions by running their decoders against a recorder (see `SchemaRecorder`).
///
/// Android and web teams generate their models from it; `contract-diff` compares two of them;
/// `contract-check` compares it with the released files in `contract/`; the contract tests
/// validate every screen the demo serves against it with an independent validator, and prove
/// that it accepts exactly what the Swift decoders accept at every bound.
///
/// Annotations beyond JSON Schema, all prefixed `x-`:
/// - `x-api-version` (root): the version the document describes.
/// - `x-direction` (each definition): `response` (the server writes it, old apps read it) or
///   `request` (old apps write it, the new server reads it); `contract-diff` judges changes by it.
/// - `x-introduced`, `x-deprecated`, `x-fallback` (each kind), `x-field-changes` (fields whose
///   shape changed, with the version and what older clients get).
/// - `x-open-enum`, `x-known-values` and `default` (open enums, see ``OpenEnumeration``).
/// - `x-link-schemes`, `x-link-relative` (URL fields: the link policy their pattern spells).
/// - `x-app-defined`, `x-requested-by-header` (app-defined kinds, such as widget kinds: sent only
///   to apps that name them in that header, so adding one breaks no app).
public enum ContractSchema {
    /// The schema document for `version`: the built-in contract plus `appKinds`, the component
    /// kinds the app defines (its widget kinds), listed like built-in kinds.
    ///
    /// - Throws: ``AppKindClash`` when an app-defined kind reuses a built-in kind's name or
    ///   another app-defined kind's; decoding errors from the recorder otherwise.
    public static func document(for version: APIVersion, appKinds: [AppDefinedKind] = []) throws -> JSONValue {
        let userInfo: [CodingUserInfoKey: Any] = [.screenplayAPIVersion: version]
        func record<T: Decodable>(_ type: T.Type) throws -> JSONValue {
            let recorder = SchemaRecorder(codingPath: [], userInfo: userInfo)
            _ = try T(from: recorder)
            return recorder.schema
        }
        var definitions: [String: JSONValue] = [:]

        definitions["Screen"] = try record(Screen.self)

        // Members every kind shares from v4 (id, accessibility, bind), and those every command
        // result may carry (storage, entities, effects).
        let shared = version >= ComponentAttributes.introduced ? try record(ComponentAttributes.self) : nil
        let updates = version >= ClientUpdates.introduced ? try record(ClientUpdates.self) : nil

        var componentRefs: [JSONValue] = []
        for payload in Component.catalog where payload.versioning.introduced <= version {
            let name = "component." + payload.kind.rawValue
            var schema = merged(tagged(try record(payload), type: payload.kind.rawValue), with: shared)
            schema = annotated(
                schema, versioning: payload.versioning, changes: payload.fieldChanges.filter { $0.version <= version }, downgraded: true)
            definitions[name] = schema
            componentRefs.append(["$ref": .string("#/$defs/" + name)])
        }
        for kind in appKinds.sorted(by: { $0.type < $1.type }) where kind.versioning.introduced <= version {
            let name = "component." + kind.type
            guard definitions[name] == nil else { throw AppKindClash(type: kind.type) }
            definitions[name] = annotated(
                merged(kind.schema(for: version), with: shared), versioning: kind.versioning, changes: [], downgraded: true)
            componentRefs.append(["$ref": .string("#/$defs/" + name)])
        }
        definitions["Component"] = ["oneOf": .array(componentRefs)]

        let actions: [(String, any Decodable.Type)] = [
            (Action.Navigate.kind, Action.Navigate.self), (Action.Command.kind, Action.Command.self), (Action.Play.kind, Action.Play.self),
            (Action.Share.kind, Action.Share.self), (Action.OpenURL.kind, Action.OpenURL.self), (Action.Custom.kind, Action.Custom.self),
            (Action.SetVariable.kind, Action.SetVariable.self), (Action.Sequence.kind, Action.Sequence.self),
        ]
        var actionRefs: [JSONValue] = []
        for (kind, type) in actions {
            let versioning = Action.versioning[kind] ?? .original
            guard versioning.introduced <= version else { continue }
            // Kinds of the first contract need no downgrade; later ones are replaced for older clients.
            definitions["action." + kind] = annotated(
                tagged(try record(type), type: kind), versioning: versioning, changes: [], downgraded: versioning.introduced > .v1)
            actionRefs.append(["$ref": .string("#/$defs/action." + kind)])
        }
        if version >= ClientState.introduced {
            definitions.merge(ExpressionSchema.definitions) { _, expression in expression }
            definitions["StateVariable"] = try record(StateVariable.self)
        }
        definitions["Action"] = ["oneOf": .array(actionRefs)]

        let results: [(String, any Decodable.Type)] = [
            ("done", CommandResult.Done.self), ("choice", CommandResult.Choice.self), ("prompt", CommandResult.Prompt.self),
            ("navigate", Action.Navigate.self), ("error", CommandResult.Failure.self),
        ]
        var resultRefs: [JSONValue] = []
        for (kind, type) in results {
            definitions["result." + kind] = annotated(
                merged(tagged(try record(type), type: kind), with: updates), versioning: CommandResult.versioning[kind] ?? .original,
                changes: [], downgraded: true
            )
            resultRefs.append(["$ref": .string("#/$defs/result." + kind)])
        }
        definitions["result.screen"] = annotated(
            merged(
                [
                    "type": "object", "required": ["type", "screen"],
                    "properties": ["type": ["const": "screen"], "screen": ["$ref": "#/$defs/Screen"]],
                ], with: updates), versioning: CommandResult.versioning["screen"] ?? .original, changes: [], downgraded: true)
        resultRefs.append(["$ref": "#/$defs/result.screen"])
        definitions["CommandResult"] = ["oneOf": .array(resultRefs)]
        definitions["ErrorBody"] = try record(ErrorBody.self)
        definitions["request.command"] = [
            "description":
                "The body of POST /api/v{N}/commands/…: the command action's payload, plus the prompt's text under the field's name, plus (v4) the sending screen's client storage under `storage`. Each command reads its own fields.",
            "x-direction": "request",
        ]
        for (name, definition) in definitions where definition["x-direction"] == nil {
            guard case .object(var object) = definition else { continue }
            object["x-direction"] = "response"
            definitions[name] = .object(object)
        }

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
    public static func text(for version: APIVersion, appKinds: [AppDefinedKind] = []) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try document(for: version, appKinds: appKinds)), as: UTF8.self) + "\n"
    }

    /// Two kinds under one wire name: clients could not tell which one a component is.
    public struct AppKindClash: Error, Sendable, Hashable, CustomStringConvertible {
        /// The name used twice.
        public let type: String

        /// `'text' is already a component kind; an app-defined kind needs a name of its own`.
        public var description: String { "'\(type)' is already a component kind; an app-defined kind needs a name of its own" }
    }

    /// Adds the optional members of `extra` (an object schema) to `schema`'s properties.
    static func merged(_ schema: JSONValue, with extra: JSONValue?) -> JSONValue {
        guard case .object(var object) = schema, let members = extra?["properties"]?.objectValue else { return schema }
        var properties = object["properties"]?.objectValue ?? [:]
        for (name, member) in members where properties[name] == nil { properties[name] = member }
        object["properties"] = .object(properties)
        return .object(object)
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
        return .object(object)
    }

    /// Adds a kind's versioning. `downgraded` says whether the server replaces the kind for
    /// clients older than its introduction (components and command results) or not (actions).
    static func annotated(_ schema: JSONValue, versioning: KindVersioning, changes: [FieldChange], downgraded: Bool) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        object["x-server-downgrades"] = .bool(downgraded)
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

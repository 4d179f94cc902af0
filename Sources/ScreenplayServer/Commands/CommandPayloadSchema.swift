public import ScreenplayContract

/// What a command's body holds, declared with its route (``ScreenplayRoutes/command(_:identity:payload:perform:)``)
/// so the API's description documents it: the fields the handler reads, each as
/// ``CommandRequest`` reads it, plus the client storage every command may carry.
///
/// It describes; it does not check. The handler's reads (``CommandRequest/text(_:maxLength:maxBytes:)``,
/// ``CommandRequest/integer(_:)``) stay what refuses a bad field, with a 422 naming it. What the
/// schema says and what they accept are kept equal by the API's fuzzing (schemathesis), which
/// sends what the schema allows and expects it accepted, and what it forbids and expects it refused.
public struct CommandPayloadSchema: Sendable, Hashable {
    /// One field of a payload.
    public enum Field: Sendable, Hashable {
        /// An integer id (``CommandRequest/integer(_:)``), within what JSON numbers carry exactly.
        case id
        /// A one-line text (``CommandRequest/text(_:maxLength:maxBytes:)``): at least `visible`
        /// characters that are not white space, no control, line-separator or
        /// bidirectional-override character, at most `maxLength` characters.
        case text(maxLength: Int, visible: Int = 1)
        /// Any string (``CommandRequest/optionalText(_:)``).
        case string
        /// A schema of the app's own.
        case schema(JSONValue)
    }

    /// Fields the handler needs; without one, it answers 422.
    public var required: [String: Field]
    /// Fields it reads when present.
    public var optional: [String: Field]
    /// Keys of the client storage it reads when present (`storage.<key>`).
    public var storage: [String: Field]

    /// A payload with these fields.
    public init(required: [String: Field] = [:], optional: [String: Field] = [:], storage: [String: Field] = [:]) {
        self.required = required
        self.optional = optional
        self.storage = storage
    }

    /// The payload as a JSON Schema (2020-12): an object with the fields and `storage`; other
    /// members are allowed (a client may send what a newer server reads).
    public var jsonSchema: JSONValue {
        var storageSchema = Self.storage
        if !storage.isEmpty, case .object(var members) = storageSchema {
            members["properties"] = .object(storage.mapValues(\.jsonSchema))
            storageSchema = .object(members)
        }
        var properties: [String: JSONValue] = ["storage": storageSchema]
        for (name, field) in required.merging(optional, uniquingKeysWith: { first, _ in first }) { properties[name] = field.jsonSchema }
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.keys.sorted().map(JSONValue.string)) }
        return .object(schema)
    }

    /// Whether a body must be sent at all (an empty body is read as `{}`).
    public var needsBody: Bool { !required.isEmpty }

    /// The client storage a v4 screen sends with its commands, as every command checks it.
    static let storage: JSONValue = [
        "type": "object", "maxProperties": 64, "propertyNames": ["pattern": "^[A-Za-z0-9._:/~-]{1,64}$"],
        "additionalProperties": ["type": "string", "maxLength": 4096],
    ]
}

extension CommandPayloadSchema.Field {
    /// The characters a one-line text may not hold (``CommandRequest/isForbiddenInText(_:)``):
    /// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional marks,
    /// embeddings, overrides and isolates.
    static let forbidden = #"\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069"#

    /// The field as a JSON Schema.
    var jsonSchema: JSONValue {
        switch self {
        case .id:
            // Beyond ±9e15 a JSON number is read as a double, not an integer.
            ["type": "integer", "minimum": -9_000_000_000_000_000, "maximum": 9_000_000_000_000_000]
        case .text(let maxLength, let visible):
            [
                "type": "string", "maxLength": .integer(maxLength),
                "pattern": .string(
                    "^[^\(Self.forbidden)]*" + String(repeating: "[^\\s\(Self.forbidden)][^\(Self.forbidden)]*", count: max(1, visible)) + "$"),
            ]
        case .string: ["type": "string"]
        case .schema(let schema): schema
        }
    }
}

import Foundation
import ScreenplayContract

/// A `Decoder` that reads no JSON: it runs a type's real `init(from:)` and writes down every
/// key it asks for, with the type and whether it was optional. That is how ``ContractSchema``
/// derives the JSON Schema from the Swift definitions themselves, so the schema cannot say one
/// thing while the decoder does another.
///
/// It answers every request with a harmless stand-in value (`"x"`, `1`, the first enum case), and
/// the kinds' own checks accept those. Types that dispatch on `type` (components, actions, command
/// results, screens) become `$ref`s to definitions built separately.
final class SchemaRecorder: Decoder {
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any]
    /// What the type turned out to be: an object's members, an array's items, or a scalar.
    var shape: Shape = .unknown

    enum Shape {
        case unknown
        case object(SchemaObject)
        case array(items: JSONValue)
        case scalar(JSONValue)
    }

    init(codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: Any]) {
        self.codingPath = codingPath
        self.userInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object: SchemaObject
        if case .object(let existing) = shape {
            object = existing
        } else {
            object = SchemaObject()
            shape = .object(object)
        }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recorder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(recorder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(recorder: self)
    }

    /// The schema of what was recorded.
    var schema: JSONValue {
        switch shape {
        case .unknown: return [:]
        case .object(let object): return object.schema
        case .array(let items): return ["type": "array", "items": items]
        case .scalar(let schema): return schema
        }
    }

    /// Records `type` and returns a stand-in value of it, with its schema.
    func record<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> (T, JSONValue) {
        if let (value, schema) = Self.leaf(type) { return (value, schema) }
        // A scalar the recorder has no stand-in for would recurse forever through its own
        // single-value init: refuse it, naming the field, so the gap is fixed here.
        if type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type {
            throw DecodingError.typeMismatch(
                type,
                .init(codingPath: path, debugDescription: "the schema recorder has no stand-in for \(type); add it to SchemaRecorder.leaf"))
        }
        if let wrapper = type as? any SchemaTransparentWrapper.Type {
            let (value, schema) = try record(wrapper.wrappedType, at: path)
            if let value = wrapper.wrapping(value) as? T { return (value, schema) }
        }
        let child = SchemaRecorder(codingPath: path, userInfo: userInfo)
        let value = try T(from: child)
        return (value, child.schema)
    }

    static func integer(_ minimum: Int, _ maximum: Int) -> JSONValue {
        ["type": "integer", "minimum": .integer(minimum), "maximum": .integer(maximum)]
    }

    /// Scalars, enums and the types that are definitions of their own.
    static func leaf<T>(_ type: T.Type) -> (T, JSONValue)? {
        func cast(_ value: Any, _ schema: JSONValue) -> (T, JSONValue)? {
            (value as? T).map { ($0, schema) }
        }
        switch type {
        case is String.Type: return cast("x", ["type": "string"])
        case is Bool.Type: return cast(false, ["type": "boolean"])
        // Bounds state what the decoders refuse: a whole number outside the Swift type's range,
        // a number that is not finite (`1e400` reads as infinity in some parsers).
        case is Int.Type: return cast(1 as Int, integer(Int.min, Int.max))
        case is Int64.Type: return cast(Int64(1), integer(Int(Int64.min), Int(Int64.max)))
        case is Int32.Type: return cast(Int32(1), integer(Int(Int32.min), Int(Int32.max)))
        case is Double.Type:
            return cast(
                1.0,
                ["type": "number", "minimum": .number(-Double.greatestFiniteMagnitude), "maximum": .number(Double.greatestFiniteMagnitude)])
        case is Float.Type:
            return cast(
                Float(1),
                [
                    "type": "number", "minimum": .number(-Double(Float.greatestFiniteMagnitude)),
                    "maximum": .number(Double(Float.greatestFiniteMagnitude)),
                ])
        case is JSONValue.Type: return cast(JSONValue.null, ["description": "any JSON value"])
        case is ColorValue.Type:
            // Open by construction: any well-formed token name decodes; renderers show tokens they
            // do not know as `primaryText`, so adding a standard token is safe.
            return cast(
                ColorValue.token(.accent),
                [
                    "type": "string", "pattern": #"^(?:#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z][A-Za-z0-9]{0,63})(?![\s\S])"#,
                    "description": "a color token name, or #RRGGBB / #RRGGBBAA",
                    "x-open-enum": true, "x-known-values": .array(ColorToken.standard.map { .string($0.rawValue) }),
                    "default": .string(ColorToken.primaryText.rawValue),
                ])
        // With an id: a reorderable list keeps only rows that have one.
        case is Component.Type: return cast(Component.spacer(.init()).id("x"), ["$ref": "#/$defs/Component"])
        case is Action.Type: return cast(Action.openURL(.init(url: "x")), ["$ref": "#/$defs/Action"])
        case is Screen.Type: return cast(Screen(id: "x", title: "x", sections: []), ["$ref": "#/$defs/Screen"])
        case is CommandResult.Type: return cast(CommandResult.done(.init()), ["$ref": "#/$defs/CommandResult"])
        default:
            if let checked = type as? any SchemaDescribedValue.Type {
                return cast(checked.standInValue, checked.schemaFragment)
            }
            if let open = type as? any OpenEnumeration.Type {
                return cast(
                    open.firstCaseValue,
                    [
                        "type": "string", "x-open-enum": true, "x-known-values": .array(open.caseNames.map(JSONValue.string)),
                        "default": .string(open.fallbackName),
                    ])
            }
            if let enumeration = type as? any SchemaEnumeration.Type {
                return cast(enumeration.firstCase, ["type": "string", "enum": .array(enumeration.caseNames.map(JSONValue.string))])
            }
            return nil
        }
    }
}

extension OpenEnumeration {
    static var caseNames: [String] { allCases.map(\.rawValue) }
    static var firstCaseValue: Any { allCases.first! }
    static var fallbackName: String { fallback.rawValue }
}

/// Closed string enums whose cases the schema lists (open ones are ``OpenEnumeration``s). None
/// of the contract's own enums is closed today; the conformance is how one would be listed.
protocol SchemaEnumeration {
    static var caseNames: [String] { get }
    static var firstCase: Any { get }
}

extension SchemaEnumeration where Self: CaseIterable & RawRepresentable, RawValue == String {
    static var caseNames: [String] { allCases.map(\.rawValue) }
    static var firstCase: Any { allCases.first! }
}

/// The members of an object as they are recorded, in order.
final class SchemaObject {
    private(set) var order: [String] = []
    private(set) var properties: [String: JSONValue] = [:]
    private(set) var optional: Set<String> = []

    func add(_ key: String, schema: JSONValue, optional isOptional: Bool) {
        if properties[key] == nil { order.append(key) }
        properties[key] = schema
        if isOptional { optional.insert(key) }
    }

    func markOptional(_ key: String) { optional.insert(key) }

    /// `schema`, also accepting `null`.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        switch object["type"] {
        case .string(let type)?:
            object["type"] = [.string(type), "null"]
            return .object(object)
        case .array(let types)? where !types.contains("null"):
            object["type"] = .array(types + ["null"])
            return .object(object)
        case .array?:
            return schema
        default:
            // A definition by reference, or any JSON value already.
            return object["$ref"] == nil ? schema : ["anyOf": [schema, ["type": "null"]]]
        }
    }

    /// Objects allow members they do not list: every decoder ignores unknown members, which is
    /// what makes adding a field safe, so the schema says the same. Optional members accept
    /// `null`, as `decodeIfPresent` does.
    var schema: JSONValue {
        let required = order.filter { !optional.contains($0) }
        var members = properties
        for name in optional { members[name] = members[name].map(Self.nullable) }
        var result: [String: JSONValue] = [
            "type": "object",
            "properties": .object(members),
        ]
        if !required.isEmpty { result["required"] = .array(required.map(JSONValue.string)) }
        return .object(result)
    }
}

private struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    let object: SchemaObject
    var codingPath: [any CodingKey] { recorder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    /// Asking whether a value is `null` means the code accepts its absence: optional.
    func decodeNil(forKey key: Key) throws -> Bool {
        object.markOptional(key.stringValue)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (value, schema) = try recorder.record(type, at: codingPath + [key])
        object.add(key.stringValue, schema: schema, optional: false)
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (_, schema) = try recorder.record(type, at: codingPath + [key])
        object.add(key.stringValue, schema: schema, optional: true)
        return nil
    }

    // The protocol's own defaults for these would ask `decodeNil`, hear `false` and decode a
    // stand-in value; recording must answer "absent" instead, so the type's checks never run on it.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try recordOptional(type, key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try recordOptional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try recordOptional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try recordOptional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try recordOptional(type, key) }

    private func recordOptional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        let (_, schema) = try recorder.record(type, at: codingPath + [key])
        object.add(key.stringValue, schema: schema, optional: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let child = SchemaRecorder(codingPath: codingPath + [key], userInfo: recorder.userInfo)
        let container = try child.container(keyedBy: type)
        object.add(key.stringValue, schema: child.schema, optional: false)
        return container
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let child = SchemaRecorder(codingPath: codingPath + [key], userInfo: recorder.userInfo)
        return RecordingUnkeyedContainer(recorder: child) { items in
            object.add(key.stringValue, schema: ["type": "array", "items": items], optional: false)
        }
    }

    func superDecoder() throws -> any Decoder { recorder }
    func superDecoder(forKey key: Key) throws -> any Decoder { SchemaRecorder(codingPath: codingPath + [key], userInfo: recorder.userInfo) }
}

/// Reports one element, then the end: enough to learn the element type.
private struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let recorder: SchemaRecorder
    var onItems: ((JSONValue) -> Void)?
    var codingPath: [any CodingKey] { recorder.codingPath }
    var count: Int? { 1 }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(recorder: SchemaRecorder, onItems: ((JSONValue) -> Void)? = nil) {
        self.recorder = recorder
        self.onItems = onItems
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        let (value, schema) = try recorder.record(type, at: codingPath + [AnyCodingKey(intValue: 0)])
        // A lossy element wrapper records its element's schema under its own decoder.
        recorder.shape = .array(items: schema)
        onItems?(schema)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return try recorder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return RecordingUnkeyedContainer(recorder: recorder)
    }

    mutating func superDecoder() throws -> any Decoder { recorder }
}

private struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let recorder: SchemaRecorder
    var codingPath: [any CodingKey] { recorder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, schema) = try recorder.record(type, at: codingPath)
        recorder.shape = .scalar(schema)
        return value
    }
}

import Foundation
import ScreenplayContract

/// Reading schemas: ranking types and ranges, rendering literals.
extension SchemaComparison {
    /// Whether the new `type` set accepts more (`true`) or less (`false`) than the old one, when
    /// one contains the other; `nil` when they cannot be ranked (different types, `$ref`s).
    /// `integer` is a subset of `number`.
    static func rankTypes(_ old: [String: JSONValue], _ new: [String: JSONValue]) -> Bool? {
        func types(_ schema: [String: JSONValue]) -> Set<String>? {
            guard schema["$ref"] == nil else { return nil }
            switch schema["type"] {
            case .string(let type)?: return [type]
            case .array(let types)?: return Set(types.compactMap(\.stringValue))
            default: return nil
            }
        }
        guard let before = types(old), let after = types(new), before != after else { return nil }
        func covers(_ outer: Set<String>, _ inner: Set<String>) -> Bool {
            inner.allSatisfy { outer.contains($0) || ($0 == "integer" && outer.contains("number")) }
        }
        if covers(after, before) { return true }
        if covers(before, after) { return false }
        return nil
    }

    static func mustUnderstand(_ schema: JSONValue?) -> Bool { schema?["x-must-understand"] == .bool(true) }

    /// What a schema's values are, in a word: the JSON type, the `$ref` target, or the union.
    /// Two schemas of the same type name are compared keyword by keyword; different ones are a
    /// type change.
    static func typeName(_ schema: [String: JSONValue]) -> String {
        if let reference = schema["$ref"]?.stringValue { return reference }
        switch schema["type"] {
        case .string(let type)?: return type
        case .array(let types)?: return types.compactMap(\.stringValue).sorted().joined(separator: " or ")
        default: break
        }
        if let values = allowedValues(schema) {
            let types = Set(values.map(jsonType))
            if types.count == 1, let type = types.first { return type }
            if types == ["integer", "number"] { return "number" }
        }
        if schema["oneOf"] != nil { return "oneOf" }
        if schema["anyOf"] != nil { return "anyOf" }
        if schema["properties"] != nil { return "object" }
        if schema["items"] != nil { return "array" }
        return "any JSON value"
    }

    static func allowedValues(_ schema: [String: JSONValue]) -> [JSONValue]? {
        if case .array(let values)? = schema["enum"] { return values }
        if let value = schema["const"] { return [value] }
        return nil
    }

    static func jsonType(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number(let number): number.rounded() == number ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    static func names(_ value: JSONValue?) -> Set<String> {
        Set(elements(value).compactMap(\.stringValue))
    }

    static func elements(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = value { return elements }
        return []
    }

    static func list(_ values: [JSONValue]) -> String {
        values.map(literal).joined(separator: ", ")
    }

    /// A value as compact, key-sorted JSON, for messages.
    static func literal(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }
}

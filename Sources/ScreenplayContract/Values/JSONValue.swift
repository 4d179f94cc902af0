import Foundation

/// Any JSON value, kept exactly as it arrived.
///
/// Command payloads and custom actions carry data that only the server (or an app-registered
/// handler) understands, and unknown component kinds are kept verbatim so they can be logged
/// and re-encoded. `JSONValue` holds such data without inventing a schema for it.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with no fraction that fits in `Int`; kept apart from `.number` so ids survive exactly.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; keys are encoded sorted, so equal values give equal bytes.
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON value; fails only on input that is not JSON at all.
    public init(from decoder: any Decoder) throws {
        // Each failed attempt below throws a DecodingError, which costs microseconds (more the
        // deeper it is): near the top, where a value is usually a leaf of a long list, strings
        // and ints are tried first; deep down, where a value is usually a container (and a
        // hostile one nests 500 levels), the containers are.
        if decoder.codingPath.count >= 16, let container = try Self.container(decoder) {
            self = container
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else if let container = try Self.container(decoder) {
            self = container
        } else {
            self = .bool(try single.decode(Bool.self))
        }
    }

    /// The object or array `decoder` holds, or `nil` when it holds a scalar.
    private static func container(_ decoder: any Decoder) throws -> JSONValue? {
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var result: [String: JSONValue] = [:]
            for key in object.allKeys {
                result[key.stringValue] = try object.decode(JSONValue.self, forKey: key)
            }
            return .object(result)
        }
        if var array = try? decoder.unkeyedContainer() {
            var result: [JSONValue] = []
            if let count = array.count { result.reserveCapacity(count) }
            while !array.isAtEnd { result.append(try array.decode(JSONValue.self)) }
            return .array(result)
        }
        return nil
    }

    /// Encodes the value as it is; objects come out with sorted keys when the encoder sorts.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .integer(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .object(let members):
            var object = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try object.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

extension JSONValue {
    /// The members when this is an object, otherwise `nil`.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text when this is a string, otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number when this is an integer (or a float with no fraction), otherwise `nil`.
    public var integerValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
        default: return nil
        }
    }

    /// The value as a Double, when this is a number (integer or not), otherwise `nil`.
    public var numberValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }

    /// The elements, when this is an array, otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The value when this is a boolean, otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// How many arrays and objects deep the value nests: 0 for a scalar, 1 for `{}` or `[1]`.
    /// Computed without recursion, so a hostile value cannot exhaust the stack asking.
    public var nestingDepth: Int {
        var deepest = 0
        var pending: [(JSONValue, Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .array(let items):
                deepest = max(deepest, depth + 1)
                pending += items.map { ($0, depth + 1) }
            case .object(let members):
                deepest = max(deepest, depth + 1)
                pending += members.values.map { ($0, depth + 1) }
            default:
                deepest = max(deepest, depth)
            }
        }
        return deepest
    }

    /// The JSON type's name, for error messages ("expected a string, found an array").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Looks up a member of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal is a JSON integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A float literal is a JSON number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A boolean literal is a JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A dictionary literal is a JSON object; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

/// A coding key made from any string or index, for objects whose keys are data.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    /// The key's text.
    public var stringValue: String
    /// The array index, when the key is one.
    public var intValue: Int?

    /// A key for an object member.
    public init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    /// A key for an object member.
    public init(stringValue: String) { self.init(stringValue) }

    /// A key for an array index.
    public init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}

extension JSONValue {
    /// The value as compact, key-sorted JSON text (slashes unescaped): for messages that quote
    /// what arrived, and for JSON a page carries in an attribute.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

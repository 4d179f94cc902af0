/// A value an expression reads or yields: what a variable holds, what a binding shows.
///
/// Ints and numbers are kept apart (as ``ExpressionType`` keeps them) so that `7 / 2` is `3` on
/// every platform and an id never turns into `3.0`.
public enum ExpressionValue: Sendable, Hashable, CustomStringConvertible {
    /// `true` or `false`.
    case bool(Bool)
    /// A whole number within ±(2^53 − 1) (``ExpressionValue/maximumInt``).
    case int(Int)
    /// A finite double.
    case number(Double)
    /// Unicode text.
    case string(String)
    /// Ordered values.
    case array([ExpressionValue])
    /// Named fields.
    case record([String: ExpressionValue])

    /// The largest int: 2^53 − 1, the largest whole number every JavaScript number holds exactly.
    public static let maximumInt = 9_007_199_254_740_991

    /// The value as text, as interpolation and `string()` write it: numbers as JavaScript's
    /// `Number.prototype.toString` does (``ExpressionNumberText``), arrays and records as JSON-like
    /// lists for logs (expressions cannot write those).
    public var description: String {
        switch self {
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .number(let value): ExpressionNumberText.write(value)
        case .string(let value): value
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .record(let fields): "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    /// The value as a double, when it is a numeric.
    var double: Double? {
        switch self {
        case .int(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }
}

extension ExpressionValue {
    /// `json` read as a value of `type`, or `nil` when it is not one: an int must be whole and
    /// within range, a number finite, an array's elements and a record's fields (every one the
    /// type names, no others) of their types. `depth` bounds the nesting read (state comes from
    /// the network).
    public init?(json: JSONValue, as type: ExpressionType, depth: Int = 32) {
        guard depth > 0 else { return nil }
        switch (type, json) {
        case (.bool, .bool(let value)): self = .bool(value)
        case (.int, .integer(let value)) where abs(value) <= Self.maximumInt: self = .int(value)
        case (.int, .number(let value)) where value.rounded() == value && abs(value) <= Double(Self.maximumInt): self = .int(Int(value))
        case (.number, .integer(let value)) where abs(value) <= Self.maximumInt: self = .number(Double(value))
        case (.number, .number(let value)) where value.isFinite: self = .number(value)
        case (.string, .string(let value)): self = .string(value)
        case (.array(let element), .array(let values)):
            var read: [ExpressionValue] = []
            read.reserveCapacity(values.count)
            for value in values {
                guard let item = ExpressionValue(json: value, as: element, depth: depth - 1) else { return nil }
                read.append(item)
            }
            self = .array(read)
        case (.record(let fields), .object(let object)):
            guard object.count == fields.count else { return nil }
            var read: [String: ExpressionValue] = [:]
            for (name, fieldType) in fields {
                guard let value = object[name], let field = ExpressionValue(json: value, as: fieldType, depth: depth - 1) else { return nil }
                read[name] = field
            }
            self = .record(read)
        default: return nil
        }
    }

    /// The value in JSON: what a binding's result is written as.
    public var json: JSONValue {
        switch self {
        case .bool(let value): .bool(value)
        case .int(let value): .integer(value)
        case .number(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.json))
        case .record(let fields): .object(fields.mapValues(\.json))
        }
    }
}

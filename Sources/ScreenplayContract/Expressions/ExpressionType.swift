/// The type of an expression or of a variable it reads (contract/expressions/README.md, "Types").
///
/// Checked before anything runs: an expression that adds a string to an int, reads a variable
/// the screen does not declare or a field a record does not have is refused when the screen is
/// decoded, so a binding never fails in front of a person for a reason known in advance.
public indirect enum ExpressionType: Sendable, Hashable, CustomStringConvertible {
    /// `true` or `false`.
    case bool
    /// A whole number within ±(2^53 − 1): exact on every platform, JavaScript's numbers included.
    case int
    /// A finite double.
    case number
    /// Unicode text.
    case string
    /// Ordered values of one type.
    case array(ExpressionType)
    /// Named fields, each of its own type.
    case record([String: ExpressionType])

    /// Whether it is `int` or `number`: what arithmetic and ordering take.
    public var isNumeric: Bool { self == .int || self == .number }

    /// Whether values of it can be compared with `==` and written as text.
    public var isScalar: Bool {
        switch self {
        case .bool, .int, .number, .string: true
        case .array, .record: false
        }
    }

    /// As the README writes it: `int`, `array<string>`, `{id: string, seconds: int}`.
    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .number: "number"
        case .string: "string"
        case .array(let element): "array<\(element)>"
        case .record(let fields): "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension ExpressionType {
    /// The type `json` states in the contract's JSON form: `"int"`, `{"array": T}`,
    /// `{"record": {"field": T}}`; `nil` for anything else.
    public init?(json: JSONValue) {
        switch json {
        case .string("bool"): self = .bool
        case .string("int"): self = .int
        case .string("number"): self = .number
        case .string("string"): self = .string
        case .object(let object) where object.count == 1:
            if let element = object["array"] {
                guard let type = ExpressionType(json: element) else { return nil }
                self = .array(type)
            } else if case .object(let fields)? = object["record"] {
                var types: [String: ExpressionType] = [:]
                for (name, field) in fields {
                    guard let type = ExpressionType(json: field) else { return nil }
                    types[name] = type
                }
                self = .record(types)
            } else {
                return nil
            }
        default: return nil
        }
    }

    /// The contract's JSON form of the type.
    public var json: JSONValue {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .number: "number"
        case .string: "string"
        case .array(let element): ["array": element.json]
        case .record(let fields): ["record": .object(fields.mapValues(\.json))]
        }
    }
}

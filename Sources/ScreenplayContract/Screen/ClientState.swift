/// The variables a screen declares, by name (v6): what its bindings and `set` actions read and
/// write on the device (contract/expressions/README.md, "Screens, state and bindings").
public typealias StateVariables = [String: StateVariable]

/// The properties a component computes, each from an expression's source (v6): `{"visible": "expanded"}`.
///
/// Kept as text: the client's state engine compiles each once per screen, and an encoded screen
/// writes them back unchanged.
public typealias ComputedProperties = [BindableProperty: String]

/// Client state in the contract: when it joined, and its limits.
public enum ClientState {
    /// State, bindings and local actions joined the contract in v6.
    public static let introduced = APIVersion.v6
    /// The most variables one screen declares: a screen's state is a handful of flags and values,
    /// and a bound number keeps a hostile screen from growing the client's index without end.
    public static let maximumVariables = 64

    /// Checks `source` as an expression of `type` (nil: of any type) with the variables of
    /// `types` (nil: the variables are not known here, so only its syntax is checked), or throws
    /// the reason.
    static func check(_ source: String, as type: ExpressionType?, types: [String: ExpressionType]?) throws(ExpressionError) {
        guard let types else {
            _ = try ExpressionParser.parse(source)
            return
        }
        let expression = try ScreenExpression(source, types: types)
        // An int is a number wherever one is wanted (`set` of a number variable to `0`).
        if let type, expression.type != type && !(type == .number && expression.type == .int) {
            throw ExpressionError(.type, "typeMismatch", "expected a \(type), this expression is a \(expression.type)")
        }
    }
}

extension StateVariable: Codable {
    enum CodingKeys: String, CodingKey { case type, initial, scope }

    /// Reads `{"type": T, "initial": V, "scope": "app"}`: an unknown type, or an initial value
    /// that is not of it, fails the declaration at that member's path; an unknown scope is read
    /// as `screen` and reported (a value kept for the screen is a fair guess; losing it is not).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(Checked<ValueRules.StateType>.self, forKey: .type).value
        guard let declared = ExpressionType(json: type) else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "'type' is not a type of the expression language")
        }
        let initial = try container.decode(StateValueJSON.self, forKey: .initial).json
        guard let value = ExpressionValue(json: initial, as: declared) else {
            throw DecodingError.dataCorruptedError(
                forKey: .initial, in: container,
                debugDescription: "'initial' is \(initial.jsonText.prefix(80)), not a value of type \(declared)")
        }
        let scope = try container.decodeIfPresent(Scope.self, forKey: .scope) ?? .screen
        // The value was just read as the declared type, so the checking initializer cannot refuse it.
        self = try StateVariable(declared, initial: value, scope: scope)
    }

    /// Writes the type, the initial value and a scope other than `screen`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.json, forKey: .type)
        try container.encode(initial.json, forKey: .initial)
        if scope != .screen { try container.encode(scope, forKey: .scope) }
    }
}

extension StateVariable.Scope: OpenEnumeration {
    /// A scope this client does not know keeps the value while the screen is shown: a later,
    /// longer scope is then only shorter, never shared where it should not be.
    public static let fallback = Self.screen
}

extension ValueRules {
    /// The variable a `set` action writes: a name a screen may declare.
    package enum VariableName: ValueRule {
        package static let schema: JSONValue = [
            "type": "string",
            "pattern": .string(
                "^(?!(?:" + (["true", "false"] + ClientVariables.types.keys.sorted()).joined(separator: "|")
                    + #")(?![\s\S]))[A-Za-z_][A-Za-z0-9_]{0,63}(?![\s\S])"#),
        ]
        package static let standIn = "x"
        package static let namesField = false
        package static func check(_ value: String) throws(ContractViolation) {
            guard StateVariable.isDeclarable(value) else {
                throw ContractViolation("'variable' is '\(value.prefix(80))', not a variable a screen can declare and set")
            }
        }
    }

    /// A sequence's steps: one to ``Action/Sequence/maximumSteps``.
    package enum SequenceSteps: ValueRule {
        package static let schema: JSONValue = [
            "type": "array", "items": ["$ref": "#/$defs/Action"], "minItems": 1, "maxItems": .integer(Action.Sequence.maximumSteps),
        ]
        package static let standIn: [Action] = [.openURL(.init(url: "https://example.com"))]
        package static func check(_ value: [Action]) throws(ContractViolation) {
            guard (1...Action.Sequence.maximumSteps).contains(value.count) else {
                throw ContractViolation("\(value.count) steps; expected 1...\(Action.Sequence.maximumSteps)")
            }
        }
    }

    /// A state variable's type in its JSON form (`"int"`, `{"array": "string"}`, `{"record": {...}}`).
    package enum StateType: ValueRule {
        package static let schema: JSONValue = ["$ref": "#/$defs/ExpressionType"]
        package static let standIn: JSONValue = "bool"
        package static let namesField = false
        package static func check(_ value: JSONValue) throws(ContractViolation) {
            guard ExpressionType(json: value) != nil else {
                throw ContractViolation(
                    "'type' is \(value.jsonText.prefix(80)); expected bool, int, number, string, {\"array\": T} or {\"record\": {…}}")
            }
        }
    }
}

/// A state variable's `initial` value as read from the wire: any JSON value (the declaration
/// then reads it as its type).
package struct StateValueJSON: Decodable, Sendable, SchemaDescribedValue {
    /// The value.
    package let json: JSONValue

    package init(json: JSONValue) { self.json = json }

    package init(from decoder: any Decoder) throws { json = try JSONValue(from: decoder) }

    package static var schemaFragment: JSONValue { ["description": "a value of the variable's type"] }
    package static var standInValue: Any { StateValueJSON(json: false) }
}

/// A screen's `state` as read from the wire: each declaration on its own, so one bad variable is
/// reported at its path (`$.state.query.initial`) and left out while the others stay.
package struct StateDeclarations: Decodable, Sendable, SchemaDescribedValue {
    /// The declarations that were read cleanly.
    package let variables: StateVariables

    package init(variables: StateVariables) { self.variables = variables }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let keys = container.allKeys.sorted { $0.stringValue < $1.stringValue }
        guard keys.count <= ClientState.maximumVariables else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "'state' declares \(keys.count) variables; the limit is \(ClientState.maximumVariables)"))
        }
        var variables: StateVariables = [:]
        for key in keys {
            let name = key.stringValue
            guard StateVariable.isDeclarable(name) else {
                let reason =
                    ClientVariables.types[name] != nil
                    ? "'\(name)' is a client variable; a screen reads it but cannot declare it"
                    : "'\(name.prefix(80))' is not a variable name (letters, digits and '_', not starting with a digit, at most 64, not true or false)"
                try decoder.reportInvalid(reason, at: container.codingPath + [key])
                continue
            }
            if let variable = try container.decode(LossyElement<StateVariable>.self, forKey: key).value {
                variables[name] = variable
            }
        }
        self.variables = variables
    }

    package static var schemaFragment: JSONValue { ["$ref": "#/$defs/State"] }
    package static var standInValue: Any { StateDeclarations(variables: [:]) }
}

/// A component's `compute` as read from the wire: each binding checked against the screen's
/// declared state (when the screen's decode provides it); a bad one is reported at its path
/// (`$.sections[0].components[3].compute.visible`) and left out, so that property keeps its
/// static value. A property this client does not know is reported and ignored.
package struct ComputeDeclarations: Decodable, Sendable, SchemaDescribedValue {
    /// The bindings that checked.
    package let properties: ComputedProperties

    package init(properties: ComputedProperties) { self.properties = properties }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let types = decoder.expressionTypes
        var properties: ComputedProperties = [:]
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard let property = BindableProperty(rawValue: key.stringValue) else {
                decoder.issueLog?.record(
                    DecodingIssue(
                        kind: .unknownValue, path: JSONPath.render(container.codingPath + [key]),
                        message: "'\(key.stringValue.prefix(80))' is not a property this client computes; ignored"))
                continue
            }
            guard let source = try container.decode(LossyElement<ExpressionText>.self, forKey: key).value?.source else { continue }
            do {
                try ClientState.check(source, as: property.type, types: types)
                properties[property] = source
            } catch {
                try decoder.reportInvalid("'\(property.rawValue)' keeps its static value: \(error)", at: container.codingPath + [key])
            }
        }
        self.properties = properties
    }

    package static var schemaFragment: JSONValue { ["$ref": "#/$defs/Compute"] }
    package static var standInValue: Any { ComputeDeclarations(properties: [:]) }
}

/// The source of an expression as read from the wire: a string (its syntax and types are checked
/// by what holds it, which knows the type it needs).
package struct ExpressionText: Decodable, Sendable, SchemaDescribedValue {
    /// The source.
    package let source: String

    package init(source: String) { self.source = source }

    package init(from decoder: any Decoder) throws {
        source = try decoder.singleValueContainer().decode(String.self)
    }

    package static var schemaFragment: JSONValue { ["$ref": "#/$defs/Expression"] }
    package static var standInValue: Any { ExpressionText(source: "true") }
}

extension Decoder {
    /// The types of the variables expressions may read here: the client's variables and what the
    /// screen being decoded declares; `nil` outside a screen's decode (nothing to check types
    /// against, so only syntax is checked).
    var expressionTypes: [String: ExpressionType]? { issueLog?.expressionScope }

    /// Reports something bad at `path` that its holder can do without: recorded and skipped when
    /// lossy, thrown when strict (or when no issue log is there to record it).
    func reportInvalid(_ message: String, at path: [any CodingKey]) throws {
        guard let issueLog, issueLog.mode == .lossy else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: message))
        }
        issueLog.record(DecodingIssue(kind: .invalidElement, path: JSONPath.render(path), message: message))
    }
}

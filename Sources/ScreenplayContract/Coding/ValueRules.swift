/// A rule the decoders enforce on one JSON value, stated once so that the decoder and the
/// generated schema cannot disagree.
///
/// A kind that limits a field (grid columns 1...6, a link's allowed schemes) decodes it through
/// ``Checked``; the schema recorder in `ScreenplayContractTools` sees the same rule type and writes
/// its ``schema`` fragment. A test feeds values just inside and just outside every bound to the
/// Swift decoder and to an independent JSON Schema validator and requires the same verdict.
package protocol ValueRule: Sendable {
    /// The Swift type the JSON value decodes to before the check.
    associatedtype Value: Decodable & Sendable
    /// The JSON Schema fragment that accepts exactly what ``check(_:)`` accepts (type included).
    static var schema: JSONValue { get }
    /// A value the rule accepts; the schema recorder answers with it.
    static var standIn: Value { get }
    /// Throws a violation naming the value when it breaks the rule.
    static func check(_ value: Value) throws(ContractViolation)
    /// Whether the message should start with the field's name (`'columns' is 7; …`); rules whose
    /// messages name the value themselves (links) say `false`.
    static var namesField: Bool { get }
}

extension ValueRule {
    /// Messages start with the field's name unless the rule says otherwise.
    package static var namesField: Bool { true }
}

/// A value decoded and then checked against `Rule`; a violation becomes a `DecodingError` at the
/// value's own coding path, so the lossy decoder reports the field's JSON path.
package struct Checked<Rule: ValueRule>: Decodable, Sendable {
    /// The checked value.
    package let value: Rule.Value

    package init(value: Rule.Value) { self.value = value }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Rule.Value.self)
        do {
            try Rule.check(value)
        } catch {
            let field = decoder.codingPath.last.map { $0.intValue == nil ? "'\($0.stringValue)' is " : "" } ?? ""
            throw DecodingError.dataCorruptedError(in: container, debugDescription: (Rule.namesField ? field : "") + error.message)
        }
        self.value = value
    }
}

/// Lets the schema recorder read a rule without knowing its generic parameter.
package protocol SchemaDescribedValue {
    /// The fragment the schema states for this value.
    static var schemaFragment: JSONValue { get }
    /// A value the rule accepts, boxed in the wrapper.
    static var standInValue: Any { get }
}

extension Checked: SchemaDescribedValue {
    package static var schemaFragment: JSONValue { Rule.schema }
    package static var standInValue: Any { Checked(value: Rule.standIn) }
}

extension KeyedDecodingContainer {
    /// Decodes a required value and checks it against `rule`.
    func decode<Rule: ValueRule>(checkedBy rule: Rule.Type, forKey key: Key) throws -> Rule.Value {
        try decode(Checked<Rule>.self, forKey: key).value
    }

    /// Decodes an optional value and checks it against `rule` when present.
    func decodeIfPresent<Rule: ValueRule>(checkedBy rule: Rule.Type, forKey key: Key) throws -> Rule.Value? {
        try decodeIfPresent(Checked<Rule>.self, forKey: key)?.value
    }

    /// Decodes an optional value checked against `rule`; in lossy mode a bad one is recorded as
    /// an issue and read as absent, so the object that holds it survives (a screen whose storage
    /// is over its limit still shows).
    func decodeLossyIfPresent<Rule: ValueRule>(checkedBy rule: Rule.Type, forKey key: Key) throws -> Rule.Value? {
        try decodeIfPresent(LossyElement<Checked<Rule>>.self, forKey: key)?.value?.value
    }

    /// Decodes an optional value; in lossy mode a bad one is recorded as an issue and read as absent.
    func decodeLossyIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try decodeIfPresent(LossyElement<Value>.self, forKey: key)?.value
    }
}

/// The value rules of the contract, each in one place.
package enum ValueRules {
    /// `grid.columns`: how many columns a phone in portrait shows.
    package enum GridColumns: ValueRule {
        package static let range = 1...6
        package static let schema: JSONValue = [
            "type": "integer", "minimum": .integer(range.lowerBound), "maximum": .integer(range.upperBound),
        ]
        package static let standIn = 1
        package static func check(_ value: Int) throws(ContractViolation) {
            guard range.contains(value) else { throw ContractViolation("\(value); expected \(range.lowerBound)...\(range.upperBound)") }
        }
    }

    /// A length in points that a screen can show (rectangles).
    package enum Points: ValueRule {
        package static let range = 0.0...10_000.0
        package static let schema: JSONValue = ["type": "number", "minimum": 0, "maximum": 10_000]
        package static let standIn = 1.0
        package static func check(_ value: Double) throws(ContractViolation) {
            guard value.isFinite, range.contains(value) else { throw ContractViolation("\(value); expected 0...10000 points") }
        }
    }

    /// A duration in whole seconds (`trackRow.duration` from v3).
    package enum Seconds: ValueRule {
        package static let schema: JSONValue = ["type": "integer", "minimum": 0, "maximum": .integer(Int.max)]
        package static let standIn = 1
        package static func check(_ value: Int) throws(ContractViolation) {
            guard value >= 0 else { throw ContractViolation("\(value); expected seconds ≥ 0") }
        }
    }

    /// A duration as display text, `m:ss` or `h:mm:ss` (`trackRow.duration` up to v2).
    package enum DurationText: ValueRule {
        /// One to four digits, then one or two `:`-separated parts of one to four digits below 60
        /// (what ``Component/TrackRow/parse(_:)`` accepts). `(?![\s\S])` ends the text: `$` would
        /// also match before a final newline in some regex dialects.
        package static let pattern = #"^[0-9]{1,4}(?::(?:0{0,3}[0-9]|0{0,2}[1-5][0-9])){1,2}(?![\s\S])"#
        package static let schema: JSONValue = ["type": "string", "pattern": .string(pattern)]
        package static let standIn = "1:00"
        package static func check(_ value: String) throws(ContractViolation) {
            guard Component.TrackRow.parse(value) != nil else { throw ContractViolation("'\(value.prefix(40))'; expected m:ss or h:mm:ss") }
        }
    }

    /// A server endpoint (navigate and command targets, queue metadata).
    package enum EndpointLink: ValueRule {
        package static let namesField = false
        package static let schema = LinkPolicy.endpoint.schema
        package static let standIn = "screens/x"
        package static func check(_ value: String) throws(ContractViolation) { try LinkPolicy.endpoint.check(value) }
    }

    /// An image or audio resource.
    package enum ResourceLink: ValueRule {
        package static let namesField = false
        package static let schema = LinkPolicy.resource.schema
        package static let standIn = "/x.svg"
        package static func check(_ value: String) throws(ContractViolation) { try LinkPolicy.resource.check(value) }
    }

    /// A link handed to the system (open URL, share).
    package enum ExternalLink: ValueRule {
        package static let namesField = false
        package static let schema = LinkPolicy.external.schema
        package static let standIn = "https://example.com"
        package static func check(_ value: String) throws(ContractViolation) { try LinkPolicy.external.check(value) }
    }
}

extension ValueRules {
    /// ASCII letters, digits and `._:/~-`, 1 to `maximum` of them: ids that read well in paths and
    /// logs and need no escaping anywhere.
    package static func isIdentifier(_ value: String, maximum: Int) -> Bool {
        let scalars = value.unicodeScalars
        guard (1...maximum).contains(scalars.count) else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", ":", "/", "~", "-": true
            default: false
            }
        }
    }

    /// The JSON Schema of ``isIdentifier(_:maximum:)``.
    package static func identifierSchema(maximum: Int) -> JSONValue {
        ["type": "string", "pattern": .string("^[A-Za-z0-9._:/~-]{1,\(maximum)}(?![\\s\\S])")]
    }

    /// A component's `id` (v4).
    package enum ComponentID: IdentifierRule {
        package static let maximum = 128
    }

    /// An entity id or a storage key (v4).
    package enum Key: IdentifierRule {
        package static let maximum = 64
    }

    /// Accessibility label and hint: short enough to be read aloud.
    package enum AccessibilityText: BoundedTextRule {
        package static let maximum = 500
    }

    /// A heading level, 1 to 6 as in HTML.
    package enum HeadingLevel: ValueRule {
        package static let schema: JSONValue = ["type": "integer", "minimum": 1, "maximum": 6]
        package static let standIn = 1
        package static func check(_ value: Int) throws(ContractViolation) {
            guard (1...6).contains(value) else { throw ContractViolation("\(value); expected 1...6") }
        }
    }

    /// The longest text a text field takes, in characters.
    package enum TextLength: ValueRule {
        package static let schema: JSONValue = ["type": "integer", "minimum": 1, "maximum": .integer(StorageValues.valueMaximum)]
        package static let standIn = 1
        package static func check(_ value: Int) throws(ContractViolation) {
            guard (1...StorageValues.valueMaximum).contains(value) else {
                throw ContractViolation("\(value); expected 1...\(StorageValues.valueMaximum)")
            }
        }
    }

    /// A short label or message (text field label, validation message).
    package enum Label: BoundedTextRule {
        package static let maximum = 200
    }

    /// A validation pattern's source text (its syntax is checked by the client, which reports a
    /// pattern it cannot compile and then accepts any text).
    package enum PatternSource: BoundedTextRule {
        package static let maximum = 500
    }

    /// A screen's or a result's storage (v4): at most `keyMaximum` keys, each value at most
    /// `valueMaximum` characters (Unicode scalars, as JSON Schema counts them).
    package enum StorageValues: ValueRule {
        package static let keyMaximum = 64
        package static let valueMaximum = 4_096
        package static let schema: JSONValue = [
            "type": "object", "maxProperties": .integer(keyMaximum),
            "additionalProperties": ["type": "string", "maxLength": .integer(valueMaximum)],
        ]
        package static let standIn: [String: String] = [:]
        package static func check(_ value: [String: String]) throws(ContractViolation) {
            guard value.count <= keyMaximum else { throw ContractViolation("\(value.count) keys; the limit is \(keyMaximum)") }
            for (key, text) in value.sorted(by: { $0.key < $1.key }) where text.unicodeScalars.count > valueMaximum {
                throw ContractViolation("'\(key.prefix(40))' is \(text.unicodeScalars.count) characters long; the limit is \(valueMaximum)")
            }
        }
    }

    /// A screen's entities or a result's patches to them (v4): at most `entityMaximum` entities of
    /// at most `memberMaximum` members each.
    package enum EntityValues: ValueRule {
        package static let entityMaximum = 1_000
        package static let memberMaximum = 32
        package static let schema: JSONValue = [
            "type": "object", "maxProperties": .integer(entityMaximum),
            "additionalProperties": [
                "type": "object", "maxProperties": .integer(memberMaximum), "additionalProperties": ["description": "any JSON value"],
            ],
        ]
        package static let standIn: Entities = [:]
        package static func check(_ value: Entities) throws(ContractViolation) {
            guard value.count <= entityMaximum else { throw ContractViolation("\(value.count) entities; the limit is \(entityMaximum)") }
            for (id, members) in value.sorted(by: { $0.key < $1.key }) where members.count > memberMaximum {
                throw ContractViolation("entity '\(id.prefix(40))' has \(members.count) members; the limit is \(memberMaximum)")
            }
        }
    }

    /// A component's `bind` (v4): field name → entity member.
    package enum Bindings: ValueRule {
        package static let maximum = 16
        package static let schema: JSONValue = [
            "type": "object", "maxProperties": .integer(maximum),
            "additionalProperties": [
                "type": "object", "required": ["entity", "field"],
                "properties": ["entity": ["type": "string"], "field": ["type": "string"]],
            ],
        ]
        package static let standIn: [String: EntityReference] = [:]
        package static func check(_ value: [String: EntityReference]) throws(ContractViolation) {
            guard value.count <= maximum else { throw ContractViolation("\(value.count) bindings; the limit is \(maximum)") }
        }
    }
}

/// A rule for ids and keys: 1 to ``maximum`` of `A-Z a-z 0-9 . _ : / ~ -`.
package protocol IdentifierRule: ValueRule where Value == String {
    /// The longest id.
    static var maximum: Int { get }
}

extension IdentifierRule {
    package static var schema: JSONValue { ValueRules.identifierSchema(maximum: maximum) }
    package static var standIn: String { "x" }
    package static func check(_ value: String) throws(ContractViolation) {
        guard ValueRules.isIdentifier(value, maximum: maximum) else {
            throw ContractViolation("'\(value.prefix(40))'; expected 1...\(maximum) of A-Z a-z 0-9 . _ : / ~ -")
        }
    }
}

/// A rule for short texts: 1 to ``maximum`` characters, counted in Unicode scalars as JSON Schema
/// counts them.
package protocol BoundedTextRule: ValueRule where Value == String {
    /// The longest text.
    static var maximum: Int { get }
}

extension BoundedTextRule {
    package static var schema: JSONValue { ["type": "string", "minLength": 1, "maxLength": .integer(maximum)] }
    package static var standIn: String { "x" }
    package static func check(_ value: String) throws(ContractViolation) {
        let length = value.unicodeScalars.count
        guard (1...maximum).contains(length) else { throw ContractViolation("\(length) characters long; expected 1...\(maximum)") }
    }
}

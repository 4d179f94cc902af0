import Foundation
public import ScreenplayContract

/// The differences between two contract schemas, as ``ContractSchema`` prints them, each one
/// judged breaking or not for apps already in people's hands.
///
/// Whether a change breaks depends on who reads the value:
/// - **Responses** (screens, command results: `x-direction: response`) are written by the new
///   server and read by old apps. A change breaks when it lets the server send something an old
///   app's decoder rejects or drops: a new value in a closed enum, a widened range or length, a
///   removed pattern, a new kind an old version never sees downgraded, a type change no downgrade
///   covers, a required field removed or made optional, a kind removed without a fallback, a new
///   field marked `x-must-understand`. Narrowing is safe: the server simply sends less.
/// - **Requests** (command bodies: `x-direction: request`) are written by old apps and read by
///   the new server. There narrowing breaks (a tighter bound, a new required field, a removed
///   enum value) and widening is safe.
///
/// App-defined kinds (`x-requested-by-header`, such as widget kinds) reach only apps that ask
/// for them by name, so adding one breaks nothing; their fields are compared like any kind's,
/// since the apps that asked decode them.
///
/// Open enums (`x-open-enum`) decode unknown values to a default, so adding or removing their
/// values is safe in both directions. `$ref`s are never expanded: each definition in `$defs` is
/// compared once, under its own name, so a change is reported once, where it is defined.
///
/// Every finding names its direction, the JSON pointer of the schema node, the old and new rule
/// and the reason; ``jsonReport`` gives the same as data for CI tools.
public struct ContractDiff: Sendable, Hashable {
    /// Who writes and who reads a definition's values.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// The new server writes, old apps read.
        case response
        /// Old apps write, the new server reads.
        case request
    }

    /// One difference between the schemas, at one place.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// What kind of difference this is, as a stable name that scripts and tests can match on
        /// while the human message is free to improve. A struct rather than an enum so that new
        /// codes can be added without breaking code that switches over them.
        public struct Code: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
            /// The stable name, such as `requiredFieldRemoved`.
            public let rawValue: String
            /// A code by name; for matching codes this build may not know yet.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The stable name.
            public var description: String { rawValue }
            /// Orders by name, for deterministic output.
            public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }

            /// A component, action or command result kind appeared.
            public static let kindAdded = Code(rawValue: "kindAdded")
            /// A kind disappeared while clients may still receive or generate code for it.
            public static let kindRemoved = Code(rawValue: "kindRemoved")
            /// A kind disappeared after being deprecated, with a fallback for clients that had it.
            public static let deprecatedKindRemoved = Code(rawValue: "deprecatedKindRemoved")
            /// A shared definition that is not a kind (such as `Screen`) appeared.
            public static let definitionAdded = Code(rawValue: "definitionAdded")
            /// A shared definition that is not a kind disappeared.
            public static let definitionRemoved = Code(rawValue: "definitionRemoved")
            /// A definition changed direction (response ↔ request).
            public static let directionChanged = Code(rawValue: "directionChanged")
            /// A kind became deprecated: servers will stop sending it, clients still decode it.
            public static let deprecated = Code(rawValue: "deprecated")
            /// A kind's deprecation was withdrawn or moved to another version.
            public static let deprecationChanged = Code(rawValue: "deprecationChanged")
            /// A required field appeared.
            public static let requiredFieldAdded = Code(rawValue: "requiredFieldAdded")
            /// A required field disappeared.
            public static let requiredFieldRemoved = Code(rawValue: "requiredFieldRemoved")
            /// An optional field appeared.
            public static let optionalFieldAdded = Code(rawValue: "optionalFieldAdded")
            /// An optional field disappeared.
            public static let optionalFieldRemoved = Code(rawValue: "optionalFieldRemoved")
            /// A field that readers must understand to render correctly (`x-must-understand`)
            /// appeared or became so.
            public static let mustUnderstandFieldAdded = Code(rawValue: "mustUnderstandFieldAdded")
            /// A required field was replaced by a new required field with the same schema.
            public static let fieldRenamed = Code(rawValue: "fieldRenamed")
            /// An optional field became required.
            public static let fieldBecameRequired = Code(rawValue: "fieldBecameRequired")
            /// A required field became optional.
            public static let fieldBecameOptional = Code(rawValue: "fieldBecameOptional")
            /// A value's type changed with no downgrade declared for older clients.
            public static let fieldTypeChanged = Code(rawValue: "fieldTypeChanged")
            /// A value's type changed and `x-field-changes` declares the downgrade that keeps
            /// older clients on the old shape.
            public static let fieldTypeChangedWithDowngrade = Code(rawValue: "fieldTypeChangedWithDowngrade")
            /// Allowed values (`enum` or `const`) were removed or newly restricted.
            public static let enumNarrowed = Code(rawValue: "enumNarrowed")
            /// Allowed values were added or the restriction was lifted.
            public static let enumWidened = Code(rawValue: "enumWidened")
            /// A constraint appeared or got stricter: fewer values are valid.
            public static let constraintTightened = Code(rawValue: "constraintTightened")
            /// A constraint disappeared or got looser: more values are valid.
            public static let constraintLoosened = Code(rawValue: "constraintLoosened")
            /// A constraint changed in a way that cannot be ranked (a different `pattern`).
            public static let constraintChanged = Code(rawValue: "constraintChanged")
            /// A `oneOf`/`anyOf` alternative appeared.
            public static let variantAdded = Code(rawValue: "variantAdded")
            /// A `oneOf`/`anyOf` alternative disappeared.
            public static let variantRemoved = Code(rawValue: "variantRemoved")
            /// The expression language gained a function (`x-functions`): an addition.
            public static let functionAdded = Code(rawValue: "functionAdded")
            /// The expression language lost a function: screens that call it no longer check.
            public static let functionRemoved = Code(rawValue: "functionRemoved")
        }

        /// What kind of difference this is.
        public let code: Code
        /// Who writes and who reads the values this change affects.
        public let direction: Direction
        /// Where, for people: the definition name followed by the field path,
        /// `component.grid.columns` (`[]` stands for any array element, `#` for the root).
        public let location: String
        /// Where, for tools: the JSON pointer of the schema node,
        /// `#/$defs/component.grid/properties/columns`.
        public let schemaPath: String
        /// The rule before, in words or as JSON (`maximum 6`); `nil` when there was none.
        public let oldRule: String?
        /// The rule after; `nil` when there is none.
        public let newRule: String?
        /// Why it breaks apps, or why it does not.
        public let reason: String
        /// Whether an app built against the old schema can break because of it.
        public let isBreaking: Bool

        /// Creates a change; for tests and for tools that merge reports.
        public init(
            code: Code, direction: Direction, location: String, schemaPath: String, oldRule: String?, newRule: String?, reason: String,
            isBreaking: Bool
        ) {
            self.code = code
            self.direction = direction
            self.location = location
            self.schemaPath = schemaPath
            self.oldRule = oldRule
            self.newRule = newRule
            self.reason = reason
            self.isBreaking = isBreaking
        }

        /// The rule change and the reason in one sentence: `maximum 6 → maximum 8: …`.
        public var message: String {
            "\(oldRule ?? "(none)") → \(newRule ?? "(none)"): \(reason)"
        }

        /// `location (direction, schemaPath): old → new: reason`, the line `contract-diff` prints.
        public var description: String { "\(location) [\(direction.rawValue) \(schemaPath)]: \(message)" }

        /// The finding as data.
        public var json: JSONValue {
            [
                "code": .string(code.rawValue), "direction": .string(direction.rawValue), "location": .string(location),
                "schemaPath": .string(schemaPath), "old": oldRule.map(JSONValue.string) ?? .null,
                "new": newRule.map(JSONValue.string) ?? .null,
                "reason": .string(reason), "breaking": .bool(isBreaking),
            ]
        }
    }

    /// A document that cannot be compared, with where it goes wrong: not an object, no `$defs`,
    /// a keyword this comparison does not understand, a value of the wrong shape, a dangling
    /// `$ref`. Comparing such a document would report nonsense rather than fail, so it is refused.
    public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Which of the two documents.
        public enum Side: String, Sendable, Hashable {
            /// The schema compared from.
            case old
            /// The schema compared to.
            case new
        }

        /// Which document is wrong.
        public let side: Side
        /// The JSON pointer of the offending node (`#` for the document itself).
        public let path: String
        /// What is wrong with it.
        public let reason: String

        /// Creates an error.
        public init(side: Side, path: String, reason: String) {
            self.side = side
            self.path = path
            self.reason = reason
        }

        /// `the new schema is not a contract schema: at #/$defs/x: …`.
        public var description: String {
            "the \(side.rawValue) schema is not a contract schema this tool understands: at \(path): \(reason)"
        }
    }

    /// The old schema's `x-api-version`, when it has one.
    public let oldAPIVersion: APIVersion?
    /// The new schema's `x-api-version`, when it has one.
    public let newAPIVersion: APIVersion?
    /// Every difference, sorted by location, then code, then message, so the same inputs always
    /// give the same report.
    public let changes: [Change]

    /// Compares two schema documents.
    ///
    /// - Throws: ``DocumentError`` when either document is not a contract schema this comparison
    ///   fully understands.
    public init(old: JSONValue, new: JSONValue) throws(DocumentError) {
        let oldRoot = try SchemaDocumentCheck.root(of: old, side: .old)
        let newRoot = try SchemaDocumentCheck.root(of: new, side: .new)
        let oldVersion = oldRoot["x-api-version"]?.integerValue.map { APIVersion($0) }
        let newVersion = newRoot["x-api-version"]?.integerValue.map { APIVersion($0) }
        var comparison = SchemaComparison(
            oldVersion: oldVersion, newVersion: newVersion,
            oldDefinitions: oldRoot["$defs"]?.objectValue ?? [:], newDefinitions: newRoot["$defs"]?.objectValue ?? [:])
        comparison.compareDocuments(old: oldRoot, new: newRoot)
        self.oldAPIVersion = oldVersion
        self.newAPIVersion = newVersion
        self.changes = comparison.changes.sorted {
            ($0.location, $0.code.rawValue, $0.message) < ($1.location, $1.code.rawValue, $1.message)
        }
    }

    /// The changes that can break an app built against the old schema.
    public var breakingChanges: [Change] { changes.filter(\.isBreaking) }

    /// The changes that older apps survive.
    public var nonBreakingChanges: [Change] { changes.filter { !$0.isBreaking } }

    /// Whether anything breaks; what a CI gate checks.
    public var isBreaking: Bool { changes.contains(where: \.isBreaking) }

    /// `no changes`, or `1 breaking change, 2 non-breaking changes`.
    public var summary: String {
        if changes.isEmpty { return "no changes" }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun) change\(number == 1 ? "" : "s")" }
        return count(breakingChanges.count, "breaking") + ", " + count(nonBreakingChanges.count, "non-breaking")
    }

    /// The whole comparison as data: versions, verdict and every finding.
    public var jsonReport: JSONValue {
        [
            "oldAPIVersion": oldAPIVersion.map { .integer($0.rawValue) } ?? .null,
            "newAPIVersion": newAPIVersion.map { .integer($0.rawValue) } ?? .null,
            "breaking": .bool(isBreaking), "summary": .string(summary), "changes": .array(changes.map(\.json)),
        ]
    }
}

import Foundation

/// The differences between two contract schemas, as ``ContractSchema`` prints them, each one
/// classified as breaking or not for apps already in people's hands.
///
/// Apps cannot be updated on the server's schedule, and the Android and web teams generate their
/// models from the schema, so a schema change that strands a shipped client has to be caught in
/// review rather than in production. `screenplay contract-diff` runs this comparison in CI on the
/// committed schema and the freshly generated one.
///
/// The rules:
/// - Breaking: a definition or a kind (component, action or command result) removed, unless the
///   kind was deprecated by the new version and has a fallback; a required field removed,
///   renamed or made optional; a type changed, unless the new definition declares the field in
///   `x-field-changes` at a version after the old schema's `x-api-version` and no later than the
///   new one (the server downgrades it for older clients); an enum or constraint narrowed; a
///   union variant removed; any change to a keyword this comparison does not interpret.
/// - Non-breaking: kinds and definitions added, optional fields added or removed, required fields
///   added, fields made required, enums, constraints and unions widened, deprecations, and type
///   changes handled by a downgrade.
///
/// `$ref`s are never expanded: each definition in `$defs` is compared once, under its own name,
/// and a `$ref` is compared as a type name. A change is therefore reported once, where it is
/// defined, however many places use the definition, and recursive definitions cannot loop.
public struct ContractDiff: Sendable, Hashable {
    /// One difference between the schemas, at one place.
    public struct Change: Sendable, Hashable, CustomStringConvertible {
        /// What kind of difference this is, as a stable name that scripts and tests can match on
        /// while the human message is free to improve.
        ///
        /// A struct rather than an enum so that new codes can be added without breaking code that
        /// switches over them.
        public struct Code: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
            /// The stable name, such as `requiredFieldRemoved`.
            public let rawValue: String

            /// A code by name; for matching codes this build may not know yet.
            public init(rawValue: String) { self.rawValue = rawValue }

            /// The stable name.
            public var description: String { rawValue }

            /// Orders by name, for deterministic output.
            public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }

            /// A component, action or command result kind appeared; older clients never see it.
            public static let kindAdded = Code(rawValue: "kindAdded")
            /// A kind disappeared while clients may still send, expect or generate code for it.
            public static let kindRemoved = Code(rawValue: "kindRemoved")
            /// A kind disappeared after being deprecated, with a fallback for clients that had it.
            public static let deprecatedKindRemoved = Code(rawValue: "deprecatedKindRemoved")
            /// A shared definition that is not a kind (such as `Screen`) appeared.
            public static let definitionAdded = Code(rawValue: "definitionAdded")
            /// A shared definition that is not a kind disappeared; `$ref`s to it dangle.
            public static let definitionRemoved = Code(rawValue: "definitionRemoved")
            /// A kind became deprecated: servers will stop sending it, clients still decode it.
            public static let deprecated = Code(rawValue: "deprecated")
            /// A kind's deprecation was withdrawn or moved to another version.
            public static let deprecationChanged = Code(rawValue: "deprecationChanged")
            /// A required field appeared; older clients ignore it.
            public static let requiredFieldAdded = Code(rawValue: "requiredFieldAdded")
            /// A required field disappeared; clients that need it can no longer decode the object.
            public static let requiredFieldRemoved = Code(rawValue: "requiredFieldRemoved")
            /// An optional field appeared; older clients ignore it.
            public static let optionalFieldAdded = Code(rawValue: "optionalFieldAdded")
            /// An optional field disappeared; clients already cope with its absence.
            public static let optionalFieldRemoved = Code(rawValue: "optionalFieldRemoved")
            /// A required field was replaced by a new required field with the same schema.
            public static let fieldRenamed = Code(rawValue: "fieldRenamed")
            /// An optional field became required; older clients already accept it.
            public static let fieldBecameRequired = Code(rawValue: "fieldBecameRequired")
            /// A required field became optional; clients that need it fail when it is left out.
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
            /// A constraint (`maxLength`, `pattern`, `additionalProperties: false`…) appeared or
            /// got stricter; values that were valid may no longer be.
            public static let constraintTightened = Code(rawValue: "constraintTightened")
            /// A constraint disappeared or got looser.
            public static let constraintLoosened = Code(rawValue: "constraintLoosened")
            /// A `oneOf`/`anyOf` alternative appeared.
            public static let variantAdded = Code(rawValue: "variantAdded")
            /// A `oneOf`/`anyOf` alternative disappeared.
            public static let variantRemoved = Code(rawValue: "variantRemoved")
            /// A keyword this comparison does not interpret changed; treated as breaking because
            /// nothing shows it is safe.
            public static let keywordChanged = Code(rawValue: "keywordChanged")
        }

        /// What kind of difference this is.
        public let code: Code
        /// Where, as the definition name followed by the field path: `component.trackRow.duration`,
        /// `Screen.sections[].id` (`[]` stands for any array element, `#` for the document root).
        public let location: String
        /// The difference in words, including the old and new values where they help.
        public let message: String
        /// Whether an app built against the old schema can break because of it.
        public let isBreaking: Bool

        /// Creates a change; for tests and for tools that merge reports.
        public init(code: Code, location: String, message: String, isBreaking: Bool) {
            self.code = code
            self.location = location
            self.message = message
            self.isBreaking = isBreaking
        }

        /// `location: message`, the line `contract-diff` prints.
        public var description: String { "\(location): \(message)" }
    }

    /// A document that cannot be compared because it is not a contract schema at all, so the
    /// caller can say which of the two inputs is wrong.
    public struct DocumentError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Which of the two documents.
        public enum Side: Sendable, Hashable {
            /// The schema compared from.
            case old
            /// The schema compared to.
            case new
        }

        /// Which document is wrong.
        public let side: Side
        /// What is wrong with it.
        public let reason: String

        /// `the new schema is not a contract schema: …`.
        public var description: String { "the \(side == .old ? "old" : "new") schema is not a contract schema: \(reason)" }
    }

    /// The old schema's `x-api-version`, when it has one.
    public let oldAPIVersion: APIVersion?
    /// The new schema's `x-api-version`, when it has one.
    public let newAPIVersion: APIVersion?
    /// Every difference, sorted by location, then code, then message, so the same inputs always
    /// give the same report and reports diff cleanly.
    public let changes: [Change]

    /// Compares two schema documents.
    ///
    /// - Throws: ``DocumentError`` when either document is not an object with a `$defs` object;
    ///   comparing anything else would report nonsense rather than fail.
    public init(old: JSONValue, new: JSONValue) throws(DocumentError) {
        let oldRoot = try Self.root(of: old, side: .old)
        let newRoot = try Self.root(of: new, side: .new)
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

    private static func root(of document: JSONValue, side: DocumentError.Side) throws(DocumentError) -> [String: JSONValue] {
        guard let root = document.objectValue else {
            throw DocumentError(side: side, reason: "the top level is \(document.typeName), not an object")
        }
        guard root["$defs"]?.objectValue != nil else {
            throw DocumentError(side: side, reason: "it has no `$defs` object")
        }
        return root
    }
}

/// A place inside one definition: the definition's name and the path of fields and array
/// elements below it.
private struct SchemaPath {
    enum Step {
        case field(String)
        case items
    }

    let definition: String
    var steps: [Step] = []

    /// The path below the definition, as `x-field-changes` names fields: `duration`, `cards[].title`.
    var relative: String {
        var text = ""
        for step in steps {
            switch step {
            case .field(let name): text += text.isEmpty ? name : "." + name
            case .items: text += "[]"
            }
        }
        return text
    }

    var location: String {
        let relative = self.relative
        if relative.isEmpty { return definition }
        return definition + (relative.hasPrefix("[") ? "" : ".") + relative
    }

    func field(_ name: String) -> SchemaPath {
        var path = self
        path.steps.append(.field(name))
        return path
    }

    func items() -> SchemaPath {
        var path = self
        path.steps.append(.items)
        return path
    }
}

/// A type change a definition declares in `x-field-changes`.
private struct DeclaredFieldChange {
    let version: APIVersion
    let summary: String
}

/// The walk behind ``ContractDiff``: collects changes definition by definition.
private struct SchemaComparison {
    let oldVersion: APIVersion?
    let newVersion: APIVersion?
    let oldDefinitions: [String: JSONValue]
    let newDefinitions: [String: JSONValue]
    var changes: [ContractDiff.Change] = []

    typealias Code = ContractDiff.Change.Code

    /// Keywords that describe rather than constrain; a change to them breaks nobody.
    static let annotations: Set<String> = [
        "title", "description", "examples", "default", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id",
    ]
    /// Bounds where a larger value is stricter.
    static let lowerBounds = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]
    /// Bounds where a smaller value is stricter.
    static let upperBounds = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]
    /// Constraints whose looseness cannot be compared: any new or different value is stricter
    /// as far as we can prove.
    static let opaqueConstraints = ["pattern", "format"]
    /// Everything ``compareSchema(_:_:at:declared:)`` interprets itself.
    static let interpreted: Set<String> = Set(
        ["type", "$ref", "const", "enum", "properties", "required", "items", "oneOf", "anyOf", "additionalProperties", "uniqueItems"]
            + lowerBounds + upperBounds + opaqueConstraints)

    mutating func report(_ code: Code, _ path: SchemaPath, _ message: String, breaking: Bool) {
        changes.append(ContractDiff.Change(code: code, location: path.location, message: message, isBreaking: breaking))
    }

    mutating func compareDocuments(old: [String: JSONValue], new: [String: JSONValue]) {
        // The root is a schema too (`$ref` to Screen); `$defs` are compared by name below.
        var oldRoot = old
        var newRoot = new
        oldRoot["$defs"] = nil
        newRoot["$defs"] = nil
        compareSchema(.object(oldRoot), .object(newRoot), at: SchemaPath(definition: "#"), declared: [:])

        for name in Set(oldDefinitions.keys).union(newDefinitions.keys).sorted() {
            let path = SchemaPath(definition: name)
            switch (oldDefinitions[name], newDefinitions[name]) {
            case (let old?, nil): definitionRemoved(name, old, at: path)
            case (nil, let new?): definitionAdded(name, new, at: path)
            case (let old?, let new?):
                if Self.isKind(name, old) || Self.isKind(name, new) { compareDeprecation(old, new, at: path) }
                compareSchema(old, new, at: path, declared: declaredChanges(in: new))
            case (nil, nil): break
            }
        }
    }

    // MARK: Definitions

    /// Kinds are the tagged definitions a client dispatches on; they carry versioning annotations.
    static func isKind(_ name: String, _ definition: JSONValue) -> Bool {
        definition["x-introduced"] != nil || ["component.", "action.", "result."].contains(where: name.hasPrefix)
    }

    static func noun(forKind name: String) -> String {
        if name.hasPrefix("component.") { return "component kind" }
        if name.hasPrefix("action.") { return "action kind" }
        if name.hasPrefix("result.") { return "command result kind" }
        return "kind"
    }

    mutating func definitionAdded(_ name: String, _ definition: JSONValue, at path: SchemaPath) {
        guard Self.isKind(name, definition) else {
            report(.definitionAdded, path, "definition added", breaking: false)
            return
        }
        var message = "\(Self.noun(forKind: name)) added"
        if let introduced = definition["x-introduced"]?.integerValue { message += " (introduced in v\(introduced))" }
        if let fallback = definition["x-fallback"]?.stringValue, !fallback.isEmpty { message += "; older clients get: \(fallback)" }
        report(.kindAdded, path, message, breaking: false)
    }

    mutating func definitionRemoved(_ name: String, _ definition: JSONValue, at path: SchemaPath) {
        guard Self.isKind(name, definition) else {
            report(.definitionRemoved, path, "definition removed; every `$ref` to it now dangles", breaking: true)
            return
        }
        let noun = Self.noun(forKind: name)
        let deprecated = definition["x-deprecated"]?.integerValue.map { APIVersion($0) }
        let fallback = definition["x-fallback"]?.stringValue ?? ""
        if let deprecated, let newVersion, deprecated <= newVersion, !fallback.isEmpty {
            report(
                .deprecatedKindRemoved, path, "\(noun) removed after its deprecation in \(deprecated); fallback: \(fallback)",
                breaking: false)
        } else if let deprecated {
            let reason =
                if fallback.isEmpty { "it has no fallback" } else if newVersion == nil { "the new schema has no x-api-version" } else {
                    "the new schema's version comes before that"
                }
            report(.kindRemoved, path, "\(noun) removed; it was deprecated in \(deprecated), but \(reason)", breaking: true)
        } else {
            report(.kindRemoved, path, "\(noun) removed without being deprecated first", breaking: true)
        }
    }

    mutating func compareDeprecation(_ old: JSONValue, _ new: JSONValue, at path: SchemaPath) {
        let before = old["x-deprecated"]?.integerValue
        let after = new["x-deprecated"]?.integerValue
        switch (before, after) {
        case (nil, let after?):
            report(.deprecated, path, "deprecated from v\(after); clients still decode it", breaking: false)
        case (let before?, nil):
            report(.deprecationChanged, path, "no longer deprecated (was deprecated from v\(before))", breaking: false)
        case (let before?, let after?) where before != after:
            report(.deprecationChanged, path, "deprecation moved from v\(before) to v\(after)", breaking: false)
        default:
            break
        }
    }

    /// The new definition's `x-field-changes`, by field path; malformed entries are skipped,
    /// so they can only make a change breaking, never hide one.
    func declaredChanges(in definition: JSONValue) -> [String: [DeclaredFieldChange]] {
        guard case .array(let entries)? = definition["x-field-changes"] else { return [:] }
        var declared: [String: [DeclaredFieldChange]] = [:]
        for entry in entries {
            guard let field = entry["field"]?.stringValue, let version = entry["version"]?.integerValue else { continue }
            declared[field, default: []].append(
                DeclaredFieldChange(version: APIVersion(version), summary: entry["summary"]?.stringValue ?? ""))
        }
        return declared
    }

    // MARK: Schemas

    mutating func compareSchema(_ old: JSONValue, _ new: JSONValue, at path: SchemaPath, declared: [String: [DeclaredFieldChange]]) {
        guard old != new else { return }
        // Boolean schemas (`true` accepts anything, `false` nothing) and non-schemas compare whole.
        guard let oldSchema = old.objectValue, let newSchema = new.objectValue else {
            report(.fieldTypeChanged, path, "schema changed from \(Self.literal(old)) to \(Self.literal(new))", breaking: true)
            return
        }
        let oldType = Self.typeName(oldSchema)
        let newType = Self.typeName(newSchema)
        if oldType != newType {
            typeChanged(from: oldType, to: newType, at: path, declared: declared)
            return
        }
        compareAllowedValues(oldSchema, newSchema, at: path)
        compareConstraints(oldSchema, newSchema, at: path)
        if oldSchema["properties"] != nil || newSchema["properties"] != nil {
            compareObject(oldSchema, newSchema, at: path, declared: declared)
        }
        if oldSchema["items"] != nil || newSchema["items"] != nil {
            compareSchema(oldSchema["items"] ?? [:], newSchema["items"] ?? [:], at: path.items(), declared: declared)
        }
        for keyword in ["oneOf", "anyOf"] { compareVariants(oldSchema, newSchema, keyword: keyword, at: path) }
        for keyword in Set(oldSchema.keys).union(newSchema.keys).sorted()
        where !Self.interpreted.contains(keyword) && !Self.annotations.contains(keyword) && !keyword.hasPrefix("x-")
            && oldSchema[keyword] != newSchema[keyword]
        {
            report(
                .keywordChanged, path, "`\(keyword)` changed; contract-diff does not interpret it, so the change counts as breaking",
                breaking: true)
        }
    }

    mutating func typeChanged(from oldType: String, to newType: String, at path: SchemaPath, declared: [String: [DeclaredFieldChange]]) {
        let message = "type changed from \(oldType) to \(newType)"
        let candidates = declared[path.relative] ?? []
        guard !candidates.isEmpty else {
            report(.fieldTypeChanged, path, message, breaking: true)
            return
        }
        if let oldVersion, let newVersion,
            let handled = candidates.first(where: { oldVersion < $0.version && $0.version <= newVersion })
        {
            let summary = handled.summary.isEmpty ? "" : ": \(handled.summary)"
            report(
                .fieldTypeChangedWithDowngrade, path, "\(message) in \(handled.version), handled by downgrade for older clients\(summary)",
                breaking: false)
            return
        }
        let declaredAt = candidates.map(\.version.description).joined(separator: ", ")
        var reason = "a schema has no x-api-version to compare it with"
        if let oldVersion, let newVersion { reason = "which is not after \(oldVersion) and up to \(newVersion)" }
        report(.fieldTypeChanged, path, "\(message); x-field-changes declares it in \(declaredAt), \(reason)", breaking: true)
    }

    /// Compares the values an `enum` or `const` allows: losing one is breaking, gaining one is not.
    mutating func compareAllowedValues(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        let before = Self.allowedValues(old)
        let after = Self.allowedValues(new)
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let after?):
            report(.enumNarrowed, path, "now restricted to \(Self.list(after))", breaking: true)
        case (let before?, nil):
            report(.enumWidened, path, "no longer restricted (was \(Self.list(before)))", breaking: false)
        case (let before?, let after?):
            let removed = before.filter { !after.contains($0) }
            let added = after.filter { !before.contains($0) }
            if !removed.isEmpty { report(.enumNarrowed, path, "allowed values removed: \(Self.list(removed))", breaking: true) }
            if !added.isEmpty { report(.enumWidened, path, "allowed values added: \(Self.list(added))", breaking: false) }
        }
    }

    mutating func compareConstraints(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        for (keywords, stricterWhenLarger) in [(Self.lowerBounds, true), (Self.upperBounds, false)] {
            for keyword in keywords where old[keyword] != new[keyword] {
                switch (old[keyword].flatMap(Self.number), new[keyword].flatMap(Self.number)) {
                case (nil, _?) where old[keyword] == nil:
                    report(.constraintTightened, path, "`\(keyword)` \(Self.literal(new[keyword]!)) added", breaking: true)
                case (_?, nil) where new[keyword] == nil:
                    report(.constraintLoosened, path, "`\(keyword)` removed (was \(Self.literal(old[keyword]!)))", breaking: false)
                case (let before?, let after?):
                    let tighter = stricterWhenLarger ? after > before : after < before
                    report(
                        tighter ? .constraintTightened : .constraintLoosened, path,
                        "`\(keyword)` changed from \(Self.literal(old[keyword]!)) to \(Self.literal(new[keyword]!))", breaking: tighter)
                default:
                    report(.keywordChanged, path, "`\(keyword)` changed, and a value that is not a number cannot be ranked", breaking: true)
                }
            }
        }
        for keyword in Self.opaqueConstraints where old[keyword] != new[keyword] {
            if let after = new[keyword] {
                let was = old[keyword].map { " (was \(Self.literal($0)))" } ?? ""
                report(.constraintTightened, path, "`\(keyword)` is now \(Self.literal(after))\(was)", breaking: true)
            } else if let before = old[keyword] {
                report(.constraintLoosened, path, "`\(keyword)` removed (was \(Self.literal(before)))", breaking: false)
            }
        }
        // `false` is the strict setting for both; anything else (absent, true, a schema) is looser.
        for (keyword, strict) in [("additionalProperties", JSONValue.bool(false)), ("uniqueItems", JSONValue.bool(true))]
        where old[keyword] != new[keyword] {
            let wasStrict = old[keyword] == strict
            let isStrict = new[keyword] == strict
            if wasStrict == isStrict {
                report(.keywordChanged, path, "`\(keyword)` changed; contract-diff cannot rank the two values", breaking: true)
            } else {
                report(
                    isStrict ? .constraintTightened : .constraintLoosened, path,
                    "`\(keyword)` changed from \(old[keyword].map(Self.literal) ?? "absent") to \(new[keyword].map(Self.literal) ?? "absent")",
                    breaking: isStrict)
            }
        }
    }

    mutating func compareObject(
        _ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath, declared: [String: [DeclaredFieldChange]]
    ) {
        let oldProperties = old["properties"]?.objectValue ?? [:]
        let newProperties = new["properties"]?.objectValue ?? [:]
        let oldRequired = Self.names(old["required"])
        let newRequired = Self.names(new["required"])
        let removed = oldProperties.keys.filter { newProperties[$0] == nil }.sorted()
        let added = newProperties.keys.filter { oldProperties[$0] == nil }.sorted()

        // A required field gone and a required field with the same schema new, in the same
        // object, is a rename; pairs are made in name order so the report is deterministic.
        var renamedTo: [String: String] = [:]
        var renameTargets: Set<String> = []
        for name in removed where oldRequired.contains(name) {
            if let target = added.first(where: {
                newRequired.contains($0) && !renameTargets.contains($0) && newProperties[$0] == oldProperties[name]
            }) {
                renamedTo[name] = target
                renameTargets.insert(target)
            }
        }

        for name in removed {
            if let target = renamedTo[name] {
                report(.fieldRenamed, path.field(name), "required field renamed to `\(target)` (same schema)", breaking: true)
            } else if oldRequired.contains(name) {
                report(.requiredFieldRemoved, path.field(name), "required field removed", breaking: true)
            } else {
                report(.optionalFieldRemoved, path.field(name), "optional field removed", breaking: false)
            }
        }
        for name in added where !renameTargets.contains(name) {
            if newRequired.contains(name) {
                report(.requiredFieldAdded, path.field(name), "required field added", breaking: false)
            } else {
                report(.optionalFieldAdded, path.field(name), "optional field added", breaking: false)
            }
        }
        for name in oldProperties.keys.filter({ newProperties[$0] != nil }).sorted() {
            let field = path.field(name)
            switch (oldRequired.contains(name), newRequired.contains(name)) {
            case (true, false):
                report(.fieldBecameOptional, field, "no longer required; clients that need it fail when it is left out", breaking: true)
            case (false, true):
                report(.fieldBecameRequired, field, "now required", breaking: false)
            default:
                break
            }
            compareSchema(oldProperties[name]!, newProperties[name]!, at: field, declared: declared)
        }
    }

    /// Compares `oneOf`/`anyOf` alternatives as a set. A `$ref` to a definition that was itself
    /// added or removed is skipped: the definition's own change already says it.
    mutating func compareVariants(_ old: [String: JSONValue], _ new: [String: JSONValue], keyword: String, at path: SchemaPath) {
        guard old[keyword] != new[keyword] else { return }
        let before = Self.elements(old[keyword])
        let after = Self.elements(new[keyword])
        func reportedElsewhere(_ variant: JSONValue) -> Bool {
            guard let reference = variant["$ref"]?.stringValue, reference.hasPrefix("#/$defs/") else { return false }
            let name = String(reference.dropFirst("#/$defs/".count))
            return (oldDefinitions[name] == nil) != (newDefinitions[name] == nil)
        }
        for variant in before where !after.contains(variant) && !reportedElsewhere(variant) {
            report(.variantRemoved, path, "`\(keyword)` alternative removed: \(Self.literal(variant))", breaking: true)
        }
        for variant in after where !before.contains(variant) && !reportedElsewhere(variant) {
            report(.variantAdded, path, "`\(keyword)` alternative added: \(Self.literal(variant))", breaking: false)
        }
    }

    // MARK: Reading schemas

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

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
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

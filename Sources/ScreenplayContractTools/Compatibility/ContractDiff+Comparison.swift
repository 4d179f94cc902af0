import Foundation
import ScreenplayContract

/// A place inside one definition: the definition's name and the path of fields and array
/// elements below it.
struct SchemaPath {
    enum Step {
        case field(String)
        case items
        case keyword(String)
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
            case .keyword: break
            }
        }
        return text
    }

    var location: String {
        let relative = self.relative
        if relative.isEmpty { return definition }
        return definition + (relative.hasPrefix("[") ? "" : ".") + relative
    }

    /// The JSON pointer of this node in the document.
    var pointer: String {
        var text = definition == "#" ? "#" : "#/$defs/" + SchemaDocumentCheck.pointerEscape(definition)
        for step in steps {
            switch step {
            case .field(let name): text += "/properties/" + SchemaDocumentCheck.pointerEscape(name)
            case .items: text += "/items"
            case .keyword(let keyword): text += "/" + keyword
            }
        }
        return text
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

    func keyword(_ keyword: String) -> SchemaPath {
        var path = self
        path.steps.append(.keyword(keyword))
        return path
    }
}

/// A change a definition declares in `x-field-changes`.
struct DeclaredFieldChange {
    let version: APIVersion
    let summary: String
}

/// The walk behind ``ContractDiff``: collects changes definition by definition.
struct SchemaComparison {
    let oldVersion: APIVersion?
    let newVersion: APIVersion?
    let oldDefinitions: [String: JSONValue]
    let newDefinitions: [String: JSONValue]
    var changes: [ContractDiff.Change] = []
    /// The direction of the definition being compared.
    var direction: ContractDiff.Direction = .response

    typealias Code = ContractDiff.Change.Code

    /// Why a widening or narrowing breaks, or not, in the current direction.
    func verdict(widens: Bool) -> (breaking: Bool, reason: String) {
        switch (direction, widens) {
        case (.response, true):
            return (true, "widened: the server may now send values an app built against the old contract rejects, dropping the element")
        case (.response, false):
            return (false, "narrowed: the server sends a subset of what old apps accept")
        case (.request, true):
            return (false, "widened: the server still accepts everything old apps send")
        case (.request, false):
            return (true, "narrowed: the server now rejects values old apps may still send")
        }
    }

    mutating func report(
        _ code: Code, _ path: SchemaPath, old: String?, new: String?, _ reason: String, breaking: Bool
    ) {
        changes.append(
            ContractDiff.Change(
                code: code, direction: direction, location: path.location, schemaPath: path.pointer, oldRule: old, newRule: new,
                reason: reason, isBreaking: breaking))
    }

    static func direction(of definition: JSONValue?) -> ContractDiff.Direction {
        definition?["x-direction"]?.stringValue.flatMap(ContractDiff.Direction.init(rawValue:)) ?? .response
    }

    mutating func compareDocuments(old: [String: JSONValue], new: [String: JSONValue]) {
        // The root is a schema too (`$ref` to Screen); `$defs` are compared by name below.
        var oldRoot = old
        var newRoot = new
        for key in ["$defs", "$schema", "$id"] {
            oldRoot[key] = nil
            newRoot[key] = nil
        }
        direction = .response
        compareSchema(.object(oldRoot), .object(newRoot), at: SchemaPath(definition: "#"), declared: [:])

        for name in Set(oldDefinitions.keys).union(newDefinitions.keys).sorted() {
            let path = SchemaPath(definition: name)
            // A definition is judged by the direction its new form declares (its old one when it
            // is gone): that is who reads what the new side accepts or sends.
            direction = Self.direction(of: newDefinitions[name] ?? oldDefinitions[name])
            switch (oldDefinitions[name], newDefinitions[name]) {
            case (let old?, nil): definitionRemoved(name, old, at: path)
            case (nil, let new?): definitionAdded(name, new, at: path)
            case (let old?, let new?):
                let before = Self.direction(of: old)
                if before != direction {
                    report(
                        .directionChanged, path.keyword("x-direction"), old: before.rawValue, new: direction.rawValue,
                        "the other side now reads these values; nothing built against the old contract expects that", breaking: true)
                    continue
                }
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
            report(
                .definitionAdded, path, old: nil, new: "defined", "a new shared definition; nothing that exists refers to it",
                breaking: false)
            return
        }
        let noun = Self.noun(forKind: name)
        let introduced = definition["x-introduced"]?.integerValue.map { APIVersion($0) }
        let downgrades = definition["x-server-downgrades"]?.boolValue ?? false
        let fallback = definition["x-fallback"]?.stringValue ?? ""
        let rule = "\(noun)" + (introduced.map { " introduced in \($0)" } ?? "")
        guard direction == .response else {
            report(.kindAdded, path, old: nil, new: rule, "old apps never send it; the server accepts more than before", breaking: false)
            return
        }
        if let header = definition["x-requested-by-header"]?.stringValue, downgrades {
            report(
                .kindAdded, path, old: nil, new: rule + ", app-defined",
                "sent only to apps that name it in \(header); every other client gets its fallback (\(fallback.isEmpty ? "dropped" : fallback))",
                breaking: false)
        } else if let introduced, let oldVersion, introduced > oldVersion, downgrades {
            report(
                .kindAdded, path, old: nil, new: rule,
                "clients of \(oldVersion) never receive it: the server downgrades it for them (\(fallback.isEmpty ? "dropped" : fallback))",
                breaking: false)
        } else if let introduced, let oldVersion, introduced > oldVersion {
            report(
                .kindAdded, path, old: nil, new: rule,
                "the server does not downgrade this family of kinds, so clients of \(oldVersion) would receive it and set it aside as unknown",
                breaking: true)
        } else {
            let version = oldVersion.map { "\($0)" } ?? "the old version"
            report(
                .kindAdded, path, old: nil, new: rule,
                "clients of \(version) do not know it and the server sends it to them as it is: they set it aside as unknown",
                breaking: true)
        }
    }

    mutating func definitionRemoved(_ name: String, _ definition: JSONValue, at path: SchemaPath) {
        guard Self.isKind(name, definition) else {
            report(
                .definitionRemoved, path, old: "defined", new: nil, "a shared definition is gone; code generated from it no longer matches",
                breaking: true)
            return
        }
        let noun = Self.noun(forKind: name)
        guard direction == .response else {
            report(
                .kindRemoved, path, old: noun, new: nil, "old apps may still send it and the server no longer accepts it", breaking: true)
            return
        }
        let deprecated = definition["x-deprecated"]?.integerValue.map { APIVersion($0) }
        let fallback = definition["x-fallback"]?.stringValue ?? ""
        if let deprecated, let newVersion, deprecated <= newVersion, !fallback.isEmpty {
            report(
                .deprecatedKindRemoved, path, old: "\(noun) deprecated in \(deprecated)", new: nil,
                "removed after its deprecation; clients that had it get the fallback: \(fallback)", breaking: false)
        } else if let deprecated {
            let reason =
                if fallback.isEmpty { "it has no fallback" } else if newVersion == nil { "the new schema has no x-api-version" } else {
                    "the new schema's version comes before that"
                }
            report(
                .kindRemoved, path, old: "\(noun) deprecated in \(deprecated)", new: nil,
                "removed, but \(reason): screens, caches and stored layouts that still carry it lose it on clients of this contract",
                breaking: true)
        } else {
            report(
                .kindRemoved, path, old: noun, new: nil,
                "removed without deprecation and fallback: content that used it has nothing to fall back to", breaking: true)
        }
    }

    mutating func compareDeprecation(_ old: JSONValue, _ new: JSONValue, at path: SchemaPath) {
        let before = old["x-deprecated"]?.integerValue
        let after = new["x-deprecated"]?.integerValue
        let at = path.keyword("x-deprecated")
        switch (before, after) {
        case (nil, let after?):
            report(
                .deprecated, at, old: nil, new: "deprecated from v\(after)", "servers stop sending it; clients still decode it",
                breaking: false)
        case (let before?, nil):
            report(.deprecationChanged, at, old: "deprecated from v\(before)", new: nil, "no longer deprecated", breaking: false)
        case (let before?, let after?) where before != after:
            report(
                .deprecationChanged, at, old: "deprecated from v\(before)", new: "deprecated from v\(after)", "deprecation moved",
                breaking: false)
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

    /// The declared change for `path` that a downgrade handles between the two versions: one
    /// made after the old version and no later than the new one.
    func handledChange(at path: SchemaPath, declared: [String: [DeclaredFieldChange]]) -> DeclaredFieldChange? {
        guard direction == .response, let oldVersion, let newVersion else { return nil }
        return declared[path.relative]?.first { oldVersion < $0.version && $0.version <= newVersion }
    }

    // MARK: Schemas

    mutating func compareSchema(_ old: JSONValue, _ new: JSONValue, at path: SchemaPath, declared: [String: [DeclaredFieldChange]]) {
        guard old != new else { return }
        // Boolean schemas (`true` accepts anything, `false` nothing) compare whole.
        guard let oldSchema = old.objectValue, let newSchema = new.objectValue else {
            let widens = old == .bool(false) || new == .bool(true)
            let (breaking, reason) = verdict(widens: widens)
            report(.fieldTypeChanged, path, old: Self.literal(old), new: Self.literal(new), reason, breaking: breaking)
            return
        }
        let oldType = Self.typeName(oldSchema)
        let newType = Self.typeName(newSchema)
        if oldType != newType {
            typeChanged(from: oldType, to: newType, at: path, declared: declared, ranked: Self.rankTypes(oldSchema, newSchema))
            return
        }
        compareAllowedValues(oldSchema, newSchema, at: path)
        compareOpenEnum(oldSchema, newSchema, at: path)
        compareConstraints(oldSchema, newSchema, at: path)
        if oldSchema["properties"] != nil || newSchema["properties"] != nil || oldSchema["required"] != nil || newSchema["required"] != nil
        {
            compareObject(oldSchema, newSchema, at: path, declared: declared)
        }
        if oldSchema["items"] != nil || newSchema["items"] != nil {
            compareSchema(oldSchema["items"] ?? true, newSchema["items"] ?? true, at: path.items(), declared: declared)
        }
        for keyword in ["oneOf", "anyOf"] { compareVariants(oldSchema, newSchema, keyword: keyword, at: path) }
    }

    mutating func typeChanged(
        from oldType: String, to newType: String, at path: SchemaPath, declared: [String: [DeclaredFieldChange]], ranked widens: Bool?
    ) {
        if let widens, handledChange(at: path, declared: declared) == nil {
            // One type set contains the other (integer → number, string → string or null): an
            // ordinary widening or narrowing, judged by direction like any other.
            let (breaking, reason) = verdict(widens: widens)
            report(widens ? .constraintLoosened : .constraintTightened, path, old: oldType, new: newType, reason, breaking: breaking)
            return
        }
        if let handled = handledChange(at: path, declared: declared) {
            let summary = handled.summary.isEmpty ? "" : ": \(handled.summary)"
            report(
                .fieldTypeChangedWithDowngrade, path, old: oldType, new: newType,
                "changed in \(handled.version); the server writes the old shape for older clients\(summary)", breaking: false)
            return
        }
        var reason =
            direction == .response
            ? "no downgrade covers it: old apps reject the new shape and drop the element"
            : "the server now rejects the shape old apps send"
        if direction == .response, let candidates = declared[path.relative], !candidates.isEmpty {
            let declaredAt = candidates.map(\.version.description).joined(separator: ", ")
            let versions = (oldVersion.map { "\($0)" } ?? "?") + "…" + (newVersion.map { "\($0)" } ?? "?")
            reason += " (x-field-changes declares it in \(declaredAt), outside \(versions))"
        }
        report(.fieldTypeChanged, path, old: oldType, new: newType, reason, breaking: true)
    }

    /// Compares the values an `enum` or `const` allows.
    mutating func compareAllowedValues(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        let before = Self.allowedValues(old)
        let after = Self.allowedValues(new)
        let at = path.keyword(new["enum"] != nil || old["enum"] != nil ? "enum" : "const")
        switch (before, after) {
        case (nil, nil):
            return
        case (nil, let after?):
            let (breaking, reason) = verdict(widens: false)
            report(.enumNarrowed, at, old: nil, new: "one of \(Self.list(after))", reason, breaking: breaking)
        case (let before?, nil):
            let (breaking, reason) = verdict(widens: true)
            report(.enumWidened, at, old: "one of \(Self.list(before))", new: nil, reason, breaking: breaking)
        case (let before?, let after?):
            let removed = before.filter { !after.contains($0) }
            let added = after.filter { !before.contains($0) }
            if !removed.isEmpty {
                let (breaking, reason) = verdict(widens: false)
                report(
                    .enumNarrowed, at, old: "one of \(Self.list(before))", new: "one of \(Self.list(after))",
                    "\(Self.list(removed)) removed; " + reason, breaking: breaking)
            }
            if !added.isEmpty {
                let (breaking, reason) = verdict(widens: true)
                report(
                    .enumWidened, at, old: "one of \(Self.list(before))", new: "one of \(Self.list(after))",
                    "\(Self.list(added)) added to a closed enum; " + reason, breaking: breaking)
            }
        }
    }

    /// Open enums list their values in `x-known-values`: the reader maps any value it does not
    /// know to the default, so values come and go safely. Opening or closing one is a change of
    /// what the schema accepts and is judged by the other keywords (`enum`, `type`).
    mutating func compareOpenEnum(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        let before = Self.elements(old["x-known-values"])
        let after = Self.elements(new["x-known-values"])
        let at = path.keyword("x-known-values")
        let wasOpen = old["x-open-enum"] == .bool(true)
        let isOpen = new["x-open-enum"] == .bool(true)
        let added = after.filter { !before.contains($0) }
        let removed = before.filter { !after.contains($0) }
        let reader = direction == .response ? wasOpen : isOpen
        if wasOpen != isOpen {
            report(
                isOpen ? .enumWidened : .enumNarrowed, path.keyword("x-open-enum"), old: wasOpen ? "open enum" : "closed",
                new: isOpen ? "open enum" : "closed", isOpen ? verdict(widens: true).reason : verdict(widens: false).reason,
                breaking: isOpen ? verdict(widens: true).breaking : verdict(widens: false).breaking)
        }
        guard reader else { return }
        let defaultValue = (direction == .response ? old : new)["default"].map(Self.literal) ?? "its default"
        if !added.isEmpty {
            report(
                .enumWidened, at, old: "open enum of \(Self.list(before))", new: "open enum of \(Self.list(after))",
                "\(Self.list(added)) added to an open enum: readers that do not know a value show it as \(defaultValue)", breaking: false)
        }
        if !removed.isEmpty {
            report(
                .enumNarrowed, at, old: "open enum of \(Self.list(before))", new: "open enum of \(Self.list(after))",
                "\(Self.list(removed)) removed from an open enum: readers that still meet it show it as \(defaultValue)", breaking: false)
        }
    }

    mutating func compareConstraints(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        for (keywords, stricterWhenLarger) in [(SchemaDocumentCheck.lowerBounds, true), (SchemaDocumentCheck.upperBounds, false)] {
            for keyword in keywords where old[keyword] != new[keyword] {
                // `minLength` (and the other lower counts) of 0 says nothing: same as absent.
                let zero: JSONValue = 0
                if keyword.hasPrefix("min"), keyword != "minimum", (old[keyword] ?? zero) == zero, (new[keyword] ?? zero) == zero {
                    continue
                }
                let at = path.keyword(keyword)
                let before = old[keyword]?.numberValue
                let after = new[keyword]?.numberValue
                let widens: Bool
                switch (before, after) {
                case (nil, _?): widens = false
                case (_?, nil): widens = true
                case (let before?, let after?):
                    // Whole numbers compare exactly: two large integers can be the same Double.
                    if case .integer(let oldInteger)? = old[keyword], case .integer(let newInteger)? = new[keyword] {
                        widens = stricterWhenLarger ? newInteger < oldInteger : newInteger > oldInteger
                    } else {
                        if before == after { continue }
                        widens = stricterWhenLarger ? after < before : after > before
                    }
                case (nil, nil): continue
                }
                let (breaking, reason) = verdict(widens: widens)
                report(
                    widens ? .constraintLoosened : .constraintTightened, at, old: old[keyword].map { "\(keyword) \(Self.literal($0))" },
                    new: new[keyword].map { "\(keyword) \(Self.literal($0))" }, reason, breaking: breaking)
            }
        }
        if old["pattern"] != new["pattern"] {
            let at = path.keyword("pattern")
            let before = old["pattern"].map { "pattern \(Self.literal($0))" }
            let after = new["pattern"].map { "pattern \(Self.literal($0))" }
            switch (old["pattern"], new["pattern"]) {
            case (nil, _?):
                let (breaking, reason) = verdict(widens: false)
                report(.constraintTightened, at, old: before, new: after, reason, breaking: breaking)
            case (_?, nil):
                let (breaking, reason) = verdict(widens: true)
                report(.constraintLoosened, at, old: before, new: after, reason, breaking: breaking)
            default:
                report(
                    .constraintChanged, at, old: before, new: after,
                    "two patterns cannot be ranked: values one accepts the other may reject, in either direction", breaking: true)
            }
        }
        if old["additionalProperties"] != new["additionalProperties"] {
            // Absent or `true` accepts any extra member; `false` none; a schema some. Only the
            // move between the two extremes is ranked; anything else is treated as unrankable.
            let before = old["additionalProperties"] ?? true
            let after = new["additionalProperties"] ?? true
            let at = path.keyword("additionalProperties")
            let rules = (Self.literal(before), Self.literal(after))
            if before == .bool(true) || after == .bool(false) {
                let (breaking, reason) = verdict(widens: false)
                report(
                    .constraintTightened, at, old: "additionalProperties \(rules.0)", new: "additionalProperties \(rules.1)", reason,
                    breaking: breaking)
            } else if before == .bool(false) || after == .bool(true) {
                let (breaking, reason) = verdict(widens: true)
                report(
                    .constraintLoosened, at, old: "additionalProperties \(rules.0)", new: "additionalProperties \(rules.1)", reason,
                    breaking: breaking)
            } else {
                report(
                    .constraintChanged, at, old: "additionalProperties \(rules.0)", new: "additionalProperties \(rules.1)",
                    "two member schemas cannot be ranked", breaking: true)
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
        let response = direction == .response

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
            let field = path.field(name)
            if let target = renamedTo[name] {
                report(
                    .fieldRenamed, field, old: "required `\(name)`", new: "required `\(target)`",
                    response
                        ? "old apps look for `\(name)`, which the server no longer sends"
                        : "old apps send `\(name)`; the server wants `\(target)`",
                    breaking: true)
            } else if oldRequired.contains(name) {
                report(
                    .requiredFieldRemoved, field, old: "required", new: nil,
                    response
                        ? "old apps need it and drop the element without it"
                        : "the server no longer reads it; old apps may keep sending it",
                    breaking: response)
            } else {
                report(
                    .optionalFieldRemoved, field, old: "optional", new: nil,
                    response ? "old apps already cope with its absence" : "the server no longer reads it; old apps may keep sending it",
                    breaking: false)
            }
        }
        for name in added where !renameTargets.contains(name) {
            let field = path.field(name)
            let required = newRequired.contains(name)
            if response, Self.mustUnderstand(newProperties[name]) {
                mustUnderstandAdded(
                    field, rule: required ? "required, must be understood" : "optional, must be understood", declared: declared)
            } else if required {
                report(
                    .requiredFieldAdded, field, old: nil, new: "required",
                    response ? "old apps ignore members they do not know" : "old apps do not send it, and the server now requires it",
                    breaking: !response)
            } else {
                report(
                    .optionalFieldAdded, field, old: nil, new: "optional",
                    response ? "old apps ignore members they do not know" : "old apps do not send it; the server copes with its absence",
                    breaking: false)
            }
        }
        // Names required without a schema of their own still bind: a reader or writer must see them.
        for name in oldRequired.union(newRequired).filter({ oldProperties[$0] == nil && newProperties[$0] == nil }).sorted() {
            let field = path.field(name)
            if newRequired.contains(name), !oldRequired.contains(name) {
                report(
                    .fieldBecameRequired, field, old: nil, new: "required",
                    response
                        ? "the server always sends it; old apps accept that" : "old apps do not send it, and the server now requires it",
                    breaking: !response)
            } else if oldRequired.contains(name), !newRequired.contains(name) {
                report(
                    .fieldBecameOptional, field, old: "required", new: nil,
                    response ? "old apps need it and drop the element when it is left out" : "the server accepts more than before",
                    breaking: response)
            }
        }
        for name in oldProperties.keys.filter({ newProperties[$0] != nil }).sorted() {
            let field = path.field(name)
            switch (oldRequired.contains(name), newRequired.contains(name)) {
            case (true, false):
                report(
                    .fieldBecameOptional, field, old: "required", new: "optional",
                    response ? "old apps need it and drop the element when it is left out" : "the server accepts more than before",
                    breaking: response)
            case (false, true):
                report(
                    .fieldBecameRequired, field, old: "optional", new: "required",
                    response
                        ? "the server always sends it; old apps accept that" : "old apps may leave it out, and the server now rejects that",
                    breaking: !response)
            default:
                break
            }
            if response, !Self.mustUnderstand(oldProperties[name]), Self.mustUnderstand(newProperties[name]) {
                mustUnderstandAdded(field, rule: "must be understood", declared: declared)
            }
            compareSchema(oldProperties[name]!, newProperties[name]!, at: field, declared: declared)
        }
    }

    mutating func mustUnderstandAdded(_ field: SchemaPath, rule: String, declared: [String: [DeclaredFieldChange]]) {
        if let handled = handledChange(at: field, declared: declared) {
            report(
                .mustUnderstandFieldAdded, field, old: nil, new: rule,
                "added in \(handled.version); the server downgrades it for older clients: \(handled.summary)", breaking: false)
        } else {
            report(
                .mustUnderstandFieldAdded, field, old: nil, new: rule,
                "old apps ignore members they do not know, so they would render this element wrongly; declare a downgrade in x-field-changes",
                breaking: true)
        }
    }

    /// Compares `oneOf`/`anyOf` alternatives as a set. A `$ref` to a definition that was itself
    /// added or removed is skipped: the definition's own change already says it.
    mutating func compareVariants(_ old: [String: JSONValue], _ new: [String: JSONValue], keyword: String, at path: SchemaPath) {
        guard old[keyword] != new[keyword] else { return }
        let before = Self.elements(old[keyword])
        let after = Self.elements(new[keyword])
        let at = path.keyword(keyword)
        func reportedElsewhere(_ variant: JSONValue) -> Bool {
            guard let reference = variant["$ref"]?.stringValue, reference.hasPrefix("#/$defs/") else { return false }
            let name = SchemaDocumentCheck.pointerUnescape(String(reference.dropFirst("#/$defs/".count)))
            return (oldDefinitions[name] == nil) != (newDefinitions[name] == nil)
        }
        for variant in before where !after.contains(variant) && !reportedElsewhere(variant) {
            let (breaking, reason) = verdict(widens: false)
            report(.variantRemoved, at, old: "alternative \(Self.literal(variant))", new: nil, reason, breaking: breaking)
        }
        for variant in after where !before.contains(variant) && !reportedElsewhere(variant) {
            let (breaking, reason) = verdict(widens: true)
            report(.variantAdded, at, old: nil, new: "alternative \(Self.literal(variant))", reason, breaking: breaking)
        }
    }

    // MARK: Reading schemas

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

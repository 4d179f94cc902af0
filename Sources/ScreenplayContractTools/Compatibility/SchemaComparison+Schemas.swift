import Foundation
import ScreenplayContract

/// Schemas: the walk through one schema and its keywords.
extension SchemaComparison {
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
        compareFunctions(oldSchema, newSchema, at: path)
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

    /// The expression language's functions (`x-functions` on `Expression`): a new one is an
    /// addition (a reader that does not know it keeps the binding's static value, as for any
    /// expression it cannot check); a removed one breaks every screen that calls it.
    mutating func compareFunctions(_ old: [String: JSONValue], _ new: [String: JSONValue], at path: SchemaPath) {
        guard old["x-functions"] != nil || new["x-functions"] != nil else { return }
        let before = Self.elements(old["x-functions"])
        let after = Self.elements(new["x-functions"])
        let at = path.keyword("x-functions")
        let added = after.filter { !before.contains($0) }
        let removed = before.filter { !after.contains($0) }
        if !added.isEmpty {
            report(
                .functionAdded, at, old: Self.list(before), new: Self.list(after),
                "\(Self.list(added)) added to the expression language: an addition", breaking: false)
        }
        if !removed.isEmpty {
            report(
                .functionRemoved, at, old: Self.list(before), new: Self.list(after),
                "\(Self.list(removed)) removed from the expression language: screens that call it no longer check", breaking: true)
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
}

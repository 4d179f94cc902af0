import Foundation
import Logging
import ScreenplayContract
import ScreenplayServer

extension Composer {
    /// Reads one fragment the way its client will, cheapest checks first: size, UTF-8, JSON
    /// syntax (with line and column), nesting depth, then a strict decode as a component of the
    /// client's API version (which also checks the v4 attributes), then the `id` and `bind`
    /// members. The contract itself is checked later, once entities are merged, because bound
    /// fields take their values from them.
    func prepare(_ fragment: WidgetFragment, plan: WidgetPlan, version: APIVersion) -> WidgetPlan.Stage {
        guard let contract = plan.contract else { return .omitted(.unknownKind) }
        let bytes: [UInt8]
        switch fragment {
        case .bytes(let raw):
            bytes = raw
        case .json(let value):
            do {
                bytes = Array(try ScreenplayEncoder().encode(value))
            } catch {
                return .failed(.malformedJSON("the provider's value cannot be encoded as JSON: \(error)"))
            }
        }
        guard bytes.count <= configuration.maximumFragmentBytes else {
            return .failed(.tooLarge(bytes: bytes.count, limit: configuration.maximumFragmentBytes))
        }
        // Foundation would refuse the whole page for one invalid byte, so it is refused here.
        guard String(validating: bytes, as: UTF8.self) != nil else { return .failed(.malformedJSON("not valid UTF-8")) }
        let data = Data(bytes)
        if let failure = JSONSyntax.firstError(in: data) { return .failed(.malformedJSON(failure.description)) }
        let depth = Self.nestingDepth(of: bytes)
        guard depth <= configuration.maximumFragmentDepth else {
            return .failed(.malformedJSON("nested \(depth) levels deep; the limit is \(configuration.maximumFragmentDepth)"))
        }
        guard Self.firstByte(of: bytes) == UInt8(ascii: "{") else {
            return .failed(.contractViolation([WidgetProblem(.notAnObject, path: "$", "a widget is a JSON object")]))
        }
        let decoded: Component
        do {
            let decoder = ScreenplayDecoder(mode: .strict, apiVersion: version, customKinds: [contract.type])
            let result = try decoder.decode(Component.self, from: data)
            if let issue = result.issues.first {
                return .failed(.contractViolation([WidgetProblem(.unreadable, path: issue.path, issue.message)]))
            }
            decoded = result.value
        } catch {
            let kind: WidgetProblem.Kind =
                ["$.id", "$.bind", "$.accessibility"].contains(where: { error.path.hasPrefix($0) }) ? .invalidAttribute : .unreadable
            return .failed(.contractViolation([WidgetProblem(kind, path: error.path, error.message)]))
        }
        guard case .unknown(let unknown) = decoded.content, unknown.type == contract.type, let members = unknown.json.objectValue else {
            return .failed(
                .contractViolation([WidgetProblem(.wrongKind, path: "$.type", "expected '\(contract.type)', found '\(decoded.kind)'")]))
        }
        if let id = members["id"], id != .string(plan.instance.id) {
            return .failed(
                .contractViolation([
                    WidgetProblem(
                        .invalidAttribute, path: "$.id",
                        "the composer sets a widget's id: expected '\(plan.instance.id)' or none, found \(id.compactText)")
                ]))
        }
        let (bindings, problem) = Self.bindings(in: members["bind"])
        if let problem { return .failed(.contractViolation([problem])) }
        return .prepared(PreparedFragment(bytes: bytes, members: members, bindings: bindings))
    }

    /// A component's `bind` read from its JSON (field → entity member), or the problem with it.
    static func bindings(in value: JSONValue?) -> (bindings: [String: EntityReference], problem: WidgetProblem?) {
        guard let value, value != .null else { return ([:], nil) }
        guard case .object(let members) = value else {
            return ([:], WidgetProblem(.invalidAttribute, path: "$.bind", "expected an object of bindings, found \(value.typeName)"))
        }
        var bindings: [String: EntityReference] = [:]
        for (field, reference) in members.sorted(by: { $0.key < $1.key }) {
            guard let entity = reference["entity"]?.stringValue, let member = reference["field"]?.stringValue else {
                let path = JSONPath.render([AnyCodingKey("bind"), AnyCodingKey(field)])
                return ([:], WidgetProblem(.invalidAttribute, path: path, "a binding is {\"entity\": …, \"field\": …}"))
            }
            bindings[field] = EntityReference(entity: entity, field: member)
        }
        return (bindings, nil)
    }

    /// The deepest nesting of arrays and objects in well-formed JSON.
    static func nestingDepth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The index of the first byte that is not JSON whitespace.
    static func firstNonWhitespace(in bytes: [UInt8]) -> Int? {
        bytes.firstIndex { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
    }

    static func firstByte(of bytes: [UInt8]) -> UInt8? {
        firstNonWhitespace(in: bytes).map { bytes[$0] }
    }

    // MARK: Entities

    /// The entities of every answering provider, merged once for the page.
    ///
    /// Providers are taken in page order of their call's first widget, so when two disagree about
    /// a member the winner never depends on who answered first; each disagreement is logged and
    /// reported. Entities that break the contract's limits (an id that is not a key, too many
    /// members, too many entities) are dropped and reported; a widget bound to one is then
    /// omitted for an unresolved binding.
    func mergeEntities(
        _ answered: [(call: ProviderCall, response: WidgetResponse)], problems: inout [String]
    ) -> (entities: Entities, conflicts: [EntityConflict]) {
        var merged: Entities = [:]
        var source: [String: [String: String]] = [:]
        var conflicts: [EntityConflict] = []
        let limits = ValueRules.EntityValues.self
        for (call, response) in answered {
            for (id, members) in response.entities.sorted(by: { $0.key < $1.key }) {
                guard ValueRules.isIdentifier(id, maximum: ValueRules.Key.maximum) else {
                    let message = "vertical '\(call.vertical)' sent the entity '\(id.prefix(64))', whose id is not a key; dropped"
                    problems.append(message)
                    logger.warning(
                        "entity dropped: its id is not a key", metadata: ["vertical": "\(call.vertical)", "entity": "\(id.prefix(64))"])
                    continue
                }
                if merged[id] == nil && merged.count >= limits.entityMaximum {
                    problems.append(
                        "vertical '\(call.vertical)' sent entity '\(id)' past the limit of \(limits.entityMaximum) entities; dropped")
                    logger.warning("entity dropped: too many entities", metadata: ["vertical": "\(call.vertical)", "entity": "\(id)"])
                    continue
                }
                var entity = merged[id] ?? [:]
                for (member, value) in members.sorted(by: { $0.key < $1.key }) {
                    if let existing = entity[member] {
                        guard existing != value else { continue }
                        let conflict = EntityConflict(
                            entity: id, member: member, kept: (source[id]?[member] ?? "?", existing), dropped: (call.vertical, value))
                        conflicts.append(conflict)
                        logger.warning(
                            "providers disagree about an entity member",
                            metadata: [
                                "entity": "\(id)", "member": "\(member)", "kept": "\(conflict.kept.vertical)",
                                "dropped": "\(call.vertical)",
                                "conflict": "\(conflict)",
                            ])
                        continue
                    }
                    guard entity.count < limits.memberMaximum else {
                        problems.append(
                            "entity '\(id)' has more than \(limits.memberMaximum) members; '\(member.prefix(64))' from '\(call.vertical)' dropped"
                        )
                        logger.warning(
                            "entity member dropped: too many members", metadata: ["vertical": "\(call.vertical)", "entity": "\(id)"])
                        continue
                    }
                    entity[member] = value
                    source[id, default: [:]][member] = call.vertical
                }
                merged[id] = entity
            }
        }
        return (merged, conflicts)
    }

    // MARK: Rendering decisions

    /// What the client gets for one widget: its fragment (bindings checked, contract checked), its
    /// kind's fallback when the client cannot render the kind, its `unavailable` components when
    /// the provider did not deliver, or nothing.
    func render(_ plan: WidgetPlan, context: CompositionContext, entities: Entities, downgrade: Downgrade) -> WidgetPlan.Stage {
        guard let contract = plan.contract else { return plan.stage }
        switch plan.stage {
        case .failed(let reason):
            let standIn = downgrade.components(contract.unavailable(plan.instance), entities: entities)
            return standIn.isEmpty ? .omitted(reason) : .components(standIn, .unavailable(reason))
        case .prepared(let prepared):
            // The layout's content (a headline in the reader's locale, an image, a link) is
            // written over what the provider answered, and a field it writes is no longer bound.
            var fragment = prepared
            let written = plan.instance.content == [:] ? [:] : contract.contentMembers(plan.instance.content, locale: context.locale, rules: catalog.content)
            if !written.isEmpty {
                for (field, value) in written { fragment.members[field] = value }
                fragment.bindings = fragment.bindings.filter { written[$0.key] == nil }
                if case .object(var bind)? = fragment.members["bind"] {
                    for field in written.keys { bind[field] = nil }
                    fragment.members["bind"] = bind.isEmpty ? nil : .object(bind)
                }
            }
            var resolved = fragment.members
            for (field, reference) in fragment.bindings.sorted(by: { $0.key < $1.key }) {
                guard let entity = entities[reference.entity] else {
                    return failing(
                        .unresolvedBinding("'\(field)' ← \(reference.description): no entity '\(reference.entity)' on the page"), plan,
                        contract, entities, downgrade)
                }
                guard let value = entity[reference.field] else {
                    return failing(
                        .unresolvedBinding(
                            "'\(field)' ← \(reference.description): entity '\(reference.entity)' has no member '\(reference.field)'"),
                        plan, contract, entities, downgrade)
                }
                resolved[field] = value
            }
            // A bound field may be left out only where the contract says it is bindable: the
            // schema apps generate from requires every other field in the component itself.
            let unbindable = fragment.bindings.keys.sorted().filter { field in
                fragment.members[field] == nil && contract.fields.first(where: { $0.name == field })?.isBindable != true
            }
            let problems =
                contract.validate(.object(resolved), apiVersion: context.apiVersion)
                + unbindable.map { field in
                    WidgetProblem(
                        .invalidAttribute, path: JSONPath.render([AnyCodingKey("bind"), AnyCodingKey(field)]),
                        "'\(field)' is bound but left out, and the contract does not declare it bindable")
                }
            let errors = problems.filter { !$0.isWarning }
            guard errors.isEmpty else { return failing(.contractViolation(errors), plan, contract, entities, downgrade) }
            let warnings = problems.filter(\.isWarning)
            let rendered = contract.versioning.introduced <= context.apiVersion && context.clientKinds.contains(contract.type)
            guard rendered else {
                var input = resolved
                for name in ["id", "bind"] { input[name] = nil }
                var fallback = downgrade.components(contract.fallback(.object(input)), entities: entities)
                // What the widget asked to be reported (v6) is asked of what stands in for it: an
                // offer seen counts whichever way it was drawn.
                if context.apiVersion >= ComponentReports.introduced, !fallback.isEmpty, fallback[0].attributes.report.isEmpty,
                    let key = resolved["report"]?.objectValue?["visible"]?.stringValue, ValueRules.isIdentifier(key, maximum: ClientEvent.Limits.keyLength)
                {
                    fallback[0].attributes.report.visible = key
                }
                return fallback.isEmpty ? .omitted(.noFallbackForClient) : .components(fallback, .kindNotRendered)
            }
            if context.apiVersion >= ComponentAttributes.introduced {
                if !written.isEmpty {
                    do {
                        fragment.bytes = Array(try ScreenplayEncoder(apiVersion: context.apiVersion).encode(JSONValue.object(fragment.members)))
                    } catch {
                        return failing(.malformedJSON("cannot be written with its content: \(error)"), plan, contract, entities, downgrade)
                    }
                }
                return .fragment(
                    bytes: Self.inserting(id: plan.instance.id, into: fragment.bytes, present: fragment.members["id"] != nil),
                    warnings: warnings, entities: Set(fragment.bindings.values.map(\.entity)))
            }
            // Older clients know no ids, bindings or accessibility: they get the fields alone,
            // bound values and the layout's content filled in, which means writing the object anew.
            guard !written.isEmpty || !WidgetContract.reservedNames.subtracting(["type"]).isDisjoint(with: resolved.keys) else {
                return .fragment(bytes: fragment.bytes, warnings: warnings, entities: [])
            }
            for name in WidgetContract.reservedNames where name != "type" { resolved[name] = nil }
            do {
                let rewritten = try ScreenplayEncoder(apiVersion: context.apiVersion).encode(JSONValue.object(resolved))
                return .fragment(bytes: Array(rewritten), warnings: warnings, entities: [])
            } catch {
                return failing(
                    .malformedJSON("cannot be rewritten for \(context.apiVersion): \(error)"), plan, contract, entities, downgrade)
            }
        default:
            return plan.stage
        }
    }

    private func failing(
        _ reason: OmissionReason, _ plan: WidgetPlan, _ contract: WidgetContract, _ entities: Entities, _ downgrade: Downgrade
    ) -> WidgetPlan.Stage {
        let standIn = downgrade.components(contract.unavailable(plan.instance), entities: entities)
        return standIn.isEmpty ? .omitted(reason) : .components(standIn, .unavailable(reason))
    }

    /// `bytes` with `"id":"<id>",` inserted after the object's opening brace, unless the object
    /// already has an `id` (which ``prepare(_:plan:version:)`` made sure is this one). The object
    /// is known to have at least its `type` member, so a comma always follows.
    static func inserting(id: String, into bytes: [UInt8], present: Bool) -> [UInt8] {
        guard !present, let brace = firstNonWhitespace(in: bytes) else { return bytes }
        // Instance ids are identifiers (no quote, backslash or control character): no escaping needed.
        let member = Array("\"id\":\"\(id)\",".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + member.count)
        result += bytes[...brace]
        result += member
        result += bytes[(brace + 1)...]
        return result
    }
}

import Foundation
import ScreenplayContract
import ScreenplayContractTools
import ScreenplayTestSupport
import Testing

/// The generated schema must state every rule the decoders enforce, and no rule they do not.
///
/// For every definition of every version, probes are built from the schema itself: each required
/// field left out, each value of the wrong type, each bound met and missed by one (or half a point),
/// each length at its limit and one past it, each pattern against values chosen to sit on either
/// side of it, each enum with a known and an unknown value, an unknown member. Every probe is
/// decoded by the Swift decoder of that version and validated by Python's `jsonschema`, an
/// independent implementation; the two verdicts must agree on every probe.
@Suite("Schema and decoders agree")
struct SchemaAgreementTests {
    /// Values on both sides of each pattern the schema uses. A pattern missing here fails the
    /// test: a rule nobody probes is a rule nobody proved.
    static let patternProbes: [String: [String]] = {
        let link = [
            "screens/composer/mozart", "/images/a.svg?size=2", "https://example.com/x", "HTTP://EXAMPLE.COM", "http:", "x",
            "screens/a:b", "javascript:alert(1)", "JavaScript:alert(1)", "//evil.example/x", "a\\b", "a b", "a\nb", "abc\n",
            "a\u{7F}", "\t", "ftp://example.com", "data:text/html,x", "mailto:someone@example.com", "tel:+431234", "a+b.c-d:x",
            "1abc:x", "ünïcode/päth", "screens/%2F",
            // Combining marks and modifiers glued to ":", "/" or "\\" must not hide them.
            "javascript:\u{301}x", "javascript:\u{FF9E}=1,alert(1)", "//\u{1F3FB}evil.example", "/\\\u{301}x", "/\u{1F3FB}evil.example/x",
            "/\u{301}/evil.example",
        ]
        var table: [String: [String]] = [:]
        for policy in [LinkPolicy.endpoint, .resource, .external] {
            if let pattern = policy.schema["pattern"]?.stringValue { table[pattern] = link }
        }
        // Identifiers (component ids, storage keys): the charset, the length, and what lies
        // just outside both.
        for maximum in [64, 128] {
            let pattern = "^[A-Za-z0-9._:/~-]{1,\(maximum)}(?![\\s\\S])"
            table[pattern] = [
                "query", "a", "section:works/listRow~2", "A-Z_0.9:/~", String(repeating: "a", count: maximum),
                String(repeating: "a", count: maximum + 1), "", "a b", "a\n", "query\n", "é", "a#b", "a?b", "a%20", "ａ", "\u{301}",
            ]
        }
        // The variable a `set` writes: a name a screen may declare, not a reserved one.
        if let pattern = ValueRules.VariableName.schema["pattern"]?.stringValue {
            table[pattern] = [
                "expanded", "x", "_", "a1", "query_2", String(repeating: "a", count: 64), String(repeating: "a", count: 65), "", "1a",
                "a-b", "a b", "true", "false", "player", "platform", "now", "nowish", "players", "True", "x\n", "é", "ａ",
            ]
        }
        // A rows template's kind: any but `rows` itself.
        table[#"^(?!rows(?![\s\S]))"#] = ["text", "listRow", "", "rows", "Rows", "rowsx", "rows\n", "xrows"]
        return table
    }()

    enum Step: Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }
    }

    struct Probe: Sendable {
        let version: APIVersion
        let definition: String
        let what: String
        let instance: JSONValue
    }

    /// Builds probes from one schema document.
    struct ProbeMaker {
        let version: APIVersion
        let definitions: [String: JSONValue]
        let patterns: [String: [String]]
        var probes: [Probe] = []
        var unprobedPatterns: Set<String> = []

        init(version: APIVersion, document: JSONValue, patterns: [String: [String]]) {
            self.version = version
            self.definitions = document["$defs"]?.objectValue ?? [:]
            self.patterns = patterns
        }

        /// A value the schema accepts, with every optional member present so that their rules
        /// are probed too.
        func minimal(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
            // An optional definition by reference: `anyOf` the reference and null.
            if let first = schema["anyOf"]?.arrayValue?.first { return minimal(first, depth: depth) }
            if let reference = schema["$ref"]?.stringValue {
                switch reference {
                case "#/$defs/Component": return ["type": "spacer"]
                case "#/$defs/Action": return ["type": "openURL", "url": "https://example.com"]
                case "#/$defs/CommandResult": return ["type": "done"]
                case "#/$defs/Screen": return ["id": "s", "title": "S", "sections": []]
                // What an expression may read is the screen's to declare, beyond what a schema
                // can say (the shared cases prove the language): probes declare no state, compute
                // nothing, and a `set` writes a string the wrapper screen declares (`x`).
                case "#/$defs/State", "#/$defs/Compute": return [:]
                case "#/$defs/Expression": return "x"
                default:
                    let name = String(reference.dropFirst("#/$defs/".count))
                    return depth > 4 ? [:] : minimal(definitions[name] ?? [:], depth: depth + 1)
                }
            }
            if let constant = schema["const"] { return constant }
            if let values = schema["enum"]?.arrayValue, let first = values.first { return first }
            if schema["x-open-enum"] == true, let value = schema["default"] { return value }
            switch SchemaAgreementTests.mainType(schema) {
            case "string":
                if let pattern = schema["pattern"]?.stringValue {
                    return .string(patterns[pattern]?.first ?? "x")
                }
                return "x"
            case "integer": return .integer(schema["minimum"]?.integerValue ?? 1)
            case "number": return .integer(schema["minimum"]?.integerValue ?? 1)
            case "boolean": return false
            case "array": return .array([minimal(schema["items"] ?? [:], depth: depth + 1)])
            case "object":
                var object: [String: JSONValue] = [:]
                for (name, property) in schema["properties"]?.objectValue ?? [:] {
                    object[name] = minimal(property, depth: depth + 1)
                }
                // A map (storage, entities, bindings) gets one member, so its values are probed.
                if let values = schema["additionalProperties"], values.objectValue != nil {
                    object["k"] = minimal(values, depth: depth + 1)
                }
                return .object(object)
            default:
                return "x"
            }
        }

        mutating func probe(definition name: String) {
            guard let schema = definitions[name] else { return }
            let base = minimal(schema)
            add(name, "the minimal instance", base)
            if case .object(var extended) = base {
                extended["zzUnknownMember"] = ["nested": [1, 2]]
                add(name, "an unknown member", .object(extended))
            }
            walk(schema, at: [], base: base, definition: name)
        }

        mutating func add(_ definition: String, _ what: String, _ instance: JSONValue) {
            probes.append(Probe(version: version, definition: definition, what: what, instance: instance))
        }

        mutating func walk(_ schema: JSONValue, at path: [Step], base: JSONValue, definition: String) {
            guard schema["$ref"] == nil, schema["const"] == nil else { return }
            func at(_ value: JSONValue?) -> JSONValue { SchemaAgreementTests.setting(base, at: path, to: value) }
            let place = path.isEmpty ? "the instance" : "$" + path.map(\.description).joined()
            if !path.isEmpty { add(definition, "\(place) = null", at(.null)) }
            if schema["anyOf"] != nil { return }
            let type = SchemaAgreementTests.mainType(schema)
            if !path.isEmpty {
                let wrong: JSONValue = type == "string" ? 7 : type == "boolean" ? "true" : "7"
                if type != nil { add(definition, "\(place) of the wrong type", at(wrong)) }
            }
            switch type {
            case "object":
                if let values = schema["additionalProperties"], values.objectValue != nil {
                    let member = minimal(values)
                    if let maximum = schema["maxProperties"]?.integerValue {
                        for count in [maximum, maximum + 1] {
                            let members = Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", member) })
                            add(definition, "\(place) with \(count) members", at(.object(members)))
                        }
                    }
                    walk(values, at: path + [.key("k")], base: base, definition: definition)
                }
                let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                for (name, property) in (schema["properties"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                    if required.contains(name), name != "type" || !path.isEmpty {
                        add(
                            definition, "\(place) without required '\(name)'",
                            SchemaAgreementTests.setting(base, at: path + [.key(name)], to: nil))
                    }
                    walk(property, at: path + [.key(name)], base: base, definition: definition)
                }
            case "array":
                add(definition, "\(place) empty", at([]))
                walk(schema["items"] ?? [:], at: path + [.index(0)], base: base, definition: definition)
            case "string":
                if let pattern = schema["pattern"]?.stringValue {
                    if let values = patterns[pattern] {
                        for value in values { add(definition, "\(place) = \(value.debugDescription)", at(.string(value))) }
                    } else {
                        unprobedPatterns.insert(pattern)
                    }
                }
                if let minimum = schema["minLength"]?.integerValue {
                    add(definition, "\(place) of length \(minimum)", at(.string(String(repeating: "a", count: minimum))))
                    if minimum > 0 {
                        add(definition, "\(place) of length \(minimum - 1)", at(.string(String(repeating: "a", count: minimum - 1))))
                    }
                }
                if let maximum = schema["maxLength"]?.integerValue {
                    add(definition, "\(place) of length \(maximum)", at(.string(String(repeating: "a", count: maximum))))
                    add(definition, "\(place) of length \(maximum + 1)", at(.string(String(repeating: "a", count: maximum + 1))))
                    add(definition, "\(place) of \(maximum) scalars, more UTF-8 bytes", at(.string(String(repeating: "é", count: maximum))))
                }
                for value in schema["x-known-values"]?.arrayValue ?? [] { add(definition, "\(place) = \(value)", at(value)) }
                for value in schema["enum"]?.arrayValue ?? [] { add(definition, "\(place) = \(value)", at(value)) }
                if schema["x-open-enum"] == true || schema["enum"] != nil {
                    add(definition, "\(place) = an unknown value", at("zzUnknownValue"))
                }
            case "integer":
                // Whole-number bounds step by one exactly; past Int's own range the probe is a
                // JSON number no Swift Int holds.
                if case .integer(let minimum)? = schema["minimum"] {
                    add(definition, "\(place) = minimum", at(.integer(minimum)))
                    add(definition, "\(place) just under the minimum", at(minimum == Int.min ? .number(-1e19) : .integer(minimum - 1)))
                }
                if case .integer(let maximum)? = schema["maximum"] {
                    add(definition, "\(place) = maximum", at(.integer(maximum)))
                    add(definition, "\(place) just over the maximum", at(maximum == Int.max ? .number(1e19) : .integer(maximum + 1)))
                }
                add(definition, "\(place) with a fraction", at(.number(1.5)))
                add(definition, "\(place) = 1e300", at(.number(1e300)))
            case "number":
                if let minimum = schema["minimum"]?.numberValue, abs(minimum) < 1e15 {
                    add(definition, "\(place) = minimum", at(.number(minimum)))
                    add(definition, "\(place) just under the minimum", at(.number(minimum - 0.5)))
                }
                if let maximum = schema["maximum"]?.numberValue, abs(maximum) < 1e15 {
                    add(definition, "\(place) = maximum", at(.number(maximum)))
                    add(definition, "\(place) just over the maximum", at(.number(maximum + 0.5)))
                }
                add(definition, "\(place) = 1e300", at(.number(1e300)))
                add(definition, "\(place) = -1e300", at(.number(-1e300)))
            default:
                break
            }
        }
    }

    /// The type a schema describes, ignoring the `null` optional members also accept.
    static func mainType(_ schema: JSONValue) -> String? {
        if let type = schema["type"]?.stringValue { return type }
        return schema["type"]?.arrayValue?.compactMap(\.stringValue).first { $0 != "null" }
    }

    /// `value` with the member at `path` replaced (or removed, for `nil`).
    static func setting(_ value: JSONValue, at path: [Step], to replacement: JSONValue?) -> JSONValue {
        guard let step = path.first else { return replacement ?? .null }
        switch (value, step) {
        case (.object(var object), .key(let key)):
            if path.count == 1 {
                object[key] = replacement
            } else {
                object[key] = setting(object[key] ?? .null, at: Array(path.dropFirst()), to: replacement)
            }
            return .object(object)
        case (.array(var array), .index(let index)) where array.indices.contains(index):
            if path.count == 1, replacement == nil {
                array.remove(at: index)
            } else {
                array[index] = setting(array[index], at: Array(path.dropFirst()), to: replacement)
            }
            return .array(array)
        default:
            return value
        }
    }

    /// Whether the Swift decoder of `version` takes the instance whole: no element dropped, no
    /// kind set aside (an open enum's unknown value is taken, shown as its default).
    static func swiftAccepts(_ probe: Probe) throws -> Bool {
        let decoder = ScreenplayDecoder(mode: .lossy, apiVersion: probe.version)
        func screen(_ component: JSONValue) -> JSONValue {
            // Every name a `set` probe may write is declared (a string, as `x` its value reads), so
            // the verdict is about the name's rule, not about whether the screen declares it.
            // Rows read an array (an empty one: the verdict is about the rows' own members).
            let names = patternProbes[ValueRules.VariableName.schema["pattern"]?.stringValue ?? ""] ?? []
            let declaration: JSONValue =
                probe.definition == "component." + Component.Rows.kind.rawValue ? ["type": ["array": "string"], "initial": []] : ["type": "string", "initial": ""]
            let state = Dictionary(uniqueKeysWithValues: Set(names + ["x"]).filter(StateVariable.isDeclarable).map { ($0, declaration) })
            return ["id": "probe", "title": "Probe", "state": .object(state), "sections": [["id": "main", "components": [component]]]]
        }
        let issues: [DecodingIssue]
        do {
            switch probe.definition {
            case let name where name.hasPrefix("component."):
                issues = try decoder.decode(Screen.self, from: try encode(screen(probe.instance))).issues
            case let name where name.hasPrefix("action."):
                let button: JSONValue = ["type": "button", "title": "Probe", "action": probe.instance]
                issues = try decoder.decode(Screen.self, from: try encode(screen(button))).issues
            case let name where name.hasPrefix("result."):
                issues = try decoder.decode(CommandResult.self, from: try encode(probe.instance)).issues
            case "Screen":
                issues = try decoder.decode(Screen.self, from: try encode(probe.instance)).issues
            case "ErrorBody":
                issues = try decoder.decode(ErrorBody.self, from: try encode(probe.instance)).issues
            default:
                Issue.record("no Swift decoder wired for \(probe.definition)")
                return false
            }
        } catch {
            return false
        }
        return issues.allSatisfy { $0.kind == .unknownValue }
    }

    static func encode(_ value: JSONValue) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    /// The definitions probed: every kind and every shared definition a decoder reads directly.
    static func probedDefinitions(in document: JSONValue) -> [String] {
        (document["$defs"]?.objectValue?.keys.map { $0 } ?? [])
            .filter {
                $0.hasPrefix("component.") || $0.hasPrefix("action.") || $0.hasPrefix("result.") || $0 == "Screen" || $0 == "ErrorBody"
            }
            .sorted()
    }

    /// The color pattern, read from the generated schema of a kind that has a color.
    static var colorPattern: String {
        (try? ContractSchema.document(for: .v1))?["$defs"]?["component.rectangle"]?["properties"]?["color"]?["pattern"]?.stringValue ?? ""
    }

    @Test("every probe of every definition gets the same verdict from the Swift decoder and from Python's jsonschema")
    func verdictsAgree() async throws {
        var patterns = Self.patternProbes
        patterns[Self.colorPattern] = [
            "accent", "primaryText", "#AABBCC", "#aabbcc80", "a" + String(repeating: "b", count: 63),
            "a" + String(repeating: "b", count: 64),
            "#ABC", "#GGGGGG", "1abc", "a-b", "accent\n", "#AABBCC\n", "#ＡＢＣＤＥＦ", "#AABBCCD", "ünïcode", "",
        ]
        patterns[ValueRules.DurationText.pattern] = [
            "7:41", "0:00", "1:02:03", "9999:59:59", "1:5", "1:0059", "7:60", "1:2:3:4", "7", "7:", ":41", "a:bc", "7:41\n",
            "12345:00", "-1:00", "١:٢٣", "0:000059", "1:60:00", "",
        ]
        var documents: [String: JSONValue] = [:]
        var probes: [Probe] = []
        var unprobed: Set<String> = []
        for version in APIVersion.supported.lowerBound.rawValue...APIVersion.supported.upperBound.rawValue {
            let version = APIVersion(version)
            let document = try ContractSchema.document(for: version)
            documents[String(version.rawValue)] = document
            var maker = ProbeMaker(version: version, document: document, patterns: patterns)
            for name in Self.probedDefinitions(in: document) { maker.probe(definition: name) }
            probes += maker.probes
            unprobed.formUnion(maker.unprobedPatterns)
        }
        #expect(unprobed.isEmpty, "patterns with no probes: \(unprobed.sorted())")
        #expect(probes.count > 500, "only \(probes.count) probes: the generator missed the schema")

        let cases: [JSONValue] = probes.map {
            ["version": .string(String($0.version.rawValue)), "definition": .string($0.definition), "instance": $0.instance]
        }
        let input: JSONValue = ["documents": .object(documents), "cases": .array(cases)]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-probes-\(UUID().uuidString).json")
        try Self.encode(input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try await runPython(["scripts/schema-verdicts.py", file.path])
        try #require(status == 0, "schema-verdicts.py failed: \(output.prefix(2000))")
        let verdicts = try JSONDecoder().decode([Bool].self, from: Data(output.utf8))
        try #require(verdicts.count == probes.count)

        var disagreements: [String] = []
        var accepted = 0
        for (probe, pythonAccepts) in zip(probes, verdicts) {
            let swift = try Self.swiftAccepts(probe)
            if swift { accepted += 1 }
            if swift != pythonAccepts {
                disagreements.append(
                    "\(probe.version) \(probe.definition): \(probe.what): Swift \(swift ? "accepts" : "rejects"), jsonschema \(pythonAccepts ? "accepts" : "rejects")"
                )
            }
        }
        let listed = disagreements.prefix(40).joined(separator: "\n")
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(probes.count) probes disagree:\n\(listed)")
        // Both verdicts occur often: a generator that only made valid (or only invalid) probes proves nothing.
        #expect(accepted > probes.count / 5 && accepted < probes.count * 4 / 5, "\(accepted) of \(probes.count) accepted")
        print(
            "schema agreement: \(probes.count) probes over v1-\(APIVersion.latest), \(accepted) accepted by both, \(probes.count - accepted) refused by both"
        )
    }
}

/// Runs python3 from the package root and returns its exit status and standard output.
func runPython(_ arguments: [String]) async throws -> (Int32, String) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let outcome = try await ChildProcess.python(arguments, in: root, mergingErrors: false)
    return (outcome.status, outcome.output)
}

import Foundation
import ScreenplayContract
import Testing

/// The shared cases of contract/expressions/cases.json on the client core's evaluator: the same
/// file the web script's evaluator passes in the browser (Tests/Browser/expressions_flow.py).
@Suite("Expressions: the shared cases")
struct ExpressionCasesTests {
    struct Case {
        let index: Int
        let expression: String
        let locale: String
        let variables: [String: (ExpressionType, ExpressionValue)]
        let expected: Outcome
    }

    enum Outcome {
        case value(ExpressionType, JSONValue)
        case error(String)
    }

    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("contract/expressions/cases.json")

    /// Reads a variable declaration (`{"type": T, "value": V}`), failing the test when it is malformed.
    static func variable(_ name: String, _ json: JSONValue) throws -> (ExpressionType, ExpressionValue) {
        guard case .object(let declaration) = json, let typeJSON = declaration["type"], let type = ExpressionType(json: typeJSON),
            let valueJSON = declaration["value"], let value = ExpressionValue(json: valueJSON, as: type)
        else { throw CaseFileError(message: "variable '\(name)' is not {type, value} of that type: \(json)") }
        return (type, value)
    }

    struct CaseFileError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func cases() throws -> [Case] {
        let document = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: file))
        guard case .object(let root) = document, case .object(let shared)? = root["variables"], case .array(let list)? = root["cases"] else {
            throw CaseFileError(message: "cases.json has no variables object or cases array")
        }
        var defaults: [String: (ExpressionType, ExpressionValue)] = [:]
        for (name, json) in shared { defaults[name] = try variable(name, json) }
        return try list.enumerated().map { index, json in
            guard case .object(let fields) = json, case .string(let expression)? = fields["expression"] else {
                throw CaseFileError(message: "case \(index) has no expression")
            }
            var variables = defaults
            if case .object(let own)? = fields["variables"] {
                for (name, declaration) in own { variables[name] = try variable(name, declaration) }
            }
            let locale: String = if case .string(let tag)? = fields["locale"] { tag } else { "en" }
            let expected: Outcome
            if case .string(let kind)? = fields["error"] {
                expected = .error(kind)
            } else if let typeJSON = fields["type"], let type = ExpressionType(json: typeJSON), let value = fields["value"] {
                expected = .value(type, value)
            } else {
                throw CaseFileError(message: "case \(index) (\(expression.prefix(60))) has neither an error nor a type and value")
            }
            return Case(index: index, expression: expression, locale: locale, variables: variables, expected: expected)
        }
    }

    /// Whether `value` is `expected` in JSON: numbers by value (3 and 3.0 alike), the rest exactly.
    static func matches(_ value: JSONValue, _ expected: JSONValue) -> Bool {
        func number(_ json: JSONValue) -> Double? {
            switch json {
            case .integer(let value): Double(value)
            case .number(let value): value
            default: nil
            }
        }
        if let a = number(value), let b = number(expected) { return a == b }
        switch (value, expected) {
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.object(let a), .object(let b)): return a.count == b.count && a.allSatisfy { key, item in b[key].map { matches(item, $0) } ?? false }
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return value == expected
        }
    }

    /// What evaluating a case came to, as the case file would write it.
    static func run(_ test: Case) -> Outcome {
        do {
            let expression = try ScreenExpression(test.expression, types: test.variables.mapValues(\.0))
            let value = try expression.evaluate(test.variables.mapValues(\.1), locale: test.locale)
            return .value(expression.type, value.json)
        } catch {
            return .error(error.kind.rawValue)
        }
    }

    @Test("every shared case evaluates as the file says (at least 300, errors of all three kinds among them)")
    func sharedCases() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 300, "the shared file has \(cases.count) cases")
        var errorKinds: Set<String> = []
        var failures: [String] = []
        for test in cases {
            let got = Self.run(test)
            switch (test.expected, got) {
            case (.value(let type, let value), .value(let gotType, let gotValue)) where type == gotType && Self.matches(gotValue, value): continue
            case (.error(let kind), .error(let gotKind)) where kind == gotKind:
                errorKinds.insert(kind)
                continue
            default: failures.append("#\(test.index) \(test.expression.prefix(120)) [\(test.locale)]: expected \(test.expected), got \(got)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) cases failed:\n\(failures.prefix(40).joined(separator: "\n"))")
        #expect(errorKinds == ["syntax", "type", "runtime"])
    }

    @Test("every shared case written back from its tree (as a row template writes its bindings) reads back to the same outcome")
    func writtenBack() throws {
        var failures: [String] = []
        var written = 0
        for test in try Self.cases() {
            guard let source = ScreenExpression.source(test.expression, replacing: [:]) else { continue }
            written += 1
            let rewritten = Case(index: test.index, expression: source, locale: test.locale, variables: test.variables, expected: test.expected)
            let (before, after) = (Self.run(test), Self.run(rewritten))
            let same: Bool =
                switch (before, after) {
                case (.value(let a, let x), .value(let b, let y)): a == b && Self.matches(x, y)
                case (.error(let a), .error(let b)): a == b
                default: false
                }
            if !same { failures.append("#\(test.index) \(test.expression.prefix(80)) → \(source.prefix(80)): \(before) then \(after)") }
        }
        #expect(written > 250, "only \(written) cases parse")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        // A replacement stands where the variable stood, member access and all.
        #expect(ScreenExpression.source("-item.year + index * 2 > len(item.tags) ? '${item.title}!' : (item).title", replacing: ["item": "works[3]", "index": "3"])
            == "-works[3].year+3*2>len(works[3].tags)?'${works[3].title}!':(works[3]).title")
    }
}

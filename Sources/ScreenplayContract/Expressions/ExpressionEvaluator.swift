/// Runs a checked expression with the values of the moment (contract/expressions/README.md,
/// "Meaning"). Types were settled by ``ExpressionChecker``; what is left to fail is what the
/// values decide: overflow, a zero divisor, an index out of range, a string too long, an
/// argument out of range.
struct ExpressionEvaluator {
    /// The most code points in a string an expression makes.
    static let maximumStringLength = 65_536

    let values: [String: ExpressionValue]
    let locale: ExpressionLocale

    func evaluate(_ expression: CheckedExpression) throws(ExpressionError) -> ExpressionValue {
        switch expression {
        case .constant(let value): return value
        case .variable(let name):
            guard let value = values[name] else {
                throw ExpressionError(.runtime, "unknownVariable", "no value for '\(name)'")
            }
            return value
        case .not(let operand): return .bool(!(try bool(operand)))
        case .negate(let operand, let int):
            if int { return .int(-(try self.int(operand))) }
            return .number(-(try number(operand)))
        case .arithmetic(let mark, let left, let right, let int):
            if int { return .int(try Self.integer(mark, try self.int(left), try self.int(right))) }
            return .number(try Self.double(mark, try number(left), try number(right)))
        case .concatenate(let left, let right):
            return .string(try Self.bounded(try string(left) + (try string(right))))
        case .order(let mark, let left, let right):
            let (a, b) = (try number(left), try number(right))
            switch mark {
            case "<": return .bool(a < b)
            case "<=": return .bool(a <= b)
            case ">": return .bool(a > b)
            default: return .bool(a >= b)
            }
        case .equal(let left, let right, let negated):
            return .bool(Self.same(try evaluate(left), try evaluate(right)) != negated)
        // Short-circuit: the right side runs (and may fail) only when it decides.
        case .and(let left, let right):
            guard try bool(left) else { return .bool(false) }
            return .bool(try bool(right))
        case .or(let left, let right):
            if try bool(left) { return .bool(true) }
            return .bool(try bool(right))
        case .conditional(let condition, let then, let otherwise):
            return try evaluate(try bool(condition) ? then : otherwise)
        case .member(let base, let field):
            guard case .record(let fields) = try evaluate(base), let value = fields[field] else {
                throw ExpressionError(.runtime, "noField", "the record has no field '\(field)'")
            }
            return value
        case .index(let base, let index, let offset):
            guard case .array(let elements) = try evaluate(base) else { throw ExpressionError(.runtime, "typeMismatch", "not an array", at: offset) }
            let position = try int(index)
            guard elements.indices.contains(position) else {
                throw ExpressionError(.runtime, "indexOutOfRange", "index \(position) of an array of \(elements.count)", at: offset)
            }
            return elements[position]
        case .array(let elements):
            var values: [ExpressionValue] = []
            values.reserveCapacity(elements.count)
            for element in elements { values.append(try evaluate(element)) }
            return .array(values)
        case .interpolate(let pieces):
            var text = ""
            for piece in pieces {
                text += try evaluate(piece).description
                guard text.unicodeScalars.count <= Self.maximumStringLength else { throw Self.tooLong(text.unicodeScalars.count) }
            }
            return .string(text)
        case .widen(let operand): return .number(try number(operand))
        case .call(let function, let arguments, let offset):
            return try call(function, arguments, at: offset)
        }
    }

    // MARK: Operands

    private func bool(_ expression: CheckedExpression) throws(ExpressionError) -> Bool {
        guard case .bool(let value) = try evaluate(expression) else { throw Self.wrongValue("a bool") }
        return value
    }

    private func int(_ expression: CheckedExpression) throws(ExpressionError) -> Int {
        guard case .int(let value) = try evaluate(expression) else { throw Self.wrongValue("an int") }
        return value
    }

    private func number(_ expression: CheckedExpression) throws(ExpressionError) -> Double {
        guard let value = try evaluate(expression).double else { throw Self.wrongValue("a number") }
        return value
    }

    private func string(_ expression: CheckedExpression) throws(ExpressionError) -> String {
        guard case .string(let value) = try evaluate(expression) else { throw Self.wrongValue("a string") }
        return value
    }

    /// A value of the wrong type for its declared one: only state that does not match its
    /// declaration gets here (values are checked against their types when read).
    private static func wrongValue(_ expected: String) -> ExpressionError {
        ExpressionError(.runtime, "typeMismatch", "a variable's value is not \(expected), as declared")
    }

    // MARK: Arithmetic

    static func integer(_ mark: Character, _ a: Int, _ b: Int) throws(ExpressionError) -> Int {
        let result: Int
        switch mark {
        case "+": result = a + b  // Both within ±2^53: no Int overflow.
        case "-": result = a - b
        case "*":
            let (product, overflow) = a.multipliedReportingOverflow(by: b)
            guard !overflow else { throw overflowError }
            result = product
        case "/":
            guard b != 0 else { throw ExpressionError(.runtime, "divisionByZero", "division by zero") }
            result = a / b
        default:
            guard b != 0 else { throw ExpressionError(.runtime, "divisionByZero", "remainder of a division by zero") }
            result = a % b
        }
        guard abs(result) <= ExpressionValue.maximumInt else { throw overflowError }
        return result
    }

    static func double(_ mark: Character, _ a: Double, _ b: Double) throws(ExpressionError) -> Double {
        let result: Double
        switch mark {
        case "+": result = a + b
        case "-": result = a - b
        case "*": result = a * b
        case "/":
            guard b != 0 else { throw ExpressionError(.runtime, "divisionByZero", "division by zero") }
            result = a / b
        default:
            guard b != 0 else { throw ExpressionError(.runtime, "divisionByZero", "remainder of a division by zero") }
            result = a.truncatingRemainder(dividingBy: b)
        }
        guard result.isFinite else { throw overflowError }
        return result
    }

    static let overflowError = ExpressionError(.runtime, "overflow", "the result is beyond what an int or a number holds")

    static func tooLong(_ count: Int) -> ExpressionError {
        ExpressionError(.runtime, "stringTooLong", "a string of \(count) code points; the limit is \(maximumStringLength)")
    }

    static func bounded(_ text: String) throws(ExpressionError) -> String {
        let count = text.unicodeScalars.count
        guard count <= maximumStringLength else { throw tooLong(count) }
        return text
    }

    /// `==`: numerics by value, strings code point by code point (no normalisation), bools as such.
    static func same(_ a: ExpressionValue, _ b: ExpressionValue) -> Bool {
        switch (a, b) {
        // Equal UTF-8 is equal code points (and is compared without decoding).
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        default:
            guard let x = a.double, let y = b.double else { return false }
            return x == y
        }
    }

    /// A double rounded by `rule` as an int, or `overflow`.
    static func whole(_ value: Double, _ rule: FloatingPointRoundingRule) throws(ExpressionError) -> Int {
        let rounded = value.rounded(rule)
        guard abs(rounded) <= Double(ExpressionValue.maximumInt) else { throw overflowError }
        return Int(rounded)
    }
}

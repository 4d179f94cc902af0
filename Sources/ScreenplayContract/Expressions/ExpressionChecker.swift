/// An expression with its types checked: what evaluation walks. Every choice that depends on
/// types (int or number arithmetic, which `len`, which `contains`) is made here, once, so the
/// evaluator never looks at a type again.
indirect enum CheckedExpression: Sendable {
    case constant(ExpressionValue)
    case variable(String)
    case not(CheckedExpression)
    case negate(CheckedExpression, int: Bool)
    /// `+ - * / %` on two ints (`int`) or two numbers (operands widened).
    case arithmetic(Character, CheckedExpression, CheckedExpression, int: Bool)
    case concatenate(CheckedExpression, CheckedExpression)
    /// `< <= > >=` on numerics.
    case order(String, CheckedExpression, CheckedExpression)
    case equal(CheckedExpression, CheckedExpression, negated: Bool)
    case and(CheckedExpression, CheckedExpression)
    case or(CheckedExpression, CheckedExpression)
    case conditional(CheckedExpression, CheckedExpression, CheckedExpression)
    case member(CheckedExpression, String)
    case index(CheckedExpression, CheckedExpression, offset: Int)
    case array([CheckedExpression])
    case interpolate([CheckedExpression])
    case call(ExpressionFunction, [CheckedExpression], offset: Int)
    /// An int used where a number is: widened.
    case widen(CheckedExpression)
}

/// Checks a syntax tree against the variables' types (contract/expressions/README.md,
/// "Meaning" and "Functions"), giving the checked tree and its type, and the names it reads.
struct ExpressionChecker {
    let types: [String: ExpressionType]
    private(set) var reads: Set<String> = []

    init(types: [String: ExpressionType]) { self.types = types }

    mutating func check(_ syntax: ExpressionSyntax) throws(ExpressionError) -> (CheckedExpression, ExpressionType) {
        let at = syntax.offset
        switch syntax.node {
        case .integer(let value): return (.constant(.int(value)), .int)
        case .number(let value): return (.constant(.number(value)), .number)
        case .bool(let value): return (.constant(.bool(value)), .bool)
        case .variable(let name):
            guard let type = types[name] else {
                throw ExpressionError(.type, "unknownVariable", "no variable '\(name)'", at: at)
            }
            reads.insert(name)
            return (.variable(name), type)
        case .group(let inner): return try check(inner)
        case .string(let parts):
            var pieces: [CheckedExpression] = []
            for part in parts {
                switch part {
                case .text(let text): pieces.append(.constant(.string(text)))
                case .hole(let hole):
                    let (checked, type) = try check(hole)
                    guard type.isScalar else {
                        throw ExpressionError(.type, "typeMismatch", "a \(type) cannot be written into a string", at: hole.offset)
                    }
                    pieces.append(checked)
                }
            }
            if pieces.count == 1, case .constant(.string) = pieces[0] { return (pieces[0], .string) }
            return (.interpolate(pieces), .string)
        case .unary(let mark, let operand):
            let (checked, type) = try check(operand)
            if mark == "!" {
                guard type == .bool else { throw Self.mismatch("'!' takes a bool, not a \(type)", at: at) }
                return (.not(checked), .bool)
            }
            guard type.isNumeric else { throw Self.mismatch("'-' takes an int or a number, not a \(type)", at: at) }
            return (.negate(checked, int: type == .int), type)
        case .binary(let mark, let left, let right):
            return try binary(mark, left, right, at: at)
        case .conditional(let condition, let then, let otherwise):
            let (test, testType) = try check(condition)
            guard testType == .bool else { throw Self.mismatch("a condition before '?' must be a bool, not a \(testType)", at: condition.offset) }
            let (a, aType) = try check(then)
            let (b, bType) = try check(otherwise)
            guard let type = Self.common(aType, bType) else {
                throw Self.mismatch("both sides of ':' must be of one type; here \(aType) and \(bType)", at: at)
            }
            return (.conditional(test, Self.widened(a, aType, to: type), Self.widened(b, bType, to: type)), type)
        case .member(let base, let field):
            let (checked, type) = try check(base)
            guard case .record(let fields) = type else { throw Self.mismatch("'.\(field)' reads a record's field; this is a \(type)", at: at) }
            guard let fieldType = fields[field] else {
                throw ExpressionError(.type, "noField", "a \(type) has no field '\(field)'", at: at)
            }
            return (.member(checked, field), fieldType)
        case .index(let base, let index):
            let (array, type) = try check(base)
            guard case .array(let element) = type else { throw Self.mismatch("'[…]' reads an array's element; this is a \(type)", at: at) }
            let (position, positionType) = try check(index)
            guard positionType == .int else { throw Self.mismatch("an index must be an int, not a \(positionType)", at: index.offset) }
            return (.index(array, position, offset: at), element)
        case .array(let elements):
            guard !elements.isEmpty else { throw ExpressionError(.type, "emptyArray", "'[]' has no element type", at: at) }
            var checked: [(CheckedExpression, ExpressionType)] = []
            var type: ExpressionType?
            for element in elements {
                let (value, elementType) = try check(element)
                guard let joined = type.map({ Self.common($0, elementType) }) ?? elementType else {
                    throw Self.mismatch("an array's elements must be of one type; here \(type!) and \(elementType)", at: element.offset)
                }
                type = joined
                checked.append((value, elementType))
            }
            let element = type!
            return (.array(checked.map { Self.widened($0.0, $0.1, to: element) }), .array(element))
        case .call(let name, let arguments):
            var checked: [CheckedExpression] = []
            var argumentTypes: [ExpressionType] = []
            for argument in arguments {
                let (value, type) = try check(argument)
                checked.append(value)
                argumentTypes.append(type)
            }
            guard let overloads = ExpressionFunction.named[name] else {
                throw ExpressionError(.type, "unknownFunction", "no function '\(name)'", at: at)
            }
            for overload in overloads {
                guard let (function, result, widening) = overload(argumentTypes) else { continue }
                let arguments = zip(checked, argumentTypes).enumerated().map { index, pair in
                    widening.contains(index) ? Self.widened(pair.0, pair.1, to: .number) : pair.0
                }
                return (.call(function, arguments, offset: at), result)
            }
            throw ExpressionError(
                .type, "wrongArguments", "\(name)(\(argumentTypes.map(\.description).joined(separator: ", "))) is not a call \(name) takes", at: at)
        }
    }

    private mutating func binary(_ mark: String, _ left: ExpressionSyntax, _ right: ExpressionSyntax, at: Int) throws(ExpressionError) -> (
        CheckedExpression, ExpressionType
    ) {
        let (a, aType) = try check(left)
        let (b, bType) = try check(right)
        switch mark {
        case "&&", "||":
            guard aType == .bool, bType == .bool else { throw Self.mismatch("'\(mark)' takes two bools; here \(aType) and \(bType)", at: at) }
            return (mark == "&&" ? .and(a, b) : .or(a, b), .bool)
        case "==", "!=":
            guard aType.isScalar, bType.isScalar, let _ = Self.common(aType, bType) else {
                throw Self.mismatch("'\(mark)' compares two values of one scalar type; here \(aType) and \(bType)", at: at)
            }
            let type: ExpressionType = aType.isNumeric ? .number : aType
            let both = aType == bType
            return (.equal(both ? a : Self.widened(a, aType, to: type), both ? b : Self.widened(b, bType, to: type), negated: mark == "!="), .bool)
        case "<", "<=", ">", ">=":
            guard aType.isNumeric, bType.isNumeric else { throw Self.mismatch("'\(mark)' orders two numbers; here \(aType) and \(bType)", at: at) }
            return (.order(mark, Self.widened(a, aType, to: .number), Self.widened(b, bType, to: .number)), .bool)
        default:
            if mark == "+", aType == .string, bType == .string { return (.concatenate(a, b), .string) }
            guard aType.isNumeric, bType.isNumeric else {
                throw Self.mismatch("'\(mark)' takes two numbers\(mark == "+" ? " or two strings" : ""); here \(aType) and \(bType)", at: at)
            }
            let int = aType == .int && bType == .int
            let type: ExpressionType = int ? .int : .number
            return (.arithmetic(Character(mark), Self.widened(a, aType, to: type), Self.widened(b, bType, to: type), int: int), type)
        }
    }

    /// The type two branches or elements share: equal types, or two numerics as a number.
    static func common(_ a: ExpressionType, _ b: ExpressionType) -> ExpressionType? {
        if a == b { return a }
        if a.isNumeric, b.isNumeric { return .number }
        return nil
    }

    static func widened(_ value: CheckedExpression, _ type: ExpressionType, to target: ExpressionType) -> CheckedExpression {
        type == .int && target == .number ? .widen(value) : value
    }

    static func mismatch(_ message: String, at offset: Int) -> ExpressionError {
        ExpressionError(.type, "typeMismatch", message, at: offset)
    }
}

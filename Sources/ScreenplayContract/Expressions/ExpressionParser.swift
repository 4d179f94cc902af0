/// Reads an expression's source into its syntax tree (contract/expressions/README.md, "Lexical
/// structure" and "Grammar"), within the stated limits: 4 096 UTF-8 bytes, 64 levels.
///
/// Recursive descent over the source's code points, one token of lookahead. String literals are
/// read where they stand, their `${…}` holes parsed as expressions up to the closing `}`. The
/// recursion is bounded before the tree is built (a level of recursion is always a level of the
/// tree), so 10 000 nested parentheses are refused without 10 000 stack frames.
struct ExpressionParser {
    /// The most UTF-8 bytes in a source.
    static let maximumBytes = 4_096
    /// The deepest a syntax tree may be.
    static let maximumDepth = 64

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var nesting = 0
    /// The token at ``position``, once read (every grammar level peeks at it).
    private var lookahead: (at: Int, token: Token)?

    /// The tree of `source`, or the syntax error that stops it.
    static func parse(_ source: String) throws(ExpressionError) -> ExpressionSyntax {
        guard source.utf8.count <= maximumBytes else {
            throw ExpressionError(.syntax, "tooLong", "an expression is at most \(maximumBytes) bytes; this one is \(source.utf8.count)")
        }
        var parser = ExpressionParser(scalars: Array(source.unicodeScalars))
        let tree = try parser.expression()
        let end = try parser.token()
        guard end.kind == .end else { throw parser.unexpected(end) }
        guard tree.depth <= maximumDepth else {
            throw ExpressionError(.syntax, "tooDeep", "an expression nests at most \(maximumDepth) levels; this one \(tree.depth)")
        }
        return tree
    }

    /// The tree of a row template's text (`Op. ${item.opus}`): a string literal without quotes,
    /// whose characters stand for themselves (`'` included) up to the end of the text, with
    /// `${…}` holes; `\$` writes a dollar sign that starts no hole and `\\` a backslash,
    /// any other backslash is itself. Limits as for any expression.
    static func parseTemplate(_ text: String) throws(ExpressionError) -> ExpressionSyntax {
        guard text.utf8.count <= maximumBytes else {
            throw ExpressionError(.syntax, "tooLong", "a template's text is at most \(maximumBytes) bytes; this one is \(text.utf8.count)")
        }
        var parser = ExpressionParser(scalars: Array(text.unicodeScalars))
        let tree = try parser.string(from: 0, template: true)
        guard tree.depth <= maximumDepth else {
            throw ExpressionError(.syntax, "tooDeep", "an expression nests at most \(maximumDepth) levels; this one \(tree.depth)")
        }
        return tree
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    // MARK: Tokens

    struct Token {
        enum Kind: Equatable {
            case integer(Int)
            case number(Double)
            case identifier(String)
            case bool(Bool)
            case punctuation(String)
            /// The opening quote of a string literal.
            case quote
            /// The `}` that closes a string's hole.
            case closeBrace
            case end
        }

        let kind: Kind
        let offset: Int
        /// Where the next token may start.
        let end: Int
    }

    /// The punctuation, two-character marks first, each with its code points.
    private static let punctuation: [(mark: String, scalars: [Unicode.Scalar])] = [
        "==", "!=", "<=", ">=", "&&", "||", "(", ")", "[", "]", ",", ".", "?", ":", "+", "-", "*", "/", "%", "!", "<", ">",
    ].map { ($0, Array($0.unicodeScalars)) }

    /// The token at the current position (not consumed).
    private mutating func token() throws(ExpressionError) -> Token {
        if let lookahead, lookahead.at == position { return lookahead.token }
        let read = try scan()
        lookahead = (position, read)
        return read
    }

    private func scan() throws(ExpressionError) -> Token {
        var at = position
        while at < scalars.count, Self.isSpace(scalars[at]) { at += 1 }
        guard at < scalars.count else { return Token(kind: .end, offset: at, end: at) }
        let first = scalars[at]
        if first == "'" { return Token(kind: .quote, offset: at, end: at + 1) }
        if first == "}" { return Token(kind: .closeBrace, offset: at, end: at + 1) }
        if Self.isDigit(first) { return try numeral(at) }
        if Self.isIdentifierStart(first) {
            var end = at + 1
            while end < scalars.count, Self.isIdentifierStart(scalars[end]) || Self.isDigit(scalars[end]) { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[at..<end]))
            let kind: Token.Kind = name == "true" ? .bool(true) : name == "false" ? .bool(false) : .identifier(name)
            return Token(kind: kind, offset: at, end: end)
        }
        for (mark, marks) in Self.punctuation where at + marks.count <= scalars.count && scalars[at..<(at + marks.count)].elementsEqual(marks) {
            return Token(kind: .punctuation(mark), offset: at, end: at + marks.count)
        }
        throw ExpressionError(.syntax, "unexpectedCharacter", "unexpected character '\(first.escaped(asASCII: false))'", at: at)
    }

    /// An integer or number literal starting at `start`.
    private func numeral(_ start: Int) throws(ExpressionError) -> Token {
        var end = start
        func digits() -> Bool {
            let from = end
            while end < scalars.count, Self.isDigit(scalars[end]) { end += 1 }
            return end > from
        }
        _ = digits()
        var isNumber = false
        // A point not followed by a digit is not part of the number (`1.e5` reads field e5 of 1).
        if end + 1 < scalars.count, scalars[end] == ".", Self.isDigit(scalars[end + 1]) {
            end += 1
            _ = digits()
            isNumber = true
        }
        if end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
            end += 1
            if end < scalars.count, scalars[end] == "+" || scalars[end] == "-" { end += 1 }
            guard digits() else { throw ExpressionError(.syntax, "unexpectedToken", "a number's exponent needs digits", at: end) }
            isNumber = true
        }
        let text = String(String.UnicodeScalarView(scalars[start..<end]))
        if isNumber {
            guard let value = Double(text), value.isFinite else {
                throw ExpressionError(.syntax, "numberTooLarge", "the number \(text.prefix(40)) is not finite", at: start)
            }
            return Token(kind: .number(value), offset: start, end: end)
        }
        guard let value = Int(text), value <= ExpressionValue.maximumInt else {
            throw ExpressionError(.syntax, "integerTooLarge", "the integer \(text.prefix(40)) is over 2^53 − 1", at: start)
        }
        return Token(kind: .integer(value), offset: start, end: end)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" }
    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    private mutating func take() throws(ExpressionError) -> Token {
        let next = try token()
        position = next.end
        return next
    }

    /// Consumes the punctuation `mark` when it comes next.
    private mutating func skip(_ mark: String) throws(ExpressionError) -> Bool {
        let next = try token()
        guard next.kind == .punctuation(mark) else { return false }
        position = next.end
        return true
    }

    private mutating func expect(_ mark: String) throws(ExpressionError) {
        let next = try token()
        guard next.kind == .punctuation(mark) else { throw unexpected(next, expecting: "'\(mark)'") }
        position = next.end
    }

    private func unexpected(_ token: Token, expecting: String? = nil) -> ExpressionError {
        let wanted = expecting.map { ", expected \($0)" } ?? ""
        guard token.kind != .end else {
            return ExpressionError(.syntax, "unexpectedEnd", "the expression ends early\(wanted)", at: token.offset)
        }
        let text = String(String.UnicodeScalarView(scalars[token.offset..<token.end]))
        return ExpressionError(.syntax, "unexpectedToken", "unexpected '\(text)'\(wanted)", at: token.offset)
    }

    // MARK: Grammar

    /// Enters a level of recursion; past the depth limit the tree would be too deep anyway.
    private mutating func descend() throws(ExpressionError) {
        nesting += 1
        guard nesting <= Self.maximumDepth else {
            throw ExpressionError(.syntax, "tooDeep", "an expression nests at most \(Self.maximumDepth) levels", at: position)
        }
    }

    private mutating func expression() throws(ExpressionError) -> ExpressionSyntax {
        try descend()
        defer { nesting -= 1 }
        let condition = try binary(level: 0)
        guard try skip("?") else { return condition }
        let then = try expression()
        try expect(":")
        let otherwise = try expression()
        return ExpressionSyntax(.conditional(condition, then, otherwise), at: condition.offset)
    }

    /// The binary operators by level, loosest first; each level associates to the left.
    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func binary(level: Int) throws(ExpressionError) -> ExpressionSyntax {
        guard level < Self.levels.count else { return try unary() }
        var left = try binary(level: level + 1)
        while case .punctuation(let mark) = try token().kind, Self.levels[level].contains(mark) {
            _ = try take()
            let right = try binary(level: level + 1)
            left = ExpressionSyntax(.binary(mark, left, right), at: left.offset)
        }
        return left
    }

    private mutating func unary() throws(ExpressionError) -> ExpressionSyntax {
        let next = try token()
        if next.kind == .punctuation("!") || next.kind == .punctuation("-") {
            position = next.end
            try descend()
            defer { nesting -= 1 }
            guard case .punctuation(let mark) = next.kind else { fatalError("checked above") }
            return ExpressionSyntax(.unary(mark, try unary()), at: next.offset)
        }
        return try postfix()
    }

    private mutating func postfix() throws(ExpressionError) -> ExpressionSyntax {
        var value = try primary()
        while true {
            if try skip(".") {
                let name = try take()
                guard case .identifier(let field) = name.kind else { throw unexpected(name, expecting: "a field name") }
                value = ExpressionSyntax(.member(value, field), at: value.offset)
            } else if try skip("[") {
                let index = try expression()
                try expect("]")
                value = ExpressionSyntax(.index(value, index), at: value.offset)
            } else {
                return value
            }
        }
    }

    private mutating func primary() throws(ExpressionError) -> ExpressionSyntax {
        let next = try take()
        switch next.kind {
        case .integer(let value): return ExpressionSyntax(.integer(value), at: next.offset)
        case .number(let value): return ExpressionSyntax(.number(value), at: next.offset)
        case .bool(let value): return ExpressionSyntax(.bool(value), at: next.offset)
        case .quote: return try string(from: next.offset)
        case .identifier(let name):
            guard try skip("(") else { return ExpressionSyntax(.variable(name), at: next.offset) }
            var arguments: [ExpressionSyntax] = []
            if try !skip(")") {
                repeat { arguments.append(try expression()) } while try skip(",")
                try expect(")")
            }
            return ExpressionSyntax(.call(name, arguments), at: next.offset)
        case .punctuation("("):
            let inner = try expression()
            try expect(")")
            return ExpressionSyntax(.group(inner), at: next.offset)
        case .punctuation("["):
            var elements: [ExpressionSyntax] = []
            if try !skip("]") {
                repeat { elements.append(try expression()) } while try skip(",")
                try expect("]")
            }
            return ExpressionSyntax(.array(elements), at: next.offset)
        default:
            throw unexpected(next, expecting: "a value")
        }
    }

    /// A string literal whose opening quote is at `start` (the position is just after it); with
    /// `template`, a template's text, which the end of the source closes (see ``parseTemplate(_:)``).
    private mutating func string(from start: Int, template: Bool = false) throws(ExpressionError) -> ExpressionSyntax {
        var parts: [ExpressionSyntax.Part] = []
        var text = String.UnicodeScalarView()
        while true {
            guard position < scalars.count else {
                guard template else { throw ExpressionError(.syntax, "unterminatedString", "the string has no closing quote", at: start) }
                if !text.isEmpty || parts.isEmpty { parts.append(.text(String(text))) }
                return ExpressionSyntax(.string(parts), at: start)
            }
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "'" where !template:
                if !text.isEmpty || parts.isEmpty { parts.append(.text(String(text))) }
                return ExpressionSyntax(.string(parts), at: start)
            case "\\" where template:
                if position < scalars.count, scalars[position] == "$" || scalars[position] == "\\" {
                    text.append(scalars[position])
                    position += 1
                } else {
                    text.append(scalar)
                }
            case "\\":
                guard position < scalars.count else {
                    throw ExpressionError(.syntax, "unterminatedString", "the string has no closing quote", at: start)
                }
                let escaped = scalars[position]
                position += 1
                switch escaped {
                case "\\", "'", "$": text.append(escaped)
                case "n": text.append("\n")
                case "t": text.append("\t")
                default:
                    throw ExpressionError(.syntax, "badEscape", "'\\\(escaped.escaped(asASCII: false))' is not an escape: use \\\\ \\' \\n \\t or \\$", at: position - 2)
                }
            case "$" where position < scalars.count && scalars[position] == "{":
                position += 1
                if !text.isEmpty { parts.append(.text(String(text))) }
                text = String.UnicodeScalarView()
                let hole = try expression()
                let close = try take()
                guard close.kind == .closeBrace else { throw unexpected(close, expecting: "'}' to close the string's ${") }
                parts.append(.hole(hole))
            default:
                text.append(scalar)
            }
        }
    }
}

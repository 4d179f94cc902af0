/// An expression of the contract's small language (contract/expressions/README.md), parsed and
/// type-checked once, evaluated as often as the state it reads changes.
///
/// ```swift
/// let playing = try ScreenExpression("player.trackID == row.id && player.playing", types: types)
/// playing.variables                                  // ["player", "row"]: what it depends on
/// try playing.evaluate(values, locale: "de-AT")      // .bool(true)
/// ```
///
/// Everything that can be known from the text and the declared types is checked by the
/// initializer (`syntax` and `type` errors); ``evaluate(_:locale:)`` can fail only for what the
/// values decide (`runtime` errors). Both are ``ExpressionError``s naming what and where.
public struct ScreenExpression: Sendable, CustomStringConvertible {
    /// The text it was read from.
    public let source: String
    /// The type of what it evaluates to.
    public let type: ExpressionType
    /// The variables it reads: a binding is evaluated again only when one of these changes.
    public let variables: Set<String>
    let checked: CheckedExpression

    /// The most UTF-8 bytes in an expression's text.
    public static let maximumBytes = ExpressionParser.maximumBytes
    /// The deepest an expression's syntax tree may be.
    public static let maximumDepth = ExpressionParser.maximumDepth
    /// The most code points in a string an expression makes.
    public static let maximumStringLength = ExpressionEvaluator.maximumStringLength

    /// The names of the built-in functions, sorted: a new one is an addition to the contract, a
    /// removed one breaks screens that call it (`contract-diff` says so).
    public static var functionNames: [String] { ExpressionFunction.named.keys.sorted() }

    /// The grammar, from the loosest binding to the tightest, as contract/expressions/README.md
    /// states it and the JSON Schema carries it (`x-grammar`).
    public static let grammar = """
        expression     = conditional
        conditional    = or [ "?" expression ":" conditional ]
        or             = and { "||" and }
        and            = equality { "&&" equality }
        equality       = comparison { ("==" | "!=") comparison }
        comparison     = additive { ("<" | "<=" | ">" | ">=") additive }
        additive       = multiplicative { ("+" | "-") multiplicative }
        multiplicative = unary { ("*" | "/" | "%") unary }
        unary          = ("!" | "-") unary | postfix
        postfix        = primary { "." identifier | "[" expression "]" }
        primary        = integer | number | string | "true" | "false"
                       | identifier "(" [ expression { "," expression } ] ")"
                       | identifier
                       | "(" expression ")"
                       | "[" expression { "," expression } "]"
        """

    /// `text` as a string literal of the language (`'Mozart\\'s Requiem'`): what a server writes
    /// into an expression to compare with its own data, escaped so no text can end the literal
    /// or start an interpolation.
    public static func literal(_ text: String) -> String {
        var result = "'"
        for character in text.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "$": result += "\\$"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "'"
    }

    /// Reads `source` and checks it against `types`, the types of the variables it may read.
    public init(_ source: String, types: [String: ExpressionType]) throws(ExpressionError) {
        try self.init(syntax: try ExpressionParser.parse(source), source: source, types: types)
    }

    /// Reads a row template's text (`Op. ${item.opus}`: characters that stand for themselves,
    /// with `${…}` holes) as an expression of type string, checked against `types`. A text with
    /// no hole is a constant.
    public init(template text: String, types: [String: ExpressionType]) throws(ExpressionError) {
        try self.init(syntax: try ExpressionParser.parseTemplate(text), source: text, types: types)
    }

    /// `source` written with each variable named in `replacements` replaced by that text (a
    /// postfix expression such as `works[3]`, or a literal that is not negative): a row template's
    /// binding made into the binding of one row. `nil` when `source` is not an expression.
    public static func source(_ source: String, replacing replacements: [String: String]) -> String? {
        (try? ExpressionParser.parse(source))?.source(replacing: replacements)
    }

    init(syntax: ExpressionSyntax, source: String, types: [String: ExpressionType]) throws(ExpressionError) {
        var checker = ExpressionChecker(types: types)
        let (checked, type) = try checker.check(syntax)
        self.source = source
        self.type = type
        self.checked = checked
        self.variables = checker.reads
    }

    /// Its value with `values` (every variable in ``variables``, each of its declared type) for a
    /// reader in `locale` (a BCP 47 tag; only its language matters).
    public func evaluate(_ values: [String: ExpressionValue], locale: String = "en") throws(ExpressionError) -> ExpressionValue {
        try ExpressionEvaluator(values: values, locale: ExpressionLocale(locale)).evaluate(checked)
    }

    /// Its value in `environment`: what a client that evaluates many expressions against one
    /// state uses (the locale is read once, not on every evaluation).
    public func evaluate(in environment: ExpressionEnvironment) throws(ExpressionError) -> ExpressionValue {
        try ExpressionEvaluator(values: environment.values, locale: environment.locale).evaluate(checked)
    }

    /// The source.
    public var description: String { source }
}

/// The values expressions read and the reader's locale, prepared once for many evaluations.
public struct ExpressionEnvironment: Sendable {
    /// The variables' values.
    public var values: [String: ExpressionValue]
    /// The locale's conventions, read from its tag once.
    let locale: ExpressionLocale

    /// An environment of `values` for a reader in `locale` (a BCP 47 tag).
    public init(values: [String: ExpressionValue], locale: String = "en") {
        self.values = values
        self.locale = ExpressionLocale(locale)
    }
}

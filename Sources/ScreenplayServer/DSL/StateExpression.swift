public import ScreenplayContract

/// A Swift type an expression of the contract's language can have: what keeps a DSL expression's
/// type known to the compiler, so `count == "x"` for an int `count` does not compile.
public protocol ExpressionValueType: Sendable {
    /// Its type in the language.
    static var expressionType: ExpressionType { get }
    /// A value of it as the language writes it (a literal).
    var expressionLiteral: String { get }
    /// A value of it as a state variable holds it.
    var expressionValue: ExpressionValue { get }
}

extension Bool: ExpressionValueType {
    /// `bool`.
    public static var expressionType: ExpressionType { .bool }
    /// `true` or `false`.
    public var expressionLiteral: String { self ? "true" : "false" }
    /// The value.
    public var expressionValue: ExpressionValue { .bool(self) }
}

extension Int: ExpressionValueType {
    /// `int`.
    public static var expressionType: ExpressionType { .int }
    /// Digits (a negative value in parentheses, so it binds as one operand).
    public var expressionLiteral: String { self < 0 ? "(\(self))" : String(self) }
    /// The value.
    public var expressionValue: ExpressionValue { .int(self) }
}

extension Double: ExpressionValueType {
    /// `number`.
    public static var expressionType: ExpressionType { .number }
    /// Always with a fraction or exponent, so the language reads a number, not an int.
    public var expressionLiteral: String {
        let text = ExpressionValue.number(self).description
        let number = text.contains(".") || text.contains("e") ? text : text + ".0"
        return self < 0 ? "(\(number))" : number
    }
    /// The value.
    public var expressionValue: ExpressionValue { .number(self) }
}

extension String: ExpressionValueType {
    /// `string`.
    public static var expressionType: ExpressionType { .string }
    /// Quoted and escaped (``ScreenExpression/literal(_:)``).
    public var expressionLiteral: String { ScreenExpression.literal(self) }
    /// The value.
    public var expressionValue: ExpressionValue { .string(self) }
}

/// An expression of the language written in Swift, with its type in `Value`: built from
/// ``ScreenVariable``s, the client's variables (``ClientValues``), literals and the operators
/// below, it is checked by the compiler and written as the source the contract carries.
///
/// ```swift
/// let expanded = ScreenVariable("expanded", initial: false)
/// let count = ScreenVariable("count", initial: 0)
/// Text("Biography").visible(expanded)
/// Button(title: "More", action: expanded.toggle()).text(expanded.then("Less", else: "More"))
/// Text("").text(StateExpression("Count: ").appending(count.value.text)).visible(count.value.isMore(than: 2))
/// // count.value.is("x") does not compile: an int is compared with ints.
/// ```
public struct StateExpression<Value: ExpressionValueType>: Sendable, CustomStringConvertible {
    /// The source, as the contract carries it.
    public let source: String

    /// An expression from its source (what the operators build; a raw source is unchecked until
    /// the screen is decoded).
    public init(source: String) { self.source = source }

    /// A literal.
    public init(_ value: Value) { source = value.expressionLiteral }

    /// The source.
    public var description: String { source }

    /// The source in parentheses, for use as an operand.
    var operand: String { "(\(source))" }
}

/// A variable a screen declares, written in Swift: its declaration for the screen's `state`, and
/// the expression that reads it.
public struct ScreenVariable<Value: ExpressionValueType>: Sendable {
    /// Its name in the screen's state.
    public let name: String
    /// Its value on a fresh screen (or a first launch).
    public let initial: Value
    /// How long a value lives.
    public let scope: StateVariable.Scope

    /// A variable `name` starting at `initial`, for the screen's life or (`.app`) across launches.
    public init(_ name: String, initial: Value, scope: StateVariable.Scope = .screen) {
        self.name = name
        self.initial = initial
        self.scope = scope
    }

    /// What reads it.
    public var value: StateExpression<Value> { StateExpression(source: name) }

    /// Its declaration, for ``Screen/init(id:title:header:toolbar:menu:storage:entities:live:state:sections:)``.
    public var declaration: (String, StateVariable) {
        // The initial value is of `Value`'s type by construction.
        (name, try! StateVariable(Value.expressionType, initial: initial.expressionValue, scope: scope))
    }

    /// An action that sets it to `expression`, evaluated when tapped.
    public func set(to expression: StateExpression<Value>) -> Action { .set(.init(variable: name, value: expression.source)) }

    /// An action that sets it to `value`.
    public func set(to value: Value) -> Action { set(to: StateExpression(value)) }
}

extension ScreenVariable where Value == Bool {
    /// An action that flips it.
    public func toggle() -> Action { set(to: !value) }

    /// `ifTrue` while it is true, else `ifFalse`.
    public func then<Result: ExpressionValueType>(_ ifTrue: Result, else ifFalse: Result) -> StateExpression<Result> {
        value.then(ifTrue, else: ifFalse)
    }
}

/// The client's own variables, read-only, as typed expressions.
public enum ClientValues {
    /// The player's current track id (empty when nothing plays).
    public static let trackID = StateExpression<String>(source: "player.trackID")
    /// Whether the player is playing.
    public static let playing = StateExpression<Bool>(source: "player.playing")
    /// Where the player is, in seconds.
    public static let position = StateExpression<Double>(source: "player.position")
    /// The platform (`ios`, `android`, `web`).
    public static let platform = StateExpression<String>(source: "platform")
    /// Seconds since 1970.
    public static let now = StateExpression<Int>(source: "now")
    /// Whether the screen is shown by a client that runs its local actions (one that names its
    /// platform), not evaluated by the server for an old app or a page without its script (the
    /// platform is then empty). What is folded behind a `set` should be shown where nothing can
    /// unfold it: `.visible(unfolded || !ClientValues.runsLocalActions)`.
    public static let runsLocalActions = platform.isNot("")
}

// MARK: Operations, each typed as the language types it
//
// Methods rather than generic operator overloads: a public generic `==` or `+` would join every
// expression the Swift type checker solves in code that imports this module. `!`, `&&` and `||`
// take only boolean expressions, so they cost nothing elsewhere.

/// Not.
public prefix func ! (operand: StateExpression<Bool>) -> StateExpression<Bool> { StateExpression(source: "!\(operand.operand)") }
/// Both.
public func && (lhs: StateExpression<Bool>, rhs: StateExpression<Bool>) -> StateExpression<Bool> {
    StateExpression(source: "\(lhs.operand) && \(rhs.operand)")
}
/// Either.
public func || (lhs: StateExpression<Bool>, rhs: StateExpression<Bool>) -> StateExpression<Bool> {
    StateExpression(source: "\(lhs.operand) || \(rhs.operand)")
}

extension StateExpression {
    /// Whether it equals `other` (of the same type: an int is never compared with a string).
    public func `is`(_ other: StateExpression<Value>) -> StateExpression<Bool> { StateExpression<Bool>(source: "\(operand) == \(other.operand)") }
    /// Whether it equals `value`.
    public func `is`(_ value: Value) -> StateExpression<Bool> { self.is(StateExpression(value)) }
    /// Whether it differs from `value`.
    public func isNot(_ value: Value) -> StateExpression<Bool> { StateExpression<Bool>(source: "\(operand) != \(value.expressionLiteral)") }
}

/// A type arithmetic and ordering take: `Int` and `Double`.
public protocol NumericExpressionValue: ExpressionValueType {}
extension Int: NumericExpressionValue {}
extension Double: NumericExpressionValue {}

extension StateExpression where Value: NumericExpressionValue {
    /// Whether it is less than `value`.
    public func isLess(than value: Value) -> StateExpression<Bool> { StateExpression<Bool>(source: "\(operand) < \(value.expressionLiteral)") }
    /// Whether it is more than `value`.
    public func isMore(than value: Value) -> StateExpression<Bool> { StateExpression<Bool>(source: "\(operand) > \(value.expressionLiteral)") }
    /// It plus `value`.
    public func plus(_ value: Value) -> StateExpression<Value> { StateExpression(source: "\(operand) + \(value.expressionLiteral)") }
    /// It minus `value`.
    public func minus(_ value: Value) -> StateExpression<Value> { StateExpression(source: "\(operand) - \(value.expressionLiteral)") }
}

extension StateExpression where Value == Bool {
    /// `ifTrue` while this is true, else `ifFalse`.
    public func then<Result: ExpressionValueType>(_ ifTrue: StateExpression<Result>, else ifFalse: StateExpression<Result>) -> StateExpression<Result> {
        StateExpression<Result>(source: "\(operand) ? \(ifTrue.operand) : \(ifFalse.operand)")
    }

    /// `ifTrue` while this is true, else `ifFalse` (literals).
    public func then<Result: ExpressionValueType>(_ ifTrue: Result, else ifFalse: Result) -> StateExpression<Result> {
        then(StateExpression<Result>(ifTrue), else: StateExpression<Result>(ifFalse))
    }
}

extension StateExpression where Value == String {
    /// It followed by `other`.
    public func appending(_ other: StateExpression<String>) -> StateExpression<String> { StateExpression(source: "\(operand) + \(other.operand)") }
    /// It followed by `text`.
    public func appending(_ text: String) -> StateExpression<String> { appending(StateExpression(text)) }
    /// Whether `text` occurs in it.
    public func contains(_ text: StateExpression<String>) -> StateExpression<Bool> { StateExpression<Bool>(source: "contains(\(source), \(text.source))") }
    /// Lowercased.
    public var lowercased: StateExpression<String> { StateExpression(source: "lower(\(source))") }
    /// Without leading and trailing whitespace.
    public var trimmed: StateExpression<String> { StateExpression(source: "trim(\(source))") }
    /// Its length in Unicode code points.
    public var count: StateExpression<Int> { StateExpression<Int>(source: "len(\(source))") }
    /// Whether the text is one of `values` (`contains([…], text)`); none: false.
    public func isAny(of values: [String]) -> StateExpression<Bool> {
        guard !values.isEmpty else { return StateExpression<Bool>(false) }
        return StateExpression<Bool>(source: "contains([\(values.map(\.expressionLiteral).joined(separator: ", "))], \(source))")
    }
}

extension StateExpression where Value: NumericExpressionValue {
    /// As text with `decimals` decimals, grouped by the reader's locale.
    public func formatted(decimals: Int) -> StateExpression<String> { StateExpression<String>(source: "formatNumber(\(source), \(decimals))") }
    /// As a duration (`m:ss`, `h:mm:ss`).
    public var duration: StateExpression<String> { StateExpression<String>(source: "formatDuration(\(source))") }
    /// As text.
    public var text: StateExpression<String> { StateExpression<String>(source: "string(\(source))") }
}

// MARK: Components

extension Component {
    /// Shown only while `condition` is true (v6).
    public func visible(_ condition: StateExpression<Bool>) -> Component { computing(.visible, condition.source) }
    /// Shown only while `variable` is true (v6).
    public func visible(_ variable: ScreenVariable<Bool>) -> Component { visible(variable.value) }
    /// Its text computed (v6).
    public func text(_ text: StateExpression<String>) -> Component { computing(.text, text.source) }
    /// Usable only while `condition` is true (v6).
    public func enabled(_ condition: StateExpression<Bool>) -> Component { computing(.enabled, condition.source) }
    /// Marked the current one while `condition` is true (v6).
    public func selected(_ condition: StateExpression<Bool>) -> Component { computing(.selected, condition.source) }
    /// Its style token computed (v6).
    public func style(_ token: StateExpression<String>) -> Component { computing(.style, token.source) }
    /// A text field's verdict computed (v6): the message while the text is not acceptable (its
    /// submit disabled meanwhile), empty while it is.
    public func validation(_ message: StateExpression<String>) -> Component { computing(.validation, message.source) }
}

extension ComponentPayload {
    /// Shown only while `condition` is true (v6).
    public func visible(_ condition: StateExpression<Bool>) -> Component { component.visible(condition) }
    /// Shown only while `variable` is true (v6).
    public func visible(_ variable: ScreenVariable<Bool>) -> Component { component.visible(variable) }
    /// Its text computed (v6).
    public func text(_ text: StateExpression<String>) -> Component { component.text(text) }
    /// Usable only while `condition` is true (v6).
    public func enabled(_ condition: StateExpression<Bool>) -> Component { component.enabled(condition) }
    /// Marked the current one while `condition` is true (v6).
    public func selected(_ condition: StateExpression<Bool>) -> Component { component.selected(condition) }
    /// Its style token computed (v6).
    public func style(_ token: StateExpression<String>) -> Component { component.style(token) }
    /// A text field's verdict computed (v6).
    public func validation(_ message: StateExpression<String>) -> Component { component.validation(message) }
}

extension Dictionary where Key == String, Value == StateVariable {
    /// The declarations of `variables` (each a ``ScreenVariable``'s ``ScreenVariable/declaration``).
    public init(declaring variables: (String, StateVariable)...) {
        self.init(variables, uniquingKeysWith: { first, _ in first })
    }
}

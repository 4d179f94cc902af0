/// Why an expression was refused or stopped: its ``Kind`` (when it was found), a stable
/// ``code`` from the README, and a message that names what and where.
///
/// `syntax` and `type` errors are found when a screen is decoded (the binding keeps its static
/// value, and the decoding issue names its JSON path); `runtime` errors when it is evaluated
/// with the state of the moment (a division by a variable that is zero), after which the binding
/// likewise shows its static value.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// When an error is found.
    public enum Kind: String, Sendable, Hashable {
        /// The text is not an expression, or exceeds a limit of its size.
        case syntax
        /// It is an expression, but not one that can run with the declared variables.
        case type
        /// It ran, and the values it met stopped it.
        case runtime
    }

    /// When it was found.
    public let kind: Kind
    /// A stable name: `unexpectedToken`, `unknownVariable`, `divisionByZero`… (the README lists them).
    public let code: String
    /// What is wrong, in words.
    public let message: String
    /// Where in the source, in Unicode code points from its start; `nil` for the whole source.
    public let offset: Int?

    /// An error.
    public init(_ kind: Kind, _ code: String, _ message: String, at offset: Int? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// `type error at 4: unknownVariable: no variable 'nmae'`.
    public var description: String {
        "\(kind.rawValue) error" + (offset.map { " at \($0)" } ?? "") + ": \(message)"
    }
}

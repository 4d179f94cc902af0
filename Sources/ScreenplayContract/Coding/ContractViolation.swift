/// A value that parses as JSON but breaks a rule of the contract: a bad color, a link with a
/// forbidden scheme, an empty required text.
///
/// Thrown while decoding, it becomes a `DecodingError` at the offending field, so the lossy
/// decoder reports it with that field's JSON path and drops only the element that holds it.
public struct ContractViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in words that name the value.
    public let message: String

    /// Creates a violation with a message naming the bad value.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

/// Why ``PlainHTTPTransport`` could not bring back an answer, in words that name the server.
///
/// A struct with an open set of codes rather than an enum, so new failures can be told apart
/// later without breaking anyone who switches over them.
public struct PlainHTTPError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it was, for callers that react differently (retry a refused
    /// connection, never retry an `https://` URL).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The URL asks for TLS (`https://`), which a plain transport does not speak.
        public static let tlsRequired = Code(name: "tlsRequired")
        /// The request has no host or path to send to.
        public static let badRequest = Code(name: "badRequest")
        /// No connection: refused, unreachable, or no address for the host.
        public static let connectionFailed = Code(name: "connectionFailed")
        /// No whole answer (or no response head, for a stream) before the deadline.
        public static let timedOut = Code(name: "timedOut")
        /// The answer's body is over the size the caller allows.
        public static let responseTooLarge = Code(name: "responseTooLarge")
        /// The bytes that came back are not an HTTP/1.x response (or its head is over the
        /// parser's limit).
        public static let malformedResponse = Code(name: "malformedResponse")
        /// The server closed the connection before the answer ended.
        public static let closedEarly = Code(name: "closedEarly")

        /// The code's name, as in logs.
        public var description: String { name }
    }

    /// What kind of failure it was.
    public let code: Code
    /// What happened, naming the server (`127.0.0.1:8080`) and, where it helps, what to do.
    public let message: String

    /// A failure of kind `code` described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message alone: callers wrap it in their own context ("no answer from …: …").
    public var description: String { message }
}

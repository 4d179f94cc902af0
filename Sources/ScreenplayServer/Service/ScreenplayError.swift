public import HTTPTypes
public import ScreenplayContract

/// An error a Screenplay server answers with: an HTTP status and a JSON body that says what and
/// where.
///
/// Throw one from a screen builder or command handler for a 4xx (`.notFound(…)`,
/// `.invalidField(…)`). A struct with static constructors rather than an enum, so new cases
/// never break callers that switch on it.
public struct ScreenplayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status sent.
    public let status: HTTPResponse.Status
    /// Stable machine-readable code (`notFound`, `invalidField`…).
    public let code: String
    /// For people: what is wrong and where.
    public let message: String
    /// A JSON path into the request body or the request path, when one is to blame.
    public let path: String?
    /// For a 405: the methods the path does allow, sent as `Allow`.
    public let allow: String?
    /// For a 429: whole seconds to wait, sent as `Retry-After`.
    public let retryAfter: Int?

    /// Creates an error; prefer the static constructors.
    public init(
        status: HTTPResponse.Status, code: String, message: String, path: String? = nil, allow: String? = nil, retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.path = path
        self.allow = allow
        self.retryAfter = retryAfter
    }

    /// The body sent to clients.
    public var body: ErrorBody { ErrorBody(code: code, message: message, path: path) }

    /// `404 notFound: …`.
    public var description: String { "\(status.code) \(code): \(message)" + (path.map { " at \($0)" } ?? "") }

    /// No screen, command or record at this path.
    public static func notFound(_ message: String, path: String? = nil) -> ScreenplayError {
        ScreenplayError(status: .notFound, code: "notFound", message: message, path: path)
    }

    /// The request body is not JSON; the message says where it breaks.
    public static func malformedJSON(_ message: String) -> ScreenplayError {
        ScreenplayError(status: .badRequest, code: "malformedJSON", message: message, path: "$")
    }

    /// A body parsed but a field is missing, of the wrong type or out of range.
    public static func invalidField(_ field: String, _ message: String) -> ScreenplayError {
        ScreenplayError(status: .unprocessableContent, code: "invalidField", message: message, path: "$." + field)
    }

    /// The body is not `application/json`.
    public static func unsupportedMediaType(_ received: String?) -> ScreenplayError {
        ScreenplayError(
            status: .unsupportedMediaType, code: "unsupportedMediaType",
            message: "expected Content-Type application/json, got \(received.map { "'\($0)'" } ?? "none")", path: "Content-Type")
    }

    /// The body is longer than the server accepts.
    public static func payloadTooLarge(limit: Int) -> ScreenplayError {
        ScreenplayError(
            status: .contentTooLarge, code: "payloadTooLarge",
            message: "request body exceeds the limit of \(limit) bytes")
    }

    /// The path names an API version the server does not speak.
    public static func unsupportedVersion(_ requested: String, supported: ClosedRange<APIVersion>) -> ScreenplayError {
        ScreenplayError(
            status: .badRequest, code: "unsupportedAPIVersion",
            message:
                "API version '\(requested)' is not supported; supported versions are \(supported.lowerBound) through \(supported.upperBound)"
        )
    }

    /// The client's identity token is malformed.
    public static func invalidToken(_ message: String) -> ScreenplayError {
        ScreenplayError(status: .unauthorized, code: "invalidToken", message: message)
    }

    /// The token is well formed but names nobody: never issued here, or revoked.
    public static func unknownToken(_ message: String) -> ScreenplayError {
        ScreenplayError(status: .unauthorized, code: "unknownToken", message: message)
    }

    /// Too many requests of this kind from this client; `retryAfter` whole seconds until the next.
    public static func tooManyRequests(_ message: String, retryAfter seconds: Int) -> ScreenplayError {
        ScreenplayError(status: .tooManyRequests, code: "tooManyRequests", message: message, retryAfter: seconds)
    }

    /// The method is not allowed on this path.
    public static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: String, path: String? = nil) -> ScreenplayError {
        ScreenplayError(
            status: .methodNotAllowed, code: "methodNotAllowed", message: "\(method) is not allowed here; use \(allowed)", path: path,
            allow: allowed)
    }

    /// A browser request carrying the session cookie that did not come from this site's own
    /// pages (cross-site, another origin, or a body type a plain form can send).
    public static func crossSiteRequest(_ message: String) -> ScreenplayError {
        ScreenplayError(status: .forbidden, code: "crossSiteRequest", message: message)
    }

    /// The code of a 503 that promises nothing was written (the database was unreachable before
    /// the command could commit): an idempotent command's retry runs it again rather than
    /// replaying the failure.
    public static let storeUnavailableCode = "storeUnavailable"

    /// A 503: something the server needs (its database) is unreachable for now; the client
    /// retries after `retryAfter` seconds.
    public static func unavailable(code: String, _ message: String, retryAfter: Int = 1) -> ScreenplayError {
        ScreenplayError(status: .serviceUnavailable, code: code, message: message, retryAfter: retryAfter)
    }

    /// Something failed on the server; the cause is logged, not sent.
    public static func internalError(_ message: String) -> ScreenplayError {
        ScreenplayError(status: .internalServerError, code: "internalError", message: message)
    }
}

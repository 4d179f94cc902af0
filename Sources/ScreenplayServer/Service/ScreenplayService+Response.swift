public import HTTPTypes
import ScreenplayContract

extension ScreenplayService {
    /// A response ready to send.
    public struct Response: Sendable {
        /// Status and headers.
        public var head: HTTPResponse
        /// The body bytes (empty for 304).
        public var body: [UInt8]

        /// A response: for hosts that answer beside the service in the same shape (the admin).
        public init(head: HTTPResponse, body: [UInt8]) {
            self.head = head
            self.body = body
        }
    }

    /// The JSON error response for `error`.
    public static func errorResponse(_ error: ScreenplayError) -> Response {
        let bytes =
            (try? ScreenplayEncoder().encode(error.body)).map(Array.init)
            ?? Array(#"{"error":{"code":"internalError","message":"?"}}"#.utf8)
        var head = HTTPResponse(status: error.status)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[Self.contentTypeOptions] = "nosniff"
        if let allow = error.allow { head.headerFields[.allow] = allow }
        if let seconds = error.retryAfter { head.headerFields[.retryAfter] = String(seconds) }
        return Response(head: head, body: bytes)
    }

    /// The `200` head every JSON answer of the API starts from: never sniffed.
    static func jsonHead(cacheControl: String) -> HTTPResponse {
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = cacheControl
        head.headerFields[Self.contentTypeOptions] = "nosniff"
        return head
    }
}

/// Lets an app's own error types choose their HTTP status and message.
public protocol ScreenplayErrorConvertible: Error {
    /// The error to answer with.
    var screenplayError: ScreenplayError { get }
}

import HTTPTypes
public import Logging
public import NIOCore
import NIOHTTP1
public import NIOHTTPTypes
import ScreenplayServer

/// Gives the requests Hummingbird refuses before any route runs (a head over the size limit, a
/// request line or header the parser rejects) the same JSON error body every other refusal has,
/// and logs them. Without it they get an empty 400 and nothing is logged.
///
/// It sits in the channel pipeline after the HTTP decoder: it sees the parser's error on its way
/// in, then rewrites the bodiless `400` Hummingbird writes for it on its way out, as a `431`
/// (head too large) or a `400` naming what was wrong, with code, message and path.
public final class MalformedRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests pass through untouched.
    public typealias InboundIn = HTTPRequestPart
    /// Requests pass through untouched.
    public typealias InboundOut = HTTPRequestPart
    /// Responses, of which only the framework's bodiless refusal is rewritten.
    public typealias OutboundIn = HTTPResponsePart
    /// Responses, of which only the framework's bodiless refusal is rewritten.
    public typealias OutboundOut = HTTPResponsePart

    private let logger: Logger
    /// The parser's complaint, between its error and the framework's answer to it.
    private var parserError: HTTPParserError?
    /// The JSON body to send in place of the empty one, once the head has been rewritten.
    private var pendingBody: [UInt8]?

    /// A handler for one connection (handlers are per channel), logging refusals to `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Notes a parser error and passes it on to the framework, which answers and closes.
    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError { parserError = error }
        context.fireErrorCaught(error)
    }

    /// Rewrites the framework's answer to a parser error; everything else passes unchanged.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Every response passes here: without a parser error, nothing to look at.
        guard parserError != nil || pendingBody != nil else {
            context.write(data, promise: promise)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(let head) where parserError != nil && head.status == .badRequest && head.headerFields[.contentLength] == "0":
            let error = Self.screenplayError(for: parserError!)
            parserError = nil
            logger.notice(
                "refused a malformed request",
                metadata: [
                    "code": "\(error.code)", "status": "\(error.status.code)", "peer": "\(context.remoteAddress?.description ?? "?")",
                ])
            let answer = ScreenplayService.errorResponse(error)
            var rewritten = answer.head
            rewritten.headerFields[.connection] = "close"
            rewritten.headerFields[.contentLength] = String(answer.body.count)
            pendingBody = answer.body
            context.write(wrapOutboundOut(.head(rewritten)), promise: promise)
        case .end(let trailers) where pendingBody != nil:
            let body = pendingBody!
            pendingBody = nil
            context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }

    /// What the client is told for each parser complaint: the limits it went over, or the part
    /// of the request that could not be read.
    static func screenplayError(for error: HTTPParserError) -> ScreenplayError {
        switch error {
        case .headerOverflow:
            return ScreenplayError(
                status: .requestHeaderFieldsTooLarge, code: "requestHeadTooLarge",
                message:
                    "the request line and headers exceed the server's limit (\(HTTPHeadLimits.fieldBytes / 1024) KiB a field, \(HTTPHeadLimits.totalBytes / 1024) KiB in all, \(HTTPHeadLimits.fieldCount) fields)",
                path: "request head")
        case .invalidMethod:
            return ScreenplayError(
                status: .badRequest, code: "badRequest", message: "the request method could not be read", path: "request line")
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            return ScreenplayError(
                status: .badRequest, code: "badRequest", message: "the request target could not be read", path: "request line")
        case .invalidVersion:
            return ScreenplayError(
                status: .badRequest, code: "badRequest", message: "the HTTP version could not be read", path: "request line")
        case .invalidContentLength, .unexpectedContentLength, .invalidChunkSize:
            return ScreenplayError(
                status: .badRequest, code: "badRequest", message: "the body's length could not be read", path: "Content-Length")
        default:
            return ScreenplayError(
                status: .badRequest, code: "badRequest", message: "the request is not valid HTTP/1.1 (\(error))", path: "request head")
        }
    }
}

/// The request-head limits the server's parser enforces (Hummingbird's defaults: 80 KiB a field,
/// 80 KiB in all, 1 000 fields), named so that the refusal can state them.
public enum HTTPHeadLimits {
    /// The longest single header field.
    public static let fieldBytes = 80 * 1024
    /// All header fields together.
    public static let totalBytes = 80 * 1024
    /// The most header fields.
    public static let fieldCount = 1_000
}

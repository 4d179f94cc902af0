import HTTPTypes
public import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ScreenplayServer

/// Gives every error a host's own routes and the framework answer the JSON body the service's
/// errors have, `{"error": {"code", "message", "path"}}`: a ``ScreenplayError`` thrown by a
/// route, Hummingbird's `HTTPError` (its bodies carry no `code`, and none at all without a
/// message), the router's empty `404` for a path nothing answers, an error response a route
/// returns without a body, and any other error (a logged `500`, the cause not sent).
///
/// Add it to the router before anything else (middleware applies to the routes added after it,
/// and to the router's own `404`), so clients of every route read one error shape. Answers
/// that carry their own body (the service's JSON, the site's HTML 404 page) pass untouched.
public struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    public init() {}

    /// Passes the request on, and turns what comes back as an error into a JSON error answer.
    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as ScreenplayError {
            return Self.answer(error, to: request)
        } catch let error as HTTPError {
            var answer = Self.answer(status: error.status, message: error.body, to: request)
            for field in error.headers where answer.headers[field.name] == nil { answer.headers.append(field) }
            return answer
        } catch let error as HTTPParserError {
            // A request the parser gave up on mid-body: the channel answers it and closes.
            throw error
        } catch let error as any HTTPResponseError {
            return Self.answer(status: error.status, message: nil, to: request)
        } catch {
            context.logger.error("a route failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return Self.answer(.internalError("the server failed to answer this request"), to: request)
        }
        guard response.status.code >= 400, response.headers[.contentType] == nil, response.body.contentLength == 0 else { return response }
        var answer = Self.answer(status: response.status, message: nil, to: request)
        for field in response.headers where answer.headers[field.name] == nil { answer.headers.append(field) }
        return answer
    }

    /// The JSON answer for a bare status: the code ``code(for:)`` names, `message` or one made
    /// up for the status.
    static func answer(status: HTTPResponse.Status, message: String?, to request: Request) -> Response {
        let message = message ?? Self.message(for: status, request: request)
        return answer(ScreenplayError(status: status, code: code(for: status), message: message), to: request)
    }

    /// The JSON answer to `error`; a `HEAD` gets its head alone.
    static func answer(_ error: ScreenplayError, to request: Request) -> Response {
        let response = ScreenplayResponder.response(ScreenplayService.errorResponse(error))
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The code for a status nothing named: the ones the service uses where it has one.
    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: "badRequest"
        case 401: "unauthorized"
        case 403: "forbidden"
        case 404: "notFound"
        case 405: "methodNotAllowed"
        case 408: "requestTimeout"
        case 409: "conflict"
        case 413: "payloadTooLarge"
        case 415: "unsupportedMediaType"
        case 416: "rangeNotSatisfiable"
        case 429: "tooManyRequests"
        case 500: "internalError"
        case 501: "notImplemented"
        case 503: "unavailable"
        default: "http\(status.code)"
        }
    }

    /// A message for an error that came with none: for a `404`, the path nothing answers.
    static func message(for status: HTTPResponse.Status, request: Request) -> String {
        guard status.code == 404 else { return status.reasonPhrase.lowercased() }
        let path = request.uri.path
        return "nothing is at '\(path.count > 200 ? String(path.prefix(200)) + "…" : path)'"
    }
}

import HTTPTypes
import Hummingbird
import NIOCore
import ScreenplayClientNIO
import ScreenplayTestSupport

/// One answer as the tests read it: status, fields and the whole body.
struct LoopbackResponse {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: ByteBuffer
}

/// Sends requests to a server on loopback, each on a connection of its own (the project's own
/// plain HTTP/1.1 transport, so these tests build no HTTPS client).
struct LoopbackClient {
    let port: Int

    /// Sends `method uri` with `headers` and `body`, and hands the answer to `check`.
    @discardableResult
    func execute<Result>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        _ check: (LoopbackResponse) async throws -> Result
    ) async throws -> Result {
        let request = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1:\(port)", path: uri, headerFields: headers)
        let (head, bytes) = try await PlainHTTPTransport().send(request, body: body.map { Array($0.readableBytesView) })
        return try await check(LoopbackResponse(status: head.status, headers: head.headerFields, body: ByteBuffer(bytes: bytes)))
    }
}

/// Serves `router` on a free loopback port for `body`, then stops it gracefully.
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>, _ body: (LoopbackClient) async throws -> Result
) async throws -> Result {
    try await withLoopbackServer(router) { (port: Int) in try await body(LoopbackClient(port: port)) }
}

#if https
public import AsyncHTTPClient
public import HTTPTypes
public import NIOCore
import NIOHTTP1
public import ScreenplayClient

/// The Linux and server-side transport, over AsyncHTTPClient.
///
/// URLSession on Linux neither caches nor revalidates, and the client core wants a plain pipe
/// anyway: this one sends exactly the headers it is given and returns 304s as 304s.
public struct AsyncHTTPClientTransport: ScreenTransport {
    let client: HTTPClient
    let timeout: TimeAmount
    let maximumResponseSize: Int

    /// Creates a transport over `client` (the shared one by default).
    ///
    /// - Parameters:
    ///   - timeout: Per-request deadline.
    ///   - maximumResponseSize: Responses larger than this fail instead of exhausting memory.
    public init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(30), maximumResponseSize: Int = 32 * 1024 * 1024) {
        self.client = client
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends the request and collects the body (up to the size limit).
    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> (HTTPResponse, [UInt8]) {
        var outgoing = Self.outgoing(request)
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: timeout)
        let buffer = try await response.body.collect(upTo: maximumResponseSize)
        return (Self.head(of: response), Array(buffer.readableBytesView))
    }

    static func outgoing(_ request: HTTPRequest) -> HTTPClientRequest {
        let scheme = request.scheme ?? "http"
        var outgoing = HTTPClientRequest(url: "\(scheme)://\(request.authority ?? "localhost")\(request.path ?? "/")")
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headerFields { outgoing.headers.add(name: field.name.rawName, value: field.value) }
        return outgoing
    }

    static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return HTTPResponse(status: .init(code: Int(response.status.code)), headerFields: fields)
    }
}

extension AsyncHTTPClientTransport: EventStreamTransport {
    /// Opens a long-lived response: `timeout` bounds the wait for its head, not its life (the
    /// server's heartbeats and idle close bound that); cancelling the reader closes it.
    public func open(_ request: HTTPRequest) async throws -> (HTTPResponse, EventStreamBody) {
        let response = try await client.execute(Self.outgoing(request), deadline: .now() + .hours(24 * 365))
        return (Self.head(of: response), response.body.map { Array($0.readableBytesView) })
    }
}
#else
/// Built without Screenplay's `https` trait, this module has no transport: AsyncHTTPClient and
/// its TLS stack are compiled only when asked for, so that building the package (its tests
/// included) does not compile an HTTPS client nothing uses. Using the type says how to ask.
@available(*, unavailable, message: "AsyncHTTPClientTransport is built with Screenplay's `https` trait: .package(url: …, traits: [\"https\"])")
public struct AsyncHTTPClientTransport {}
#endif

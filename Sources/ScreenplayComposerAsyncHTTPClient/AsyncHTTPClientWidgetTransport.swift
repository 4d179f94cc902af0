#if https
public import AsyncHTTPClient
import NIOCore
import NIOHTTP1
public import ScreenplayComposer

/// Calls remote widget providers with AsyncHTTPClient: TLS, pooled connections, redirects off.
///
/// The transport for providers across a network. It lives in its own module so that a server
/// whose providers are all in process, or on loopback (``PlainHTTPWidgetTransport`` in
/// `ScreenplayHummingbird`), never compiles or links AsyncHTTPClient and its TLS stack.
public struct AsyncHTTPClientWidgetTransport: WidgetHTTPTransport {
    let client: HTTPClient

    /// A transport over `client` (the shared one by default). The caller owns `client`'s lifetime.
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    /// POSTs `body` and collects at most `maximumBytes` of the answer before `deadline`.
    public func post(
        url: String, body: [UInt8], deadline: ContinuousClock.Instant, maximumBytes: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let left = deadline - .now
        guard left > .zero else { throw RemoteProviderError.timedOut }
        let timeout = TimeAmount.milliseconds(max(1, left.wholeMilliseconds))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: timeout)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw RemoteProviderError.timedOut
        }
        var bytes: [UInt8] = []
        for try await buffer in response.body {
            guard bytes.count + buffer.readableBytes <= maximumBytes else { throw RemoteProviderError.tooLarge(limit: maximumBytes) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return (Int(response.status.code), bytes)
    }
}
#else
/// Built without Screenplay's `https` trait, this module has no transport: AsyncHTTPClient and
/// its TLS stack are compiled only when asked for, so that building the package (its tests
/// included) does not compile an HTTPS client nothing uses. Using the type says how to ask.
@available(*, unavailable, message: "AsyncHTTPClientWidgetTransport is built with Screenplay's `https` trait: .package(url: …, traits: [\"https\"])")
public struct AsyncHTTPClientWidgetTransport {}
#endif

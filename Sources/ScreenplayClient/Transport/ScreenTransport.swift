public import HTTPTypes

/// Sends one HTTP request and returns the response with its whole body.
///
/// The client core owns caching, revalidation and decoding, so a transport is only a pipe:
/// AsyncHTTPClient on Linux and servers, URLSession (no URL cache) on Apple platforms, an
/// in-memory fake in tests. A 304 must come back as a 304, not be turned into a cached 200.
public protocol ScreenTransport: Sendable {
    /// Sends `request` (with `body` for POSTs) and returns status, headers and body.
    func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> (HTTPResponse, [UInt8])
}

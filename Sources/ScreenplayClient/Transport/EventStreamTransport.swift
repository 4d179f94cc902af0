public import HTTPTypes

/// The bytes of a response that goes on until one side ends it (an event stream), as they arrive.
/// Iterating stops when the server ends the response or the connection drops (with an error);
/// cancelling the task that iterates closes the connection.
public typealias EventStreamBody = any AsyncSequence<[UInt8], any Error> & Sendable

/// Opens a long-lived response and hands over its bytes as they arrive, for the server's event
/// stream (`GET /api/v{N}/events`).
///
/// A separate protocol from ``ScreenTransport``, whose answers are whole: a transport that cannot
/// stream (a test fake, a platform without it) simply does not conform, and the client falls back
/// to revalidating when the user acts.
public protocol EventStreamTransport: Sendable {
    /// Sends `request` and returns the response head as soon as it arrives, with the body to read.
    func open(_ request: HTTPRequest) async throws -> (HTTPResponse, EventStreamBody)
}

public import HTTPTypes
import NIOCore
import NIOHTTPTypes
public import ScreenplayClient

extension PlainHTTPTransport: EventStreamTransport {
    /// Opens a long-lived response (the server's event stream) and hands over its bytes as they
    /// arrive.
    ///
    /// The transport's timeout bounds the wait for the response head, not the stream's life (the
    /// server's heartbeats and idle close bound that). The body ends when the server ends the
    /// response, throws ``PlainHTTPError`` when the connection drops first, and closes the
    /// connection when its reader stops (cancelled, or the body is dropped).
    public func open(_ request: HTTPRequest) async throws -> (HTTPResponse, EventStreamBody) {
        let server = try Server(of: request)
        let outgoing = Self.outgoing(request, bodySize: nil)
        let deadline = ContinuousClock.now + timeout
        let timeout = self.timeout
        let channel = try await Self.connect(to: server, group: group, timeout: timeout)
        let (heads, head) = AsyncThrowingStream<HTTPResponse, any Error>.makeStream()
        let (body, bytes) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        // The connection belongs to one reader task: it hands the head over once, then the body's
        // pieces, and any failure to whichever of the two is still waiting.
        let reader = Task {
            do {
                try await server.translatingErrors {
                    try await channel.executeThenClose { inbound, outbound in
                        // One write, as for any request: the server may answer before a second.
                        try await outbound.write(contentsOf: [HTTPRequestPart.head(outgoing), .end(nil)])
                        for try await part in inbound {
                            switch part {
                            case .head(let response):
                                head.yield(response)
                                head.finish()
                            case .body(let buffer):
                                bytes.yield(Array(buffer.readableBytesView))
                            case .end:
                                bytes.finish()
                                return
                            }
                        }
                        throw PlainHTTPError(.closedEarly, "\(server) closed the connection before its answer ended")
                    }
                }
            } catch {
                head.finish(throwing: error)
                bytes.finish(throwing: error)
            }
        }
        bytes.onTermination = { _ in reader.cancel() }
        do {
            let response = try await Self.answer(
                by: deadline, orThrow: { PlainHTTPError(.timedOut, "\(server) sent no response head within \(timeout)") }
            ) {
                for try await response in heads { return response }
                throw PlainHTTPError(.closedEarly, "\(server) closed the connection before its response head")
            }
            return (response, body)
        } catch {
            reader.cancel()
            throw error
        }
    }
}

public import HTTPTypes
public import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
public import ScreenplayClient

/// Sends the client core's requests over plain HTTP/1.1 on SwiftNIO: no TLS stack, one
/// connection per request.
///
/// For clients on Linux and servers that talk to a server on loopback or a private network (the
/// `screenplay render` command, tests, sidecars) and should not build a TLS stack they never
/// use: SwiftNIO is already part of any Screenplay server. Across the internet, use a TLS
/// transport (`AsyncHTTPClientTransport` in `ScreenplayClientAsyncHTTPClient`); this one refuses
/// `https://` with ``PlainHTTPError/Code/tlsRequired`` rather than sending anything in clear.
///
/// Like every ``ScreenTransport`` it is a pipe: it sends exactly the headers it is given (plus
/// `Host`, `Content-Length` and `Connection: close`), follows no redirects and caches nothing,
/// so a 304 reaches the client core as a 304.
public struct PlainHTTPTransport: ScreenTransport {
    let group: any EventLoopGroup
    let timeout: Duration
    let maximumResponseSize: Int

    /// A transport on NIO's shared event loops (a server's own, when it runs in one).
    ///
    /// - Parameters:
    ///   - timeout: How long one request may take from connecting to the end of its answer (for
    ///     an event stream: until its response head).
    ///   - maximumResponseSize: Bodies larger than this fail with
    ///     ``PlainHTTPError/Code/responseTooLarge`` as soon as they pass it, instead of filling
    ///     memory.
    public init(timeout: Duration = .seconds(30), maximumResponseSize: Int = 32 * 1024 * 1024) {
        self.init(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, timeout: timeout, maximumResponseSize: maximumResponseSize)
    }

    /// A transport on `eventLoopGroup`, with the same limits as ``init(timeout:maximumResponseSize:)``.
    public init(eventLoopGroup: any EventLoopGroup, timeout: Duration = .seconds(30), maximumResponseSize: Int = 32 * 1024 * 1024) {
        self.group = eventLoopGroup
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends `request` (with `body` for POSTs) and returns the response with its whole body, or
    /// throws ``PlainHTTPError``.
    public func send(_ request: HTTPRequest, body: [UInt8]?) async throws -> (HTTPResponse, [UInt8]) {
        let server = try Server(of: request)
        let outgoing = Self.outgoing(request, bodySize: body?.count)
        let deadline = ContinuousClock.now + timeout
        let (group, limit, timeout) = (self.group, maximumResponseSize, self.timeout)
        return try await Self.answer(by: deadline, orThrow: { PlainHTTPError(.timedOut, "\(server) sent no whole answer within \(timeout)") }) {
            try await Self.exchange(outgoing, body: body, with: server, group: group, connectTimeout: timeout, limit: limit)
        }
    }

    /// One request and its whole answer on a connection of its own.
    private static func exchange(
        _ request: HTTPRequest, body: [UInt8]?, with server: Server, group: any EventLoopGroup, connectTimeout: Duration, limit: Int
    ) async throws -> (HTTPResponse, [UInt8]) {
        let channel = try await connect(to: server, group: group, timeout: connectTimeout)
        return try await server.translatingErrors {
            try await channel.executeThenClose { inbound, outbound in
                // One write for the whole request: a server may answer as soon as it has the head
                // (or the last body byte) and close, and a part written after that close would
                // fail with the answer already on its way in.
                var parts: [HTTPRequestPart] = [.head(request)]
                if let body { parts.append(.body(ByteBuffer(bytes: body))) }
                parts.append(.end(nil))
                try await outbound.write(contentsOf: parts)
                var head: HTTPResponse?
                var bytes: [UInt8] = []
                for try await part in inbound {
                    switch part {
                    case .head(let response):
                        head = response
                    case .body(let buffer):
                        guard bytes.count + buffer.readableBytes <= limit else {
                            throw PlainHTTPError(.responseTooLarge, "the answer from \(server) is over \(limit) bytes")
                        }
                        bytes.append(contentsOf: buffer.readableBytesView)
                    case .end:
                        guard let head else { break }
                        return (head, bytes)
                    }
                }
                throw PlainHTTPError(.closedEarly, "\(server) closed the connection before its answer ended")
            }
        }
    }

    /// The request as sent: the caller's headers plus the body's length and `Connection: close`
    /// (one request per connection, so the end of the answer is never in doubt).
    static func outgoing(_ request: HTTPRequest, bodySize: Int?) -> HTTPRequest {
        var outgoing = request
        if let bodySize { outgoing.headerFields[.contentLength] = String(bodySize) }
        outgoing.headerFields[.connection] = "close"
        return outgoing
    }

    /// A connected channel that speaks HTTPTypes' request and response parts.
    static func connect(
        to server: Server, group: any EventLoopGroup, timeout: Duration
    ) async throws -> NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart> {
        do {
            return try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .connect(host: server.host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                        return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw PlainHTTPError(.connectionFailed, "could not connect to \(server): \(Server.reason(error))")
        }
    }
}

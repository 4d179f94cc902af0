import Foundation
public import NIOCore
import NIOHTTP1
import NIOPosix
public import ScreenplayComposer

/// Calls remote widget providers over plain HTTP/1.1 on SwiftNIO: no TLS, one connection per call.
///
/// For providers on loopback or a private network (the demo's promotions service, a sidecar),
/// and for servers that should not link a TLS stack they never use. Providers across a network
/// belong behind TLS: use the AsyncHTTPClient transport (`ScreenplayComposerAsyncHTTPClient`).
/// Only `http://` URLs are accepted.
public struct PlainHTTPWidgetTransport: WidgetHTTPTransport {
    let group: any EventLoopGroup

    /// A transport on NIO's shared event loops (the server's own).
    public init() {
        self.group = MultiThreadedEventLoopGroup.singleton
    }

    /// A transport on `eventLoopGroup`.
    public init(eventLoopGroup: any EventLoopGroup) {
        self.group = eventLoopGroup
    }

    /// POSTs `body` and reads the whole answer, or throws ``RemoteProviderError`` (timed out,
    /// too large, bad URL) or the connection's error.
    public func post(
        url: String, body: [UInt8], deadline: ContinuousClock.Instant, maximumBytes: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        guard let parsed = URL(string: url), parsed.scheme == "http", let host = parsed.host, !host.isEmpty else {
            throw RemoteProviderError.badURL(url)
        }
        let port = parsed.port ?? 80
        let path = parsed.path.isEmpty ? "/" : parsed.path + (parsed.query.map { "?" + $0 } ?? "")
        let group = self.group
        return try await withThrowingTaskGroup(of: (status: Int, body: [UInt8])?.self) { tasks in
            tasks.addTask {
                try await Self.exchange(
                    group: group, host: host, port: port, path: path, body: body, deadline: deadline, maximumBytes: maximumBytes)
            }
            tasks.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { tasks.cancelAll() }
            do {
                guard let first = try await tasks.next(), let answer = first else { throw RemoteProviderError.timedOut }
                return answer
            } catch let error as RemoteProviderError {
                throw error
            } catch let error as CancellationError {
                // The caller gave up: theirs to say, not the provider's lateness.
                throw error
            } catch {
                // The deadline met while connecting (NIO's connect timeout is the deadline too), or
                // a failure that only arrived once the time was up, is the provider's lateness:
                // said in the same words whichever of the two tasks saw it first.
                if case ChannelError.connectTimeout = error { throw RemoteProviderError.timedOut }
                if ContinuousClock.now >= deadline { throw RemoteProviderError.timedOut }
                throw error
            }
        }
    }

    private static func exchange(
        group: any EventLoopGroup, host: String, port: Int, path: String, body: [UInt8], deadline: ContinuousClock.Instant,
        maximumBytes: Int
    ) async throws -> (status: Int, body: [UInt8]) {
        let left = deadline - .now
        let timeout = TimeAmount.milliseconds(max(1, left.wholeMilliseconds))
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
            head.headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(body.count))
            head.headers.add(name: "Connection", value: "close")
            // One write for the whole request: the provider may answer and close before a second.
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(ByteBuffer(bytes: body))), .end(nil)])
            var status = 0
            var bytes: [UInt8] = []
            for try await part in inbound {
                switch part {
                case .head(let response):
                    status = Int(response.status.code)
                case .body(let buffer):
                    guard bytes.count + buffer.readableBytes <= maximumBytes else {
                        throw RemoteProviderError.tooLarge(limit: maximumBytes)
                    }
                    bytes.append(contentsOf: buffer.readableBytesView)
                case .end:
                    return (status, bytes)
                }
            }
            throw RemoteProviderError.status(status, excerpt: "the connection closed before the answer ended")
        }
    }
}

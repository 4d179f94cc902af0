public import HummingbirdCore
public import Logging
public import NIOCore
import ScreenplayServer

/// Hummingbird's HTTP/1 channel with what Screenplay adds to each connection:
///
/// - before anything else, the per-address cap (``ConnectionLimits/maximumConnectionsPerAddress``):
///   a connection over its address's share gets no HTTP pipeline at all, only a short `503`
///   written by ``RefusedConnection`` and a close, and its ``Value`` is ``Value/refused(_:)``,
///   which ``handle(value:logger:)`` returns from at once. A client reconnecting in a loop then
///   costs an accept, one write and a close, not a parser, an async channel and a request loop;
/// - then the request-head deadline (``ConnectionLimits/headerTimeout``): a head that does not
///   arrive in time is answered `408` and closed;
/// - after the connection-state handler, the early revalidations (``RevalidationHandler``), so
///   the idle timeout sees the requests answered there (`additionalChannelHandlers` go before
///   it).
///
/// Made by ``ConnectionLimits/server(logger:revalidations:serverName:)``, which shares one count
/// of connections per address among all of the server's connections.
public struct ScreenplayHTTP1Channel: ServerChildChannel {
    /// One accepted connection: served as Hummingbird serves HTTP/1, or refused at the door.
    public enum Value: ServerChildChannelValue {
        /// An admitted connection, with the framework's channel value.
        case served(HTTP1Channel.Value)
        /// A connection over its address's share: answered `503` and closed, nothing read.
        case refused(any Channel)

        /// The accepted connection's channel.
        public var channel: any Channel {
            switch self {
            case .served(let value): value.channel
            case .refused(let channel): channel
            }
        }
    }

    let base: HTTP1Channel
    let memory: RevalidationMemory?
    let headerTimeout: Duration?
    let perAddress: ConnectionsPerAddress?
    let serverName: String?

    /// Counts the connection against its address, then either refuses it (a bare pipeline) or
    /// sets up `base`'s pipeline and adds Screenplay's handlers around it.
    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // The peer is known from the accept, before the channel is registered or active.
        if let perAddress, let peer = PeerAddress(channel.remoteAddress) {
            guard perAddress.admit(peer) else {
                let refusal = RefusedConnection(limit: perAddress.limit, serverName: serverName)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(refusal)
                    return .refused(channel)
                }
            }
            // Released however the connection ends, including a setup that fails below.
            channel.closeFuture.whenComplete { _ in perAddress.release(peer) }
        }
        let (memory, headerTimeout, serverName) = (memory, headerTimeout, serverName)
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            if let memory {
                try operations.addHandler(RevalidationHandler(memory: memory, serverName: serverName), position: .after(state))
            }
            if let headerTimeout {
                let timeout = RequestHeadTimeout(timeout: headerTimeout, serverName: serverName)
                try operations.addHandler(timeout.partWatcher(), position: .before(state))
                try operations.addHandler(timeout, position: .first)
            }
            return .served(value)
        }
    }

    /// Handles an admitted connection's requests as `base` does; a refused one has nothing left
    /// to do (its handler answers and closes it on the event loop).
    public func handle(value: Value, logger: Logger) async {
        guard case .served(let served) = value else { return }
        await base.handle(value: served, logger: logger)
    }
}

public import HummingbirdCore
public import Logging
public import NIOCore
import ScreenplayServer

/// Hummingbird's HTTP/1 channel with what Screenplay adds to each connection's pipeline:
///
/// - first, the per-address cap (``ConnectionLimits/maximumConnectionsPerAddress``): a connection
///   over its address's share is answered `503` and closed before anything is parsed;
/// - then the request-head deadline (``ConnectionLimits/headerTimeout``): a head that does not
///   arrive in time is answered `408` and closed;
/// - after the connection-state handler, the early revalidations (``RevalidationHandler``), so
///   the idle timeout sees the requests answered there (`additionalChannelHandlers` go before
///   it).
///
/// Made by ``ConnectionLimits/server(logger:revalidations:serverName:)``, which shares one count
/// of connections per address among all of the server's connections.
public struct ScreenplayHTTP1Channel: ServerChildChannel {
    /// The framework's channel value: requests are handled as usual.
    public typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let memory: RevalidationMemory?
    let headerTimeout: Duration?
    let perAddress: ConnectionsPerAddress?
    let serverName: String?

    /// Sets up `base`'s pipeline, then adds Screenplay's handlers around it.
    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let (memory, headerTimeout, perAddress, serverName) = (memory, headerTimeout, perAddress, serverName)
        return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let state = try operations.handler(type: HTTPConnectionStateHandler.self)
            if let memory {
                try operations.addHandler(RevalidationHandler(memory: memory, serverName: serverName), position: .after(state))
            }
            // Added to the front in reverse: the gate ends up first, before the head's timer.
            if let headerTimeout {
                let timeout = RequestHeadTimeout(timeout: headerTimeout, serverName: serverName)
                try operations.addHandler(timeout.partWatcher(), position: .before(state))
                try operations.addHandler(timeout, position: .first)
            }
            if let perAddress {
                try operations.addHandler(AddressConnectionGate(counts: perAddress, serverName: serverName), position: .first)
            }
            return value
        }
    }

    /// Handles requests as `base` does.
    public func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

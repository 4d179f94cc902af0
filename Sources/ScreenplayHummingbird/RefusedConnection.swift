import HTTPTypes
import NIOCore
import ScreenplayServer

/// The whole pipeline of a connection refused by the per-address cap (``ConnectionsPerAddress``,
/// checked in ``ScreenplayHTTP1Channel/setup(channel:logger:)``): as soon as the connection is
/// active it is answered a short `503` (JSON, code `tooManyConnections`, `Retry-After`) and
/// closed; whatever the client sends is dropped unread.
///
/// Refusing at once, rather than leaving the connection waiting as the server-wide cap does, is
/// what keeps one address from filling that cap: its extra sockets are gone within a round trip
/// and never count against anyone else. Refusing without Hummingbird's pipeline is what keeps a
/// client that reconnects in a loop cheap to turn away.
final class RefusedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limit: Int
    private let serverName: String?
    private var answered = false

    /// A refusal naming `limit`, the per-address cap, with the server's `Server` header.
    init(limit: Int, serverName: String?) {
        self.limit = limit
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    /// Nothing of the request is parsed or kept.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    /// A reset or a read error on a connection being turned away is expected; the close is
    /// already on its way.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        let error = ScreenplayError.unavailable(
            code: "tooManyConnections",
            "this address has \(limit) connections open, the most one address may; close one or try again later")
        var date = HTTPDate()
        let answer = RawErrorAnswer.bytes(for: error, serverName: serverName, date: &date)
        // Closed as soon as the answer is written: lingering to read the request would keep the
        // socket, and a client reconnecting in a loop could then hold the server's cap with
        // refusals. A Linux client reads the answer even when the close resets the connection.
        context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

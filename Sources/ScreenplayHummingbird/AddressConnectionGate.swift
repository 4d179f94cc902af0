import HTTPTypes
import NIOCore
import ScreenplayServer

/// The first handler of a connection's pipeline: counts the connection against its peer's
/// address (``ConnectionsPerAddress``) and, when that address already holds its share, answers a
/// short `503` (JSON, code `tooManyConnections`, `Retry-After`) and closes, reading nothing.
///
/// Refusing at once, rather than leaving the connection waiting as the server-wide cap does, is
/// what keeps one address from filling that cap: its extra sockets are gone within a round trip
/// and never count against anyone else.
final class AddressConnectionGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counts: ConnectionsPerAddress
    private let serverName: String?
    private enum State { case unchecked, admitted, refused }
    private var state = State.unchecked
    private var date = HTTPDate()

    /// A gate for one connection, counting in `counts` (shared by the server's connections).
    init(counts: ConnectionsPerAddress, serverName: String?) {
        self.counts = counts
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The peer is known from the accept, before the channel is active.
        check(context)
        if state == .refused, context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        check(context)
        context.fireChannelActive()
        if state == .refused { refuse(context) }
    }

    /// A refused connection's bytes go nowhere: nothing of its request is parsed.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .refused else { return }
        context.fireChannelRead(data)
    }

    private func check(_ context: ChannelHandlerContext) {
        guard state == .unchecked else { return }
        guard let peer = PeerAddress(context.channel.remoteAddress) else {
            state = .admitted
            return
        }
        guard counts.admit(peer) else {
            state = .refused
            return
        }
        state = .admitted
        let counts = self.counts
        context.channel.closeFuture.whenComplete { _ in counts.release(peer) }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        let error = ScreenplayError.unavailable(
            code: "tooManyConnections",
            "this address has \(counts.limit) connections open, the most one address may; close one or try again later")
        let answer = RawErrorAnswer.bytes(for: error, serverName: serverName, date: &date)
        // Closed as soon as the answer is written: lingering to read the request would keep the
        // socket, and a client reconnecting in a loop could then hold the server's cap with
        // refusals. A Linux client reads the answer even when the close resets the connection.
        context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}

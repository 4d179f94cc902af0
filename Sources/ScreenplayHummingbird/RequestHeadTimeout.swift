import HTTPTypes
import NIOCore
import NIOHTTPTypes
import ScreenplayServer

/// Closes a connection whose request head (request line and headers) does not arrive in full
/// within a few seconds: of the connection opening for its first request, of the next request's
/// first byte for later ones. Past the deadline a started head gets a `408` (JSON, code
/// `requestHeadTimeout`) and the connection closes; a connection that sent nothing is closed
/// without a word.
///
/// The idle timeout alone let a client trickle a head a byte at a time for as long as it liked
/// (the decoder hands nothing over until the head is whole, so nothing looked active), or hold a
/// socket for the whole idle timeout without a byte; with many sockets, that fills the server.
///
/// Two handlers share the work, since neither place sees it all: this one, at the front of the
/// pipeline, sees raw bytes arrive (when a head starts) and writes the `408` straight to the
/// socket; its ``partWatcher()``, after the HTTP decoder, sees when a head is whole, when a
/// request ends and when a response ends. Both run on the connection's event loop.
final class RequestHeadTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var machine: RequestHeadTimeoutStateMachine<ContinuousClock.Instant>
    private let serverName: String?
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    /// The last four bytes read, to tell whether a read ended on a head's blank line.
    private var tail: UInt32 = 0
    private var date = HTTPDate()

    /// A handler closing heads slower than `timeout`, answering with `Server: serverName`.
    init(timeout: Duration, serverName: String?) {
        machine = RequestHeadTimeoutStateMachine(timeout: timeout)
        self.serverName = serverName
    }

    /// The handler to place after the HTTP decoder, reporting to this one.
    func partWatcher() -> PartWatcher { PartWatcher(timeout: self) }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { apply(machine.opened(at: .now)) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        apply(machine.opened(at: .now))
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        apply(machine.bytesArriving(at: .now))
        for byte in bytes.readableBytesView.suffix(4) { tail = tail << 8 | UInt32(byte) }
        // The decoder reads the bytes now, reporting heads, bodies and ends to the part watcher.
        context.fireChannelRead(data)
        apply(machine.bytesDecoded(at: .now, endsWithBlankLine: tail == 0x0D0A_0D0A))
    }

    fileprivate func headDecoded() {
        machine.headDecoded()
        cancelTimer()
    }

    fileprivate func bodyDecoded() { machine.bodyDecoded() }

    fileprivate func requestEnded() { machine.requestEnded() }

    fileprivate func responseEnded() { machine.responseEnded() }

    private func apply(_ action: RequestHeadTimeoutStateMachine<ContinuousClock.Instant>.TimerAction) {
        guard case .schedule(let deadline) = action else { return }
        schedule(deadline)
    }

    private func schedule(_ deadline: ContinuousClock.Instant) {
        guard let context else { return }
        cancelTimer()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(deadline - .now)) { [self] in
            timer = nil
            fire()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func fire() {
        guard let context else { return }
        switch machine.timerFired(at: .now) {
        case .none:
            break
        case .schedule(let deadline):
            schedule(deadline)
        case .close:
            context.close(promise: nil)
        case .answerAndClose:
            let seconds = Double(machine.timeout.components.seconds) + Double(machine.timeout.components.attoseconds) / 1e18
            let error = ScreenplayError(
                status: .requestTimeout, code: "requestHeadTimeout",
                message: "the request line and headers did not arrive within \(seconds.secondsText) s", path: "request head")
            let answer = RawErrorAnswer.bytes(for: error, serverName: serverName, date: &date)
            context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// The half of ``RequestHeadTimeout`` that sits after the HTTP decoder: it reports whole
    /// heads, bodies and request ends on their way in, and response ends on their way out.
    final class PartWatcher: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let timeout: RequestHeadTimeout

        fileprivate init(timeout: RequestHeadTimeout) { self.timeout = timeout }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: timeout.headDecoded()
            case .body: timeout.bodyDecoded()
            case .end: timeout.requestEnded()
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { timeout.responseEnded() }
            context.write(data, promise: promise)
        }
    }
}

extension Double {
    /// `5`, `0.5`: a number of seconds as people write it.
    fileprivate var secondsText: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}

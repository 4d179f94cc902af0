import HTTPTypes
public import NIOCore
public import NIOHTTPTypes
public import ScreenplayServer

/// Answers requests the service answered before (``RevalidationMemory``) on the connection's
/// event loop: a `GET` or `HEAD` remembered for exactly this request gets its `304 Not Modified`
/// (when its `If-None-Match` names the remembered tag) or its `200` with the remembered bytes
/// here, without a task, the router, middleware, the token lookup or the revision. Everything
/// else passes through untouched.
///
/// It sits after Hummingbird's connection-state handler (see ``ScreenplayHTTP1Channel``), so
/// the idle timeout sees these requests and answers like any other, and it keeps HTTP/1.1's
/// order: while an earlier request on the connection is still being answered by the
/// framework, a later one goes the normal way, behind it. A request that asks to close the
/// connection (`Connection: close`, as clients that use a connection once send) is answered here
/// too, with `Connection: close`, and the connection closes once the answer is written; any other
/// `Connection` option (an upgrade) is the framework's to honour.
public final class RevalidationHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Request parts, passed on unless answered here.
    public typealias InboundIn = HTTPRequestPart
    /// Request parts, passed on unless answered here.
    public typealias InboundOut = HTTPRequestPart
    /// The framework's responses, watched to know when it has finished one.
    public typealias OutboundIn = HTTPResponsePart
    /// Responses: the framework's, and those written here.
    public typealias OutboundOut = HTTPResponsePart

    private let memory: RevalidationMemory
    private let serverName: String?
    /// Requests passed to the framework whose responses have not ended yet.
    private var passedOn = 0
    /// Whether the parts after an answered head are dropped (up to its `.end`).
    private var dropping = false
    /// Whether an answer given here closed the connection: nothing after it is read.
    private var closing = false
    /// The `Date` header, made once a second.
    private var date = HTTPDate()

    /// A handler for one connection, answering from `memory`, with `Server: serverName` as the
    /// framework adds to its own answers (its `serverName` configuration).
    public init(memory: RevalidationMemory, serverName: String? = nil) {
        self.memory = memory
        self.serverName = serverName
    }

    /// Answers a remembered request, or passes the part on.
    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if closing { return }
            // While the socket is not writable (a client that sends and does not read),
            // requests go to the framework, whose backpressure stops reading; answering here
            // would queue without bound.
            if passedOn == 0, context.channel.isWritable, let closes = Self.asksToClose(request.headerFields),
                let answer = memory.answer(request)
            {
                dropping = true
                var head: HTTPResponse
                var body: [UInt8] = []
                switch answer {
                case .notModified(let fields):
                    head = HTTPResponse(status: .notModified, headerFields: fields)
                case .ok(let fields, let bytes):
                    head = HTTPResponse(status: .ok, headerFields: fields)
                    body = bytes
                }
                head.headerFields[.date] = date.now()
                if let serverName { head.headerFields[.server] = serverName }
                if closes { head.headerFields[.connection] = "close" }
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                if !body.isEmpty { context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil) }
                guard closes else {
                    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                    return
                }
                closing = true
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if !dropping, !closing { context.fireChannelRead(data) }
        case .end:
            if closing { return }
            if dropping {
                dropping = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    /// Whether a request's `Connection` field asks to close the connection after the answer
    /// (`true`), asks nothing or only keep-alive (`false`), or asks for something this handler
    /// leaves to the framework, an upgrade (`nil`).
    static func asksToClose(_ fields: HTTPFields) -> Bool? {
        var closes = false
        for value in fields[values: .connection] {
            for option in value.split(separator: ",") {
                switch String(option.filter { $0 != " " && $0 != "\t" }).lowercased() {
                case "close": closes = true
                case "keep-alive", "": continue
                default: return nil
                }
            }
        }
        return closes
    }

    /// Counts the framework's finished responses.
    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }
}

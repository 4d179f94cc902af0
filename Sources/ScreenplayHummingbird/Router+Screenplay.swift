import HTTPTypes
import Synchronization
public import Hummingbird
public import NIOCore
import NIOPosix
import ServiceLifecycle
public import ScreenplayServer
public import ScreenplayWeb

extension RouterMethods {
    /// Mounts a Screenplay service on this router, under the service's path prefix.
    ///
    /// The router is built from the service's route table (``ScreenplayService/routeTable(version:)``):
    /// each coded screen and command, the event stream and the sync at its own path, so the
    /// router's trie sees real paths. Every method on those paths, on each of their prefixes, and
    /// on `{prefix}/:version/**` goes to the service (and any other method under the prefix, through
    /// `UnlistedMethodMiddleware`), which answers screens, commands and all errors itself (wrong
    /// method, unknown version, oversized body) as JSON, and pages of any depth.
    /// Generic over the host's request context, so it sits beside an app's own routes and
    /// middleware.
    @discardableResult
    public func addScreenplay(_ service: ScreenplayService) -> Self {
        mountScreenplay(service) { Self.clientAddress(of: $0) }
    }

    func mountScreenplay(_ service: ScreenplayService, address: @escaping @Sendable (Context) -> String?) -> Self {
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await ScreenplayResponder.respond(with: service, to: request, clientAddress: address(context))
        }
        for path in Self.servicePaths(service.routeTable(), prefix: service.configuration.pathPrefix) {
            for method in ScreenplayResponder.methods { on(RouterPath(path), method: method, use: handler) }
        }
        _ = add(
            middleware: UnlistedMethodMiddleware(
                mount: service.configuration.pathPrefix.split(separator: "/"), methods: Set(ScreenplayResponder.methods), respond: handler))
        return self
    }

    /// The paths registered for a service: its table's; each prefix of them below the mount
    /// point (a trie that stops at a node without a value answers 404 itself, without trying
    /// other branches: `api/v5/screens/albums` would never reach a page named `albums`); the
    /// mount point itself; and the catch-all `{prefix}/:version/**`, for pages of several
    /// segments and the service's own 404s. The catch-all sits under the version segment, not
    /// beside it: a wildcard beside a capture is a clash the router refuses (any one segment
    /// would match both).
    static func servicePaths(_ table: RouteTable, prefix: String) -> [String] {
        let mount = prefix.split(separator: "/").map(String.init)
        var paths = [mount.joined(separator: "/")]
        var seen = Set(paths)
        for (pattern, _) in table.paths {
            let segments = pattern.routerPath.split(separator: "/").map(String.init)
            guard segments.count > mount.count else { continue }
            for end in (mount.count + 1)...segments.count {
                let path = segments[..<end].joined(separator: "/")
                if seen.insert(path).inserted { paths.append(path) }
            }
        }
        return paths + [(mount + [":version", "**"]).joined(separator: "/")]
    }
}

extension RouterMethods {
    /// Mounts any responder in the service's shape (`HTTPTypes` request and body in, JSON response
    /// out) at `path` for `methods`: how hosts add the layout admin's API (`admin/api/**`). The
    /// body is collected up to `maximumBodySize`; more is the service's JSON 413. The responder
    /// also gets the peer's IP address when the context records it (sign-in limits use it).
    @discardableResult
    ///
    /// `refused` answers a body that is too large or too slow (by default the API's JSON error;
    /// an HTML host gives a page of its own).
    public func addScreenplayResponder(
        _ path: String, methods: [HTTPRequest.Method], maximumBodySize: Int,
        refused: @escaping @Sendable (ScreenplayError) -> ScreenplayService.Response = { ScreenplayService.errorResponse($0) },
        respond: @escaping @Sendable (HTTPRequest, [UInt8], String?) async -> ScreenplayService.Response
    ) -> Self {
        let handler = Self.responder(maximumBodySize: maximumBodySize, refused: refused, respond: respond)
        for method in methods { on(RouterPath(path), method: method, use: handler) }
        return self
    }

    /// A router handler for a responder in the service's shape: the body collected up to
    /// `maximumBodySize` (more, or too slow, is `refused`'s answer), the peer's address passed on.
    static func responder(
        maximumBodySize: Int, refused: @escaping @Sendable (ScreenplayError) -> ScreenplayService.Response,
        respond: @escaping @Sendable (HTTPRequest, [UInt8], String?) async -> ScreenplayService.Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            var body: [UInt8] = []
            if !ScreenplayResponder.ignoresBody(request.method) {
                switch try await ScreenplayResponder.collect(request, limit: maximumBodySize) {
                case .body(let bytes): body = bytes
                case .refused(let error): return ScreenplayResponder.response(refused(error))
                }
            }
            return ScreenplayResponder.response(await respond(request.head, body, Self.clientAddress(of: context)))
        }
    }
}

/// Converts between Hummingbird's request and response and the service's `HTTPTypes` ones.
public enum ScreenplayResponder {
    /// Collects the body (stopping at the service's limit, which becomes a 413) and answers.
    public static func respond(with service: ScreenplayService, to request: Request, clientAddress: String? = nil) async throws -> Response
    {
        let limit = service.configuration.maximumBodySize
        var body: [UInt8] = []
        // GET and HEAD carry no body the service reads; waiting for the stream's end would cost
        // a round trip to the connection's event loop on every screen and 304 (Hummingbird
        // drains what a handler leaves unread).
        if Self.ignoresBody(request.method) {
            switch await service.respondStreaming(to: request.head, body: [], clientAddress: clientAddress) {
            case .whole(let answer): return response(answer)
            case .events(let head, let stream):
                return events(head, stream, heartbeat: service.configuration.eventStreams.heartbeat, requestBody: request.body)
            }
        }
        switch try await collect(request, limit: limit) {
        case .body(let bytes): body = bytes
        case .refused(let error): return response(ScreenplayService.errorResponse(error))
        }
        return response(await service.respond(to: request.head, body: body, clientAddress: clientAddress))
    }

    /// What reading a request's body came to.
    public enum CollectedBody: Sendable {
        /// The whole body, within the limit.
        case body([UInt8])
        /// Too large (declared or sent), or not sent in time: the error to answer with.
        case refused(ScreenplayError)
    }

    /// How long a body may take to arrive in full: a client that trickles one byte at a time
    /// holds its connection no longer than this, whatever the idle timeout.
    public static let bodyDeadline = Duration.seconds(30)

    /// How many bytes past the limit a refused body is still read, and dropped, before the 413
    /// is answered. Closing a socket with bytes it has not read resets the connection, and a reset
    /// can discard the answer before the client reads it: a client that sent a body a little too
    /// large would see a broken connection instead of the 413 that says why (what a web server's
    /// lingering close avoids). A body declared larger than the limit and this allowance is
    /// refused without reading any of it: a reset is then the cheaper answer to an upload that
    /// large.
    public static let drainAllowance = 1 << 20

    /// Reads `request`'s body up to `limit` bytes within `deadline`. A body over the limit is
    /// refused (413) once up to ``drainAllowance`` more bytes have been read and dropped; a
    /// `Content-Length` beyond both is refused before a byte is read.
    ///
    /// The deadline is a timer on an event loop that cancels the reading, cancelled itself once
    /// the body is in. Not a racing `Task.sleep`: a sleep cancelled early keeps its memory (about
    /// 700 bytes) until its deadline passes, which at tens of thousands of posts a second held
    /// hundreds of megabytes for the 30 seconds.
    public static func collect(_ request: Request, limit: Int, deadline: Duration = bodyDeadline) async throws -> CollectedBody {
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit + drainAllowance { return .refused(.payloadTooLarge(limit: limit)) }
        let reading = Task { () throws -> CollectedBody in
            var body: [UInt8] = []
            var received = 0
            var tooLarge = (declared ?? 0) > limit
            for try await buffer in request.body {
                received += buffer.readableBytes
                if tooLarge || received > limit {
                    // Over the limit: read on (dropping it) so the answer is not lost to a reset,
                    // up to the allowance.
                    tooLarge = true
                    body = []
                    if received > limit + drainAllowance { break }
                    continue
                }
                body.append(contentsOf: buffer.readableBytesView)
            }
            // A cancelled read may end like a whole one: what was read is not the body.
            try Task.checkCancellation()
            return tooLarge ? .refused(.payloadTooLarge(limit: limit)) : .body(body)
        }
        let expired = Mutex(false)
        let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(deadline)) {
            expired.withLock { $0 = true }
            reading.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler { try await reading.value } onCancel: { reading.cancel() }
        } catch is CancellationError where expired.withLock({ $0 }) {
            return .refused(
                ScreenplayError(
                    status: .requestTimeout, code: "requestTimeout", message: "the request's body did not arrive in time (\(deadline))"))
        }
    }

    /// The methods routed to the service, which answers each (a `405` naming the path's methods
    /// where it does not serve it).
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]

    /// Whether requests with this method are answered without reading their body.
    static func ignoresBody(_ method: HTTPRequest.Method) -> Bool { method == .get || method == .head }

    /// A Hummingbird response carrying the service's head and bytes.
    public static func response(_ answer: ScreenplayService.Response) -> Response {
        Response(
            status: answer.head.status, headers: answer.head.headerFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// A streamed response for a screen event stream: each chunk written as it comes, a
    /// heartbeat timer on an event loop ticking the stream (no sleeping task per stream), and the
    /// stream ended with `end` (reason `shutdown`) when the server shuts down gracefully, which
    /// would otherwise wait for a stream that never ends by itself. A client that closes its
    /// connection (a popped screen, an app in the background) leaves at once: the request's
    /// inbound side closing ends the stream, so the count of streams drops without waiting for
    /// the next heartbeat to fail.
    public static func events(_ head: HTTPResponse, _ stream: ScreenEventStream, heartbeat: Duration, requestBody: RequestBody) -> Response {
        Response(
            status: head.status, headers: head.headerFields,
            body: ResponseBody { writer in
                let interval = TimeAmount(heartbeat)
                let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                    stream.tick()
                }
                defer {
                    timer.cancel()
                    stream.close()
                }
                try await requestBody.consumeWithInboundCloseHandler { _ in
                    try await withGracefulShutdownHandler {
                        for await chunk in stream { try await writer.write(ByteBuffer(bytes: chunk)) }
                    } onGracefulShutdown: {
                        stream.shutdown()
                    }
                } onInboundClosed: {
                    stream.close()
                }
                try await writer.finish(nil)
            })
    }

    /// A Hummingbird response carrying a web page, redirect or script.
    public static func response(_ answer: WebSite.Response) -> Response {
        Response(
            status: answer.head.status, headers: answer.head.headerFields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

extension RouterMethods {
    /// Mounts the browser pages and their command flow (``WebSite``): `GET /`, `GET /screens/**`
    /// and `POST` to the site's command path.
    @discardableResult
    public func addScreenplayWeb(_ site: WebSite) -> Self {
        mountScreenplayWeb(site) { Self.clientAddress(of: $0) }
    }

    func mountScreenplayWeb(_ site: WebSite, address: @escaping @Sendable (Context) -> String?) -> Self {
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            let limit = site.service.configuration.maximumBodySize
            var body: [UInt8] = []
            // As for the API: GET and HEAD are answered without waiting for a body.
            if !ScreenplayResponder.ignoresBody(request.method) {
                switch try await ScreenplayResponder.collect(request, limit: limit) {
                case .body(let bytes): body = bytes
                case .refused(let error): return ScreenplayResponder.response(site.refused(error))
                }
            }
            guard let answer = await site.respond(to: request.head, body: body, clientAddress: address(context)) else {
                return ScreenplayResponder.response(site.notFound(request.head))
            }
            return ScreenplayResponder.response(answer)
        }
        // Every path a browser is sent to that nothing answers gets the site's own 404 page
        // (unknown paths, and routes added after this one that answer 404).
        _ = add(middleware: WebNotFoundMiddleware(site: site))
        // The site's table: its pages (`screens/*path` as `**`, every path under it), its own
        // files and the command form's path; the event stream is a streaming route of its own.
        for route in site.routes.routes where !route.answers.contains(where: { $0.body == .eventStream }) {
            let path = RouterPath("/" + route.path.routerPath)
            on(path, method: route.method, use: handler)
            if route.method == .get { on(path, method: .head, use: handler) }
        }
        mountEventStream(WebSite.eventsPath, heartbeat: site.service.configuration.eventStreams.heartbeat, address: address) {
            request, address in await site.openEvents(request, clientAddress: address)
        }
        return self
    }

    func mountEventStream(
        _ path: String, heartbeat: Duration, address: @escaping @Sendable (Context) -> String?,
        open: @escaping @Sendable (HTTPRequest, String?) async -> ScreenplayService.StreamingResponse
    ) {
        get(RouterPath(path)) { request, context in
            switch await open(request.head, address(context)) {
            case .whole(let answer): return ScreenplayResponder.response(answer)
            case .events(let head, let stream): return ScreenplayResponder.events(head, stream, heartbeat: heartbeat, requestBody: request.body)
            }
        }
    }
}

extension RouterMethods {
    /// Mounts an event stream a host opens itself at `GET path` (the layout admin's preview
    /// stream): `open` gets the request head and the peer's address and answers whole (a
    /// refusal) or with a stream, written as ``ScreenplayResponder/events(_:_:heartbeat:requestBody:)``
    /// writes the API's.
    @discardableResult
    public func addScreenplayEventStream(
        _ path: String, heartbeat: Duration,
        open: @escaping @Sendable (HTTPRequest, String?) async -> ScreenplayService.StreamingResponse
    ) -> Self {
        mountEventStream(path, heartbeat: heartbeat, address: { Self.clientAddress(of: $0) }, open: open)
        return self
    }
}

extension RouterMethods {
    /// The peer's IP address, when the host's request context records it (see
    /// ``ScreenplayRequestContext``): a dynamic cast, for contexts not known to conform.
    static func clientAddress(of context: Context) -> String? {
        (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress
    }
}

extension RouterMethods where Context: RemoteAddressRequestContext {
    /// ``addScreenplay(_:)`` for contexts that record the peer: its address is read directly,
    /// with no cast per request.
    @discardableResult
    public func addScreenplay(_ service: ScreenplayService) -> Self {
        mountScreenplay(service) { $0.remoteAddress?.ipAddress }
    }

    /// ``addScreenplayWeb(_:)`` for contexts that record the peer.
    @discardableResult
    public func addScreenplayWeb(_ site: WebSite) -> Self {
        mountScreenplayWeb(site) { $0.remoteAddress?.ipAddress }
    }
}

/// A request context that records the peer's address, so the service can limit how many
/// identities one address creates. Use it for the router that mounts Screenplay
/// (`Router(context: ScreenplayRequestContext.self)`); any context conforming to
/// `RemoteAddressRequestContext` works the same way.
public struct ScreenplayRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer.
    public let remoteAddress: SocketAddress?

    /// A context for a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}

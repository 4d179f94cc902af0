import Hummingbird
public import HummingbirdCore
public import Logging
import NIOCore
public import ScreenplayServer

/// How long a connection may sit idle, how long its request head may take, and how many may be
/// open at once, in all and per address: what keeps half-sent requests (slow-loris) and one
/// client's thousands of sockets from holding the process's file descriptors, or everyone
/// else's places.
public struct ConnectionLimits: Sendable, Hashable {
    /// A connection that sends nothing for this long (mid-request or between requests) is closed.
    public var idleTimeout: Duration
    /// The most connections open at once; past it, new ones wait in the listen backlog until one
    /// closes, and the wait is logged.
    public var maximumConnections: Int
    /// The most connections one address may have open (an IPv4 address, or an IPv6 /64: see
    /// `PeerAddress`); past it, a new one from that address is answered `503` (JSON, code
    /// `tooManyConnections`, `Retry-After`) and closed at once, so it never waits for, or
    /// takes, a place another address could have. Behind a proxy every connection comes from the
    /// proxy's address: raise it to ``maximumConnections`` there. `nil`: no cap per address.
    public var maximumConnectionsPerAddress: Int?
    /// How long a request head (request line and headers) may take to arrive, counted from the
    /// connection opening for the first request and from the next request's first byte for later
    /// ones; past it a started head is answered `408` (JSON, code `requestHeadTimeout`) and the
    /// connection closed. A connection quiet between requests is left to ``idleTimeout``.
    /// `nil`: no deadline but the idle timeout.
    public var headerTimeout: Duration?

    /// The defaults: 30 seconds idle, 2 048 connections (well under the usual 4 096 or more
    /// descriptors, leaving room for the database and files), 64 an address (a browser opens 6
    /// to a host; 64 leaves room for several people behind one address, and takes 32 addresses
    /// to fill the server), and 5 seconds for a head (a real client sends its head at once; 5 s
    /// rides out a couple of lost packets on a bad mobile link).
    public init(
        idleTimeout: Duration = .seconds(30), maximumConnections: Int = 2_048, maximumConnectionsPerAddress: Int? = 64,
        headerTimeout: Duration? = .seconds(5)
    ) {
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.headerTimeout = headerTimeout
    }

    /// The HTTP/1 server with these limits (``ScreenplayHTTP1Channel``), the head limits of
    /// ``HTTPHeadLimits``, and JSON answers (logged to `logger`) for requests the parser refuses.
    /// With `revalidations` (a service's ``ScreenplayService/revalidations``), remembered
    /// revalidations are answered before routing (``RevalidationHandler``). `serverName` is the
    /// application's, so answers written below the framework carry the same `Server` header.
    ///
    /// Call it once per server: the connections it serves share one count per address.
    public func server(logger: Logger, revalidations: RevalidationMemory? = nil, serverName: String? = nil) -> HTTPServerBuilder {
        let configuration = HTTP1Channel.Configuration(
            additionalChannelHandlers: [MalformedRequestAnswer(logger: logger)], idleTimeout: TimeAmount(idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: HTTPHeadLimits.fieldBytes, maxHeaderListSize: HTTPHeadLimits.totalBytes,
                maxHeaderFieldCount: HTTPHeadLimits.fieldCount))
        let perAddress = maximumConnectionsPerAddress.map { ConnectionsPerAddress(limit: $0, logger: logger) }
        let headerTimeout = self.headerTimeout
        return HTTPServerBuilder { responder in
            ScreenplayHTTP1Channel(
                base: HTTP1Channel(responder: responder, configuration: configuration), memory: revalidations,
                headerTimeout: headerTimeout, perAddress: perAddress, serverName: serverName)
        }
    }

    /// The delegate that enforces the cap, logging each time the server reaches it.
    public func connectionCap(logger: Logger) -> LoggedConnectionCap {
        LoggedConnectionCap(maximum: maximumConnections, logger: logger)
    }
}

/// Caps open connections like Hummingbird's `MaximumAvailableConnections`, and logs (once per
/// episode, with a count) when the cap holds new connections back, so an operator sees it.
///
/// The cap is checked between accepts, and NIO accepts several queued connections per wakeup, so
/// connections arriving together at the cap can get a few in over it: a bound on descriptors, not
/// an exact count.
public struct LoggedConnectionCap: AvailableConnectionsDelegate {
    let maximum: Int
    let logger: Logger
    var open = 0
    var atCap = false
    /// How many times the server reached the cap so far (logged with each episode).
    var episodes = 0

    init(maximum: Int, logger: Logger) {
        self.maximum = max(1, maximum)
        self.logger = logger
    }

    /// Counts the connection; the first to reach the cap logs a warning.
    public mutating func connectionOpened() {
        open += 1
        if open >= maximum && !atCap {
            atCap = true
            episodes += 1
            logger.warning(
                "connection cap reached; new connections wait until one closes",
                metadata: ["open": "\(open)", "cap": "\(maximum)", "episodes": "\(episodes)"])
        }
    }

    /// Counts the close; dropping below the cap after reaching it is logged too.
    public mutating func connectionClosed() {
        open -= 1
        if atCap && open < maximum {
            atCap = false
            logger.notice("below the connection cap again", metadata: ["open": "\(open)", "cap": "\(maximum)"])
        }
    }

    /// Whether the server accepts another connection now.
    public func isAcceptingNewConnections() -> Bool { open < maximum }
}

import Hummingbird
public import HummingbirdCore
public import Logging
public import ScreenplayServer

/// How long a connection may sit idle and how many may be open at once: what keeps half-sent
/// requests (slow-loris) from holding the process's file descriptors forever.
public struct ConnectionLimits: Sendable, Hashable {
    /// A connection that sends nothing for this long (mid-request or between requests) is closed.
    public var idleTimeout: Duration
    /// The most connections open at once; past it, new ones wait in the listen backlog until one
    /// closes, and the wait is logged.
    public var maximumConnections: Int

    /// The defaults: 30 seconds idle, 2 048 connections (well under the usual 4 096 or more
    /// descriptors, leaving room for the database and files).
    public init(idleTimeout: Duration = .seconds(30), maximumConnections: Int = 2_048) {
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// The HTTP/1 server with the idle timeout, the head limits of ``HTTPHeadLimits``, and
    /// JSON answers (logged to `logger`) for requests the parser refuses. With `revalidations`
    /// (a service's ``ScreenplayService/revalidations``), remembered revalidations are answered
    /// before routing (``RevalidationHandler``), with `Server: serverName` like the application's.
    public func server(logger: Logger, revalidations: RevalidationMemory? = nil, serverName: String? = nil) -> HTTPServerBuilder {
        let (seconds, attoseconds) = idleTimeout.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [MalformedRequestAnswer(logger: logger)], idleTimeout: .nanoseconds(max(1, nanoseconds)),
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: HTTPHeadLimits.fieldBytes, maxHeaderListSize: HTTPHeadLimits.totalBytes,
                    maxHeaderFieldCount: HTTPHeadLimits.fieldCount)),
            revalidations: revalidations, serverName: serverName)
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

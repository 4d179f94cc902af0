/// What bounds the screen event streams (`GET {prefix}/v{N}/events`): how many a client and the
/// process may hold open, how many screens one watches, how often a quiet stream proves it is
/// alive, and how long it may stay quiet before the server closes it.
public struct EventStreamLimits: Sendable, Hashable {
    /// Open streams per identity (per client address for readers without one); past it a `429`
    /// with `Retry-After`. A person with several tabs or devices stays under it; a loop that opens
    /// streams without closing them does not.
    public var perIdentity: Int
    /// Open streams in the whole process; past it a `503` with `Retry-After`. Kept under the
    /// server's connection limit so streams cannot crowd out ordinary requests.
    public var total: Int
    /// Screens one stream may watch (a navigation stack, not a catalog).
    public var screensPerStream: Int
    /// How often a stream with nothing to say sends a comment: proxies keep it open, and a client
    /// that went away is noticed (its write fails) within this time.
    public var heartbeat: Duration
    /// How long a stream may go without an event before the server ends it (`event: end`, reason
    /// `idle`); a client still there reconnects with `Last-Event-ID` and misses nothing.
    public var idleLimit: Duration
    /// The reconnection delay the stream asks of clients (the `retry` field).
    public var reconnectDelay: Duration
    /// The seconds a refused client is told to wait (`Retry-After`).
    public var retryAfter: Int
    /// Bytes of screens the streams that send patches may hold in all (each the version its
    /// client was last told of, to diff the next one against). Past it a stream holds nothing
    /// more and its client fetches the changed screen whole, as without patches. Counted in full,
    /// though most are the screen cache's own arrays, shared.
    public var patchMemory: Int

    /// The defaults: 8 per identity, 1 024 in all, 32 screens each, a heartbeat every 15 s, 5
    /// minutes quiet at most, clients reconnecting after 2 s, refused ones after 30 s, 16 MiB of
    /// screens held for patches.
    public init(
        perIdentity: Int = 8, total: Int = 1_024, screensPerStream: Int = 32, heartbeat: Duration = .seconds(15),
        idleLimit: Duration = .seconds(300), reconnectDelay: Duration = .seconds(2), retryAfter: Int = 30, patchMemory: Int = 16 << 20
    ) {
        self.patchMemory = patchMemory
        self.perIdentity = perIdentity
        self.total = total
        self.screensPerStream = screensPerStream
        self.heartbeat = heartbeat
        self.idleLimit = idleLimit
        self.reconnectDelay = reconnectDelay
        self.retryAfter = retryAfter
    }
}

public import ScreenplayServer

/// The database could not be reached (down, restarting, every connection busy past the wait):
/// answered as a 503 with `Retry-After`, so clients back off and retry rather than read a server
/// bug into it: `storeUnavailable` when nothing was written, `storeInterrupted` when the
/// connection was lost while committing (the write may or may not have landed).
///
/// ``wroteNothing`` says whether the failure came before the transaction could commit anything
/// (no connection, or the connection lost before `COMMIT` was sent): then running the same
/// command again is safe, and an idempotency ledger forgets the attempt instead of replaying the
/// failure.
public struct StoreUnavailable: Error, Sendable, ScreenplayErrorConvertible, CustomStringConvertible {
    /// What failed, for logs (never sent to clients).
    public let reason: String
    /// Nothing was committed: a retry may run the command again.
    public let wroteNothing: Bool

    /// An unreachable store; `wroteNothing` when no `COMMIT` was sent.
    public init(_ reason: String, wroteNothing: Bool) {
        self.reason = reason
        self.wroteNothing = wroteNothing
    }

    /// A 503, retry after a second.
    public var screenplayError: ScreenplayError {
        .unavailable(
            code: wroteNothing ? ScreenplayError.storeUnavailableCode : "storeInterrupted",
            wroteNothing
                ? "the database is unavailable; nothing was changed, retry in a moment"
                : "the database became unavailable while this was being saved; it may or may not have been saved")
    }

    /// `store unavailable: …`.
    public var description: String { "store unavailable: \(reason)" }
}

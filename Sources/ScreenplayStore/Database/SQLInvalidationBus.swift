public import SQLKit
public import ScreenplayServer

/// An invalidation bus that can carry an announcement inside the transaction that caused it
/// (PostgreSQL's `NOTIFY`): the other processes hear it when, and only if, the transaction
/// commits. A process killed between its commit and a later publish would otherwise leave every
/// other replica serving the old data from memory.
public protocol SQLInvalidationBus: InvalidationBus {
    /// Queues `invalidation` for the other processes in the transaction `database` runs.
    func send(_ invalidation: Invalidation, in database: any SQLDatabase) async throws
    /// Calls this process's subscribers only: the transaction already told the others.
    func deliverHere(_ invalidation: Invalidation) async
    /// The channel and payload that carry `invalidation` to the other processes, for a statement
    /// that sends it itself (`pg_notify` in a one-statement write); `nil` when it cannot be sent so.
    func notification(for invalidation: Invalidation) -> (channel: String, payload: String)?
}

extension InvalidationBus {
    /// Inside a store's transaction: announces `invalidation` as part of it. The other processes
    /// hear it with the commit when the bus can carry it there (PostgreSQL's `NOTIFY`), and this
    /// process's subscribers (and the others, when it cannot) once the outermost transaction has
    /// committed (``SQLTransaction/afterCommit(_:)``); a rollback announces nothing. Callers never
    /// pair a commit with an announcement by hand.
    public func announce(_ invalidation: Invalidation, in database: any SQLDatabase) async throws {
        if let bus = self as? any SQLInvalidationBus { try await bus.send(invalidation, in: database) }
        await SQLTransaction.afterCommit { await self.announceCommitted(invalidation) }
    }

    /// After the commit of a transaction that sent `invalidation` with it: this process's
    /// subscribers, and the other processes too unless the transaction already told them.
    /// ``announce(_:in:)`` calls it once its transaction has committed.
    public func announceCommitted(_ invalidation: Invalidation) async {
        if let bus = self as? any SQLInvalidationBus {
            await bus.deliverHere(invalidation)
        } else {
            await publish(invalidation)
        }
    }
}

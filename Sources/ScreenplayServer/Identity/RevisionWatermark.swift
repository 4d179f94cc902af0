public import HTTPTypes
import Synchronization

/// Read-your-writes across replicas: the revision of a user's data a client has seen written,
/// carried from the write's answer to the client's next reads.
///
/// Replicas sharing a database each cache a user's revision, and drop it when the invalidation bus
/// tells them of a write. A write answered by replica A and a read sent at once to replica B can
/// race that announcement: B would answer from the revision it cached before the write. So a
/// command's answer says the revision its write produced (``ScreenplayService/revisionHeader``),
/// the client sends the highest it has seen with every later request, and a store reading a
/// revision under a lower floor than that (``RevisionWatermark/floor``) reads it from the database
/// instead of its cache.
public enum RevisionWatermark {
    /// What a command's writes produced: set by the store that bumps a user's revision
    /// (``record(_:for:)``), read by the command pipeline for the answer's header.
    public final class Written: Sendable {
        private let state = Mutex<(user: Int64, revision: Int64)?>(nil)

        /// An empty record, for one command.
        public init() {}

        /// The highest revision written for `user`, if any.
        public func revision(for user: UserIdentity) -> Int64? {
            state.withLock { state in state.flatMap { $0.user == user.id ? $0.revision : nil } }
        }

        /// Records that `revision` of `user`'s data was committed (the highest one is kept).
        func record(_ revision: Int64, for user: Int64) {
            state.withLock { state in
                if let current = state, current.user == user, current.revision >= revision { return }
                state = (user, revision)
            }
        }
    }

    /// Where the current command's writes are recorded (`nil` outside a command).
    @TaskLocal public static var written: Written?

    /// The lowest revision of the requesting user's data this request may be answered from: what
    /// the client sent in ``ScreenplayService/revisionHeader`` (`nil`: no floor). A request reads
    /// only its own user's revision, so the floor is that user's.
    @TaskLocal public static var floor: Int64?

    /// Runs `body` (a command) recording what its writes commit: its result, and the revision of
    /// `user`'s data it committed, if any (for the answer's ``ScreenplayService/revisionHeader``).
    public static func recordingWrites<Result: Sendable>(
        of user: UserIdentity, _ body: () async throws(ScreenplayError) -> Result
    ) async throws(ScreenplayError) -> (Result, revision: Int64?) {
        let record = Written()
        let result = try await bound { try await $written.withValue(record) { try await body() } }
        return (result, record.revision(for: user))
    }

    /// Runs `body` answering from no revision of the requesting user's data under `floor`
    /// (`nil`: no floor).
    public static func withFloor<Result: Sendable>(
        _ floor: Int64?, _ body: () async throws(ScreenplayError) -> Result
    ) async throws(ScreenplayError) -> Result {
        try await bound { try await $floor.withValue(floor) { try await body() } }
    }

    /// A task-local binding's `withValue` rethrows untyped: its error, which can only be the
    /// body's, typed again.
    private static func bound<Result>(_ binding: () async throws -> Result) async throws(ScreenplayError) -> Result {
        do {
            return try await binding()
        } catch {
            // Only `body` throws inside the binding, and it throws ScreenplayError alone.
            throw error as? ScreenplayError ?? .internalError("\(error)")
        }
    }

    /// Records, for the command running now (if any), that `revision` of `user`'s data is
    /// committed. Stores call it after the transaction that bumped it commits.
    public static func record(_ revision: Int64, for user: UserIdentity) {
        written?.record(revision, for: user.id)
    }

    /// The floor a request asks for: its ``ScreenplayService/revisionHeader``, when it is one
    /// non-negative integer (anything else is ignored: a floor only ever makes a read fresher).
    public static func floor(in fields: HTTPFields) -> Int64? {
        let values = fields[values: ScreenplayService.revisionHeader]
        guard values.count == 1, let value = values.first else { return nil }
        return floor(from: value)
    }

    /// A floor written as a header's or cookie's value: one non-negative integer, else `nil`.
    public static func floor(from value: String) -> Int64? {
        guard (1...19).contains(value.utf8.count), value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(value)
    }
}

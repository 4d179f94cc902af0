import ScreenplayStore
import SQLKit
import Synchronization

/// A store that can be switched off: while off, every operation fails as an unreachable
/// PostgreSQL does (``StoreUnavailable``, nothing written), so tests reach the 503 paths of the
/// API and the admin without stopping a database.
final class SwitchableStore: SQLStore {
    private let underlying: any SQLStore
    private let off = Atomic<Bool>(false)

    /// `underlying`, on.
    init(_ underlying: any SQLStore) {
        self.underlying = underlying
    }

    /// Whether operations fail.
    var isOff: Bool {
        get { off.load(ordering: .acquiring) }
        set { off.store(newValue, ordering: .releasing) }
    }

    private func check() throws {
        if isOff { throw StoreUnavailable("switched off by the test", wroteNothing: true) }
    }

    /// The underlying store's transaction, or ``StoreUnavailable`` while off.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try check()
        return try await underlying.transaction(body)
    }

    /// The underlying store's read, or ``StoreUnavailable`` while off.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try check()
        return try await underlying.read(body)
    }

    /// The underlying store's lock, or ``StoreUnavailable`` while off.
    func exclusively<Result: Sendable>(_ name: String, _ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try check()
        return try await underlying.exclusively(name, body)
    }

    /// Closes the underlying store (on or off).
    func close() async throws {
        try await underlying.close()
    }
}

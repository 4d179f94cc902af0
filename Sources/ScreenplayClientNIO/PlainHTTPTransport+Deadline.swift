extension PlainHTTPTransport {
    /// What `work` returns, unless `deadline` passes first: then `timedOut` is thrown and `work`
    /// is cancelled. One deadline for a whole exchange (connect, write, read), where NIO's own
    /// timeouts cover only the connect.
    static func answer<Value: Sendable>(
        by deadline: ContinuousClock.Instant, orThrow timedOut: @escaping @Sendable () -> PlainHTTPError,
        _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withThrowingTaskGroup(of: Value?.self) { tasks in
            tasks.addTask { try await work() }
            tasks.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { tasks.cancelAll() }
            guard let first = try await tasks.next(), let value = first else { throw timedOut() }
            return value
        }
    }
}

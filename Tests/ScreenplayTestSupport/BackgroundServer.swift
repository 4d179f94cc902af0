public import Logging
public import ServiceLifecycle

/// A server (any `Service`: a Hummingbird application) run in the background for a test and
/// stopped the way a deployment stops it, gracefully.
///
/// Not by cancelling its task: a connection the server has accepted but not yet handed to its
/// accept loop is then dropped unserved, and NIO traps ("Deinited NIOAsyncWriter without calling
/// finish()"), taking the whole test process down. That happens only when a client connects
/// just as the test ends, which a loaded machine makes likely enough to crash a suite now and
/// then (swift-nio issue 2637). A graceful shutdown closes the listening socket first and
/// serves what it accepted.
public struct BackgroundServer: Sendable {
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Starts `service` at once; ``stop(patience:)`` must follow. `whenEnded` is called once the
    /// service has stopped, however it stopped: a test waiting for the server's port finishes that
    /// wait there, so a server that failed to start (no port to bind, no file descriptor left) is
    /// an error at once rather than a wait for ever.
    public init(
        _ service: some Service, logger: Logger = Logger(label: "screenplay.test-server"),
        whenEnded: @escaping @Sendable () -> Void = {}
    ) {
        let group = ServiceGroup(services: [service], logger: logger)
        self.group = group
        running = Task {
            defer { whenEnded() }
            try await group.run()
        }
    }

    /// Shuts the server down gracefully and waits for it. What is still open after `patience`
    /// (a stream that never ends, a request to a handler that hangs on purpose) is cancelled then:
    /// by that time the server accepts nothing more, so nothing accepted is dropped unserved.
    public func stop(patience: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let running = running
        let deadline = Task {
            try await Task.sleep(for: patience)
            running.cancel()
        }
        _ = await running.result
        deadline.cancel()
    }
}

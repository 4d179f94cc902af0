import Hummingbird
import Logging
import ServiceLifecycle

/// Serves `router` on a free loopback port for `body` (its root URL, no trailing slash), then
/// shuts it down gracefully, as a deployment stops.
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>, _ body: (String) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "screenplay.https-adapter-tests")
    logger.logLevel = .critical
    let (ports, found) = AsyncStream<Int>.makeStream()
    let application = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { found.yield($0.localAddress?.port ?? 0) }, logger: logger)
    let group = ServiceGroup(services: [application], logger: logger)
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    let port = await iterator.next() ?? 0
    let outcome: Swift.Result<Result, any Error>
    if port > 0 {
        do {
            outcome = .success(try await body("http://127.0.0.1:\(port)"))
        } catch {
            outcome = .failure(error)
        }
    } else {
        outcome = .failure(LoopbackServerError.didNotStart)
    }
    await group.triggerGracefulShutdown()
    _ = await running.result
    return try outcome.get()
}

enum LoopbackServerError: Error { case didNotStart }

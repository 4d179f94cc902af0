public import Hummingbird
import Logging

/// Serves `router` on a free loopback port for `body` (given the port), through the whole HTTP/1.1
/// channel as a deployment serves, then stops it gracefully (``BackgroundServer``).
public func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>, _ body: (Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: "screenplay.test-server")
    logger.logLevel = .critical
    let (ports, found) = AsyncStream<Int>.makeStream()
    let application = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { found.yield($0.localAddress?.port ?? 0) }, logger: logger)
    let server = BackgroundServer(application, whenEnded: { found.finish() })
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
        await server.stop()
        throw LoopbackServerError.didNotStart
    }
    let outcome: Swift.Result<Result, any Error>
    do {
        outcome = .success(try await body(port))
    } catch {
        outcome = .failure(error)
    }
    await server.stop()
    return try outcome.get()
}

/// The server did not report a listening port.
public enum LoopbackServerError: Error { case didNotStart }

import Foundation
import Hummingbird
import ScreenplayContract
import ScreenplayServer
import ScreenplayStore

extension DemoApp {
    /// Faults a test can switch on from outside (`serve --test-…`), to see what a person sees when
    /// the server is slow or a command fails: never on unless asked for.
    public struct TestHooks: Sendable {
        /// Added before every screen is answered (the web pages and the API's screens), as a slow
        /// backend would: what the carried header is shown during.
        public var screenDelay: Duration
        /// Added before every command runs.
        public var commandDelay: Duration
        /// Commands (their paths under `commands/`, such as `favorites/add`) that fail with a 500
        /// after the delay, as a broken backend would.
        public var failingCommands: Set<String>

        /// Commands after whose commit the process kills itself (`SIGKILL`), before their answer
        /// leaves: a crash between the commit and the answer, which a retry must survive.
        public var killedAfterCommit: Set<String>

        /// Hooks; none by default.
        public init(
            screenDelay: Duration = .zero, commandDelay: Duration = .zero, failingCommands: Set<String> = [],
            killedAfterCommit: Set<String> = []
        ) {
            self.screenDelay = screenDelay
            self.commandDelay = commandDelay
            self.failingCommands = failingCommands
            self.killedAfterCommit = killedAfterCommit
        }

        /// `perform`, after the command delay, or the failure the hooks ask for.
        func around(_ pattern: String, _ perform: @escaping ScreenplayRoutes.CommandFunction) -> ScreenplayRoutes.CommandFunction {
            let (delay, failing, killed) = (commandDelay, failingCommands.contains(pattern), killedAfterCommit.contains(pattern))
            guard delay > .zero || failing || killed else { return perform }
            return { request in
                if delay > .zero { try await Task.sleep(for: delay) }
                if failing { throw ScreenplayError.internalError("the command '\(pattern)' failed (a test hook: --test-failing-command)") }
                let result = try await perform(request)
                if killed { await SQLTransaction.afterCommit { kill(getpid(), SIGKILL) } }
                return result
            }
        }
    }
}

extension ScreenplayRoutes {
    /// Registers a command through the demo's test hooks.
    mutating func command(
        _ pattern: String, identity: CommandIdentity = .created, payload: CommandPayloadSchema? = nil, hooks: DemoApp.TestHooks,
        perform: @escaping CommandFunction
    ) {
        command(pattern, identity: identity, payload: payload, perform: hooks.around(pattern, perform))
    }
}

/// Delays screens by ``DemoApp/TestHooks/screenDelay`` (a server with a delay answers nothing
/// before routing, so every screen reaches this middleware).
struct ScreenDelayMiddleware<Context: RequestContext>: RouterMiddleware {
    let delay: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if delay > .zero, request.method == .get, path == "/" || path.hasPrefix("/screens/") || path.contains("/screens/") {
            try await Task.sleep(for: delay)
        }
        return try await next(request, context)
    }
}

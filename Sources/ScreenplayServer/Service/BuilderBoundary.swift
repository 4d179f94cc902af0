import Logging
import ScreenplayContract

/// Where the app's screen builders and command handlers meet the service: what they throw
/// becomes an answer, and what they build is checked before anyone sees it.
///
/// A ``ScreenplayError`` (or a ``ScreenplayErrorConvertible``) is the app's own answer and passes
/// as it is; anything else is logged with what failed and becomes a 500 that names the screen or
/// command but not the cause. A screen gets its component ids, and one whose ids or bindings are
/// broken (a bug in its builder) is logged with its JSON paths and answered with a 500.
struct BuilderBoundary: Sendable {
    let logger: Logger

    /// `error` as the answer to send; `what` names the screen or command (`screen 'home'`).
    func answer(for error: any Error, in what: String) -> ScreenplayError {
        if let error = error as? ScreenplayError { return error }
        if let convertible = error as? any ScreenplayErrorConvertible { return convertible.screenplayError }
        logger.error("failure in \(what)", metadata: ["error": "\(String(reflecting: error))"])
        return .internalError("the server failed to build \(what)")
    }

    /// `screen` with component ids assigned, or a 500 when it cannot be sent.
    func checked(_ screen: Screen, what: String) throws(ScreenplayError) -> Screen {
        let screen = screen.assigningComponentIDs()
        let problems = screen.structuralProblems
        guard problems.isEmpty else {
            logger.error("\(what) is malformed", metadata: ["problems": "\(problems.prefix(5).joined(separator: "; "))"])
            throw .internalError(
                "the server built \(what) with \(problems.count == 1 ? "a problem" : "\(problems.count) problems"): \(problems[0])")
        }
        return screen
    }
}

extension Screen {
    /// The screen with ids on the components a downgrade put in (fallbacks come after ids were
    /// assigned), for the versions that carry ids: every component a v4 client sees has one.
    func identified(for version: APIVersion) -> Screen {
        version >= ComponentAttributes.introduced ? assigningComponentIDs() : self
    }
}

public import Foundation
public import ScreenplayContract

/// The screens and commands a server offers, by path.
///
/// ```swift
/// var routes = ScreenplayRoutes()
/// routes.screen("composer/:slug", revision: { _ in catalogRevision }) { request in … }
/// routes.command("favorites/add") { request in … }
/// ```
public struct ScreenplayRoutes: Sendable {
    /// Builds a screen for a request.
    public typealias ScreenBuilderFunction = @Sendable (ScreenRequest) async throws -> Screen
    /// Names the content a request would get; see ``screen(_:revision:build:)``.
    public typealias RevisionFunction = @Sendable (ScreenRequest) async throws -> String
    /// Performs a command.
    public typealias CommandFunction = @Sendable (CommandRequest) async throws -> CommandResult

    struct ScreenRoute: Sendable {
        let pattern: RoutePattern
        let revision: RevisionFunction?
        let revalidation: Revalidation
        let sharing: Sharing
        let queryKeys: Set<String>
        let build: ScreenBuilderFunction
    }

    /// Who may share one cached encoding of a screen.
    public enum Sharing: Sendable, Hashable {
        /// Each user has their own cache entries (the safe default: screens that show a user's
        /// data never reach another user, whatever the revision string says).
        case perUser
        /// Everyone shares entries: for screens whose content does not depend on who asks.
        case everyone
    }

    /// How revalidations of a screen (requests with `If-None-Match`) are answered.
    public enum Revalidation: Sendable {
        /// Each one resolves the user and calls the revision (the default): right whatever the
        /// revision reads.
        case callingRevision
        /// From memory, when the same request was answered before: the server keeps the ETag it
        /// sent for each exact request (target, token, components, encoding) and answers a
        /// matching `If-None-Match` with a 304 before any routing, without calling anything.
        ///
        /// Declare it only when the revision changes with nothing but what an ``Invalidation``
        /// announces: for a per-user screen, the requesting user's revision (other users'
        /// `userRevision` leave it alone), plus pages, experiments and tokens (which drop
        /// everything). Something that changes with time says when: `until` gets the moment the
        /// request began (before its revision was read) and returns the first moment after it
        /// at which the revision may change by itself (an experiment's start or stop), or `nil`;
        /// throwing means "do not remember this one" (say, when the revision read something that
        /// failed). It runs only when an answer is remembered, not per request.
        case fromMemory(until: (@Sendable (ScreenRequest, _ since: Date) async throws -> Date?)? = nil)
    }

    struct CommandRoute: Sendable {
        let pattern: RoutePattern
        let identity: CommandIdentity
        let payload: CommandPayloadSchema?
        let perform: CommandFunction
    }

    /// Who a command runs as when the client sends no token.
    public enum CommandIdentity: Sendable, Hashable {
        /// A new identity, made for the client (the default): the answer carries its token, and
        /// the client's budget is that of new identities. For commands that keep something of the
        /// user's own (a favorite, a playlist).
        case created
        /// ``UserIdentity/anonymous``: nothing is made and no token handed out, and the sender's
        /// budget is its address's. For commands a reader may send without becoming a user
        /// (opening an offer), whose handler serves the anonymous user too. A client with a token
        /// runs them as itself, as any command.
        case anonymous
    }

    private(set) var screens: [ScreenRoute] = []
    private(set) var commands: [CommandRoute] = []
    private(set) var customKinds: [String: CustomComponentKind] = [:]

    /// Registers an app-defined component kind with its version and fallback (see
    /// ``CustomComponentKind``). Components of unregistered custom kinds are never sent.
    public mutating func componentKind(_ kind: CustomComponentKind) {
        customKinds[kind.type] = kind
    }

    /// An empty route table.
    public init() {}

    /// Serves a screen at `screens/<pattern>`.
    ///
    /// - Parameters:
    ///   - revision: A string that changes whenever the screen's content would (a catalog
    ///     version, the user's revision counter). Requests with the same route parameters,
    ///     declared query values, revision, API version and (unless `sharing` is `.everyone`) user
    ///     share one encoding and ETag, and a cache hit does not call `build` at all. Without it,
    ///     every request builds and encodes.
    ///   - revalidation: `.callingRevision` (default), or `.fromMemory` for screens whose
    ///     revision changes only with what the invalidation bus announces: their 304s are then
    ///     answered without resolving the user or calling `revision` (see ``Revalidation``).
    ///   - sharing: `.perUser` (default) keeps each user's cache entries apart; `.everyone` lets
    ///     all users share them, for screens that show nobody's own data.
    ///   - queryKeys: The query parameters the screen reads. Only these reach the builder and
    ///     the cache key, so made-up query strings can neither split the cache nor change a screen.
    ///   - build: Builds the screen. Throw a ``ScreenplayError`` for a 4xx; anything else is a
    ///     500 whose cause is logged, and the server keeps serving.
    public mutating func screen(
        _ pattern: String, revision: RevisionFunction? = nil, revalidation: Revalidation = .callingRevision, sharing: Sharing = .perUser,
        queryKeys: Set<String> = [], build: @escaping ScreenBuilderFunction
    ) {
        screens.append(
            ScreenRoute(
                pattern: RoutePattern(pattern), revision: revision, revalidation: revalidation, sharing: sharing, queryKeys: queryKeys,
                build: build))
    }

    /// Serves a command at `commands/<pattern>` (POST, JSON body = the action's payload).
    /// `identity` says who it runs as for a client without a token: a new identity (the
    /// default), or the anonymous user (``CommandIdentity/anonymous``). `payload` declares the
    /// fields it reads, for the API's description (without it, any JSON is documented).
    public mutating func command(
        _ pattern: String, identity: CommandIdentity = .created, payload: CommandPayloadSchema? = nil, perform: @escaping CommandFunction
    ) {
        commands.append(CommandRoute(pattern: RoutePattern(pattern), identity: identity, payload: payload, perform: perform))
    }

    func screenRoute(for segments: [String]) -> (ScreenRoute, [String: String])? {
        for route in screens {
            if let parameters = route.pattern.match(segments) { return (route, parameters) }
        }
        return nil
    }

    func commandRoute(for segments: [String]) -> (CommandRoute, [String: String])? {
        for route in commands {
            if let parameters = route.pattern.match(segments) { return (route, parameters) }
        }
        return nil
    }
}

public import Foundation
public import ScreenplayContract

/// Screens served at the routes the code does not define: the layout admin's composed pages
/// (`ComposedScreens` in ScreenplayComposer). The service asks it only after its own routes, so
/// a coded screen always wins and no page can shadow one.
///
/// A protocol in the server core so that an app serving coded screens only builds no composer:
/// the service knows that such pages exist, not how they are made.
public protocol PageSource: Sendable {
    /// The app-defined component kinds pages may contain, by name: a client's
    /// `Screenplay-Components` header is read against these.
    var customKinds: [String: CustomComponentKind] { get }

    /// The page for `request`, encoded, or `nil` when its route has no page (a 404). Throws only
    /// when the page cannot be read at all (its store failed), never because of one widget.
    func body(for request: PageRequest) async throws(ScreenplayError) -> EncodedBody?
}

/// A ``PageSource`` that can say for how long a page's answer stays true, so the service may
/// remember it and answer the same request again before routing (``RevalidationMemory``).
public protocol RememberingPageSource: PageSource {
    /// The page for `request` and whether its answer may be remembered (``PageAnswer/remembered``),
    /// or `nil` when its route has no page.
    func answer(for request: PageRequest) async throws(ScreenplayError) -> PageAnswer?
}

extension PageSource {
    /// The page for `request`: remembered as ``RememberingPageSource`` says, else never.
    func page(for request: PageRequest) async throws(ScreenplayError) -> PageAnswer? {
        if let remembering = self as? any RememberingPageSource { return try await remembering.answer(for: request) }
        return try await body(for: request).map { PageAnswer(body: $0, remembered: nil) }
    }
}

/// A page, and for how long the same request may be answered from memory.
public struct PageAnswer: Sendable {
    /// The encoded page.
    public let body: EncodedBody
    /// Set when the page changes only with what the invalidation bus announces (a publish, an
    /// experiment's edit, the owner's writes) or at a time it can name: the service then remembers
    /// the answer (``RevalidationMemory``) until then.
    public let remembered: Remembered?

    /// Whose writes make a remembered page stale, and when it changes by itself.
    public struct Remembered: Sendable {
        /// Whose writes make it stale (`nil`: nobody's, a page the same for everyone who asks alike).
        public let owner: UserIdentity?
        /// When it may change by itself: a provider's data going stale, a widget's window opening
        /// or closing, an experiment starting or stopping.
        public let until: Date

        /// How a page's answer is remembered.
        public init(owner: UserIdentity?, until: Date) {
            self.owner = owner
            self.until = until
        }
    }

    /// A page's answer.
    public init(body: EncodedBody, remembered: Remembered?) {
        self.body = body
        self.remembered = remembered
    }
}

/// One request for a page (see ``PageSource``): what a page may vary by.
public struct PageRequest: Sendable {
    /// The route (`shop`).
    public var route: String
    /// Who asks.
    public var user: UserIdentity
    /// The client's API version.
    public var apiVersion: APIVersion
    /// The app-defined kinds the client renders.
    public var clientKinds: Set<String>
    /// The client's platform (`Screenplay-Platform`; `web` for the HTML pages).
    public var platform: Platform
    /// The client's locale (the first of `Accept-Language`).
    public var locale: String?

    /// A request.
    public init(
        route: String, user: UserIdentity, apiVersion: APIVersion, clientKinds: Set<String> = [], platform: Platform,
        locale: String? = nil
    ) {
        self.route = route
        self.user = user
        self.apiVersion = apiVersion
        self.clientKinds = clientKinds
        self.platform = platform
        self.locale = locale
    }
}

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

public import ScreenplayContract

/// Maps the contract's URLs to browser URLs.
///
/// Action URLs are relative to the API base (`screens/composer/mozart`); the web pages live at
/// the same paths from the site root (`/screens/composer/mozart`). Root-relative and http(s)
/// URLs pass through; anything the ``LinkPolicy`` refuses renders as no link at all.
public struct WebLinks: Sendable {
    /// The path that answers command form posts.
    public var commandPath: String
    /// The paths that are the site's pages (``WebSite/pagePaths``), which its script loads in
    /// place: `"/"` is that path alone, `"/screens/*"` every path under it.
    public var pagePaths: [String]

    /// Creates the mapping.
    public init(commandPath: String = "/web/command", pagePaths: [String] = WebSite.pagePaths) {
        self.commandPath = commandPath
        self.pagePaths = pagePaths
    }

    /// The browser URL of a screen path such as `screens/home`.
    public func href(_ url: String, policy: LinkPolicy = .endpoint) -> String? {
        guard (try? policy.check(url)) != nil else { return nil }
        // Scalars, not characters: "/" followed by a combining mark is still a leading slash to a
        // browser, and prefixing another "/" would make it protocol-relative.
        if url.unicodeScalars.first == "/" || LinkPolicy.scheme(of: url) != nil { return url }
        if url == "screens/home" { return "/" }
        return "/" + url
    }
}

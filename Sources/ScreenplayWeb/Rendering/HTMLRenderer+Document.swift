import ScreenplayClient
import ScreenplayContract

/// The site around every page: what a browser user finds on each one whatever the screen is.
public struct WebShell: Sendable {
    /// A place the site's navigation links to.
    public struct Link: Sendable, Hashable {
        /// What the link says.
        public var title: String
        /// Where it goes (a local path).
        public var path: String

        /// A link.
        public init(_ title: String, path: String) {
            self.title = title
            self.path = path
        }
    }

    /// The search box every page carries: a `GET` form, so results have a URL.
    public struct Search: Sendable, Hashable {
        /// The page results are at (`/screens/search`).
        public var path: String
        /// The query parameter (`q`).
        public var parameter: String
        /// What the empty box says.
        public var placeholder: String
        /// The page of suggestions for what is typed so far (`/screens/search/suggestions`, asked
        /// with the same parameter), whose rows the script offers under the box as the user types
        /// (a combobox); `nil`, or no script: the box is a plain search form.
        public var suggestions: String?

        /// A search box.
        public init(path: String, parameter: String = "q", placeholder: String = "Search", suggestions: String? = nil) {
            self.path = path
            self.parameter = parameter
            self.placeholder = placeholder
            self.suggestions = suggestions
        }
    }

    /// The site's name, in the header and each page's title.
    public var siteName: String
    /// The site's sections, in the header; the one a page is under is marked current.
    public var navigation: [Link]
    /// The search box, if the site has one.
    public var search: Search?
    /// The script's URL (``WebSite`` sets it to the module it serves), or `nil` for none.
    public var scriptPath: String?
    /// The URLs of the modules the script imports, preloaded beside it.
    public var scriptImports: [String] = []
    /// The stylesheet's URL (``WebSite`` sets it to the copy it serves, which browsers keep), or
    /// `nil` to put the stylesheet in every page.
    public var stylesheetPath: String?

    /// A shell.
    public init(
        siteName: String = "Screenplay", navigation: [Link] = [Link("Home", path: "/")], search: Search? = nil, scriptPath: String? = nil,
        stylesheetPath: String? = nil
    ) {
        self.siteName = siteName
        self.navigation = navigation
        self.search = search
        self.scriptPath = scriptPath
        self.stylesheetPath = stylesheetPath
    }

    /// The navigation link a path is under: the longest path that is it or a parent of it, so a
    /// playlist is under Library and home under Home only.
    func current(for path: String?) -> Link? {
        guard let path = path.map({ String($0.prefix { $0 != "?" && $0 != "#" }) }) else { return nil }
        return navigation.filter { link in
            link.path == path || (link.path != "/" && path.hasPrefix(link.path.hasSuffix("/") ? link.path : link.path + "/"))
        }.max { $0.path.count < $1.path.count }
    }
}

extension HTMLRenderer {
    /// A whole page: the shell (skip link, site header with navigation and search, the player
    /// bar, the live region, the loading template) around `body`. `kind` marks what `<main>`
    /// holds (`screen`, `dialog`, `error`) for the script; `live`, where to hear of changes.
    func document(title: String, body: String, currentPath: String?, kind: String = "screen", live: WebLive? = nil) -> String {
        let current = shell.current(for: currentPath)
        var navigation = ""
        for link in shell.navigation {
            let here = link == current ? " aria-current=\"page\"" : ""
            navigation += "<li><a href=\"\(HTML.escape(link.path))\"\(here)>\(HTML.escape(link.title))</a></li>"
        }
        var search = ""
        if let box = shell.search {
            // Not on the search page itself, which has a field of its own.
            let here = currentPath.map { $0 == box.path || $0.hasPrefix(box.path + "?") } ?? false
            var suggest = ""
            if let from = box.suggestions, let module = WebScript.suggest {
                suggest = " data-suggest=\"\(HTML.escape(module.versionedPath))\" data-suggest-from=\"\(HTML.escape(from))\""
            }
            search = """
                <form class="site-search" role="search" method="get" action="\(HTML.escape(box.path))"\(here ? " hidden" : "")>\
                <label for="site-search" class="visually-hidden">Search</label>\
                <input id="site-search" type="search" name="\(HTML.escape(box.parameter))" placeholder="\(HTML.escape(box.placeholder))" autocomplete="off"\(suggest)>\
                <button type="submit">Search</button></form>
                """
        }
        // The dialogs' module, which the script loads the first time a command answers with one.
        let dialogs = (WebScript.dialogs.map { " data-dialogs=\"\(HTML.escape($0.versionedPath))\"" } ?? "")
            // The reports' module, loaded when a page has something to report or a track starts.
            + (WebScript.reports.map { " data-reports=\"\(HTML.escape($0.versionedPath))\"" } ?? "")
            // Share's module, loaded the first time a Share is tapped.
            + (WebScript.share.map { " data-share=\"\(HTML.escape($0.versionedPath))\"" } ?? "")
            // The player's module, loaded by the first play (or at once when a player was kept).
            + (WebScript.player.map { " data-player-module=\"\(HTML.escape($0.versionedPath))\"" } ?? "")
        let fullTitle = title == shell.siteName ? title : title + " · " + shell.siteName
        let style = shell.stylesheetPath.map { "<link rel=\"stylesheet\" href=\"\(HTML.escape($0))\">" } ?? "<style>\(WebStylesheet.css)</style>"
        let script = shell.scriptPath.map { path in
            shell.scriptImports.map { "<link rel=\"modulepreload\" href=\"\(HTML.escape($0))\">" }.joined()
                + "<script type=\"module\" src=\"\(HTML.escape(path))\"></script>"
        } ?? ""
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta name="color-scheme" content="light dark"><link rel="icon" href="\(WebSite.iconPath)" type="image/svg+xml"><title>\(HTML.escape(fullTitle))</title>\
            \(style)\(script)</head>
            <body data-command-path="\(HTML.escape(links.commandPath))" data-pages="\(HTML.escape(links.pagePaths.joined(separator: " ")))" data-command-ms="\(CommandTiming.optimisticTimeoutMilliseconds)" \
            data-command-failure="That did not work: the server could not be reached." \
            data-command-timeout="That did not work: the server did not answer in time."\(dialogs)>\
            <a class="skip-link" href="#main">Skip to content</a>\
            <header class="site-header"><div class="bar"><a class="brand" href="/">\(HTML.escape(shell.siteName))</a>\
            <nav aria-label="Site"><ul>\(navigation)</ul></nav>\(search)</div></header>
            <main id="main" tabindex="-1" data-page="\(kind)"\(live?.attributes ?? "")>\(body)</main>
            \(Self.playerBar)<div id="sp-announcer" class="visually-hidden" role="status" aria-live="polite"></div>\(loadingTemplate)
            </body></html>
            """
    }

    /// What a page shows the moment a link is followed, before the destination arrives: the
    /// header the link carries (title, subtitle, the low-resolution image the page already showed)
    /// in a loading state, as ``ViewTreeResolver`` resolves a loading screen. The script fills the
    /// `data-slot` elements from the link's `data-header-*` attributes; a failed load replaces the
    /// progress with the error and its retry.
    var loadingTemplate: String {
        let loading = resolver.resolve(ScreenState.loading(header: nil)).root.children.first { $0.role == .progress }
        let progress = HTML.escape(loading?.text ?? "Loading…")
        return """
            <template id="sp-loading"><header class="hero" data-node="header"><img data-slot="image" alt="" hidden>\
            <div class="hero-text"><h1 data-slot="title"></h1><p class="subtitle" data-slot="subtitle"></p></div></header>\
            <p class="progress" role="status" data-slot="progress">\(progress)</p>\
            <div class="error" role="alert" data-slot="failure" hidden><p data-slot="message">This page could not be loaded.</p>\
            <button type="button" class="action" data-retry>↻ Retry</button></div></template>\
            <template id="sp-error"><p class="error" role="alert" data-notice="error"></p></template>
            """
    }

    /// The player bar: hidden until the script plays something, outside `<main>` so it keeps
    /// playing while pages change. Labels and symbols are here, in the markup; the script only
    /// switches between the ones given.
    static let playerBar = """
        <section id="sp-player" class="player" aria-label="Now playing" hidden><audio id="sp-audio" preload="none"></audio>\
        <div class="player-track"><img class="player-art" data-slot="art" alt="" hidden><span class="player-text">\
        <span class="player-title" data-slot="title"></span><span class="player-subtitle" data-slot="subtitle"></span></span></div>\
        <section id="sp-queue" class="player-queue" aria-label="Queue" hidden><h2>Queue</h2><ol></ol></section>\
        <section id="sp-track-menu" class="player-queue" aria-label="This track" hidden><h2>This track</h2><ul></ul></section>\
        <div class="player-controls"><button type="button" class="player-button minor" data-player="shuffle" aria-label="Shuffle" aria-pressed="false">\
        \(icon("M4 7h3.5l8 10H18v-2.5l3.5 3.5-3.5 3.5V19h-3.5l-8-10H4zM4 15h2.5l1.8-2.2 1.3 1.6L7.5 17H4zM13.2 9.6l-1.3-1.6L14.5 5H18V2.5L21.5 6 18 9.5V7h-2.5z"))</button>\
        <button type="button" class="player-button" data-player="previous" aria-label="Previous track">\(icon("M7 6h2v12H7zM10 12l8-6v12z"))</button>\
        <button type="button" class="player-button primary" data-player="toggle" aria-label="Play" data-playing-label="Pause" data-paused-label="Play">\
        \(icon("M8 5v14l11-7z", class: "when-paused"))\(icon("M7 5h4v14H7zM13 5h4v14h-4z", class: "when-playing"))</button>\
        <button type="button" class="player-button" data-player="next" aria-label="Next track">\(icon("M15 6h2v12h-2zM6 6l8 6-8 6z"))</button>\
        <button type="button" class="player-button minor" data-player="queue" aria-label="Queue" aria-expanded="false" aria-controls="sp-queue">\
        \(icon("M3 6h12v2H3zM3 10h12v2H3zM3 14h8v2H3zM17 5h4v2h-2v9.5a2.5 2.5 0 1 1-2-2.45z"))</button>\
        <button type="button" class="player-button minor" data-player="more" aria-label="More for this track" aria-expanded="false" aria-controls="sp-track-menu" hidden>\
        \(icon("M5 10.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm7 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm7 0a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z"))</button></div>\
        <div class="player-time"><span data-slot="elapsed">0:00</span>\
        <input type="range" data-player="seek" aria-label="Position in the track" min="0" max="0" step="1" value="0">\
        <span data-slot="duration">0:00</span></div></section>
        """

    /// A 24-point icon drawn from an SVG path, hidden from assistive technologies (its button
    /// has the label): no font is relied on for a symbol.
    static func icon(_ path: String, class name: String? = nil) -> String {
        let attribute = name.map { " class=\"\($0)\"" } ?? ""
        return "<svg\(attribute) viewBox=\"0 0 24 24\" width=\"20\" height=\"20\" aria-hidden=\"true\" focusable=\"false\"><path d=\"\(path)\" fill=\"currentColor\"/></svg>"
    }
}

/// What makes a page follow its screen, as the screen declares (v5 `live`): the event stream to
/// open, the polling interval, and the ETag of the screen the page shows. The script opens the
/// stream and, when it names another ETag for the screen (or asks for a revalidation), fetches
/// the page again and morphs it in by node id; with an interval it does the same every so many
/// seconds while the tab is visible (a 304 when nothing moved).
public struct WebLive: Sendable, Hashable {
    /// The stream's URL (`/web/events?screens=…`), when the screen follows events.
    public var eventsURL: String?
    /// The ETag of the screen as shown (the API's, so the stream's events compare with it).
    public var etag: String
    /// Seconds between revalidations, when the screen asks to be polled.
    public var interval: Int?

    /// Describes a live page.
    public init(eventsURL: String?, etag: String, interval: Int? = nil) {
        self.eventsURL = eventsURL
        self.etag = etag
        self.interval = interval
    }

    var attributes: String {
        (eventsURL.map { " data-live=\"\(HTML.escape($0))\"" } ?? "") + (interval.map { " data-interval=\"\($0)\"" } ?? "")
            + " data-etag=\"\(HTML.escape(etag))\""
    }
}

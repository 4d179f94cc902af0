import Foundation
public import ScreenplayClient
public import ScreenplayContract

/// Renders screens and command results as accessible HTML that works without JavaScript.
///
/// The same ``Screen`` value an app decodes becomes semantic HTML: headings for headers, lists
/// for rows, links for navigate actions, and a `<form method="post">` for each command, so
/// every flow works with scripting off. All text is escaped; links pass the ``LinkPolicy``.
///
/// What the site's script needs in order to act (a navigate link's carried header, a toggle's
/// other face, a play action's first track and queue, a share's title and URL, every node's id)
/// is written into the markup as `data-` attributes here, from the view tree: the script carries
/// out what the markup says and decides nothing a renderer would.
public struct HTMLRenderer: Sendable {
    /// How contract URLs become browser URLs.
    public var links: WebLinks

    /// App-defined kinds: how the view tree resolves them, and how ``NodeRole/custom`` nodes
    /// of each become HTML.
    public var registry: ComponentRegistry
    /// HTML for custom nodes, by kind; kinds without an entry render as nothing.
    public var customNodes: [String: @Sendable (ViewNode) -> String]

    /// Color tokens of the site's palette beyond the standard ones; the stylesheet must define
    /// `--sp-<name>` for each. Other unknown tokens show as the primary text color.
    public var appColorTokens: Set<String>

    /// The site around every page: its name, navigation, search box and script.
    public var shell: WebShell

    /// The site's origin as the browser reached it (`http://127.0.0.1:8080`), when known: a share's
    /// link to copy is then a whole URL, pasteable anywhere. ``WebSite`` sets it per request.
    public var origin: String?

    /// Creates a renderer.
    public init(
        links: WebLinks = WebLinks(), registry: ComponentRegistry = ComponentRegistry(),
        customNodes: [String: @Sendable (ViewNode) -> String] = [:], appColorTokens: Set<String> = [], shell: WebShell = WebShell()
    ) {
        self.links = links
        self.registry = registry
        self.customNodes = customNodes
        self.appColorTokens = appColorTokens
        self.shell = shell
    }

    /// The local actions a browser can carry out: links to streams, share and web pages.
    /// Custom actions only an app can do resolve disabled.
    static let browserActions: Set<String> = [Action.Play.kind, Action.Share.kind, Action.OpenURL.kind]

    /// The web resolves with the initial state and keeps the expressions in the tree: the page
    /// shows what a fresh screen shows, and the script runs the bindings from there (v6).
    var resolver: ViewTreeResolver {
        var context = ResolutionContext(registry: registry, localActions: Self.browserActions, appColorTokens: appColorTokens)
        context.carriesBindingSources = true
        return ViewTreeResolver(context: context)
    }

    // MARK: Pages

    /// A whole page for `screen`. `currentPath` is where command forms come back to; `notice` is
    /// a banner under the title (a confirmation, or an error the last form post met).
    public func page(for screen: Screen, currentPath: String, notice: WebNotice? = nil, live: WebLive? = nil) -> String {
        document(
            title: screen.title, body: content(for: screen, currentPath: currentPath, notice: notice), currentPath: currentPath, live: live)
    }

    /// The body of a screen's page (what goes in `<main>`), for hosts that show screens inside a
    /// page of their own, such as the layout admin's preview.
    public func content(for screen: Screen, currentPath: String, notice: WebNotice? = nil) -> String {
        let resolved = resolver.resolve(screen)
        var body = ""
        for node in resolved.root.children {
            body += html(node, back: currentPath)
            // The notice goes right under the title, before menus and content.
            if node.role == .header, let notice { body += notice.html }
        }
        return body + stateElement(for: screen)
    }

    /// The screen's state declarations (v6) as data for the script, with the URL of the module
    /// that runs them: only pages whose screen has state or bindings load it. Empty otherwise.
    func stateElement(for screen: Screen) -> String {
        guard screen.hasClientState, let module = WebScript.state else { return "" }
        let declarations = JSONValue.object(screen.state.mapValues { variable in
            var object: [String: JSONValue] = ["type": variable.type.json, "initial": variable.initial.json]
            if variable.scope != .screen { object["scope"] = .string(variable.scope.rawValue) }
            return .object(object)
        })
        // JSON inside <script> ends at the first "</": every "<" is written as an escape.
        let json = declarations.jsonText.replacingOccurrences(of: "<", with: "\\u003c")
        return "<script type=\"application/json\" id=\"screen-state\" data-screen=\"\(HTML.escape(screen.id))\" data-state-module=\"\(HTML.escape(module.versionedPath))\">\(json)</script>"
    }


    /// A page asking for text; its form posts the text to the prompt's submit command.
    /// `dialog` names the kept prompt (a refused text comes back to it with `value` and `error`).
    public func page(for prompt: CommandResult.Prompt, back: String, dialog: String? = nil, value: String? = nil, error: String? = nil)
        -> String
    {
        document(
            title: prompt.title, body: dialogContent(for: prompt, back: back, dialog: dialog, value: value, error: error), currentPath: nil,
            kind: "dialog")
    }

    /// A page listing options; each is a form posting its follow-up command.
    public func page(for choice: CommandResult.Choice, back: String, dialog: String? = nil, error: String? = nil) -> String {
        document(
            title: choice.title, body: dialogContent(for: choice, back: back, dialog: dialog, error: error), currentPath: nil, kind: "dialog")
    }

    /// A page explaining a failure, with a way back.
    public func errorPage(title: String, message: String, back: String?) -> String {
        var body = "<h1>\(HTML.escape(title))</h1><p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>"
        if let back { body += cancelLink(back, label: "Back") }
        return document(title: title, body: body, currentPath: nil, kind: "error")
    }

    /// The page for a path nothing answers: the site's look, its navigation and a way home.
    public func notFoundPage(path: String) -> String {
        let body = """
            <h1>Page not found</h1><p class="error" role="alert">Nothing is at \(HTML.escape(String(path.prefix(200)))).</p>\
            <p>Try the search above, or <a href="/">go home</a>.</p>
            """
        return document(title: "Page not found", body: body, currentPath: nil, kind: "error")
    }

    // MARK: Components

    /// The HTML of one component, resolved through the view tree like a whole screen; unknown
    /// kinds render as nothing.
    public func component(_ component: Component, back: String) -> String {
        let screen = Screen(id: "component", title: "", sections: [ScreenSection(id: "component", components: [component])])
        let section = resolver.resolve(screen).root.children.first { $0.role == .section }
        return section?.children.map { html($0, back: back) }.joined() ?? ""
    }

    func hiddenFields(command: Action.Command, back: String) -> String {
        "<input type=\"hidden\" name=\"url\" value=\"\(HTML.escape(command.url))\">"
            + "<input type=\"hidden\" name=\"payload\" value=\"\(HTML.escape(Self.payloadJSON(command)))\">"
            + "<input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(back))\">"
    }

    /// A command's payload as the form posts it: JSON, `{}` when there is none.
    static func payloadJSON(_ command: Action.Command) -> String {
        (try? ScreenplayEncoder().encode(command.payload ?? .object([:]))).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    func cancelLink(_ back: String, label: String = "Cancel") -> String {
        "<p><a href=\"\(HTML.escape(WebForm.safeBackPath(back)))\">\(HTML.escape(label))</a></p>"
    }

    func css(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e9 ? String(Int(number)) : String(number)
    }

    func css(_ color: SemanticColor) -> String {
        switch color {
        case .primaryText: "var(--sp-primaryText)"
        case .secondaryText: "var(--sp-secondaryText)"
        case .accent: "var(--sp-accent)"
        case .background: "var(--sp-background)"
        case .surface: "var(--sp-surface)"
        case .positive: "var(--sp-positive)"
        case .negative: "var(--sp-negative)"
        // App tokens are letters and digits only (the contract checks), so safe in CSS.
        case .appToken(let name): "var(--sp-\(name))"
        case .rgba(let red, let green, let blue, let alpha):
            alpha == 255
                ? ColorValue.rgba(red: red, green: green, blue: blue, alpha: alpha).wireValue
                : "rgba(\(red),\(green),\(blue),\(css(Double(alpha) / 255)))"
        }
    }

    /// The pages' stylesheet confined to the elements under `selector` (CSS `@scope`), for hosts
    /// that show rendered screens inside a page of their own, such as the layout admin's preview:
    /// the screens look as they do on the site, and the host page keeps its own look.
    public static func stylesheet(scopedTo selector: String) -> String {
        let scoped = WebStylesheet.css.replacingOccurrences(of: ":root{", with: ":scope{").replacingOccurrences(of: "body{", with: ":scope{")
        return "@scope (\(selector)) {\(scoped)}"
    }
}

/// What a command's answer says on the page: a confirmation the site issued, drawn as a toast
/// (fixed over the page, in a live region, gone after ``ToastTiming/duration(for:)``, so nothing
/// on the page moves when it comes or goes: the heart that was tapped stays under the pointer),
/// or the error a form post met, a banner under the page's title that stays until the next page.
public struct WebNotice: Sendable, Hashable {
    /// What it says.
    public var message: String
    /// Whether it reports a failure (announced as an alert, drawn in the error colors).
    public var isError: Bool

    /// A notice.
    public init(_ message: String, isError: Bool = false) {
        self.message = message
        self.isError = isError
    }

    var html: String {
        isError
            ? "<p class=\"error\" role=\"alert\" data-notice=\"error\">\(HTML.escape(message))</p>"
            : "<p class=\"notice\" role=\"status\" data-notice=\"confirmation\" style=\"--sp-toast:\(Self.milliseconds(ToastTiming.duration(for: message)))ms\">\(HTML.escape(message))</p>"
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

import Foundation
public import ScreenplayClient
public import ScreenplayContract

/// Renders screens and command results as accessible HTML that works without JavaScript.
///
/// The same ``Screen`` value an app decodes becomes semantic HTML: headings for headers, lists
/// for rows, links for navigate actions, and a `<form method="post">` for each command, so
/// menus work with scripting off. All text is escaped; links pass the ``LinkPolicy``.
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

    /// Creates a renderer.
    public init(
        links: WebLinks = WebLinks(), registry: ComponentRegistry = ComponentRegistry(),
        customNodes: [String: @Sendable (ViewNode) -> String] = [:], appColorTokens: Set<String> = []
    ) {
        self.links = links
        self.registry = registry
        self.customNodes = customNodes
        self.appColorTokens = appColorTokens
    }

    /// The local actions a browser can carry out: links to streams, share and web pages.
    /// Custom actions only an app can do resolve disabled.
    static let browserActions: Set<String> = [Action.Play.kind, Action.Share.kind, Action.OpenURL.kind]

    var resolver: ViewTreeResolver {
        ViewTreeResolver(context: ResolutionContext(registry: registry, localActions: Self.browserActions, appColorTokens: appColorTokens))
    }

    // MARK: Pages

    /// A whole page for `screen`. `currentPath` is where command forms come back to.
    public func page(for screen: Screen, currentPath: String, notice: String? = nil) -> String {
        let resolved = resolver.resolve(screen)
        var body = ""
        for node in resolved.root.children {
            body += html(node, back: currentPath)
            // The notice goes right under the title, before menus and content.
            if node.role == .header, let notice { body += "<p class=\"notice\" role=\"status\">\(HTML.escape(notice))</p>" }
        }
        return document(title: screen.title, body: body, showsHomeLink: currentPath != "/")
    }

    /// A page asking for text; its form posts the text to the prompt's submit command.
    public func page(for prompt: CommandResult.Prompt, back: String) -> String {
        var body = "<h1>\(HTML.escape(prompt.title))</h1>"
        if let message = prompt.message { body += "<p>\(HTML.escape(message))</p>" }
        body += "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\" class=\"prompt\">"
        body += hiddenFields(command: prompt.submit, back: back)
        body += "<input type=\"hidden\" name=\"field\" value=\"\(HTML.escape(prompt.field.name))\">"
        body += "<label for=\"prompt-value\">\(HTML.escape(prompt.field.placeholder ?? prompt.title))</label>"
        body += "<input id=\"prompt-value\" name=\"value\" type=\"text\" required"
        if let maxLength = prompt.field.maxLength { body += " maxlength=\"\(maxLength)\"" }
        if let initial = prompt.field.initialValue { body += " value=\"\(HTML.escape(initial))\"" }
        if let placeholder = prompt.field.placeholder { body += " placeholder=\"\(HTML.escape(placeholder))\"" }
        body += "><button type=\"submit\">\(HTML.escape(prompt.submitTitle))</button></form>"
        body += cancelLink(back)
        return document(title: prompt.title, body: body, showsHomeLink: true)
    }

    /// A page listing options; each is a form posting its follow-up command.
    public func page(for choice: CommandResult.Choice, back: String) -> String {
        var body = "<h1>\(HTML.escape(choice.title))</h1>"
        if let message = choice.message { body += "<p>\(HTML.escape(message))</p>" }
        body += "<ul class=\"choices\">"
        for option in choice.options {
            body += "<li><form method=\"post\" action=\"\(HTML.escape(links.commandPath))\">"
            body += hiddenFields(command: option.command, back: back)
            body += "<button type=\"submit\">\(HTML.escape(option.title))"
            if let subtitle = option.subtitle { body += " <small>\(HTML.escape(subtitle))</small>" }
            body += "</button></form></li>"
        }
        body += "</ul>" + cancelLink(back)
        return document(title: choice.title, body: body, showsHomeLink: true)
    }

    /// A page explaining a failure, with a way back.
    public func errorPage(title: String, message: String, back: String?) -> String {
        var body = "<h1>\(HTML.escape(title))</h1><p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>"
        if let back { body += cancelLink(back, label: "Back") }
        return document(title: title, body: body, showsHomeLink: true)
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
        let payload =
            (try? ScreenplayEncoder().encode(command.payload ?? .object([:]))).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        return "<input type=\"hidden\" name=\"url\" value=\"\(HTML.escape(command.url))\">"
            + "<input type=\"hidden\" name=\"payload\" value=\"\(HTML.escape(payload))\">"
            + "<input type=\"hidden\" name=\"back\" value=\"\(HTML.escape(back))\">"
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

    func document(title: String, body: String, showsHomeLink: Bool) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTML.escape(title)) · Screenplay</title><style>\(Self.stylesheet)</style></head>
        <body><main>\(showsHomeLink ? "<p class=\"home\"><a href=\"/\">← Home</a></p>" : "")\(body)</main></body></html>
        """
    }

    /// The pages' stylesheet confined to the elements under `selector` (CSS `@scope`), for hosts
    /// that show rendered screens inside a page of their own, such as the layout admin's preview:
    /// the screens look as they do on the site, and the host page keeps its own look.
    public static func stylesheet(scopedTo selector: String) -> String {
        let scoped = stylesheet.replacingOccurrences(of: ":root{", with: ":scope{").replacingOccurrences(of: "body{", with: ":scope{")
        return "@scope (\(selector)) {\(scoped)}"
    }

    static let stylesheet = """
        :root{--sp-primaryText:#1d1d1f;--sp-secondaryText:#6e6e73;--sp-accent:#8a2be2;--sp-background:#fff;--sp-surface:#eef3fb;\
        --sp-positive:#1a7f37;--sp-negative:#c62828;font-family:system-ui,sans-serif;color:var(--sp-primaryText)}
        @media (prefers-color-scheme:dark){:root{--sp-primaryText:#f2f2f7;--sp-secondaryText:#a1a1aa;--sp-accent:#c39bff;--sp-background:#111114;\
        --sp-surface:#23232b;--sp-positive:#4ade80;--sp-negative:#f87171;color-scheme:dark}}
        body{background:var(--sp-background)}main{max-width:760px;margin:0 auto;padding:16px;overflow-wrap:break-word}a{color:var(--sp-accent)}
        .hero img{width:160px;height:160px;border-radius:12px;object-fit:cover}.subtitle{color:var(--sp-secondaryText);display:block}
        .carousel{display:flex;gap:12px;overflow-x:auto;list-style:none;padding:0}.carousel li{flex:0 0 110px;text-align:center}
        .carousel img{width:96px;height:96px;border-radius:50%}.carousel .title{display:block;font-size:14px}
        .row{display:flex;align-items:center;gap:12px;padding:8px 0;border-bottom:1px solid rgba(128,128,128,.3)}.row>a:not(.action),.row>form:not(.inline){display:flex;gap:12px;align-items:center;text-decoration:none;color:inherit;flex:1}.row .text-block{flex:1}.row>.action,.row>form.inline{flex:0 0 auto}
        .row img{width:48px;height:48px;border-radius:6px}.accessory{margin-left:auto;color:var(--sp-secondaryText);font-size:13px}
        .accessory{font-variant-numeric:tabular-nums}.progress{color:var(--sp-secondaryText)}
        button[disabled],.action[aria-disabled]{opacity:.5;cursor:not-allowed}
        .menu{display:flex;gap:8px;flex-wrap:wrap;margin:8px 0}form.inline{display:inline}
        button,.action{font:inherit;padding:6px 12px;border-radius:8px;border:1px solid var(--sp-accent);background:var(--sp-background);color:var(--sp-accent);cursor:pointer;text-decoration:none}
        .notice{background:#e8f5e9;padding:8px 12px;border-radius:8px}.error{background:#fdecea;padding:8px 12px;border-radius:8px}
        section>.action,section>form.inline{display:inline-block;margin:4px 0 12px}.choices{list-style:none;padding:0}.choices li{margin:8px 0}section>.stack{margin-bottom:12px;border-radius:10px}
        .grid{display:grid;gap:12px;list-style:none;padding:0}.grid img{width:100%;height:auto;border-radius:8px}.grid a{text-decoration:none;color:inherit}
        .field{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0 12px}.field label{flex:1 0 100%;font-weight:600}        .field input{flex:1;min-width:0;font:inherit;padding:8px 10px;border-radius:8px;border:1px solid var(--sp-secondaryText);        background:var(--sp-background);color:var(--sp-primaryText)}.field-error{flex:1 0 100%;margin:0;color:var(--sp-negative)}        .stack>.row{flex:1}
        """
}

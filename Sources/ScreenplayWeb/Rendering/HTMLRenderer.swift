import Foundation
public import ScreenplayContract

/// Renders screens and command results as accessible HTML that works without JavaScript.
///
/// The same ``Screen`` value an app decodes becomes semantic HTML: headings for headers, lists
/// for rows, links for navigate actions, and a `<form method="post">` for each command, so
/// menus work with scripting off. All text is escaped; links pass the ``LinkPolicy``.
public struct HTMLRenderer: Sendable {
    /// How contract URLs become browser URLs.
    public var links: WebLinks

    /// Creates a renderer.
    public init(links: WebLinks = WebLinks()) { self.links = links }

    // MARK: Pages

    /// A whole page for `screen`. `currentPath` is where command forms come back to.
    public func page(for screen: Screen, currentPath: String, notice: String? = nil) -> String {
        var body = ""
        if let header = screen.header { body += headerHTML(header, level: 1) } else { body += "<h1>\(HTML.escape(screen.title))</h1>" }
        if let notice { body += "<p class=\"notice\" role=\"status\">\(HTML.escape(notice))</p>" }
        let menu = (screen.toolbar ?? []) + (screen.menu ?? [])
        if !menu.isEmpty {
            body += "<nav class=\"menu\" aria-label=\"Actions\">"
            for item in menu { body += actionControl(title: item.title, action: item.action, back: currentPath) }
            body += "</nav>"
        }
        for section in screen.sections {
            body += "<section id=\"\(HTML.escape("section-" + section.id))\">"
            if let header = section.header { body += sectionHeaderHTML(header, back: currentPath) }
            body += section.components.map { component($0, back: currentPath) }.joined()
            body += "</section>"
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

    /// The HTML of one component; unknown kinds render as nothing.
    public func component(_ component: Component, back: String) -> String {
        switch component {
        case .pageHeader(let header):
            return headerHTML(header, level: 2)
        case .sectionHeader(let header):
            return sectionHeaderHTML(header, back: back)
        case .paragraphs(let text):
            return "<div class=\"paragraphs\">" + text.paragraphs.map { "<p>\(HTML.escape($0))</p>" }.joined() + "</div>"
        case .detailButton(let button):
            return row(
                title: button.title, subtitle: button.subtitle, image: button.image, accessories: [], action: button.action, back: back,
                kind: "detail")
        case .listRow(let row):
            var accessories: [String] = []
            if let composer = row.composer { accessories.append(composer) }
            if let count = row.recordingCount { accessories.append(count == 1 ? "1 recording" : "\(count) recordings") }
            return self.row(
                title: row.title, subtitle: row.subtitle, image: row.image, accessories: accessories, action: row.action, back: back,
                kind: "list")
        case .trackRow(let track):
            var html = "<div class=\"track\"><span class=\"title\">\(HTML.escape(track.title))</span>"
            if let subtitle = track.subtitle { html += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
            if let duration = track.durationText { html += "<span class=\"duration\">\(HTML.escape(duration))</span>" }
            if let action = track.action { html += actionControl(title: "Play", action: action, back: back, label: "Play \(track.title)") }
            return html + "</div>"
        case .carousel(let carousel):
            return tiles(carousel.items, listAttributes: "class=\"carousel \(carousel.itemStyle.rawValue)\"", back: back)
        case .verticalStack(let stack):
            let style = stackStyle(
                direction: "column", align: stack.alignment.map(flexAlignment), spacing: stack.spacing, background: stack.background,
                padding: stack.padding)
            return "<div class=\"stack\" style=\"\(style)\">" + stack.children.map { self.component($0, back: back) }.joined() + "</div>"
        case .horizontalStack(let stack):
            let style = stackStyle(
                direction: "row", align: stack.alignment.map(flexAlignment), spacing: stack.spacing, background: stack.background,
                padding: stack.padding)
            return "<div class=\"stack\" style=\"\(style)\">" + stack.children.map { self.component($0, back: back) }.joined() + "</div>"
        case .text(let text):
            var style: [String] = []
            if let size = text.size { style.append("font-size:\(css(size))px") }
            if let weight = text.weight { style.append("font-weight:\(cssWeight(weight))") }
            if let color = text.color { style.append("color:\(css(color))") }
            return "<span class=\"text\"" + (style.isEmpty ? "" : " style=\"\(style.joined(separator: ";"))\"")
                + ">\(HTML.escape(text.text))</span>"
        case .image(let image):
            return wrap(imageHTML(image.image), in: image.action, back: back)
        case .rectangle(let rectangle):
            var style = "width:\(css(rectangle.width))px;height:\(css(rectangle.height))px;background:\(css(rectangle.color))"
            if let radius = rectangle.cornerRadius { style += ";border-radius:\(css(radius))px" }
            return "<div class=\"rectangle\" role=\"presentation\" style=\"\(style)\"></div>"
        case .button(let button):
            return actionControl(title: button.title, action: button.action, back: back, style: button.style?.rawValue)
        case .spacer(let spacer):
            if let length = spacer.length { return "<div class=\"spacer\" style=\"flex:0 0 \(css(length))px\"></div>" }
            return "<div class=\"spacer\" style=\"flex:1\"></div>"
        case .favoriteButton(let favorite):
            let title = favorite.isFavorite ? "♥ Remove from favorites" : "♡ Add to favorites"
            return actionControl(
                title: title, action: .command(favorite.command), back: back, label: "\(title): \(favorite.label)", style: "favorite")
        case .grid(let grid):
            return tiles(
                grid.cards, listAttributes: "class=\"grid\" style=\"grid-template-columns:repeat(\(grid.columns),1fr)\"", back: back)
        case .unknown:
            return ""
        }
    }

    // MARK: Pieces

    func headerHTML(_ header: ScreenHeader, level: Int) -> String {
        var html = "<header class=\"hero\">"
        if let image = header.image { html += imageHTML(image, placeholder: true) }
        html += "<h\(level)>\(HTML.escape(header.title))</h\(level)>"
        if let subtitle = header.subtitle { html += "<p class=\"subtitle\">\(HTML.escape(subtitle))</p>" }
        return html + "</header>"
    }

    func sectionHeaderHTML(_ header: Component.SectionHeader, back: String) -> String {
        var inner = HTML.escape(header.title)
        if let action = header.action, case .navigate(let navigate) = action, let href = links.href(navigate.url) {
            inner = "<a href=\"\(HTML.escape(href))\">\(inner)</a>"
        }
        var html = "<h2>\(inner)</h2>"
        if let subtitle = header.subtitle { html += "<p class=\"subtitle\">\(HTML.escape(subtitle))</p>" }
        return html
    }

    func row(
        title: String, subtitle: String?, image: RemoteImage?, accessories: [String], action: Action?, back: String, kind: String
    ) -> String {
        var inner = ""
        if let image { inner += imageHTML(image) }
        inner += "<span class=\"text-block\"><span class=\"title\">\(HTML.escape(title))</span>"
        if let subtitle { inner += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
        inner += "</span>"
        for accessory in accessories { inner += "<span class=\"accessory\">\(HTML.escape(accessory))</span>" }
        return "<div class=\"row \(kind)\">" + wrap(inner, in: action, back: back) + "</div>"
    }

    /// Carousel cells and grid cards: a list of linked pictures with labels.
    func tiles(_ tiles: [Component.Tile], listAttributes: String, back: String) -> String {
        var html = "<ul \(listAttributes)>"
        for tile in tiles {
            var inner = ""
            if let image = tile.image { inner += imageHTML(image) }
            inner += "<span class=\"title\">\(HTML.escape(tile.title))</span>"
            if let subtitle = tile.subtitle { inner += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
            html += "<li>" + wrap(inner, in: tile.action, back: back) + "</li>"
        }
        return html + "</ul>"
    }

    func imageHTML(_ image: RemoteImage, placeholder: Bool = false) -> String {
        guard let source = links.href(image.url, policy: .resource) else { return "" }
        var html = "<img src=\"\(HTML.escape(source))\" alt=\"\(HTML.escape(image.alt ?? ""))\" loading=\"lazy\""
        if let size = image.size { html += " width=\"\(css(size.width))\" height=\"\(css(size.height))\"" }
        // Only URLs with no CSS-significant characters go into the style attribute: HTML escaping
        // is undone before CSS parses it, so a quote or parenthesis could end the url().
        if placeholder, let low = image.lowResURL, let lowSource = links.href(low, policy: .resource),
            !lowSource.contains(where: { "'\"()\\;".contains($0) || $0.isWhitespace })
        {
            html += " style=\"background-image:url('\(HTML.escape(lowSource))');background-size:cover\""
        }
        return html + ">"
    }

    /// Wraps content in a link when the action navigates or opens a URL; commands get a form.
    func wrap(_ inner: String, in action: Action?, back: String) -> String {
        guard let action else { return inner }
        switch action {
        case .navigate(let navigate):
            guard let href = links.href(navigate.url) else { return inner }
            return "<a href=\"\(HTML.escape(href))\">\(inner)</a>"
        case .openURL(let open):
            guard let href = links.href(open.url, policy: .external) else { return inner }
            return "<a href=\"\(HTML.escape(href))\" rel=\"noopener\">\(inner)</a>"
        case .play(let play):
            guard let href = links.href(play.firstTrack.streamURL, policy: .resource) else { return inner }
            return "<a href=\"\(HTML.escape(href))\">\(inner)</a>"
        case .command(let command):
            return "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\">" + hiddenFields(command: command, back: back)
                + "<button type=\"submit\" class=\"row-button\">\(inner)</button></form>"
        case .share(let share):
            guard let href = links.href(share.url, policy: .external) else { return inner }
            return "<a href=\"\(HTML.escape(href))\">\(inner)</a>"
        case .custom, .unknown:
            return inner
        }
    }

    /// A button or link for a titled action (menu items, buttons, play).
    func actionControl(title: String, action: Action, back: String, label: String? = nil, style: String? = nil) -> String {
        let aria = label.map { " aria-label=\"\(HTML.escape($0))\"" } ?? ""
        let classes = "action" + (style.map { " " + $0 } ?? "")
        switch action {
        case .command(let command):
            return "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\" class=\"inline\">"
                + hiddenFields(command: command, back: back)
                + "<button type=\"submit\" class=\"\(classes)\"\(aria)>\(HTML.escape(title))</button></form>"
        case .navigate(let navigate):
            guard let href = links.href(navigate.url) else { return "" }
            return "<a class=\"\(classes)\" href=\"\(HTML.escape(href))\"\(aria)>\(HTML.escape(title))</a>"
        case .play(let play):
            guard let href = links.href(play.firstTrack.streamURL, policy: .resource) else { return "" }
            return "<a class=\"\(classes)\" href=\"\(HTML.escape(href))\"\(aria)>▶ \(HTML.escape(title))</a>"
        case .share(let share):
            guard let href = links.href(share.url, policy: .external) else { return "" }
            return "<a class=\"\(classes)\" href=\"\(HTML.escape(href))\"\(aria)>\(HTML.escape(title))</a>"
        case .openURL(let open):
            guard let href = links.href(open.url, policy: .external) else { return "" }
            return "<a class=\"\(classes)\" href=\"\(HTML.escape(href))\" rel=\"noopener\"\(aria)>\(HTML.escape(title))</a>"
        case .custom, .unknown:
            return ""
        }
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

    func stackStyle(direction: String, align: String?, spacing: Double?, background: ColorValue?, padding: Double?) -> String {
        var style = ["display:flex", "flex-direction:\(direction)"]
        if let align { style.append("align-items:\(align)") }
        if let spacing { style.append("gap:\(css(spacing))px") }
        if let background { style.append("background:\(css(background))") }
        if let padding { style.append("padding:\(css(padding))px") }
        return style.joined(separator: ";")
    }

    func flexAlignment(_ alignment: Component.HorizontalAlignment) -> String {
        switch alignment {
        case .leading: "flex-start"
        case .center: "center"
        case .trailing: "flex-end"
        }
    }

    func flexAlignment(_ alignment: Component.VerticalAlignment) -> String {
        switch alignment {
        case .top: "flex-start"
        case .center: "center"
        case .bottom: "flex-end"
        }
    }

    func css(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e9 ? String(Int(number)) : String(number)
    }

    func css(_ color: ColorValue) -> String {
        switch color {
        case .token(let token): "var(--sp-\(token.rawValue))"
        case .rgba(let red, let green, let blue, let alpha):
            alpha == 255 ? color.wireValue : "rgba(\(red),\(green),\(blue),\(css(Double(alpha) / 255)))"
        }
    }

    func cssWeight(_ weight: Component.FontWeight) -> String {
        switch weight {
        case .regular: "400"
        case .medium: "500"
        case .semibold: "600"
        case .bold: "700"
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

    static let stylesheet = """
        :root{--sp-primaryText:#1d1d1f;--sp-secondaryText:#6e6e73;--sp-accent:#8a2be2;--sp-background:#fff;--sp-surface:#eef3fb;\
        --sp-positive:#1a7f37;--sp-negative:#c62828;font-family:system-ui,sans-serif;color:var(--sp-primaryText)}
        main{max-width:760px;margin:0 auto;padding:16px}a{color:var(--sp-accent)}
        .hero img{width:160px;height:160px;border-radius:12px;object-fit:cover}.subtitle{color:var(--sp-secondaryText);display:block}
        .carousel{display:flex;gap:12px;overflow-x:auto;list-style:none;padding:0}.carousel li{flex:0 0 110px;text-align:center}
        .carousel img{width:96px;height:96px;border-radius:50%}.carousel .title{display:block;font-size:14px}
        .row{display:flex;align-items:center;gap:12px;padding:8px 0;border-bottom:1px solid #ddd}.row a{display:flex;gap:12px;align-items:center;text-decoration:none;color:inherit;flex:1}
        .row img{width:48px;height:48px;border-radius:6px}.accessory{margin-left:auto;color:var(--sp-secondaryText);font-size:13px}
        .track{display:flex;gap:12px;align-items:baseline;padding:6px 0;border-bottom:1px solid #eee}.track .title{flex:1}.track .subtitle{display:none}
        .duration{color:var(--sp-secondaryText);font-variant-numeric:tabular-nums}
        .menu{display:flex;gap:8px;flex-wrap:wrap;margin:8px 0}form.inline{display:inline}
        button,.action{font:inherit;padding:6px 12px;border-radius:8px;border:1px solid var(--sp-accent);background:#fff;color:var(--sp-accent);cursor:pointer;text-decoration:none}
        .notice{background:#e8f5e9;padding:8px 12px;border-radius:8px}.error{background:#fdecea;padding:8px 12px;border-radius:8px}
        .choices{list-style:none;padding:0}.choices li{margin:8px 0}section>.stack{margin-bottom:12px;border-radius:10px}
        .grid{display:grid;gap:12px;list-style:none;padding:0}.grid img{width:100%;height:auto;border-radius:8px}.grid a{text-decoration:none;color:inherit}
        """
}

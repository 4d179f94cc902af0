import Foundation
public import ScreenplayClient
import ScreenplayContract

/// The mapping from view-tree nodes to HTML: one case per role, no decisions of its own. Text,
/// labels, enabled state and colors come from the node; this file only picks the element, and
/// writes what the script needs as `data-` attributes (each node's id as `data-node`, so a
/// refreshed page is morphed node by node).
extension HTMLRenderer {
    /// The HTML of a resolved node and its children, for hosts that resolve trees themselves.
    /// `back` is where command forms return to.
    public func html(for node: ViewNode, back: String) -> String { html(node, back: back) }

    /// The HTML of a node and its children. `back` is where command forms return to.
    func html(_ node: ViewNode, back: String) -> String {
        let key = nodeKey(node)
        switch node.role {
        case .screen:
            return node.children.map { html($0, back: back) }.joined()
        case .header:
            let level = min(max(node.accessibility.headingLevel ?? 2, 1), 6)
            var html = "<header class=\"hero\"\(key)>"
            if let image = node.image { html += imageHTML(image, placeholder: true) }
            html += "<div class=\"hero-text\"><h\(level)>\(HTML.escape(node.text ?? ""))</h\(level)>"
            if let subtitle = node.secondaryText { html += "<p class=\"subtitle\">\(HTML.escape(subtitle))</p>" }
            return html + "</div></header>"
        case .section:
            let anchor = node.id.rawValue.hasPrefix("section:") ? String(node.id.rawValue.dropFirst("section:".count)) : node.id.rawValue
            return "<section id=\"\(HTML.escape("section-" + anchor))\"\(key)>" + node.children.map { html($0, back: back) }.joined()
                + "</section>"
        case .heading:
            let level = min(max(node.accessibility.headingLevel ?? 2, 1), 6)
            var inner = HTML.escape(node.text ?? "")
            if let action = node.action, action.isEnabled, let href = href(for: action.action) {
                inner = "<a href=\"\(HTML.escape(href))\"\(actionAttributes(action.action))>\(inner)</a>"
            }
            guard let subtitle = node.secondaryText else { return "<h\(level)\(key)>\(inner)</h\(level)>" }
            return "<div class=\"heading\"\(key)><h\(level)>\(inner)</h\(level)><p class=\"subtitle\">\(HTML.escape(subtitle))</p></div>"
        case .text:
            var style: [String] = []
            if let size = node.style.font?.size { style.append("font-size:\(css(size))px") }
            if let weight = node.style.font?.weight, weight != .regular { style.append("font-weight:\(cssWeight(weight))") }
            if let color = node.style.foreground { style.append("color:\(css(color))") }
            let heading = node.accessibility.headingLevel.map { " role=\"heading\" aria-level=\"\(min(max($0, 1), 6))\"" } ?? ""
            return "<span class=\"text\"\(key)" + heading + (style.isEmpty ? "" : " style=\"\(style.joined(separator: ";"))\"")
                + ">\(HTML.escape(node.text ?? ""))</span>"
        case .paragraphs:
            return "<div class=\"paragraphs\"\(key)>" + node.paragraphs.map { "<p>\(HTML.escape($0))</p>" }.joined() + "</div>"
        case .image:
            guard var image = node.image else { return "" }
            // The tree's label (the server's, or the alt text) names the picture and its link.
            image.alt = node.accessibility.label ?? image.alt
            return "<div class=\"image\"\(key)>" + wrap(imageHTML(image), in: node.action, back: back) + "</div>"
        case .row:
            var inner = node.image.map { imageHTML($0) } ?? ""
            inner += "<span class=\"text-block\"><span class=\"title\">\(HTML.escape(node.text ?? ""))</span>"
            if let subtitle = node.secondaryText { inner += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
            inner += "</span>"
            for detail in node.details { inner += "<span class=\"accessory\">\(HTML.escape(detail))</span>" }
            return "<div class=\"row\"\(key)>" + wrap(inner, in: node.action, back: back)
                + node.children.map { html($0, back: back) }.joined() + moreMenu(node, back: back) + "</div>"
        case .button, .link, .toggle:
            return control(node, back: back)
        case .textField:
            return textField(node, back: back)
        case .stack:
            var style = ["display:flex", "flex-direction:\(node.style.axis == .horizontal ? "row" : "column")"]
            if let alignment = node.style.alignment { style.append("align-items:\(flexAlignment(alignment))") }
            if let spacing = node.style.spacing { style.append("gap:\(css(spacing))px") }
            if let background = node.style.background { style.append("background:\(css(background))") }
            if let padding = node.style.padding { style.append("padding:\(css(padding))px") }
            // A stack the server labelled (a chart) is announced as one image with that label.
            let label = node.accessibility.label.map { " role=\"img\" aria-label=\"\(HTML.escape($0))\"" } ?? ""
            let axis = node.style.axis == .horizontal ? " horizontal" : ""
            return "<div class=\"stack\(axis)\"\(key)\(label) style=\"\(style.joined(separator: ";"))\">"
                + node.children.map { html($0, back: back) }.joined() + "</div>"
        case .reorderable:
            return reorderable(node, key: key, back: back)
        case .grid:
            let columns = node.style.columns ?? 2
            let label = node.accessibility.label.map { " aria-label=\"\(HTML.escape($0))\"" } ?? ""
            return "<ul class=\"grid\"\(key)\(label) style=\"--columns:\(columns)\">" + node.children.map { html($0, back: back) }.joined() + "</ul>"
        case .carousel:
            let shape = node.style.tileShape?.rawValue ?? "square"
            // The list scrolls sideways with the keyboard once focused; the buttons (shown by the
            // script, which scrolls) page through it with the mouse.
            return "<div class=\"carousel-frame\"\(key)><button type=\"button\" class=\"carousel-scroll\" data-scroll=\"-1\" aria-label=\"Scroll back\" hidden>‹</button>"
                + "<ul class=\"carousel \(shape)\" tabindex=\"0\" aria-label=\"\(HTML.escape(node.accessibility.label ?? "Scrolling list"))\">"
                + node.children.map { html($0, back: back) }.joined() + "</ul>"
                + "<button type=\"button\" class=\"carousel-scroll\" data-scroll=\"1\" aria-label=\"Scroll forward\" hidden>›</button></div>"
        case .tile:
            var inner = node.image.map { imageHTML($0) } ?? ""
            inner += "<span class=\"title\">\(HTML.escape(node.text ?? ""))</span>"
            if let subtitle = node.secondaryText { inner += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
            return "<li\(key)>" + wrap(inner, in: node.action, back: back) + "</li>"
        case .spacer:
            if let length = node.style.height { return "<div class=\"spacer\"\(key) style=\"flex:0 0 \(css(length))px\"></div>" }
            return "<div class=\"spacer\"\(key) style=\"flex:1\"></div>"
        case .rectangle:
            var style = "width:\(css(node.style.width ?? 0))px;height:\(css(node.style.height ?? 0))px"
            if let color = node.style.background { style += ";background:\(css(color))" }
            if let radius = node.style.cornerRadius { style += ";border-radius:\(css(radius))px" }
            return "<div class=\"rectangle\"\(key) role=\"presentation\" style=\"\(style)\"></div>"
        case .menu:
            return "<nav class=\"menu\"\(key) aria-label=\"\(HTML.escape(node.accessibility.label ?? "Actions"))\">"
                + node.children.map { html($0, back: back) }.joined() + "</nav>"
        case .progress:
            return "<p class=\"progress\"\(key) role=\"status\">\(HTML.escape(node.text ?? ""))</p>"
        case .message:
            return "<div class=\"error\"\(key) role=\"alert\"><p>\(HTML.escape(node.text ?? ""))</p>"
                + node.children.map { html($0, back: back) }.joined() + "</div>"
        case .custom:
            guard let kind = node.customKind, let render = customNodes[kind] else { return "" }
            return render(node)
        }
    }

    /// ` data-node="…"`: the node's id, by which the script morphs a refreshed page; and what
    /// client state (v6) decides about the node: its expressions for the script (`data-compute`),
    /// `hidden` while the state hides it, `aria-current` while it is the selected one; the key
    /// it reports once seen (`data-visible`).
    func nodeKey(_ node: ViewNode) -> String {
        var attributes = " data-node=\"\(HTML.escape(node.id.rawValue))\""
        if !node.computed.isEmpty {
            let sources = JSONValue.object(Dictionary(uniqueKeysWithValues: node.computed.map { ($0.key.rawValue, JSONValue.string($0.value)) }))
            attributes += " data-compute=\"\(HTML.escape(sources.jsonText))\""
        }
        if node.isHidden { attributes += " hidden" }
        // Counted once seen (v6): the reports module watches what carries a key.
        if let key = node.reportsVisible { attributes += " data-visible=\"\(HTML.escape(key))\"" }
        if node.role != .toggle && node.accessibility.traits.contains(.selected) { attributes += " aria-current=\"true\"" }
        return attributes
    }

    /// The `set` steps an action runs on the device before (or instead of) its remote step, as
    /// the script reads them (`data-set`); empty when there are none.
    func localSteps(_ action: Action) -> String {
        let steps: [Action.SetVariable] =
            switch action {
            case .set(let set): [set]
            case .sequence(let sequence): sequence.actions.prefix { $0.isLocal }.flatMap { step -> [Action.SetVariable] in
                if case .set(let set) = step { return [set] }
                return []
            }
            default: []
            }
        guard !steps.isEmpty else { return "" }
        let json = JSONValue.array(steps.map { ["variable": .string($0.variable), "value": .string($0.value)] })
        return " data-set=\"\(HTML.escape(json.jsonText))\""
    }

    /// A text field: an input named `storage.<key>` (the form post puts it in the command's
    /// storage), with the tree's length limit (shown, never cut silently), pattern and message;
    /// inside a form that posts the field's submit command when it has one, so it works without
    /// JavaScript. A prompt's field (no storage key of its own) is drawn by the prompt page instead.
    func textField(_ node: ViewNode, back: String) -> String {
        guard let field = node.field else { return "" }
        let id = "field-" + HTML.identifier(field.storageKey)
        var input = "<label for=\"\(id)\">\(HTML.escape(node.text ?? field.storageKey))</label>"
        input +=
            "<input id=\"\(id)\" name=\"\(HTML.escape(WebForm.storagePrefix + field.storageKey))\" type=\"\(inputType(field.keyboard))\""
        if field.keyboard == .number { input += " inputmode=\"decimal\"" }
        input += " value=\"\(HTML.escape(field.value))\""
        if let placeholder = field.placeholder { input += " placeholder=\"\(HTML.escape(placeholder))\"" }
        if let pattern = field.pattern {
            input += " pattern=\"\(HTML.escape(pattern))\""
            if let message = field.patternMessage { input += " title=\"\(HTML.escape(message))\"" }
        }
        // A verdict computed from the state (v6) is said in a live region the script rewrites.
        let computed = node.computed[.validation] != nil
        var described: [String] = []
        if field.maxLength != nil { described.append("\(id)-limit") }
        if field.requiredMessage != nil { described.append("\(id)-required") }
        if computed { described.append("\(id)-computed") } else if field.validationMessage != nil { described.append("\(id)-error") }
        if !described.isEmpty { input += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        if field.validationMessage != nil { input += " aria-invalid=\"true\"" }
        if let maxLength = field.maxLength { input += limitAttributes(maxLength) }
        if let required = field.requiredMessage {
            input += " required data-required=\"\(HTML.escape(required))\""
            if field.maxLength == nil { input += checkAttribute }
        }
        // Suggestions as the user types (v6): the site's module, asking the page the field names.
        if let suggestions = field.suggestions.flatMap({ links.href($0) }), let module = WebScript.suggest {
            input += " autocomplete=\"off\" data-suggest=\"\(HTML.escape(module.versionedPath))\" data-suggest-from=\"\(HTML.escape(suggestions))\""
            input += " data-suggest-param=\"\(Component.TextField.suggestionsParameter)\""
        }
        input += ">"
        // Filled by the script as the user types (a live region, empty until then).
        if field.requiredMessage != nil { input += "<p class=\"field-error\" id=\"\(id)-required\" aria-live=\"polite\"></p>" }
        if computed {
            input += "<p class=\"field-error\" id=\"\(id)-computed\" aria-live=\"polite\">\(HTML.escape(field.validationMessage ?? ""))</p>"
        } else if let message = field.validationMessage {
            input += "<p class=\"field-error\" id=\"\(id)-error\">\(HTML.escape(message))</p>"
        }
        if let maxLength = field.maxLength { input += limitHint(maxLength, id: "\(id)-limit") }
        guard let bound = node.action, case .command(let command) = bound.action, bound.isEnabled || !field.isValid else {
            return "<div class=\"field\"\(nodeKey(node))>" + input + "</div>"
        }
        // An invalid text keeps the button: the browser checks the pattern before posting, and the
        // server checks again.
        return "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\" class=\"field\"\(nodeKey(node))>"
            + hiddenFields(command: command, back: back) + input
            + "<button type=\"submit\">\(HTML.escape(field.submitTitle ?? "Submit"))</button></form>"
    }

    /// The HTML input type for a keyboard.
    func inputType(_ keyboard: NodeField.Keyboard) -> String {
        switch keyboard {
        case .text, .number: "text"
        case .search: "search"
        case .email: "email"
        case .phone: "tel"
        case .url: "url"
        }
    }

    /// Buttons, links and toggles. A command is a form (works without JavaScript); a place to go
    /// is a link; a share is a disclosure with the link to copy (the script shares instead); an
    /// action the browser cannot carry out, or one the tree disabled, is a disabled button, so the
    /// page shows the same controls as the app.
    /// `before` goes ahead of the node's key on the element that carries it (a sequence's local
    /// steps on its remote step's form or link).
    func control(_ node: ViewNode, back: String, before: String = "") -> String {
        guard let bound = node.action else { return "" }
        let key = before + nodeKey(node)
        // The text in a span of its own: a toggle beside a row keeps only its symbol on phones
        // (its label still names it), and the script changes the text when the toggle flips.
        // A toggle's label also carries its other face, which the stylesheet measures without
        // showing it: the button is as wide as its wider face, so flipping moves nothing.
        let otherFace = node.toggle.map { " data-other=\"\(HTML.escape($0.flipped.text))\"" } ?? ""
        let text = "<span class=\"label\"\(otherFace)>\(HTML.escape(node.text ?? ""))</span>"
        let title = (icon(node.icon).map { "<span aria-hidden=\"true\">\($0)</span> " + text } ?? text)
        var attributes = ""
        if let label = node.accessibility.label { attributes += " aria-label=\"\(HTML.escape(label))\"" }
        if node.role == .toggle { attributes += " aria-pressed=\"\(node.accessibility.traits.contains(.selected))\"" }
        if bound.isBusy { attributes += " aria-busy=\"true\"" }
        var classes = "action"
        if let emphasis = node.style.emphasis, node.role != .toggle { classes += " " + emphasis.rawValue }
        if node.role == .toggle { classes += " favorite" }
        let disabled = "<button type=\"button\" class=\"\(classes)\"\(key) disabled\(attributes)>\(title)</button>"
        // Disabled by the state alone (v6): the whole control, its button disabled until the
        // script's state enables it.
        let byState = !bound.isEnabled && node.computed[.enabled] != nil
        guard bound.isEnabled || byState else { return disabled }
        if byState { attributes += " disabled" }
        let local = localSteps(bound.action)
        switch bound.action {
        case .set:
            // Only the script can carry it out: hidden until it runs (old apps drop it likewise).
            return "<button type=\"button\" class=\"\(classes)\"\(key)\(local) data-needs-script hidden\(attributes)>\(title)</button>"
        case .sequence(let sequence):
            // Without the script, what old apps do: its first remote step; the script runs the
            // local steps before it.
            guard let remote = sequence.actions.first(where: { !$0.isLocal }) else {
                return "<button type=\"button\" class=\"\(classes)\"\(key)\(local) data-needs-script hidden\(attributes)>\(title)</button>"
            }
            var step = node
            step.action?.action = remote
            return control(step, back: back, before: local)
        case .custom(let custom):
            // Retrying a page is reloading it; other app-only actions cannot happen in a browser.
            guard custom.name == ViewTreeResolver.retryActionName else { return disabled }
            return "<a class=\"\(classes)\"\(key) href=\"\(HTML.escape(WebForm.safeBackPath(back)))\"\(attributes)>\(title)</a>"
        case .command(let command):
            let toggle = node.toggle.map(toggleAttributes) ?? ""
            return "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\" class=\"inline\"\(key)\(toggle)>"
                + hiddenFields(command: command, back: back)
                + "<button type=\"submit\" class=\"\(classes)\"\(attributes)>\(title)</button></form>"
        case .share(let share):
            guard var href = links.href(share.url, policy: .external) else { return "" }
            if let origin, href.hasPrefix("/") { href = origin + href }
            return "<details class=\"share\"\(key) data-share-url=\"\(HTML.escape(href))\" data-share-title=\"\(HTML.escape(share.title))\" data-share-copied=\"Link copied\">"
                + "<summary class=\"\(classes)\"\(attributes)>\(title)</summary><div class=\"share-panel\">"
                + "<label>Link to copy <input type=\"text\" readonly value=\"\(HTML.escape(href))\" data-share-field></label></div></details>"
        default:
            // A link the link policy refuses is no control at all: there is nowhere safe to go.
            guard let href = href(for: bound.action) else { return "" }
            // A play is a button to the listener (Space plays it, as Enter does: the script sees to
            // it) and a link to the audio without the script; a row it is in plays when tapped
            // anywhere (the stylesheet stretches the link over its row).
            var role = ""
            if case .play = bound.action {
                classes += " play"
                role = " role=\"button\""
            }
            let rel = if case .openURL = bound.action { " rel=\"noopener\"" } else { "" }
            return "<a class=\"\(classes)\"\(key)\(role) href=\"\(HTML.escape(href))\"\(rel)\(actionAttributes(bound.action))\(attributes)>\(title)</a>"
        }
    }

    /// A toggle's other face, for the script to flip it the moment it is tapped: the form's
    /// command, label and title once flipped, and the entity member every copy of it shares.
    func toggleAttributes(_ toggle: NodeToggle) -> String {
        var attributes = " data-toggle=\"\(toggle.isOn ? "on" : "off")\""
        attributes += " data-flip-text=\"\(HTML.escape(toggle.flipped.text))\""
        if let symbol = icon(toggle.flipped.icon) { attributes += " data-flip-icon=\"\(HTML.escape(symbol))\"" }
        if let label = toggle.flipped.label { attributes += " data-flip-label=\"\(HTML.escape(label))\"" }
        if case .command(let command) = toggle.flipped.action {
            attributes += " data-flip-url=\"\(HTML.escape(command.url))\" data-flip-payload=\"\(HTML.escape(Self.payloadJSON(command)))\""
        }
        if let binding = toggle.binding { attributes += " data-binding=\"\(HTML.escape(binding))\"" }
        return attributes
    }

    /// What a link's action tells the script beyond its `href`: a navigation's carried header
    /// (shown at once while the page loads), a play action's first track and queue.
    func actionAttributes(_ action: Action) -> String {
        switch action {
        case .navigate(let navigate):
            guard let header = navigate.header else { return "" }
            var attributes = " data-header-title=\"\(HTML.escape(header.title))\""
            if let subtitle = header.subtitle { attributes += " data-header-subtitle=\"\(HTML.escape(subtitle))\"" }
            if let image = header.image, let source = links.href(image.lowResURL ?? image.url, policy: .resource) {
                attributes += " data-header-image=\"\(HTML.escape(source))\" data-header-alt=\"\(HTML.escape(image.alt ?? ""))\""
                // The full image too: the script shows it instead when this page has it loaded
                // (the browser's cache has it), the low-resolution one otherwise.
                if image.lowResURL != nil, let full = links.href(image.url, policy: .resource) {
                    attributes += " data-header-full=\"\(HTML.escape(full))\""
                }
            }
            return attributes
        case .play(let play):
            let track = play.firstTrack
            guard let source = links.href(track.streamURL, policy: .resource) else { return "" }
            var attributes = " data-play=\"\(HTML.escape(track.id))\" data-track-title=\"\(HTML.escape(track.title))\""
            attributes += " data-track-src=\"\(HTML.escape(source))\""
            if let subtitle = track.subtitle { attributes += " data-track-subtitle=\"\(HTML.escape(subtitle))\"" }
            if let seconds = track.durationSeconds { attributes += " data-track-duration=\"\(seconds)\"" }
            // What now playing names besides (v6): the work, its composer, the picture (the bar
            // shows the small one, the system's now playing the full one).
            if let work = track.work { attributes += " data-track-work=\"\(HTML.escape(work))\"" }
            if let composer = track.composer { attributes += " data-track-composer=\"\(HTML.escape(composer))\"" }
            if let artwork = track.artwork, let full = links.href(artwork.url, policy: .resource) {
                attributes += " data-track-art=\"\(HTML.escape(full))\""
                if let small = artwork.lowResURL.flatMap({ links.href($0, policy: .resource) }) {
                    attributes += " data-track-thumb=\"\(HTML.escape(small))\""
                }
            }
            // What the player offers while it plays (v6), as the contract writes it: player.js
            // makes its links and command forms (the queue's tracks carry theirs the same way).
            if !track.menu.isEmpty, let menu = try? ScreenplayEncoder(apiVersion: .v6).encode(track.menu) {
                attributes += " data-track-menu=\"\(HTML.escape(String(decoding: menu, as: UTF8.self)))\""
            }
            if let queue = links.href(play.metadataURL, policy: .resource) { attributes += " data-queue=\"\(HTML.escape(queue))\"" }
            // The queue in a random order after this first track (v6; player.js draws it).
            if play.shuffle { attributes += " data-shuffle=\"true\"" }
            return attributes
        default:
            return ""
        }
    }

    /// The browser URL an action leads to, when it leads anywhere a link can.
    func href(for action: Action) -> String? {
        switch action {
        case .navigate(let navigate): links.href(navigate.url)
        case .openURL(let open): links.href(open.url, policy: .external)
        case .share(let share): links.href(share.url, policy: .external)
        case .play(let play): links.href(play.firstTrack.streamURL, policy: .resource)
        case .sequence(let sequence): sequence.actions.first { !$0.isLocal }.flatMap(href)
        case .command, .custom, .set, .unknown: nil
        }
    }

    /// Wraps content in a link when the action goes somewhere, in a form when it is a command.
    func wrap(_ inner: String, in given: BoundAction?, back: String) -> String {
        guard var bound = given, bound.isEnabled else { return inner }
        // Without the script a sequence does what old apps do: its first step that is not local.
        if case .sequence(let sequence) = bound.action, let remote = sequence.actions.first(where: { !$0.isLocal }) { bound.action = remote }
        if case .command(let command) = bound.action {
            return "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\">" + hiddenFields(command: command, back: back)
                + "<button type=\"submit\" class=\"row-button\">\(inner)</button></form>"
        }
        guard let href = href(for: bound.action) else { return inner }
        let rel = if case .openURL = bound.action { " rel=\"noopener\"" } else { "" }
        let play = if case .play = bound.action { " class=\"play\"" } else { "" }
        return "<a href=\"\(HTML.escape(href))\"\(play)\(rel)\(actionAttributes(bound.action))>\(inner)</a>"
    }

    func imageHTML(_ image: NodeImage, placeholder: Bool = false) -> String {
        guard let source = links.href(image.url, policy: .resource) else { return "" }
        var html = "<img src=\"\(HTML.escape(source))\" alt=\"\(HTML.escape(image.alt ?? ""))\" loading=\"lazy\""
        if let width = image.width, let height = image.height { html += " width=\"\(css(width))\" height=\"\(css(height))\"" }
        // Only URLs with no CSS-significant characters go into the style attribute: HTML escaping
        // is undone before CSS parses it, so a quote or parenthesis could end the url().
        if placeholder, let low = image.placeholderURL, let lowSource = links.href(low, policy: .resource),
            !lowSource.unicodeScalars.contains(where: { "'\"()\\;".unicodeScalars.contains($0) || $0.properties.isWhitespace })
        {
            html += " style=\"background-image:url('\(HTML.escape(lowSource))');background-size:cover\""
        }
        return html + ">"
    }

    /// The symbols the web shows for the icon names the tree uses; others show no symbol.
    func icon(_ name: String?) -> String? {
        switch name {
        case "heart.fill": "♥"
        case "heart": "♡"
        case "play.fill": "▶"
        case "plus": "+"
        case "arrow.clockwise": "↻"
        case "share": "↗"
        case "text.badge.plus": "+"
        default: nil
        }
    }

    func flexAlignment(_ alignment: NodeStyle.Alignment) -> String {
        switch alignment {
        case .leading, .top: "flex-start"
        case .center: "center"
        case .trailing, .bottom: "flex-end"
        }
    }

    func cssWeight(_ weight: NodeFont.Weight) -> String {
        switch weight {
        case .regular: "400"
        case .medium: "500"
        case .semibold: "600"
        case .bold: "700"
        }
    }

    /// A reorderable list (v6): an ordered list whose rows each carry a "Move up" and a "Move
    /// down" form with the order that move makes (what works without the script, and with the
    /// keyboard), and a handle the reorders module shows (drag, or the arrow keys). The list
    /// names the module and what a new order is sent with, for a drag.
    func reorderable(_ node: ViewNode, key: String, back: String) -> String {
        guard let reorder = node.reorder else { return "" }
        let module = WebScript.reorder.map { " data-reorder=\"\(HTML.escape($0.versionedPath))\"" } ?? ""
        let command =
            " data-reorder-url=\"\(HTML.escape(reorder.move.url))\" data-reorder-payload=\"\(HTML.escape(Self.payloadJSON(reorder.move)))\""
        var list = "<ol class=\"reorder\"\(key) aria-label=\"\(HTML.escape(reorder.label))\"\(reorder.isEnabled ? module + command : "")>"
        for row in node.children {
            let title = Self.title(of: row) ?? row.reorderKey ?? "a row"
            var moves = ""
            // A row's place among those that move (a row without a key stays where it is).
            if reorder.isEnabled, let key = row.reorderKey, let index = reorder.visible.firstIndex(of: key) {
                moves += "<button type=\"button\" class=\"reorder-handle\" aria-label=\"\(HTML.escape("Reorder \(title): arrow keys move it"))\">"
                    + "<span aria-hidden=\"true\">⠿</span></button>"
                for (up, symbol) in [(true, "↑"), (false, "↓")] {
                    let label = reorder.moveLabel(title, up: up)
                    guard let action = reorder.action(moving: index, to: up ? index - 1 : index + 1), case .command(let move) = action else {
                        moves += "<button type=\"button\" class=\"reorder-move\" aria-label=\"\(HTML.escape(label))\" disabled><span aria-hidden=\"true\">\(symbol)</span></button>"
                        continue
                    }
                    moves += "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\">" + hiddenFields(command: move, back: back)
                        + "<button type=\"submit\" class=\"reorder-move\" aria-label=\"\(HTML.escape(label))\"><span aria-hidden=\"true\">\(symbol)</span></button></form>"
                }
            }
            // Keyed as a node, so a refresh moves the row (and the focus on its handle) rather than
            // rewriting it in place.
            let rowKey = HTML.escape(node.id.rawValue + "/" + (row.reorderKey ?? ""))
            list += "<li class=\"reorder-row\" data-node=\"\(rowKey)\" data-key=\"\(HTML.escape(row.reorderKey ?? ""))\">" + html(row, back: back)
                + "<div class=\"reorder-moves\">\(moves)</div></li>"
        }
        return list + "</ol>"
    }

    /// What a row is called: its own text, else the first text among its children (a row with a
    /// button beside it is a stack).
    static func title(of node: ViewNode) -> String? {
        if node.role == .row || node.role == .tile || node.role == .text, let text = node.text { return text }
        for child in node.children { if let title = title(of: child) { return title } }
        return nil
    }

    /// A row's secondary actions (v6) as a disclosure beside its own action: "⋯" opens them, and
    /// each is a link or a command form, so they work without the script and with the keyboard.
    func moreMenu(_ node: ViewNode, back: String) -> String {
        guard !node.moreActions.isEmpty else { return "" }
        let label = "More for " + (Self.title(of: node) ?? "this row")
        return "<details class=\"more\"><summary class=\"more-toggle\" aria-label=\"\(HTML.escape(label))\"><span aria-hidden=\"true\">⋯</span></summary>"
            + "<div class=\"more-panel\">" + node.moreActions.map { html($0, back: back) }.joined() + "</div></details>"
    }
}

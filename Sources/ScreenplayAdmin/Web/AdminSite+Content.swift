import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayWeb

/// A widget's content on its card: the texts in every locale the app writes in, the image with
/// its alt text, the screen a tap opens and the colour, as inputs (`k.headline.de`, `k.image.url`,
/// `k.image.alt.en`, `k.link`, `k.tone`), with a small picture of the card that the editor's
/// script redraws as you type, and the same read back from a posted form.
extension AdminSite {
    /// The form values showing `content` as it is stored (any kind: the names come from the JSON).
    static func contentValues(of content: JSONValue) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in content.objectValue ?? [:] {
            switch value {
            case .string(let text): values["k.\(name)"] = text
            case .object(let members):
                if let url = members["url"]?.stringValue {
                    values["k.\(name).url"] = url
                    for (locale, text) in members["alt"]?.objectValue ?? [:] { values["k.\(name).alt.\(locale)"] = text.stringValue ?? "" }
                } else {
                    for (locale, text) in members { values["k.\(name).\(locale)"] = text.stringValue ?? "" }
                }
            default: break
            }
        }
        return values
    }

    /// The content a form sent for a widget of `contract`: texts in each of `rules`' locales
    /// (blank ones left out), an image when a URL or an alt text was typed, a link, a colour.
    /// A kind without content keeps what the widget has.
    static func content(from form: [String: String], contract: WidgetContract?, rules: ContentRules, keeping existing: JSONValue) -> JSONValue {
        guard let contract, !contract.content.isEmpty else { return existing }
        func trimmed(_ name: String) -> String { (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        func texts(_ prefix: String) -> [String: JSONValue] {
            var texts: [String: JSONValue] = [:]
            for locale in rules.locales where !trimmed(prefix + locale).isEmpty { texts[locale] = .string(trimmed(prefix + locale)) }
            return texts
        }
        var content: [String: JSONValue] = [:]
        for item in contract.content {
            switch item.kind {
            case .text:
                let written = texts("k.\(item.name).")
                if !written.isEmpty { content[item.name] = .object(written) }
            case .image:
                let url = trimmed("k.\(item.name).url")
                let alt = texts("k.\(item.name).alt.")
                if !url.isEmpty || !alt.isEmpty { content[item.name] = ["url": .string(url), "alt": .object(alt)] }
            case .screenLink, .colorToken:
                let text = trimmed("k.\(item.name)")
                if !text.isEmpty { content[item.name] = .string(text) }
            }
        }
        return .object(content)
    }

    /// A locale's name for people (`de` → "German"), or its code when there is none.
    static func languageName(_ code: String) -> String {
        let name = Locale(identifier: "en").localizedString(forIdentifier: code)
        guard let name, name.lowercased() != code.lowercased() else { return code }
        return name
    }

    /// A locale's name with its code, for labels: "German (de)".
    static func localeName(_ code: String) -> String {
        let name = languageName(code)
        return name == code ? code : "\(name) (\(code))"
    }

    /// The content inputs of a card and its picture: one group per content field, a text input
    /// per locale (with how many characters it may hold, counted as you type by the script), the
    /// image's URL and alt texts, a link chosen from the app's screens, a colour from the tokens.
    /// Also returns the error summary's items for the inputs with errors.
    static func contentFields(
        widget: WidgetInstance, contract: WidgetContract, rules: ContentRules, values: [String: String], errors: [String: String],
        focus: String?
    ) -> (html: String, problems: [(target: String, label: String, message: String)]) {
        guard !contract.content.isEmpty else { return ("", []) }
        var html = ""
        var problems: [(target: String, label: String, message: String)] = []
        var rendered: Set<String> = []
        func input(_ name: String, label: String, extra: String = "", hint: String? = nil) {
            rendered.insert(name)
            let id = "\(widget.id)-\(name)"
            html += field(
                name: name, label: label, value: values[name] ?? "", error: errors[name], id: id,
                extra: ([extra] + (focus == fieldID(id) ? ["autofocus"] : [])).filter { !$0.isEmpty }.joined(separator: " "), hint: hint)
            if let error = errors[name] { problems.append((fieldID(id), "\(widget.id): \(label)", error)) }
        }
        for item in contract.content {
            html += "<fieldset class=\"content-field\"><legend>\(HTML.escape(item.label))\(item.isRequired ? " (required)" : "")</legend>"
            if !item.summary.isEmpty { html += "<p class=\"hint\">\(HTML.escape(item.summary))</p>" }
            switch item.kind {
            case .text(let maximum):
                for locale in rules.locales {
                    input(
                        "k.\(item.name).\(locale)", label: "\(item.label) in \(localeName(locale))",
                        extra: "data-content=\"\(HTML.escape(item.name))\" data-locale=\"\(HTML.escape(locale))\" data-max=\"\(maximum)\" lang=\"\(HTML.escape(locale))\"",
                        hint: "At most \(maximum) characters." + (locale == rules.defaultLocale ? " Readers of other languages read this one." : " Empty: readers of \(languageName(locale)) read the \(languageName(rules.defaultLocale)) text."))
                }
            case .image:
                input(
                    "k.\(item.name).url", label: "\(item.label): address",
                    extra: "data-content=\"\(HTML.escape(item.name))\" data-image=\"url\" inputmode=\"url\" spellcheck=\"false\"",
                    hint: "The picture's address; checked to load when the card is saved.")
                for locale in rules.locales {
                    input(
                        "k.\(item.name).alt.\(locale)", label: "\(item.label): what it shows, in \(localeName(locale))",
                        extra: "data-content=\"\(HTML.escape(item.name))\" data-image=\"alt\" data-locale=\"\(HTML.escape(locale))\" lang=\"\(HTML.escape(locale))\"",
                        hint: locale == rules.defaultLocale ? "Read aloud to people who cannot see it; needed with an image." : nil)
                }
            case .screenLink:
                let listID = fieldID("\(widget.id)-\(item.name)-screens")
                let options = rules.screens.map { "<option value=\"\(HTML.escape($0.example))\">\(HTML.escape($0.title))</option>" }.joined()
                let patterns = rules.screens.map { "screens/\($0.pattern)" }.joined(separator: ", ")
                input(
                    "k.\(item.name)", label: "\(item.label): the screen it opens",
                    extra: "list=\"\(listID)\" data-content=\"\(HTML.escape(item.name))\" spellcheck=\"false\"",
                    hint: patterns.isEmpty ? "A screen of this app: screens/…" : "One of: \(patterns).")
                html += "<datalist id=\"\(listID)\">\(options)</datalist>"
            case .colorToken:
                let raw = "\(widget.id)-k.\(item.name)"
                let current = values["k.\(item.name)"] ?? ""
                var choices: [(value: String, label: String)] = [("", "The app's default")] + ColorToken.standard.map { ($0.rawValue, $0.rawValue) }
                if !current.isEmpty, !choices.contains(where: { $0.value == current }) { choices.append((current, current)) }
                let error = errors["k.\(item.name)"]
                rendered.insert("k.\(item.name)")
                html += menu(
                    name: "k.\(item.name)", label: item.label, options: choices, current: current, error: error, id: raw,
                    extra: " data-content=\"\(HTML.escape(item.name))\"" + (focus == fieldID(raw) ? " autofocus" : ""))
                if let error { problems.append((fieldID(raw), "\(widget.id): \(item.label)", error)) }
            }
            html += "</fieldset>"
        }
        // An error about content no input shows (content in a locale or of a shape the form does
        // not offer, sent by a script): said at the top of the content, never dropped.
        let elsewhere = errors.filter { $0.key.hasPrefix("k") && !rendered.contains($0.key) }.sorted { $0.key < $1.key }
        if !elsewhere.isEmpty {
            let id = fieldID("\(widget.id)-content-error")
            let words = elsewhere.map { "\($0.key.dropFirst(2).isEmpty ? "content" : String($0.key.dropFirst(2))): \($0.value)" }.joined(separator: " ")
            html = "<p class=\"error\" id=\"\(id)\" tabindex=\"-1\">\(HTML.escape(words))</p>" + html
            problems.append((id, "\(widget.id): content", words))
        }
        return (
            "<fieldset class=\"content\" data-content-locales=\"\(HTML.escape(rules.locales.joined(separator: " ")))\"><legend>Content</legend>\(html)</fieldset>",
            problems
        )
    }

    /// The card's picture of its content in one locale, as the script redraws it while you type:
    /// the image, each text (the first as a headline, in its colour), the link's words.
    static func contentPicture(widget: WidgetInstance, contract: WidgetContract, rules: ContentRules) -> String {
        guard !contract.content.isEmpty else { return "" }
        let values = contentValues(of: widget.content)
        let locale = rules.defaultLocale
        var parts = ""
        var firstText = true
        let tone = contract.content.first { if case .colorToken = $0.kind { true } else { false } }.flatMap { values["k.\($0.name)"] } ?? ""
        // The image first, as a card shows it above its words.
        let ordered = contract.content.filter { if case .image = $0.kind { true } else { false } } + contract.content.filter { if case .image = $0.kind { false } else { true } }
        for item in ordered {
            switch item.kind {
            case .image:
                let url = values["k.\(item.name).url"] ?? ""
                let alt = values["k.\(item.name).alt.\(locale)"] ?? ""
                parts += "<img data-picture=\"\(HTML.escape(item.name))\" alt=\"\(HTML.escape(alt))\"\(url.isEmpty ? " hidden" : " src=\"\(HTML.escape(url))\"")>"
            case .text:
                let text = values["k.\(item.name).\(locale)"] ?? ""
                let tag = firstText ? "strong" : "span"
                let toneClass = firstText && !tone.isEmpty ? " class=\"tone-\(HTML.escape(tone))\"" : ""
                parts += "<\(tag) data-picture=\"\(HTML.escape(item.name))\"\(toneClass)>\(HTML.escape(text))</\(tag)>"
                firstText = false
            case .screenLink:
                let link = values["k.\(item.name)"] ?? ""
                parts += "<span class=\"link\" data-picture=\"\(HTML.escape(item.name))\">\(link.isEmpty ? "" : "→ " + HTML.escape(link))</span>"
            case .colorToken: break
            }
        }
        return """
            <figure class="content-picture" data-picture-for="\(HTML.escape(widget.id))" aria-label="What \(HTML.escape(widget.id))'s content reads">\
            <div class="picture" lang="\(HTML.escape(locale))">\(parts)</div><figcaption>The content as written\(rules.locales.count < 2 ? "" : "; a text left empty reads as the \(HTML.escape(languageName(rules.defaultLocale))) one"). \
            The provider's data fills the rest.</figcaption></figure>
            """
    }

    /// The menu of the locale the card's picture reads in, inside the card's settings beside
    /// the texts it shows (outside them it would be one more Tab stop before the card's
    /// actions). Hidden until the script, which redraws the picture, shows it: without it the
    /// menu would do nothing. Empty for a kind without content or an app of one locale.
    static func pictureLocaleMenu(contract: WidgetContract, rules: ContentRules) -> String {
        guard !contract.content.isEmpty, rules.locales.count > 1 else { return "" }
        let options = rules.locales.map { "<option value=\"\(HTML.escape($0))\">\(HTML.escape(localeName($0)))</option>" }.joined()
        return "<p class=\"picture-locale\" hidden><label>Show the picture in <select data-picture-locale>\(options)</select></label></p>"
    }

    /// One line of what the content says, for the card's summary: `Headline “Spring sale” (en, de)`.
    static func contentSummary(_ widget: WidgetInstance, contract: WidgetContract?, rules: ContentRules) -> String? {
        guard let contract, let members = widget.content.objectValue, !members.isEmpty else { return nil }
        var parts: [String] = []
        for item in contract.content {
            guard let value = members[item.name] else { continue }
            switch item.kind {
            case .text:
                let texts = (value.objectValue ?? [:]).compactMapValues(\.stringValue)
                guard let text = rules.text(texts, for: rules.defaultLocale) else { continue }
                let shown = text.count > 40 ? text.prefix(39) + "…" : Substring(text)
                parts.append("\(item.label) “\(shown)” (\(texts.keys.sorted().joined(separator: ", ")))")
            case .image: parts.append("an image")
            case .screenLink: parts.append("opens \(value.stringValue?.prefix(60) ?? "")")
            case .colorToken: parts.append("colour \(value.stringValue?.prefix(20) ?? "")")
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

import Foundation
public import ScreenplayContract
public import ScreenplayServer

/// A piece of a widget that the product team writes, not the vertical: a headline in each
/// language, an image with its alt text, the screen a tap opens, a colour.
///
/// A kind declares its content fields beside its data fields (``WidgetContract/content``); the
/// layout admin edits them on the widget's card, per locale, and the instance keeps them
/// (``WidgetInstance/content``). The composer writes each one into the component the provider
/// answered, in the reader's locale, before the contract checks it: the vertical supplies what is
/// truly its own (a price, a cover, who performs) and the page's copy is the layout's. A content
/// field fills the component field of the same name, so apps and fallbacks read it as any other.
public struct ContentField: Sendable, Hashable {
    /// What a content field holds, which decides how it is edited, checked and written.
    public enum Kind: Sendable, Hashable {
        /// Text in each of the app's locales (``ContentRules/locales``), at most `maximumLength`
        /// characters in any; written as the component's string field.
        case text(maximumLength: Int)
        /// An image: a URL the link policy accepts and that loads (``ContentRules/imageCheck``),
        /// with alt text in each locale; written as the url field and `altField`.
        case image(altField: String)
        /// A screen of this app (`screens/work/1`), one of ``ContentRules/screens``; written as
        /// the component's url field.
        case screenLink
        /// One of the colour tokens every renderer maps (``ColorToken/standard``).
        case colorToken
    }

    /// The component field it fills.
    public let name: String
    /// What the admin calls it ("Headline").
    public let label: String
    /// What it holds.
    public let kind: Kind
    /// Whether an instance must have it (for text: in the default locale).
    public let isRequired: Bool
    /// A line for the admin on what it is for.
    public let summary: String

    /// Declares a content field.
    public init(_ name: String, label: String, kind: Kind, isRequired: Bool = false, summary: String = "") {
        self.name = name
        self.label = label
        self.kind = kind
        self.isRequired = isRequired
        self.summary = summary
    }

    /// The most characters a text may hold when its kind says no less: a long line breaks every layout.
    public static let longestText = 2_000
}

/// What every kind's content is checked against: the app's locales and the screens links may open.
///
/// Kept on the ``WidgetCatalog``, so every place a template is validated (the layout store, the
/// admin API and pages, the demo's seed) checks content alike.
public struct ContentRules: Sendable {
    /// A screen a content link may open: a pattern of the app's routes (`work/:id`) and what the
    /// admin's picker calls it, with a link it offers as an example.
    public struct Screen: Sendable, Hashable {
        /// The route's pattern, as the app registered it (without `screens/`).
        public let pattern: RoutePattern
        /// What the picker says ("A work").
        public let title: String
        /// A complete link to offer (`screens/work/1`); the pattern itself when it has no parameter.
        public let example: String

        /// Declares a screen links may open.
        public init(_ pattern: String, title: String, example: String? = nil) {
            self.pattern = RoutePattern(pattern)
            self.title = title
            self.example = example ?? "screens/" + pattern
        }
    }

    /// The locales content is written in, the default first (`["en", "de"]`): a reader in another
    /// locale reads the default.
    public var locales: [String]
    /// The screens a ``ContentField/Kind/screenLink`` may open; empty: any `screens/` link.
    public var screens: [Screen]
    /// Says why an image URL does not load, or `nil` when it does: the app's own check (its
    /// media, a HEAD request), run when a draft is saved. `nil`: not checked.
    public var imageCheck: (@Sendable (String) async -> String?)?

    /// Rules for `locales` (English alone by default) and `screens`.
    public init(locales: [String] = ["en"], screens: [Screen] = [], imageCheck: (@Sendable (String) async -> String?)? = nil) {
        self.locales = locales.isEmpty ? ["en"] : locales
        self.screens = screens
        self.imageCheck = imageCheck
    }

    /// The default locale: what a reader whose locale has no text reads.
    public var defaultLocale: String { locales[0] }

    /// The text of `localized` a reader in `locale` reads: their locale (`de-CH`), else its
    /// language (`de`), else the default locale's, else `nil`. Case is ignored, as in BCP 47.
    public func text(_ localized: [String: String], for locale: String?) -> String? {
        let present = localized.filter { !$0.value.isEmpty }
        func lookup(_ key: String) -> String? { present.first { $0.key.lowercased() == key.lowercased() }?.value }
        if let locale {
            let normalized = locale.replacingOccurrences(of: "_", with: "-")
            if let exact = lookup(normalized) { return exact }
            if let language = normalized.split(separator: "-").first, let text = lookup(String(language)) { return text }
        }
        return lookup(defaultLocale)
    }

    /// Whether `link` opens one of ``screens`` (any `screens/` link when none are declared).
    public func opensKnownScreen(_ link: String) -> Bool {
        guard link.hasPrefix("screens/") else { return false }
        let path = link.dropFirst("screens/".count).split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !segments.isEmpty, !segments.contains(where: \.isEmpty) else { return false }
        return screens.isEmpty || screens.contains { $0.pattern.matches(segments) }
    }
}

extension WidgetContract {
    /// Checks the content declarations against the fields they fill: a content field fills a
    /// declared field of a fitting type (text and colour a string, a link and an image a url, an
    /// image's alt text a string), once.
    static func checkContent(_ content: [ContentField], fields: [WidgetField], type: String) throws(WidgetContractError) {
        var seen: Set<String> = []
        func field(_ name: String, _ expected: WidgetFieldType, for what: String) throws(WidgetContractError) {
            guard let declared = fields.first(where: { $0.name == name }) else {
                throw WidgetContractError("'\(type)' has the content '\(what)', which fills '\(name)', a field it does not declare")
            }
            guard declared.type == expected else {
                throw WidgetContractError("'\(type)' fills its \(declared.type.rawValue) field '\(name)' with content that is a \(expected.rawValue)")
            }
            guard seen.insert(name).inserted else { throw WidgetContractError("'\(type)' fills the field '\(name)' with content twice") }
        }
        for item in content {
            switch item.kind {
            case .text(let maximum):
                guard (1...ContentField.longestText).contains(maximum) else {
                    throw WidgetContractError("'\(type)' lets its content '\(item.name)' hold \(maximum) characters (1...\(ContentField.longestText))")
                }
                try field(item.name, .string, for: item.name)
            case .colorToken: try field(item.name, .string, for: item.name)
            case .screenLink: try field(item.name, .url, for: item.name)
            case .image(let alt):
                try field(item.name, .url, for: item.name)
                try field(alt, .string, for: item.name)
            }
        }
    }

    /// Every problem of an instance's `content` (a JSON object by content name), with paths
    /// relative to it (`$.headline.de`): an unknown name, a value of the wrong shape, a locale the
    /// app does not write in, text over its length, a required text missing in the default
    /// locale, an image without alt text or a URL the policy refuses, a link to no screen of the
    /// app, a colour that is not a standard token.
    public func validateContent(_ json: JSONValue, rules: ContentRules) -> [WidgetProblem] {
        guard case .object(let members) = json else {
            return [WidgetProblem(.notAnObject, path: "$", "content is a JSON object, found \(json.typeName)")]
        }
        var problems: [WidgetProblem] = []
        func path(_ keys: String...) -> String { JSONPath.render(keys.map { AnyCodingKey($0) }) }
        func localized(_ value: JSONValue, at keys: [String], maximum: Int, required: Bool, what: String) {
            let at = JSONPath.render(keys.map { AnyCodingKey($0) })
            guard case .object(let texts) = value else {
                problems.append(WidgetProblem(.wrongType, path: at, "\(what): expected an object of texts by locale ({\"\(rules.defaultLocale)\": …}), found \(value.typeName)"))
                return
            }
            for (locale, text) in texts.sorted(by: { $0.key < $1.key }) {
                let here = JSONPath.render((keys + [locale]).map { AnyCodingKey($0) })
                // Exactly as the app names them: `EN` beside `en` would make which one is read a matter of order.
                guard rules.locales.contains(locale) else {
                    problems.append(
                        WidgetProblem(.unknownContent, path: here, "\(what): '\(locale.prefix(20))' is not a locale this app writes in (\(rules.locales.joined(separator: ", ")))"))
                    continue
                }
                guard let string = text.stringValue else {
                    problems.append(WidgetProblem(.wrongType, path: here, "\(what): expected a string, found \(text.typeName)"))
                    continue
                }
                if string.count > maximum {
                    problems.append(WidgetProblem(.tooLong, path: here, "\(what): \(string.count) characters; at most \(maximum)"))
                }
            }
            // Absent or blank (a value of the wrong type was reported above).
            if required, texts[rules.defaultLocale].map({ $0.stringValue?.isEmpty == true }) ?? true {
                problems.append(
                    WidgetProblem(.missingField, path: JSONPath.render((keys + [rules.defaultLocale]).map { AnyCodingKey($0) }), "\(what): required in \(rules.defaultLocale), the default locale"))
            }
        }
        for item in content {
            guard let value = members[item.name], value != .null else {
                if item.isRequired {
                    // Said where it is typed: a text in the default locale, an image's address.
                    let at: String =
                        switch item.kind {
                        case .text: path(item.name, rules.defaultLocale)
                        case .image: path(item.name, "url")
                        case .screenLink, .colorToken: path(item.name)
                        }
                    problems.append(WidgetProblem(.missingField, path: at, "\(item.label): required"))
                }
                continue
            }
            switch item.kind {
            case .text(let maximum):
                localized(value, at: [item.name], maximum: maximum, required: item.isRequired, what: item.label)
            case .image:
                guard case .object(let image) = value else {
                    problems.append(WidgetProblem(.wrongType, path: path(item.name), "\(item.label): expected {\"url\": …, \"alt\": {…}}, found \(value.typeName)"))
                    continue
                }
                guard let url = image["url"]?.stringValue, !url.isEmpty else {
                    problems.append(WidgetProblem(.missingField, path: path(item.name, "url"), "\(item.label): an image needs a URL"))
                    continue
                }
                do {
                    try linkPolicy.check(url)
                } catch {
                    problems.append(WidgetProblem(.invalidURL, path: path(item.name, "url"), "\(item.label): \(error.message)"))
                }
                localized(image["alt"] ?? .null, at: [item.name, "alt"], maximum: 300, required: true, what: "\(item.label)'s alt text")
                for key in image.keys.sorted() where key != "url" && key != "alt" {
                    problems.append(WidgetProblem(.unknownContent, path: path(item.name, key), "\(item.label): '\(key.prefix(40))' is not part of an image"))
                }
            case .screenLink:
                guard let link = value.stringValue else {
                    problems.append(WidgetProblem(.wrongType, path: path(item.name), "\(item.label): expected a screen link, found \(value.typeName)"))
                    continue
                }
                if !rules.opensKnownScreen(link) || (try? linkPolicy.check(link)) == nil {
                    let known = rules.screens.map { "screens/\($0.pattern)" }.joined(separator: ", ")
                    problems.append(
                        WidgetProblem(
                            .invalidURL, path: path(item.name),
                            "\(item.label): '\(link.prefix(80))' opens no screen of this app\(known.isEmpty ? " (a link starts with screens/)" : " (\(known))")"))
                }
            case .colorToken:
                guard let token = value.stringValue, ColorToken.standard.contains(where: { $0.rawValue == token }) else {
                    let names = ColorToken.standard.map(\.rawValue).joined(separator: ", ")
                    problems.append(WidgetProblem(.wrongType, path: path(item.name), "\(item.label): \(value.compactText.prefix(40)) is not a colour token (\(names))"))
                    continue
                }
            }
        }
        let known = Set(content.map(\.name))
        for name in members.keys.sorted() where !known.contains(name) {
            problems.append(WidgetProblem(.unknownContent, path: path(name), "'\(name.prefix(40))' is not content of '\(type)'"))
        }
        return problems
    }

    /// The component members an instance's `content` writes for a reader in `locale`: each field's
    /// text in their locale (or the default's), an image's URL and alt text, a link, a token.
    /// Values of the wrong shape write nothing (the template was checked when it was saved).
    public func contentMembers(_ json: JSONValue, locale: String?, rules: ContentRules) -> [String: JSONValue] {
        guard case .object(let members) = json, !members.isEmpty else { return [:] }
        func texts(_ value: JSONValue?) -> [String: String] {
            (value?.objectValue ?? [:]).compactMapValues(\.stringValue)
        }
        var written: [String: JSONValue] = [:]
        for item in content {
            guard let value = members[item.name] else { continue }
            switch item.kind {
            case .text:
                if let text = rules.text(texts(value), for: locale) { written[item.name] = .string(text) }
            case .image(let altField):
                guard let url = value["url"]?.stringValue, !url.isEmpty else { continue }
                written[item.name] = .string(url)
                if let alt = rules.text(texts(value["alt"]), for: locale) { written[altField] = .string(alt) }
            case .screenLink, .colorToken:
                if let text = value.stringValue, !text.isEmpty { written[item.name] = .string(text) }
            }
        }
        return written
    }

    /// The image URLs an instance's content names, by JSON path: what ``ContentRules/imageCheck`` loads.
    public func contentImages(_ json: JSONValue) -> [(path: String, url: String)] {
        content.compactMap { item in
            guard case .image = item.kind, let url = json[item.name]?["url"]?.stringValue, !url.isEmpty else { return nil }
            return (JSONPath.render([AnyCodingKey(item.name), AnyCodingKey("url")]), url)
        }
    }
}

extension WidgetContract {
    /// Content for a new instance of this kind (a widget added in the admin's editor): each
    /// required text, link or colour the kind's example carries, the text in `rules`' default
    /// locale. A kind whose provider supplies none of its words (a promotion's headline is the
    /// layout's) would otherwise be refused as it is added; this way it reads as the example
    /// until someone writes its own. Empty without an example; a required image is never made
    /// up (such a kind is still refused until one is given).
    public func exampleContent(rules: ContentRules) -> JSONValue {
        guard let component = example?.component.objectValue else { return [:] }
        var members: [String: JSONValue] = [:]
        for field in content where field.isRequired {
            guard let value = component[field.name]?.stringValue else { continue }
            switch field.kind {
            case .text(let maximum): members[field.name] = [rules.defaultLocale: .string(String(value.prefix(maximum)))]
            case .screenLink, .colorToken: members[field.name] = .string(value)
            case .image: continue
            }
        }
        return .object(members)
    }
}

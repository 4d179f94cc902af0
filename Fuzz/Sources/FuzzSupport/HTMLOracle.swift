import Foundation
import ScreenplayContract

/// Reads a page the way a browser's tokenizer would and checks that only the renderer's own
/// markup is markup: every tag and attribute is one the renderer writes, every attribute value is
/// double-quoted with no raw `<`, `>` or stray `'`, every `&` starts one of the five entities
/// `HTML.escape` writes, text holds no raw `>`, `"` or `'`, no control character survives, URLs
/// in `href`, `src` and `action` stay on the site or use an allowed scheme, and `style` holds
/// only the renderer's CSS (plus `url('…')` with nothing that could close it).
///
/// Returns the first violation, or `nil`.
public enum HTMLOracle {
    static let tags: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "main", "p", "a", "header", "img", "h1", "h2", "h3", "h4", "h5", "h6",
        "section", "span", "div", "form", "input", "label", "button", "small", "ul", "li", "nav",
        // The web player's shell: the stylesheet and icon links, the script, icons, dialogs, the
        // share panel, the player's audio and the loading template.
        "link", "script", "svg", "path", "dialog", "details", "summary", "audio", "template",
        // A reorderable list (v6).
        "ol",
    ]
    static let attributes: Set<String> = [
        "lang", "charset", "name", "content", "class", "href", "rel", "id", "src", "alt", "loading", "width", "height", "style",
        "role", "aria-level", "aria-label", "aria-pressed", "aria-busy", "aria-invalid", "aria-describedby", "method", "action", "type",
        "value", "for", "required", "maxlength", "placeholder", "inputmode", "pattern", "title", "disabled",
        "aria-current", "aria-hidden", "aria-live", "tabindex", "autocomplete", "min", "max", "step", "preload", "controls", "hidden",
        "readonly", "autofocus", "viewBox", "d", "fill", "focusable",
        // What the script acts on: each one the renderer writes, none other.
        "data-binding", "data-command-failure", "data-command-ms", "data-command-path", "data-command-timeout", "data-flip-icon",
        "data-flip-label", "data-flip-payload", "data-flip-text", "data-flip-url", "data-header-alt", "data-header-image", "data-header-subtitle", "data-header-title",
        "data-limit", "data-limit-counter", "data-limit-over", "data-node", "data-notice", "data-page", "data-pages", "data-paused-label",
        "data-play", "data-player", "data-playing-label", "data-queue", "data-scroll", "data-share-copied", "data-share-title",
        "data-share-url", "data-slot", "data-toggle", "data-track-duration", "data-track-src", "data-track-subtitle", "data-track-title",
        "data-share-field", "data-dialog-close", "data-retry",
        // A field checked as the user types (the module that checks it, a required text's message).
        "data-check", "data-required",
        // Client state (v6): a node's expressions and set steps, a control that needs the script,
        // the state element's screen and module.
        "data-compute", "data-set", "data-needs-script", "data-screen", "data-state-module",
        // Modules loaded when needed (dialogs; the search box's suggestions and where they come
        // from), a toggle's other face (measured by the stylesheet), and what now playing names.
        "data-dialogs", "data-suggest", "data-suggest-from", "data-other", "data-track-work", "data-track-composer", "data-track-art",
        "data-track-thumb",
        // Reports (v6): the module that sends them, the key a node reports once seen; share's module.
        "data-reports", "data-visible", "data-share",
        // A reorderable list (v6): its module, what a drag sends, each row's key.
        "data-reorder", "data-reorder-url", "data-reorder-payload", "data-key",
        // The player's module (loaded by the first play), a shuffled play (v6), the player's
        // Queue button and what it opens; a field's suggestions' parameter (v6).
        "data-player-module", "data-shuffle", "aria-expanded", "aria-controls", "data-suggest-param",
        // A track's menu (v6), as the contract writes it, for the player's "…".
        "data-track-menu",
    ]
    static let booleanAttributes: Set<String> = [
        "required", "disabled", "hidden", "controls", "readonly", "autofocus", "data-share-field", "data-dialog-close", "data-retry",
        "data-needs-script",
    ]
    static let entities = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]

    public static func violation(in html: String, stylesheet: String) -> String? {
        // Works on the UTF-8 bytes: every byte the checks look for is ASCII, and a multi-byte
        // scalar never contains an ASCII byte.
        var s = Array(html.utf8)
        // The stylesheet is the renderer's constant: it must be there verbatim, and nothing else
        // may sit in a <style> element.
        let open = Array("<style>".utf8)
        let styled = open + Array(stylesheet.utf8) + Array("</style>".utf8)
        if let at = find(styled, in: s) { s.removeSubrange((at + open.count)..<(at + styled.count - open.count - 1)) }
        for (k, byte) in s.enumerated() {
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F || (byte == 0xC2 && k + 1 < s.count && (0x80...0x9F).contains(s[k + 1])) {
                return "control character in the output at \(context(s, k))"
            }
        }
        func starts(_ text: [UInt8], at index: Int) -> Bool {
            index + text.count <= s.count && s[index..<(index + text.count)].elementsEqual(text)
        }
        func entityOK(at index: Int) -> Bool { entityBytes.contains { starts($0, at: index) } }
        func isLower(_ b: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) }
        func isDigit(_ b: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
        let doctype = Array("<!doctype html>".utf8)
        var insideStyle = false
        var i = 0
        while i < s.count {
            let c = s[i]
            switch c {
            case UInt8(ascii: "<"):
                if starts(doctype, at: i) {
                    i += doctype.count
                    continue
                }
                var j = i + 1
                let closing = j < s.count && s[j] == UInt8(ascii: "/")
                if closing { j += 1 }
                let nameStart = j
                while j < s.count, isLower(s[j]) || isDigit(s[j]) { j += 1 }
                let name = String(decoding: s[nameStart..<j], as: UTF8.self)
                guard tags.contains(name) else { return "unknown tag or raw '<' at \(context(s, i))" }
                if insideStyle && !(closing && name == "style") { return "markup inside <style> at \(context(s, i))" }
                if closing {
                    guard j < s.count, s[j] == UInt8(ascii: ">") else { return "malformed closing tag at \(context(s, i))" }
                    if name == "style" { insideStyle = false }
                    i = j + 1
                    continue
                }
                // Attributes.
                while true {
                    guard j < s.count else { return "unterminated tag at \(context(s, i))" }
                    if s[j] == UInt8(ascii: ">") {
                        j += 1
                        break
                    }
                    // An SVG element may close itself.
                    if name == "path", s[j] == UInt8(ascii: "/"), j + 1 < s.count, s[j + 1] == UInt8(ascii: ">") {
                        j += 2
                        break
                    }
                    guard s[j] == UInt8(ascii: " ") else { return "unexpected byte \(s[j]) in a tag at \(context(s, j))" }
                    j += 1
                    let attributeStart = j
                    // Lower case and '-', and the one capital the renderer writes (an icon's viewBox).
                    while j < s.count, isLower(s[j]) || s[j] == UInt8(ascii: "-") || s[j] == UInt8(ascii: "B") { j += 1 }
                    let attribute = String(decoding: s[attributeStart..<j], as: UTF8.self)
                    guard attributes.contains(attribute) else { return "unknown attribute '\(attribute)' at \(context(s, j))" }
                    guard j < s.count else { return "unterminated tag at \(context(s, i))" }
                    if s[j] == UInt8(ascii: "=") {
                        guard j + 1 < s.count, s[j + 1] == UInt8(ascii: "\"") else { return "unquoted value of '\(attribute)' at \(context(s, j))" }
                        j += 2
                        let start = j
                        while j < s.count, s[j] != UInt8(ascii: "\"") { j += 1 }
                        guard j < s.count else { return "unterminated value of '\(attribute)' at \(context(s, start))" }
                        for k in start..<j {
                            switch s[k] {
                            case UInt8(ascii: "<"), UInt8(ascii: ">"): return "raw '\(Character(Unicode.Scalar(s[k])))' in the value of '\(attribute)' at \(context(s, k))"
                            case UInt8(ascii: "'") where attribute != "style": return "raw ' in the value of '\(attribute)' at \(context(s, k))"
                            case UInt8(ascii: "&") where !entityOK(at: k): return "bare & in the value of '\(attribute)' at \(context(s, k))"
                            default: break
                            }
                        }
                        let raw = String(decoding: s[start..<j], as: UTF8.self)
                        if let problem = valueViolation(attribute, unescape(raw), tag: name) {
                            return "\(problem) (<\(name) \(attribute)=\"\(raw.prefix(200))\">)"
                        }
                        j += 1
                    } else if !booleanAttributes.contains(attribute) {
                        return "attribute '\(attribute)' without a value at \(context(s, j))"
                    }
                }
                if name == "style" { insideStyle = true }
                i = j
            case UInt8(ascii: ">"):
                return "raw '>' in text at \(context(s, i))"
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return "raw \(Character(Unicode.Scalar(c))) in text at \(context(s, i))"
            case UInt8(ascii: "&"):
                guard entityOK(at: i) else { return "bare & in text at \(context(s, i))" }
                i += 1
            default:
                i += 1
            }
        }
        return nil
    }

    static let entityBytes = entities.map { Array($0.utf8) }

    /// The first index of `needle` in `haystack`.
    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func context(_ s: [UInt8], _ index: Int) -> String {
        String(decoding: s[max(0, index - 80)..<min(s.count, index + 80)], as: UTF8.self).debugDescription
    }

    /// Undoes `HTML.escape`.
    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let s = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var i = 0
        outer: while i < s.count {
            if s[i] == "&" {
                for (entity, character) in zip(entities, ["&", "<", ">", "\"", "'"] as [Unicode.Scalar]) {
                    let e = Array(entity.unicodeScalars)
                    if i + e.count <= s.count, Array(s[i..<(i + e.count)]) == e {
                        result.append(character)
                        i += e.count
                        continue outer
                    }
                }
            }
            result.append(s[i])
            i += 1
        }
        return String(result)
    }

    static func valueViolation(_ attribute: String, _ value: String, tag: String) -> String? {
        switch attribute {
        case "href":
            return urlViolation(value, schemes: ["http", "https", "mailto", "tel"])
        // (`data-flip-url` is not one: like the form's hidden `url`, it is a command path the
        // server resolves, never followed by the browser.)
        case "src", "data-header-image", "data-track-src", "data-queue", "data-share-url", "data-track-art", "data-track-thumb", "data-dialogs",
            "data-suggest", "data-suggest-from", "data-reports", "data-share", "data-reorder", "data-player-module":
            return urlViolation(value, schemes: ["http", "https"])
        case "data-shuffle":
            return value == "true" ? nil : "data-shuffle \(value.debugDescription)"
        case "data-suggest-param":
            return value == "q" ? nil : "data-suggest-param \(value.debugDescription)"
        case "aria-expanded":
            return value == "true" || value == "false" ? nil : "aria-expanded \(value.debugDescription)"
        case "aria-controls":
            return value == "sp-queue" || value == "sp-track-menu" ? nil : "aria-controls \(value.debugDescription)"
        case "data-track-menu":
            // JSON the script parses (the attribute's escaping is checked like every other's).
            return (try? JSONSerialization.jsonObject(with: Data(value.utf8))) is [Any] ? nil : "data-track-menu is not a JSON array"
        case "action":
            // The command flow, or a page of the site (the search box's GET).
            return value == "/web/command" || (value.hasPrefix("/") && urlViolation(value, schemes: []) == nil)
                ? nil : "a form posts to \(value.debugDescription)"
        case "style":
            return cssViolation(value)
        case "method":
            return value == "post" || value == "get" ? nil : "method \(value.debugDescription)"
        case "type":
            let allowed: Set<String> = ["hidden", "text", "submit", "button", "search", "email", "tel", "url", "range", "module", "image/svg+xml"]
            return allowed.contains(value) ? nil : "type \(value.debugDescription)"
        case "loading":
            return value == "lazy" ? nil : "loading \(value.debugDescription)"
        case "role":
            // `button`: a play, a link to the audio without the script and a button to the listener.
            let allowed: Set<String> = ["status", "alert", "heading", "img", "presentation", "search", "button"]
            return allowed.contains(value) ? nil : "role \(value.debugDescription)"
        case "aria-level":
            return ["1", "2", "3", "4", "5", "6"].contains(value) ? nil : "aria-level \(value.debugDescription)"
        case "width", "height", "maxlength":
            return value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "e" || $0 == "+" })
                ? nil : "\(attribute) \(value.debugDescription)"
        default:
            return nil
        }
    }

    /// Whether a URL, read as a browser reads it, stays on the site or has an allowed scheme. A
    /// browser first drops leading and trailing spaces and C0 controls and every tab and line
    /// break, then reads a backslash as a slash: what is left must not start with two slashes
    /// (a protocol-relative URL leaves the site), and a scheme must be an allowed one.
    public static func urlViolation(_ url: String, schemes: Set<String>) -> String? {
        var scalars = Array(url.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = scalars.first else { return "an empty URL \(url.debugDescription)" }
        let slash: (Unicode.Scalar) -> Bool = { $0 == "/" || $0 == "\\" }
        if slash(first) {
            return scalars.count > 1 && slash(scalars[1]) ? "protocol-relative URL \(url.debugDescription)" : nil
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        if let scheme = LinkPolicy.scheme(of: text), !schemes.contains(scheme.lowercased()) {
            return "URL \(url.debugDescription) has the scheme '\(scheme)'"
        }
        return nil
    }

    /// The renderer's CSS: properties, numbers, `var(--sp-token)`, colors, and `url('…')` whose
    /// content cannot close it.
    static func cssViolation(_ css: String) -> String? {
        var rest = Substring(css)
        var plain = ""
        while let open = rest.range(of: "url('") {
            plain += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.range(of: "')") else { return "unterminated url( in style \(css.debugDescription)" }
            let inner = after[..<close.lowerBound]
            if inner.unicodeScalars.contains(where: { "'\"()\\;".unicodeScalars.contains($0) || $0.properties.isWhitespace || $0.value < 0x20 }) {
                return "url('…') in style can be closed early: \(css.debugDescription)"
            }
            if let problem = urlViolation(String(inner), schemes: ["http", "https"]) { return problem }
            rest = after[close.upperBound...]
        }
        plain += rest
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:;(),#.%- +".unicodeScalars)
        if let bad = plain.unicodeScalars.first(where: { !allowed.contains($0) }) {
            return "unexpected \(String(bad).debugDescription) in style \(css.debugDescription)"
        }
        return nil
    }
}

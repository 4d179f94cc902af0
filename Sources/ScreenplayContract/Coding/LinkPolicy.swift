/// Which URLs an action or image may carry.
///
/// A screen travels from the server to a client that will open its links, so a URL is checked
/// when it is decoded (and when the DSL builds it): a `javascript:` or `file:` link never enters
/// the model, never reaches HTML, never reaches an app's URL handler.
public struct LinkPolicy: Sendable, Hashable {
    /// Schemes allowed besides relative references (case-insensitive).
    public let allowedSchemes: Set<String>
    /// Whether a reference with no scheme (resolved against the API base URL) is allowed.
    public let allowsRelative: Bool

    /// Creates a policy.
    public init(allowedSchemes: Set<String>, allowsRelative: Bool) {
        self.allowedSchemes = allowedSchemes
        self.allowsRelative = allowsRelative
    }

    /// Server endpoints: navigate and command targets, play metadata. Relative to the API base,
    /// or absolute http(s).
    public static let endpoint = LinkPolicy(allowedSchemes: ["https", "http"], allowsRelative: true)
    /// Images: like endpoints.
    public static let resource = endpoint
    /// Links handed to the system (open URL, share): web, mail and phone.
    public static let external = LinkPolicy(allowedSchemes: ["https", "http", "mailto", "tel"], allowsRelative: true)

    /// The longest URL accepted, in Unicode scalars (what JSON Schema's `maxLength` counts);
    /// longer ones are almost surely garbage or an attack.
    public static let maximumLength = 4096

    /// Checks a URL; throws a violation naming the URL and the rule it breaks.
    ///
    /// Every test works on Unicode scalars, never on grapheme clusters: a combining mark or an
    /// emoji modifier after `/`, `\` or `:` must not hide that character from the check, since
    /// browsers read the scalars.
    public func check(_ url: String) throws(ContractViolation) {
        guard !url.isEmpty else { throw ContractViolation("empty URL") }
        let length = url.unicodeScalars.count
        guard length <= Self.maximumLength else {
            throw ContractViolation("URL is \(length) characters long; the limit is \(Self.maximumLength)")
        }
        let scalars = url.unicodeScalars
        guard !scalars.contains("\\") else {
            // Browsers read a backslash as a slash in http(s) URLs: "/\\evil.example" would leave the site.
            throw ContractViolation("URL '\(url.prefix(80))' contains a backslash")
        }
        guard !url.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " }) else {
            throw ContractViolation("URL '\(url.prefix(80))' contains whitespace or control characters")
        }
        if let scheme = Self.scheme(of: url) {
            guard allowedSchemes.contains(scheme.lowercased()) else {
                let allowed = allowedSchemes.sorted().joined(separator: ", ")
                throw ContractViolation(
                    "URL scheme '\(scheme)' is not allowed here (allowed: \(allowed)\(allowsRelative ? ", or a relative path" : ""))")
            }
        } else {
            guard allowsRelative else { throw ContractViolation("URL '\(url.prefix(80))' must be absolute") }
            guard !(scalars.first == "/" && scalars.dropFirst().first == "/") else {
                throw ContractViolation("URL '\(url.prefix(80))' is protocol-relative; give a scheme or a path")
            }
        }
    }

    /// The scheme of an absolute URL (RFC 3986: a letter, then letters, digits, `+-.`, then `:`),
    /// read scalar by scalar; `nil` for a relative reference.
    public static func scheme(of url: String) -> String? {
        let scalars = Array(url.unicodeScalars)
        guard let colon = scalars.firstIndex(of: ":") else { return nil }
        let candidate = scalars[..<colon]
        guard let first = candidate.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let valid = candidate.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
        // A colon after a slash or query belongs to the path ("screens/a:b"), not to a scheme.
        guard valid else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: candidate)
        return text
    }
}

extension LinkPolicy {
    /// The JSON Schema fragment that accepts exactly the URLs ``check(_:)`` accepts.
    ///
    /// The pattern spells the same rules: no backslash, whitespace or control character; an
    /// allowed scheme (any letter case) before the first colon, or no scheme-like prefix at all
    /// and no leading `//`. It uses only syntax that ECMA-262 and Python's `re` read alike, and
    /// ends with `(?![\s\S])` rather than `$`, which Python also matches before a final newline.
    public var schema: JSONValue {
        func caseless(_ scheme: String) -> String {
            scheme.map { character in
                let lower = character.lowercased()
                let upper = character.uppercased()
                if lower != upper { return "[\(upper)\(lower)]" }
                return "+-.".contains(character) ? "\\\(character)" : String(character)
            }.joined()
        }
        let body = #"[^\\\u0000-\u0020\u007F]"#
        var branches: [String] = []
        if !allowedSchemes.isEmpty {
            // Longest first, so `https` is tried before `http`.
            let schemes = allowedSchemes.sorted { ($0.count, $0) > ($1.count, $1) }.map(caseless)
            branches.append("(?:" + schemes.joined(separator: "|") + "):")
        }
        if allowsRelative { branches.append(#"(?![A-Za-z][A-Za-z0-9+.\-]*:)(?!//)"#) }
        let pattern = "^(?=\(body)+(?![\\s\\S]))(?:" + (branches.isEmpty ? "(?!)" : branches.joined(separator: "|")) + ")"
        return [
            "type": "string", "minLength": 1, "maxLength": .integer(Self.maximumLength), "pattern": .string(pattern),
            "x-link-schemes": .array(allowedSchemes.sorted().map(JSONValue.string)), "x-link-relative": .bool(allowsRelative),
        ]
    }
}

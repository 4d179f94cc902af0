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

    /// The longest URL accepted; longer ones are almost surely garbage or an attack.
    public static let maximumLength = 4096

    /// Checks a URL; throws a violation naming the URL and the rule it breaks.
    public func check(_ url: String) throws(ContractViolation) {
        guard !url.isEmpty else { throw ContractViolation("empty URL") }
        guard url.utf8.count <= Self.maximumLength else {
            throw ContractViolation("URL is \(url.utf8.count) bytes long; the limit is \(Self.maximumLength)")
        }
        guard !url.contains("\\") else {
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
            guard !url.hasPrefix("//") else {
                throw ContractViolation("URL '\(url.prefix(80))' is protocol-relative; give a scheme or a path")
            }
        }
    }

    /// The scheme of an absolute URL (RFC 3986: a letter, then letters, digits, `+-.`, then `:`).
    static func scheme(of url: String) -> Substring? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let candidate = url[..<colon]
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let valid = candidate.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
        // A colon after a slash or query belongs to the path ("screens/a:b"), not to a scheme.
        return valid ? candidate : nil
    }
}

extension KeyedDecodingContainer {
    /// Decodes a required URL and checks it against `policy`.
    func decodeLink(forKey key: Key, policy: LinkPolicy) throws -> String {
        let url = try decode(String.self, forKey: key)
        do {
            try policy.check(url)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.message)
        }
        return url
    }

    /// Decodes an optional URL and checks it against `policy` when present.
    func decodeLinkIfPresent(forKey key: Key, policy: LinkPolicy) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeLink(forKey: key, policy: policy)
    }
}

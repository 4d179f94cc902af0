import Foundation
public import ScreenplayContract

/// A command form post from a page rendered by ``HTMLRenderer``: which command, its payload,
/// the prompt's text if any, and where to return.
public struct WebForm: Sendable, Equatable {
    /// The command URL relative to the API base (`commands/favorites/add`).
    public let commandURL: String
    /// The payload, with a prompt's text already merged in under its field name.
    public let payload: JSONValue
    /// The page to go back to: always a local path.
    public let back: String

    /// Why a form post was refused.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The form field at fault.
        public let field: String
        /// What is wrong with it.
        public let message: String
        /// `field 'payload': …`.
        public var description: String { "form field '\(field)': \(message)" }
    }

    /// Parses an `application/x-www-form-urlencoded` body.
    public init(urlEncoded body: [UInt8]) throws(Problem) {
        let fields = Self.fields(of: body)
        // A field given twice is ambiguous (which command? which text?): refuse, never guess.
        if let repeated = Self.repeatedField(in: body) {
            throw Problem(field: repeated, message: "given more than once; each field may appear once")
        }
        guard let url = fields["url"], url.hasPrefix("commands/") else {
            throw Problem(field: "url", message: "expected a command URL starting with 'commands/'")
        }
        do {
            try LinkPolicy.endpoint.check(url)
        } catch {
            throw Problem(field: "url", message: error.message)
        }
        var payload: JSONValue = .object([:])
        if let text = fields["payload"], !text.isEmpty {
            if let failure = JSONSyntax.firstError(in: Data(text.utf8)) {
                throw Problem(field: "payload", message: "not valid JSON: \(failure)")
            }
            guard let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw Problem(field: "payload", message: "not valid JSON")
            }
            payload = decoded
        }
        if let field = fields["field"] {
            guard case .object(var members) = payload else {
                throw Problem(field: "payload", message: "a prompt's payload must be a JSON object")
            }
            members[field] = .string(fields["value"] ?? "")
            payload = .object(members)
        }
        // Text fields post as `storage.<key>`; the command reads them from its `storage`, as an
        // app's commands carry them.
        var storage: [String: JSONValue] = [:]
        for (name, value) in fields where name.hasPrefix(Self.storagePrefix) {
            let key = String(name.dropFirst(Self.storagePrefix.count))
            guard !key.isEmpty else { continue }
            storage[key] = .string(value)
        }
        if !storage.isEmpty {
            guard case .object(var members) = payload else {
                throw Problem(field: "payload", message: "a form with text fields needs a JSON object payload")
            }
            members["storage"] = .object(storage)
            payload = .object(members)
        }
        self.commandURL = url
        self.payload = payload
        self.back = Self.safeBackPath(fields["back"] ?? "/")
    }

    /// The longest path a form may ask to return to; a longer one (no page of the site has one)
    /// returns home. Kept results and notices carry it, so it bounds what they hold.
    public static let maximumBackLength = 2_048

    /// The prefix of form fields that carry client storage (`storage.query`).
    public static let storagePrefix = "storage."

    /// The command path without its `commands/` prefix.
    public var commandPath: String { String(commandURL.dropFirst("commands/".count)) }

    /// A local path to return to: anything that could leave the site becomes `/`.
    public static func safeBackPath(_ path: String) -> String {
        guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.utf8.count <= maximumBackLength,
            !path.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return path
    }

    /// The first field name that occurs twice in the body, if any.
    public static func repeatedField(in body: [UInt8]) -> String? {
        var seen: Set<String> = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(name)
            if !seen.insert(decoded).inserted { return decoded }
        }
        return nil
    }

    /// Decodes `a=1&b=two+words` into a dictionary; later duplicates win (``init(urlEncoded:)``
    /// refuses them first). Only the first `limit` pairs are read: a host that knows how many
    /// fields its forms have (the admin's, 64) reads no more. The one form decoder of the web
    /// pages and the admin.
    public static func fields(of body: [UInt8], limit: Int = .max) -> [String: String] {
        var result: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&").prefix(limit) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            result[decode(parts[0])] = parts.count == 2 ? decode(parts[1]) : ""
        }
        return result
    }
}

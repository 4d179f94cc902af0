public import ScreenplayContract

/// A command request: the action's payload plus who sent it.
public struct CommandRequest: Sendable {
    /// The path under `commands/`, e.g. `favorites/add`.
    public let path: String
    /// Values of the pattern's `:name` segments.
    public let parameters: [String: String]
    /// The JSON body (`{}` when the body was empty).
    public let payload: JSONValue
    /// The API version the client speaks.
    public let apiVersion: APIVersion
    /// Who sent it.
    public let user: UserIdentity

    /// Creates a request (the service does this; tests may too).
    public init(path: String, parameters: [String: String] = [:], payload: JSONValue, apiVersion: APIVersion, user: UserIdentity) {
        self.path = path
        self.parameters = parameters
        self.payload = payload
        self.apiVersion = apiVersion
        self.user = user
    }

    /// A required text field, trimmed, 1...`maxLength` characters and at most `maxBytes` UTF-8
    /// bytes (a character can hold any number of combining marks: the byte limit is what bounds
    /// storage and memory), with no control characters or bidirectional overrides; otherwise a
    /// 422 naming it.
    public func text(_ field: String, maxLength: Int = 200, maxBytes: Int? = nil) throws(ScreenplayError) -> String {
        guard let value = payload[field] else { throw .invalidField(field, "missing required field '\(field)'") }
        guard let text = value.stringValue else {
            throw .invalidField(field, "'\(field)' must be a string, found \(value.typeName)")
        }
        // Control characters (NUL, line breaks, escapes) and the bidirectional overrides that make
        // a name read as another have no place in a one-line text, at its ends either.
        if let bad = text.unicodeScalars.first(where: Self.isForbiddenInText) {
            let code = String(bad.value, radix: 16, uppercase: true)
            throw .invalidField(field, "'\(field)' contains U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code), a control character")
        }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .invalidField(field, "'\(field)' must not be empty") }
        guard trimmed.count <= maxLength else {
            throw .invalidField(field, "'\(field)' is \(trimmed.count) characters long; the limit is \(maxLength)")
        }
        let bytes = maxBytes ?? maxLength * 4
        guard trimmed.utf8.count <= bytes else {
            throw .invalidField(field, "'\(field)' is \(trimmed.utf8.count) bytes long in UTF-8; the limit is \(bytes)")
        }
        return trimmed
    }

    /// The bidirectional formatting characters (embeddings, overrides, isolates, marks).
    /// Whether `scalar` has no place in a one-line text: a control character (NUL, line breaks,
    /// escapes), a line or paragraph separator, or a bidirectional mark or override (which make a
    /// name read as another). ``CommandPayloadSchema`` documents the same set.
    public static func isForbiddenInText(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 || bidiControls.contains(scalar.value)
    }

    static let bidiControls: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    /// A value of the sending screen's client storage (v4: the body's `storage` member, which the
    /// client fills from what the user typed); `nil` when the command carries none. The service
    /// has already refused a `storage` that is not an object of strings within the contract's
    /// limits, with a 422 naming the member.
    public func storedText(_ key: String) throws(ScreenplayError) -> String? {
        try CommandPayload.checkStorage(in: payload)
        return payload["storage"]?[key]?.stringValue
    }

    /// An optional text field: `nil` when absent, a 422 naming it when it is not a string.
    public func optionalText(_ field: String) throws(ScreenplayError) -> String? {
        guard let value = payload[field] else { return nil }
        guard let text = value.stringValue else { throw .invalidField(field, "'\(field)' must be a string, found \(value.typeName)") }
        return text
    }

    /// A required integer field (an id); otherwise a 422 naming it.
    public func integer(_ field: String) throws(ScreenplayError) -> Int {
        guard let value = payload[field] else { throw .invalidField(field, "missing required field '\(field)'") }
        guard let number = value.integerValue else {
            throw .invalidField(field, "'\(field)' must be an integer, found \(value.typeName)")
        }
        return number
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}

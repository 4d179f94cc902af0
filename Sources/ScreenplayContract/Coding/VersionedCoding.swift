import Foundation

extension CodingUserInfoKey {
    /// The API version being encoded or decoded; see ``ScreenplayEncoder`` and ``ScreenplayDecoder``.
    package static let screenplayAPIVersion = CodingUserInfoKey(rawValue: "screenplay.apiVersion")!
    /// The reader's locale; see ``ScreenplayDecoder/locale``.
    package static let screenplayLocale = CodingUserInfoKey(rawValue: "screenplay.locale")!
}

extension Encoder {
    /// The version the output is for: fields whose shape changed between versions are written in
    /// that version's shape. Plain `JSONEncoder` gets the latest.
    public var screenplayAPIVersion: APIVersion { userInfo[.screenplayAPIVersion] as? APIVersion ?? .latest }
}

extension Decoder {
    /// The version the input is read as: kinds introduced later are unknown to it, and changed
    /// fields are read in its shape. Plain `JSONDecoder` gets the latest.
    public var screenplayAPIVersion: APIVersion { userInfo[.screenplayAPIVersion] as? APIVersion ?? .latest }

    /// The reader's locale (a BCP 47 tag) rows are made for; `en` unless the decoder says.
    public var screenplayLocale: String { userInfo[.screenplayLocale] as? String ?? "en" }
}

/// When a kind (component, action, command result) joined the contract, when it was
/// deprecated, and what older clients get instead.
///
/// The server reads this to downgrade responses; `screenplay schema` and the Markdown contract
/// print it; the decoder uses `introduced` so a client of version N treats later kinds as unknown.
public struct KindVersioning: Sendable, Hashable {
    /// The first API version that has the kind.
    public let introduced: APIVersion
    /// The version from which new servers stop sending it (still decoded).
    public let deprecated: APIVersion?
    /// What clients older than `introduced` get, in words ("rows, one per card", "dropped").
    public let fallback: String

    /// Creates the record.
    public init(introduced: APIVersion, deprecated: APIVersion? = nil, fallback: String) {
        self.introduced = introduced
        self.deprecated = deprecated
        self.fallback = fallback
    }

    /// A kind of the first contract; it never needs a fallback.
    public static let original = KindVersioning(introduced: .v1, fallback: "none needed: part of v1")
}

/// A field whose wire shape changed in a later version, with what it was before.
public struct FieldChange: Sendable, Hashable {
    /// The field's name.
    public let field: String
    /// The version that changed it.
    public let version: APIVersion
    /// What changed and how older clients get it.
    public let summary: String

    /// Creates the record.
    public init(field: String, version: APIVersion, summary: String) {
        self.field = field
        self.version = version
        self.summary = summary
    }
}

/// A client platform. Open: a new platform is a new value, not a new release of this library.
public struct Platform: RawRepresentable, Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name, lowercase by convention (`ios`, `android`, `web`).
    public let rawValue: String

    /// A platform by name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A platform by name.
    public init(_ name: String) { self.rawValue = name }

    /// Apple's phone and tablet apps.
    public static let iOS = Platform("ios")
    /// Android apps.
    public static let android = Platform("android")
    /// Browsers (the HTML pages).
    public static let web = Platform("web")

    /// Reads the bare name.
    public init(from decoder: any Decoder) throws { self.rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Writes the bare name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders by name (for stable listings).
    public static func < (lhs: Platform, rhs: Platform) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name.
    public var description: String { rawValue }
}

/// A version of the wire contract, as named in request paths (`/api/v1/...`).
///
/// An app speaks exactly one version for its whole life; the server speaks every supported one
/// and shapes each response for the version in the request.
public struct APIVersion: RawRepresentable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The version number, starting at 1.
    public let rawValue: Int

    /// A version by number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A version by number.
    public init(_ number: Int) { self.rawValue = number }

    /// The first contract: screens, sections, the domain components and layout primitives.
    public static let v1 = APIVersion(1)

    /// Adds the favorite toggle button and the grid of cards.
    public static let v2 = APIVersion(2)

    /// The track row's `duration` becomes a number of seconds (it was display text).
    public static let v3 = APIVersion(3)

    /// Component ids, accessibility and entity bindings; screens carry client storage and
    /// entities; the text field; command results set storage, patch entities and carry effects.
    public static let v4 = APIVersion(4)

    /// Live screens (`live`: watched on the event stream or revalidated on an interval) and
    /// optimistic command outcomes (`optimistic`: entity members set before the answer).
    public static let v5 = APIVersion(5)

    /// Client state and expressions (`state` on screens, `compute` on components) and local
    /// actions (`set`, `sequence`): what a screen shows can follow the user's hands and the player
    /// with no round trip. Older clients get every binding evaluated with the initial state.
    public static let v6 = APIVersion(6)

    /// The newest version this build of the contract knows.
    public static let latest = APIVersion.v6

    /// Every version this build of the contract can produce, oldest first.
    public static let supported: ClosedRange<APIVersion> = .v1 ... .latest

    /// Orders by number.
    public static func < (lhs: APIVersion, rhs: APIVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `v1`, as it appears in paths.
    public var description: String { "v\(rawValue)" }

    /// Decodes a bare number.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes a bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

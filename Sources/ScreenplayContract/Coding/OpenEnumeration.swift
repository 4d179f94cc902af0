/// A style-like enum that may grow without breaking apps already shipped: an unknown value
/// decodes to ``fallback`` and is recorded as a ``DecodingIssue`` of kind
/// ``DecodingIssue/Kind/unknownValue`` with its JSON path, while the element that holds it
/// survives.
///
/// Button styles, text weights, alignments, presentations and carousel item styles are open:
/// showing a new `destructive` button as a `secondary` one is a fair guess, dropping the button is
/// not. Enums where a wrong guess would do harm stay closed (a plain `Codable` enum, whose unknown
/// values fail the element): today that is only the `type` of components, actions and command
/// results, where an unknown kind is kept aside and never guessed. The schema marks open enums
/// with `"x-open-enum": true` and their `default`, and `contract-diff` knows that adding a value
/// to one is safe.
public protocol OpenEnumeration: RawRepresentable, CaseIterable, Codable, Sendable where RawValue == String {
    /// What an unknown value decodes to.
    static var fallback: Self { get }
}

extension OpenEnumeration {
    /// Decodes a known value as itself and an unknown one as ``fallback``, recording the issue.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        if let value = Self(rawValue: text) {
            self = value
        } else {
            decoder.recordUnknownValue(text, replacedBy: Self.fallback.rawValue)
            self = Self.fallback
        }
    }
}

extension Component.Button.Style: OpenEnumeration {
    /// A neutral outlined button: a new emphasis shown plainly rather than the button lost.
    public static let fallback = Self.secondary
}

extension Component.FontWeight: OpenEnumeration {
    /// Body weight.
    public static let fallback = Self.regular
}

extension Component.HorizontalAlignment: OpenEnumeration {
    /// Centered, as a stack with no alignment.
    public static let fallback = Self.center
}

extension Component.VerticalAlignment: OpenEnumeration {
    /// Centered, as a stack with no alignment.
    public static let fallback = Self.center
}

extension Component.Carousel.ItemStyle: OpenEnumeration {
    /// A square cover, the shape that suits the most content.
    public static let fallback = Self.square
}

extension Action.Navigate.Presentation: OpenEnumeration {
    /// Onto the navigation stack, the default presentation.
    public static let fallback = Self.push
}

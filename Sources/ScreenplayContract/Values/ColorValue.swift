/// A color: either a design token the app maps to its own palette, or a literal hex value.
///
/// Tokens keep screens on-brand across light and dark mode without the server knowing either;
/// hex exists for one-off content such as the city-statistics bars whose color follows a number.
/// On the wire both are one string: `"accent"` or `"#1E90FF"` (`#RRGGBB` or `#RRGGBBAA`).
public enum ColorValue: Sendable, Hashable {
    /// A named design token, resolved by the renderer.
    case token(ColorToken)
    /// Red, green, blue and alpha, 0...255 each.
    case rgba(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)

    /// An opaque color from its components, clamped to 0...255.
    public static func rgb(_ red: Int, _ green: Int, _ blue: Int) -> ColorValue {
        func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value))) }
        return .rgba(red: clamp(red), green: clamp(green), blue: clamp(blue), alpha: 255)
    }

    /// Parses the wire form; throws ``ContractViolation`` naming the bad text.
    public init(parsing text: String) throws(ContractViolation) {
        guard text.hasPrefix("#") else {
            guard let token = ColorToken(rawValue: text) else {
                throw ContractViolation("'\(text)' is neither a color token (letters and digits) nor a hex color (#RRGGBB)")
            }
            self = .token(token)
            return
        }
        let hex = text.dropFirst()
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
            throw ContractViolation("'\(text)' is not a hex color: expected #RRGGBB or #RRGGBBAA")
        }
        if hex.count == 6 {
            self = .rgba(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF), alpha: 255)
        } else {
            self = .rgba(
                red: UInt8(value >> 24), green: UInt8(value >> 16 & 0xFF), blue: UInt8(value >> 8 & 0xFF), alpha: UInt8(value & 0xFF))
        }
    }

    /// The wire form: the token's name, or `#RRGGBB` (`#RRGGBBAA` when not opaque).
    public var wireValue: String {
        switch self {
        case .token(let token):
            return token.rawValue
        case .rgba(let red, let green, let blue, let alpha):
            let parts = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
            return "#"
                + parts.map { byte in
                    let digits = String(byte, radix: 16, uppercase: true)
                    return digits.count == 1 ? "0" + digits : digits
                }.joined()
        }
    }
}

extension ColorValue: Codable {
    /// Decodes `"token"` or `"#RRGGBB"`; anything else is a decoding error at this field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the wire form as one string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireValue)
    }
}

/// A named color in the app's palette.
///
/// A struct rather than an enum so apps can add their own tokens without a contract change;
/// the names below are the ones every renderer must know.
public struct ColorToken: RawRepresentable, Sendable, Hashable {
    /// The token's name: ASCII letters and digits, starting with a letter.
    public let rawValue: String

    /// Accepts only names made of ASCII letters and digits that start with a letter, at most 64 long.
    public init?(rawValue: String) {
        guard let first = rawValue.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII,
            rawValue.count <= 64,
            rawValue.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { self.rawValue = known }

    /// The main text color.
    public static let primaryText = ColorToken(known: "primaryText")
    /// Less prominent text: subtitles, durations.
    public static let secondaryText = ColorToken(known: "secondaryText")
    /// The brand's accent: links, selected states.
    public static let accent = ColorToken(known: "accent")
    /// The screen's background.
    public static let background = ColorToken(known: "background")
    /// A raised surface such as a card.
    public static let surface = ColorToken(known: "surface")
    /// Good news: low numbers, success.
    public static let positive = ColorToken(known: "positive")
    /// Bad news: high numbers, errors.
    public static let negative = ColorToken(known: "negative")
    /// The tokens every renderer maps; unknown tokens fall back to `primaryText`.
    public static let standard: [ColorToken] = [.primaryText, .secondaryText, .accent, .background, .surface, .positive, .negative]
}

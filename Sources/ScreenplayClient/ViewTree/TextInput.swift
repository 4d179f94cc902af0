import Foundation
public import ScreenplayContract

/// The rules of a text field, applied on the device as the user types: the length limit and the
/// server's validation pattern with its message.
///
/// Every renderer and the navigator use these, so a field cuts and validates text the same way in
/// SwiftUI, on the web and in the terminal.
public enum TextInput {
    /// `text` cut to `maxLength` characters (grapheme clusters, what a person counts), and to the
    /// contract's storage limit in Unicode scalars.
    public static func limited(_ text: String, to maxLength: Int?) -> String {
        var result = text
        if let maxLength, result.count > maxLength { result = String(result.prefix(maxLength)) }
        let scalarLimit = ValueRules.StorageValues.valueMaximum
        if result.unicodeScalars.count > scalarLimit {
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: result.unicodeScalars.prefix(scalarLimit))
            result = String(scalars)
        }
        return result
    }

    /// What validating a text found.
    public enum Verdict: Sendable, Hashable {
        /// The text may be sent.
        case valid
        /// The text breaks the rule; show `message` under the field.
        case invalid(message: String)
        /// The field's pattern is not a regular expression this device can compile: the text is
        /// accepted (the server still checks) and the problem is logged.
        case unusablePattern(reason: String)
    }

    /// Checks `text` against the field's pattern, matched against the whole text. An empty text is
    /// checked like any other (the view tree shows the message only once something is typed, but
    /// keeps the submit action disabled).
    public static func validate(_ text: String, against validation: Component.TextField.Validation?) -> Verdict {
        guard let validation else { return .valid }
        let expression: NSRegularExpression
        do {
            expression = try NSRegularExpression(pattern: validation.pattern)
        } catch {
            return .unusablePattern(reason: "the pattern '\(validation.pattern.prefix(60))' does not compile")
        }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        // Anchored at both ends, whatever the pattern says: "matches" means the whole text.
        guard let match = expression.firstMatch(in: text, options: [.anchored], range: range), match.range == range else {
            return .invalid(message: validation.message)
        }
        return .valid
    }

    /// Why `text` cannot answer a prompt's `field` yet: blank where the field requires a text
    /// (its ``CommandResult/Prompt/Field/requiredMessage``, v6), or `nil`. A longer text is cut at
    /// the limit instead (``limited(_:to:)``), so length is never the reason.
    public static func problem(_ text: String, in field: CommandResult.Prompt.Field) -> String? {
        blank(text, required: field.requiredMessage)
    }

    /// `message` when a text is required (`message` is not `nil`) and `text` is blank (empty or
    /// whitespace only): the one rule for a prompt's field and a screen's text field (v6).
    public static func blank(_ text: String, required message: String?) -> String? {
        guard let message, text.allSatisfy(\.isWhitespace) else { return nil }
        return message
    }
}

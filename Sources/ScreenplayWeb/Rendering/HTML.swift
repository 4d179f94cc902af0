/// Escaping for text and attribute values: every string from a screen passes through here on
/// its way into HTML, so server data can never become markup or script.
public enum HTML {
    /// Escapes `& < > " '` for use in text and in double- or single-quoted attributes; control
    /// characters other than tab and line breaks (NUL, escape…), which HTML forbids and terminals
    /// obey, become U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(character)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": result += "\u{FFFD}"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}

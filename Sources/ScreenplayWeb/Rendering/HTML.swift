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

    /// A string made into an element id token: ASCII letters, digits and `-` stay, every other
    /// UTF-8 byte becomes `_` and two hex digits (`_` itself too, so two keys never share an id).
    /// The result needs no escaping and has no spaces, so it also works inside the space-separated
    /// lists of `aria-describedby`, which a merely escaped key (one with a space, `&` or `"`) breaks.
    public static func identifier(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "_"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

import Foundation
import ScreenplayContract
import ScreenplayWeb
import Testing

/// Shared helpers for the web tests.
enum Fixture {
    /// A form post body from name/value pairs, percent-encoding the values the way browsers do.
    static func body(_ pairs: [(String, String)]) -> [UInt8] {
        Array(pairs.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&").utf8)
    }

    /// `application/x-www-form-urlencoded` for one name or value: spaces become `+`.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }

    /// A screen of one section holding `components`.
    static func screen(_ components: [Component], title: String = "Screen") -> Screen {
        Screen(id: "test", title: title, sections: [ScreenSection(id: "main", components: components)])
    }

    /// The page for a screen of `components`, without its nodes' keys (see ``bare(_:)``).
    static func page(_ components: [Component], currentPath: String = "/screens/test") -> String {
        bare(HTMLRenderer().page(for: screen(components), currentPath: currentPath))
    }

    /// `html` without the `data-node` keys every node carries (tested on their own), so markup
    /// can be compared as written.
    static func bare(_ html: String) -> String {
        html.replacingOccurrences(of: #" data-node="[^"]*""#, with: "", options: .regularExpression)
    }

    /// How many times `needle` occurs in `text`.
    static func count(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }
}

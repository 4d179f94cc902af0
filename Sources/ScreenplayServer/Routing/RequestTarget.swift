import Foundation

/// A request path split into decoded segments and query values.
struct RequestTarget {
    let path: String
    let segments: [String]
    let query: [String: String]

    init(_ raw: String) {
        // Most requests have no query: then the path is the string itself, not a copy.
        let mark = raw.utf8.firstIndex(of: UInt8(ascii: "?"))
        path = mark.map { String(raw[..<$0]) } ?? raw
        segments = Self.segments(of: path)
        var query: [String: String] = [:]
        if let mark {
            for pair in raw[raw.index(after: mark)...].split(separator: "&") {
                let keyValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = Self.decodeQueryPart(keyValue[0])
                query[key] = keyValue.count == 2 ? Self.decodeQueryPart(keyValue[1]) : ""
            }
        }
        self.query = query
    }

    static func segments(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(decode)
    }

    /// Percent-decodes one segment; most have nothing to decode, and skip Foundation's decoder
    /// (the most expensive step of answering a cached screen before this shortcut).
    static func decode(_ part: Substring) -> String {
        guard part.utf8.contains(UInt8(ascii: "%")) else { return String(part) }
        return part.removingPercentEncoding ?? String(part)
    }

    /// Query values also spell spaces as `+` (HTML forms).
    static func decodeQueryPart(_ part: Substring) -> String {
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(part) }
        let plusAsSpace = part.replacingOccurrences(of: "+", with: " ")
        return plusAsSpace.removingPercentEncoding ?? plusAsSpace
    }
}

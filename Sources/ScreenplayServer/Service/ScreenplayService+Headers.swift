import Foundation
public import HTTPTypes
import ScreenplayContract

/// The headers the API reads and writes, and how a request's headers are read: the client's
/// token (bearer or cookie), the app-defined kinds it renders, its platform and its locale.
extension ScreenplayService {
    /// The header that hands a new client its token.
    public static let tokenHeader = HTTPField.Name("Screenplay-Token")!
    /// The header that explains a deprecated version (`Deprecation` goes with it).
    public static let deprecationNoticeHeader = HTTPField.Name("Screenplay-Deprecation")!
    /// RFC 9745's `Deprecation` header.
    public static let deprecationHeader = HTTPField.Name("Deprecation")!
    /// The request header in which a client lists the app-defined component kinds it renders.
    public static let componentsHeader = HTTPField.Name(AppDefinedKind.requestHeader)!
    /// The header in which a client names its platform (`ios`, `android`, `web`): page templates
    /// show widgets by platform.
    public static let platformHeader = HTTPField.Name("Screenplay-Platform")!
    /// The header a client sends so that a retried command runs once.
    public static let idempotencyKeyHeader = HTTPField.Name("Idempotency-Key")!
    /// The revision of the user's data: on a command's answer, the one its write produced; on a
    /// request, the highest the client has seen, so a replica answers nothing older
    /// (``RevisionWatermark``).
    public static let revisionHeader = HTTPField.Name("Screenplay-Revision")!
    /// The header on a replayed answer.
    public static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!
    /// `X-Content-Type-Options`: every answer says what it is, and browsers must not guess.
    public static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    /// The cookie browsers carry the token in.
    public static let tokenCookie = "screenplay_token"

    /// The client's token: `Authorization: Bearer …`, else the `screenplay_token` cookie.
    public static func token(in headers: HTTPFields) -> String? {
        if let authorization = headers.first(.authorization) {
            // `Bearer` in any case, then spaces, then the token: read on the UTF-8 bytes, since
            // this runs for every request an app sends.
            let bytes = authorization.utf8
            if bytes.count > 7, bytes.starts(with: "bearer ".utf8, by: { ($0 | 0x20) == $1 }) {
                return String(authorization.dropFirst(7).trimmingWhitespaceSubstring())
            }
        }
        return cookie(named: tokenCookie, in: headers)
    }

    /// The value of the first cookie called `name` in the request's `Cookie` headers, if any.
    public static func cookie(named name: String, in headers: HTTPFields) -> String? {
        for cookieHeader in headers[values: .cookie] {
            for pair in cookieHeader.split(separator: ";") {
                let trimmed = pair.trimmingWhitespaceSubstring()
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// The app-defined kinds a client lists in `Screenplay-Components`, limited to those the
    /// server knows (so made-up names cannot multiply cache entries).
    static func clientKinds(in headers: HTTPFields, known: [String: CustomComponentKind]) -> Set<String> {
        guard !known.isEmpty else { return [] }
        var kinds: Set<String> = []
        for value in headers[values: componentsHeader] {
            for name in value.split(separator: ",") {
                let trimmed = String(name.trimmingWhitespaceSubstring())
                if known[trimmed] != nil { kinds.insert(trimmed) }
            }
        }
        return kinds
    }

    /// The client's platform, lowercased, from ``platformHeader``; `unknown` when missing or not a name.
    static func platform(in headers: HTTPFields) -> Platform {
        guard let value = headers[platformHeader]?.lowercased(), (1...32).contains(value.utf8.count),
            value.utf8.allSatisfy({
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "-")
            })
        else { return Platform("unknown") }
        return Platform(value)
    }

    /// The first language tag of `Accept-Language` (`de-CH` from `de-CH, de;q=0.9`); `nil` for none or `*`.
    public static func locale(in headers: HTTPFields) -> String? {
        guard let value = headers[.acceptLanguage] else { return nil }
        let first = value.split(separator: ",").first.map { $0.split(separator: ";").first ?? $0 }.map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        guard let first, !first.isEmpty, first != "*", first.utf8.count <= 35,
            first.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        return first
    }
}

extension HTTPFields {
    /// The first value of `name`, as sent. `subscript(_:)` joins every value of a name into a new
    /// string; the fields read on every request (a token, a condition) come once.
    func first(_ name: HTTPField.Name) -> String? {
        for field in self where field.name == name { return field.value }
        return nil
    }
}

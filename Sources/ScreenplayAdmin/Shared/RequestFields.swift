import Foundation
import HTTPTypes
import ScreenplayWeb

/// What the admin reads from a request besides its path: the bearer token, cookies, query and
/// form fields. One parser for the API and the pages.
enum RequestFields {
    /// The token of `Authorization: Bearer …` (any case), trimmed.
    static func bearer(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// The value of cookie `name`.
    static func cookie(_ name: String, in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }

    /// An `application/x-www-form-urlencoded` body (at most 64 fields), decoded as the web
    /// pages decode theirs (``WebForm/fields(of:limit:)``).
    static func form(_ body: [UInt8]) -> [String: String] {
        WebForm.fields(of: body, limit: 64)
    }

    /// The query of a request path, decoded as a form.
    static func query(_ path: String) -> [String: String] {
        guard let mark = path.firstIndex(of: "?") else { return [:] }
        return form(Array(path[path.index(after: mark)...].utf8))
    }
}

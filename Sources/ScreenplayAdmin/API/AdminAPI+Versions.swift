import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer

/// ETags on what the API answers, `If-None-Match` on reads, and `If-Match` / `If-None-Match: *`
/// on writes, read into the store's ``ExpectedVersion``.
extension AdminAPI {
    /// What a write's headers expect: `If-Match: *` that it exists, `If-Match: "a", "b"` one of
    /// those versions, `If-None-Match: *` that it does not; neither, anything (`.any`).
    ///
    /// - Throws: A 400 naming the header for one that cannot be read (a tag without quotes),
    ///   rather than writing as if it had not been sent; a 412 for `If-Match` beside
    ///   `If-None-Match: *` (one of the two cannot hold).
    static func expectedVersion(_ headers: HTTPFields) throws -> ExpectedVersion {
        let ifMatch = headers[values: .ifMatch].joined(separator: ",").trimmingCharacters(in: .whitespaces)
        let noneMatch = headers[values: .ifNoneMatch].joined(separator: ",").trimmingCharacters(in: .whitespaces)
        if !ifMatch.isEmpty && noneMatch == "*" {
            // "Exists" and "does not exist" at once: one of the two fails whatever is stored.
            throw ScreenplayError(
                status: .preconditionFailed, code: "preconditionFailed",
                message: "If-Match and If-None-Match: * cannot both hold; nothing was written", path: "If-Match")
        }
        if noneMatch == "*" { return .absent }
        // Sent but empty is a list of no tags (RFC 9110's #entity-tag), which nothing matches: a
        // script's unset variable (`If-Match: $ETAG`) writes nothing instead of writing
        // unconditionally, which is what the header was sent to prevent.
        if headers[.ifMatch] != nil, ifMatch.isEmpty { return .oneOf([]) }
        guard !ifMatch.isEmpty else { return .any }
        if ifMatch == "*" { return .present }
        func malformed(_ near: Substring) -> ScreenplayError {
            ScreenplayError(
                status: .badRequest, code: "invalidPrecondition",
                message: "If-Match holds ETags in quotes, as an ETag header gave them (\"sp-…\"), or *; '\(near.prefix(60))' is neither",
                path: "If-Match")
        }
        // A list of entity tags (RFC 9110 §8.8.3): a comma inside quotes is part of its tag.
        var tags = Set<String>()
        var rest = Substring(ifMatch)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let start = rest
            // A weak tag never matches a strong comparison (RFC 9110 §13.1.1): it is kept, and fails.
            var tag = ""
            if rest.hasPrefix("W/") {
                tag = "W/"
                rest = rest.dropFirst(2)
            }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { throw malformed(start) }
            tag += rest[...close]
            guard tag.utf8.count <= 200 else { throw malformed(start) }
            tags.insert(tag)
            rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            guard rest.first == "," else { throw malformed(start) }
            rest = rest.dropFirst()
        }
        return .oneOf(tags)
    }

    /// A read that named a precondition only a write can have.
    static var preconditionOnRead: ScreenplayError {
        ScreenplayError(
            status: .badRequest, code: "preconditionOnRead",
            message: "If-Match and If-None-Match: * belong on writes; a read takes If-None-Match with ETags", path: "If-Match")
    }

    /// A successful read with an ETag, as a `304` when the request's `If-None-Match` names it;
    /// anything else as it is.
    static func revalidated(_ response: ScreenplayService.Response, request: HTTPRequest) -> ScreenplayService.Response {
        guard request.method == .get || request.method == .head, response.head.status == .ok, let etag = response.head.headerFields[.eTag],
            let header = request.headerFields[.ifNoneMatch], ETag.matches(ifNoneMatch: header, etag: etag)
        else { return response }
        var head = HTTPResponse(status: .notModified)
        head.headerFields[.eTag] = etag
        head.headerFields[.cacheControl] = "no-store"
        return ScreenplayService.Response(head: head, body: [])
    }

    /// `value` as JSON with `etag` as its version; without one, a strong ETag of the bytes
    /// themselves (every answer carries one).
    static func json(_ value: some Encodable, etag: String?) throws -> ScreenplayService.Response {
        var response = try json(value)
        if let etag { response.head.headerFields[.eTag] = etag }
        return response
    }

    /// JSON bytes as they are (a stored definition), with their version.
    static func json(bytes: [UInt8], etag: String) -> ScreenplayService.Response {
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[ScreenplayService.contentTypeOptions] = "nosniff"
        head.headerFields[.eTag] = etag
        return ScreenplayService.Response(head: head, body: bytes)
    }

    /// `412 preconditionFailed`: the service's JSON error, saying what changed, plus what a client
    /// needs to look again: the current `etag` (absent: it is gone), `changedBy`, `changedAt`
    /// and `changes` (in words, since the version the request named, when the store still knows it).
    static func response(for stale: StaleWrite) -> ScreenplayService.Response {
        var response = ScreenplayService.errorResponse(LayoutError.stale(stale).answer)
        var extra: [String: JSONValue] = [:]
        if let version = stale.currentVersion { extra["etag"] = .string(version) }
        if let by = stale.changedBy { extra["changedBy"] = .string(by) }
        if let at = stale.changedAt { extra["changedAt"] = .string(at) }
        if let changes = stale.changes { extra["changes"] = .string(changes) }
        if var object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)) {
            object.merge(extra) { _, new in new }
            response.body = (try? Array(ScreenplayEncoder().encode(JSONValue.object(object)))) ?? response.body
        }
        if let version = stale.currentVersion { response.head.headerFields[.eTag] = version }
        return response
    }
}

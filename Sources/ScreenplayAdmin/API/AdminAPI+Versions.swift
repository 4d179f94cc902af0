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
    /// - Throws: A 400 naming the header for one that cannot be read (a tag without quotes, both
    ///   headers at once), rather than writing as if it had not been sent.
    static func expectedVersion(_ headers: HTTPFields) throws -> ExpectedVersion {
        let ifMatch = headers[values: .ifMatch].joined(separator: ",").trimmingCharacters(in: .whitespaces)
        let noneMatch = headers[values: .ifNoneMatch].joined(separator: ",").trimmingCharacters(in: .whitespaces)
        if !ifMatch.isEmpty && noneMatch == "*" {
            throw ScreenplayError(
                status: .badRequest, code: "invalidPrecondition", message: "send If-Match or If-None-Match: *, not both", path: "If-Match")
        }
        if noneMatch == "*" { return .absent }
        guard !ifMatch.isEmpty else { return .any }
        if ifMatch == "*" { return .present }
        var tags = Set<String>()
        for part in ifMatch.split(separator: ",") {
            let tag = part.trimmingCharacters(in: .whitespaces)
            // A weak tag never matches a strong comparison (RFC 9110 §13.1.1): it is kept, and fails.
            let bare = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            guard bare.count >= 2, bare.hasPrefix("\""), bare.hasSuffix("\""), tag.utf8.count <= 200 else {
                throw ScreenplayError(
                    status: .badRequest, code: "invalidPrecondition",
                    message: "If-Match holds ETags in quotes, as an ETag header gave them (\"sp-…\"), or *; '\(tag.prefix(60))' is neither",
                    path: "If-Match")
            }
            tags.insert(tag)
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

import Foundation
import HTTPTypes
import ScreenplayContract

/// Offline sync, `POST {prefix}/v{N}/sync`: an app that keeps screens on disk sends the ETags it
/// holds and gets back only what changed, with the bodies, so a re-sync after a small change
/// costs a small answer rather than everything again.
///
/// The request: `{"screens": [{"path": "home", "etag": "\"sp-…\""}, {"path": "playlist/3"}]}`,
/// each path one the event stream would watch (under `screens/`, with an optional query). The
/// answer, in order of the request:
///
/// ```json
/// {"changed": [{"path": "home", "etag": "\"sp-…\"", "screen": {…}}],
///  "unchanged": 41, "gone": ["playlist/9"],
///  "failed": [{"path": "shop", "error": {"code": "…", "message": "…"}}],
///  "more": ["library", …]}
/// ```
///
/// `screen` is the body a `GET` would answer this client now (its version, identity, platform,
/// locale and kinds). `gone` screens no longer exist (drop the copy); `failed` ones could not be
/// built now (keep the copy). An answer stops before ``SyncLimits/answerBytes``: what it did not
/// look at is listed in `more`, for the next request: pages with no state on the server.
extension ScreenplayService {
    /// What bounds a sync.
    public struct SyncLimits: Sendable, Hashable {
        /// Screens one request may name; more is a `400`.
        public var screensPerRequest: Int
        /// Bytes of screen bodies one answer carries before it pages (the first body is always
        /// sent, so a screen larger than this still syncs, alone).
        public var answerBytes: Int

        /// The defaults: 200 screens a request, 1 MiB of bodies an answer.
        public init(screensPerRequest: Int = 200, answerBytes: Int = 1 << 20) {
            self.screensPerRequest = screensPerRequest
            self.answerBytes = answerBytes
        }
    }

    /// One screen of a sync request, read and checked.
    struct SyncEntry {
        let entry: String
        let screen: WatchedScreen
        let etag: String?
    }

    /// Answers a sync request.
    func sync(_ request: HTTPRequest, at endpoint: APIEndpoint, body: [UInt8]) async throws(ScreenplayError) -> Response {
        let entries = try Self.syncEntries(body, contentType: request.headerFields[.contentType], limits: configuration.sync)
        let user = try await identity(of: request, creating: false, doing: "syncing").user
        let headers = request.headerFields
        let clientKinds = Self.clientKinds(in: headers, known: screens.routes.customKinds.merging(pages?.customKinds ?? [:]) { a, _ in a })
        let platform = Self.platform(in: headers)
        let locale = Self.locale(in: headers)

        var changed: [UInt8] = []
        var gone: [String] = []
        var failed: [UInt8] = []
        var more: [String] = []
        var unchanged = 0
        var bodyBytes = 0
        for (index, entry) in entries.enumerated() {
            let encoded: EncodedBody
            do {
                encoded = try await screens.encoded(
                    path: entry.screen.path, query: entry.screen.query, apiVersion: endpoint.version, clientKinds: clientKinds, user: user,
                    platform: platform, locale: locale
                ).body
            } catch where error.status == .notFound {
                gone.append(entry.entry)
                continue
            } catch {
                if !failed.isEmpty { failed.append(UInt8(ascii: ",")) }
                failed += Array(#"{"path":\#(Self.jsonString(entry.entry)),"error":"#.utf8)
                failed += (try? ScreenplayEncoder().encode(error.body.error)).map(Array.init) ?? Array("{}".utf8)
                failed.append(UInt8(ascii: "}"))
                continue
            }
            if encoded.etag == entry.etag {
                unchanged += 1
                continue
            }
            if bodyBytes > 0, bodyBytes + encoded.bytes.count > configuration.sync.answerBytes {
                more = entries[index...].map(\.entry)
                break
            }
            bodyBytes += encoded.bytes.count
            if !changed.isEmpty { changed.append(UInt8(ascii: ",")) }
            changed += Array(#"{"path":\#(Self.jsonString(entry.entry)),"etag":\#(Self.jsonString(encoded.etag)),"screen":"#.utf8)
            changed += encoded.bytes
            changed.append(UInt8(ascii: "}"))
        }
        var answer = Array(#"{"changed":["#.utf8) + changed + Array(#"],"unchanged":\#(unchanged),"gone":"#.utf8)
        answer += Array(Self.jsonArray(gone).utf8) + Array(#","failed":["#.utf8) + failed + Array(#"],"more":"#.utf8)
        answer += Array(Self.jsonArray(more).utf8) + [UInt8(ascii: "}")]

        var head = Self.jsonHead(cacheControl: "no-store")
        head.headerFields[.vary] = "Accept-Encoding"
        versions.addDeprecation(to: &head, version: endpoint.version)
        if answer.count >= Gzip.minimumSize, ContentCoding.acceptsGzip(headers[.acceptEncoding]), let compressed = Gzip.compress(answer) {
            head.headerFields[.contentEncoding] = "gzip"
            return Response(head: head, body: compressed)
        }
        return Response(head: head, body: answer)
    }

    /// Who sent `request` (its token, or a new identity when `creating`), every failure as the
    /// service's own error: a refused token as it is, the store unreachable as a 503, anything
    /// else a 500 saying what could not be checked ("who is `doing`").
    func identity(of request: HTTPRequest, creating: Bool, doing: String) async throws(ScreenplayError) -> ResolvedIdentity {
        do {
            return try await screens.identity.resolve(token: Self.token(in: request.headerFields), creating: creating)
        } catch let error as ScreenplayError {
            throw error
        } catch let error as any ScreenplayErrorConvertible {
            throw error.screenplayError
        } catch {
            throw .internalError("the server could not check who is \(doing)")
        }
    }

    /// Reads a sync request's body: declared `application/json` (else `415`) and JSON (else
    /// `400` with the line and column, read by ``JSONRequestBody`` as commands are), an object
    /// with `screens`, an array of at most ``SyncLimits/screensPerRequest`` objects, each with a
    /// `path` (a screen path: no empty, `.` or `..` segment, no backslash, no control character,
    /// at most 2 048 bytes, named once) and an optional `etag` string. Every refusal names its
    /// JSON path.
    static func syncEntries(_ body: [UInt8], contentType: String?, limits: SyncLimits) throws(ScreenplayError) -> [SyncEntry] {
        let root = try JSONRequestBody.parse(body, contentType: contentType)
        guard case .object(let members) = root else {
            throw .malformedJSON("the body must be an object with 'screens', found \(root.typeName)")
        }
        guard let list = members["screens"]?.arrayValue else { throw .invalidField("screens", "must be an array of {path, etag}") }
        guard list.count <= limits.screensPerRequest else {
            throw .invalidField("screens", "names \(list.count) screens; one sync names at most \(limits.screensPerRequest)")
        }
        var entries: [SyncEntry] = []
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let at = "screens[\(index)]"
            guard let item = element.objectValue else { throw .invalidField(at, "must be an object with 'path'") }
            guard let path = item["path"]?.stringValue else { throw .invalidField(at + ".path", "must be a string") }
            if let problem = problem(withPath: path) { throw .invalidField(at + ".path", problem) }
            if let first = seen[path] { throw .invalidField(at + ".path", "repeats $.screens[\(first)].path") }
            seen[path] = index
            let etag: String?
            switch item["etag"] {
            case nil, .null?: etag = nil
            case .string(let value)? where value.utf8.count <= 256: etag = value
            default: throw .invalidField(at + ".etag", "must be the ETag string the screen was served with (at most 256 bytes)")
            }
            entries.append(SyncEntry(entry: path, screen: WatchedScreen(entry: path), etag: etag))
        }
        return entries
    }

    /// Why `path` is not a screen path a sync may name, or `nil`.
    static func problem(withPath path: String) -> String? {
        guard !path.isEmpty else { return "is empty" }
        let length = path.unicodeScalars.count
        guard length <= 2_048 else { return "is \(length) characters long; the limit is 2048" }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }) else {
            return "contains a control character or a backslash"
        }
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !route.hasPrefix("/"), !route.contains("://") else { return "must be a path under screens/, such as 'home' or 'playlist/3'" }
        for segment in route.split(separator: "/", omittingEmptySubsequences: false) {
            if segment.isEmpty || segment == "." || segment == ".." { return "has an empty, '.' or '..' segment" }
            // Read on the raw text, not decoded: a `%` starts an escape, and no escape spells a
            // dot or a slash (neither needs one), so what is checked is what is looked up.
            let bytes = Array(segment.utf8)
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = Self.hexValue(bytes[index + 1]), let low = Self.hexValue(bytes[index + 2]) else {
                    return "has a '%' that starts no escape (%XX)"
                }
                if high == 2 && (low == 0xE || low == 0xF) { return "encodes '.' or '/' (%2E, %2F): write them as they are" }
            }
        }
        return nil
    }

    /// The value of a hexadecimal digit's byte, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func jsonString(_ text: String) -> String {
        (try? EventData.encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    static func jsonArray(_ texts: [String]) -> String { "[" + texts.map(jsonString).joined(separator: ",") + "]" }
}

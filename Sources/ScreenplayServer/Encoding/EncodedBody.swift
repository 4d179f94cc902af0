import Synchronization
import ScreenplayContract

/// Bytes and their ETag, ready to send, with their gzip form made once beside them.
public struct EncodedBody: Sendable, Hashable {
    /// The encoded bytes (JSON, or a page's HTML).
    public let bytes: [UInt8]
    /// A strong entity tag derived from the bytes (quoted, as sent in `ETag`).
    public let etag: String
    /// The bytes gzipped, for clients that accept it; `nil` when short (under
    /// ``Gzip/minimumSize``) or when gzip would not make them smaller.
    public let gzipped: [UInt8]?

    /// Wraps bytes, computes their ETag and (for bodies worth it) their gzip form: compressed
    /// here, once, so that serving it from a cache costs nothing per request.
    public init(bytes: [UInt8], compressing: Bool = true) {
        self.bytes = bytes
        self.etag = ETag.strong(for: bytes)
        self.gzipped = compressing && bytes.count >= Gzip.minimumSize ? Gzip.compress(bytes) : nil
    }

    /// The gzip form's entity tag: another representation needs another strong tag (RFC 9110
    /// §8.8.3), so it is the identity tag with `-gz` inside the quotes.
    public var gzippedETag: String { ETag.gzipVariant(of: etag) }

    /// What the body holds in memory, both forms, as allocated (an array's capacity, not only
    /// what it uses): what caches count against their budget.
    public var storedSize: Int { bytes.capacity + (gzipped?.capacity ?? 0) }

    /// The form to send for a request's `Accept-Encoding`: bytes, tag, and whether it is gzip.
    public func representation(acceptEncoding: String?) -> (bytes: [UInt8], etag: String, gzip: Bool) {
        if let gzipped, ContentCoding.acceptsGzip(acceptEncoding) { return (gzipped, gzippedETag, true) }
        return (bytes, etag, false)
    }

    /// Whether an `If-None-Match` value names this body in either form: the content is the same,
    /// so a client that switched encodings still gets its 304.
    public func matches(ifNoneMatch header: String) -> Bool {
        ETag.matches(ifNoneMatch: header, etag: etag, orGzipVariant: true)
    }
}

/// Entity tags for encoded bodies.
public enum ETag {
    /// `"sp-<16 hex digits>"`: FNV-1a 64 over the bytes, mixed with the length.
    ///
    /// Deterministic across processes and replicas (unlike `Hasher`), so every server hands out
    /// the same tag for the same bytes and a client's `If-None-Match` is honored anywhere; the
    /// contract's ``EntityTag``, which clients check patched screens against.
    public static func strong(for bytes: [UInt8]) -> String { EntityTag.strong(for: bytes) }

    /// The tag of the gzip form of the body tagged `etag` (`"sp-…"` → `"sp-…-gz"`).
    public static func gzipVariant(of etag: String) -> String {
        etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gz\"" : etag + "-gz"
    }

    /// Whether an `If-None-Match` header value matches `etag` (weak comparison, `*` matches all).
    public static func matches(ifNoneMatch header: String, etag: String) -> Bool {
        matches(ifNoneMatch: header, etag: etag, orGzipVariant: false)
    }

    /// ``matches(ifNoneMatch:etag:)``, also accepting `etag`'s gzip variant (``gzipVariant(of:)``)
    /// when asked. On the UTF-8 bytes, allocating nothing: every revalidation runs it.
    static func matches(ifNoneMatch header: String, etag: String, orGzipVariant: Bool) -> Bool {
        let tag = etag.utf8
        let quoted = tag.last == UInt8(ascii: "\"")
        let header = Array(header.utf8)
        var start = 0
        while start <= header.count {
            var end = start
            while end < header.count, header[end] != UInt8(ascii: ",") { end += 1 }
            var low = start
            var high = end
            while low < high, header[low] == UInt8(ascii: " ") || header[low] == UInt8(ascii: "\t") { low += 1 }
            while high > low, header[high - 1] == UInt8(ascii: " ") || header[high - 1] == UInt8(ascii: "\t") { high -= 1 }
            let candidate = header[low..<high]
            if candidate.elementsEqual("*".utf8) { return true }
            let bare = candidate.starts(with: "W/".utf8) ? candidate.dropFirst(2) : candidate
            if bare.elementsEqual(tag) { return true }
            // The gzip variant: the tag with `-gz` before its closing quote.
            if orGzipVariant, quoted, bare.count == tag.count + 3,
                bare.prefix(tag.count - 1).elementsEqual(tag.dropLast()),
                bare.suffix(4).elementsEqual("-gz\"".utf8)
            {
                return true
            }
            start = end + 1
        }
        return false
    }
}

extension Substring {
    func trimmingWhitespaceSubstring() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}

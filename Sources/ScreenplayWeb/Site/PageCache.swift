import ScreenplayServer

/// Rendered HTML pages by (page path, screen): a page whose screen has not changed is neither
/// rebuilt, re-decoded nor re-rendered, and a browser revalidating it gets a 304, as an app does
/// for the screen's JSON. Bounded by bytes, one render per miss (``ByteBudgetCache``).
///
/// The screen's ETag already names everything the page shows (the user's data included), so two
/// users whose screens are byte-identical share one rendered page.
typealias PageCache = ByteBudgetCache<PageCacheKey, EncodedBody>

/// The path, the screen's ETag, and a keyed hash of the screen's bytes: the ETag (FNV) is not
/// collision resistant, and a page is shared across users, so the key also carries a SipHash with
/// this process's random seed, which nobody can aim a crafted screen at.
struct PageCacheKey: Hashable, Sendable {
    let path: String
    /// The origin the page's share links name.
    let origin: String?
    let screenETag: String
    let screenDigest: Int

    init(path: String, origin: String?, screen: EncodedBody) {
        self.path = path
        self.origin = origin
        self.screenETag = screen.etag
        var hasher = Hasher()
        hasher.combine(screen.bytes.count)
        screen.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        self.screenDigest = hasher.finalize()
    }
}

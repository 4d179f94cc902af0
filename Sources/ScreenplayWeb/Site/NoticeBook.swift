/// The banners the site itself issued ("Added “Night Music” to favorites", or why a form was
/// refused), by a random id the redirect carries (`?notice=3f9c…`): a page shows a banner only
/// for an id found here, so nobody can put their own words in the site's banner with a link.
///
/// Read once, and only by the browser it was issued to (by a digest of its session token): the
/// page the redirect lands on takes the notice out, so Back or a reload never shows it again, and
/// a URL that leaks (history, a shared link) shows nobody else what it said.
struct NoticeBook: Sendable {
    private struct Kept: Sendable {
        let notice: WebNotice
        let owner: Int
    }

    private let book = IssuedBook<Kept>(capacity: 1_024)

    /// Keeps `notice` (its message cut to 500 characters) for the browser holding `token`; returns its id.
    func issue(_ notice: WebNotice, token: String?) -> String {
        var kept = notice
        kept.message = String(notice.message.prefix(500))
        return book.issue(Kept(notice: kept, owner: SessionDigest.of(token)))
    }

    /// The notice issued under `id` to the browser holding `token`, taken out: a second read
    /// finds nothing. Another browser's read finds nothing and leaves it.
    func take(_ id: String, token: String?) -> WebNotice? {
        guard book.value(id)?.owner == SessionDigest.of(token) else { return nil }
        return book.take(id)?.notice
    }
}

/// A digest of a browser's session token, kept beside what the site issued to it instead of the
/// token itself (SipHash with this process's random seed).
enum SessionDigest {
    static func of(_ token: String?) -> Int {
        var hasher = Hasher()
        hasher.combine(token ?? "")
        return hasher.finalize()
    }
}

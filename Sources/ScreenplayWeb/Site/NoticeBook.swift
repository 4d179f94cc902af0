/// The banners the site itself issued ("Added “Night Music” to favorites", or why a form was
/// refused), by a random id the redirect carries (`?notice=3f9c…`): a page shows a banner only
/// for an id found here, so nobody can put their own words in the site's banner with a link.
///
/// Read once: the page the redirect lands on takes the notice out, so Back or a reload to that URL
/// never shows it again.
struct NoticeBook: Sendable {
    private let book = IssuedBook<WebNotice>(capacity: 1_024)

    /// Keeps `notice` (its message cut to 500 characters) and returns its id.
    func issue(_ notice: WebNotice) -> String {
        var kept = notice
        kept.message = String(notice.message.prefix(500))
        return book.issue(kept)
    }

    /// The notice issued under `id`, taken out: a second read finds nothing.
    func take(_ id: String) -> WebNotice? { book.take(id) }
}

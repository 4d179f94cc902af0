import Foundation
import SQLKit
import ScreenplayComposer

/// Versions of drafts and live pages, and the checks that refuse a write made to an older one.
///
/// A draft's version names the newest row of its route's ``DraftHistory`` (`"sp-draft-41"`):
/// every change to the draft writes one in its own transaction, so the version moves with every
/// change and the rows after a version are what changed since. A live page's version names its
/// revision (`"sp-live-7"`): a revision never changes once published.
extension LayoutStore {
    /// The ETag of the draft whose newest history row is `id`.
    public static func draftVersion(id: Int64) -> String { "\"sp-draft-\(id)\"" }

    /// The ETag of revision `revision` of a page.
    public static func liveVersion(revision: Int) -> String { "\"sp-live-\(revision)\"" }

    /// The draft of `route` as `database` has it now, with its version.
    static func draft(route: String, on database: any SQLDatabase) async throws -> Draft? {
        guard let row = try await database.select().columns("*").from("screenplay_page_drafts").where("route", .equal, route).first()
        else { return nil }
        return try Draft(row: row, historyID: try await DraftHistory.newestID(route: route, on: database))
    }

    /// Throws ``LayoutError/stale(_:)`` unless `draft` (nil: none) meets `version`, saying what
    /// changed since the version named, as far as the history still knows.
    static func expect(_ version: ExpectedVersion, draft: Draft?, route: String, on database: any SQLDatabase) async throws {
        guard !version.isMet(by: draft?.version) else { return }
        var stale = StaleWrite(
            subject: "the draft of '\(route)'", currentVersion: draft?.version, changedBy: draft?.updatedBy, changedAt: draft?.updatedAt)
        if version == .absent { stale.changes = "there is a draft already: started since you looked" }
        if let named = version.namedVersion, let id = draftHistoryID(named) {
            let rows = try await DraftHistory.rows(after: id, route: route, limit: 11, on: database)
            if !rows.isEmpty {
                var words = rows.prefix(10).map { "\($0.actor): \($0.label)" }
                if rows.count > 10 { words.append("and more") }
                // Against the draft they read, when the history still has it.
                if let read = try await DraftHistory.row(id, route: route, on: database), !read.after.isEmpty,
                    let before = try? decodeTemplate(read.after), let now = draft?.template
                {
                    words.append("in all: " + TemplateDiff(from: before, to: now).summary())
                }
                stale.changes = words.joined(separator: "; ")
                if draft == nil, let last = rows.last { (stale.changedBy, stale.changedAt) = (last.actor, last.at) }
            }
        }
        throw LayoutError.stale(stale)
    }

    /// Throws ``LayoutError/stale(_:)`` unless `live` (nil: never published) meets `version`,
    /// saying which revisions came since the one named and what they changed.
    static func expect(_ version: ExpectedVersion, live: PublishedRevision?, route: String, on database: any SQLDatabase) async throws {
        guard !version.isMet(by: live.map { liveVersion(revision: $0.revision) }) else { return }
        var stale = StaleWrite(
            subject: "the live page '\(route)'", currentVersion: live.map { liveVersion(revision: $0.revision) }, changedBy: live?.publishedBy,
            changedAt: live?.publishedAt)
        if let named = version.namedVersion, let read = liveRevisionNumber(named), let live, read < live.revision {
            let since = try await database.select().columns("*").from("screenplay_page_revisions").where("route", .equal, route)
                .where("revision", .equal, read).first().map(PublishedRevision.init(row:))
            var words = ["revision \(live.revision) is live now, not \(read)"]
            if let since { words.append(TemplateDiff(from: since.template, to: live.template).summary()) }
            stale.changes = words.joined(separator: ": ")
        }
        throw LayoutError.stale(stale)
    }

    /// The history id a draft ETag names (`"sp-draft-41"` → 41).
    static func draftHistoryID(_ etag: String) -> Int64? {
        guard etag.hasPrefix("\"sp-draft-"), etag.hasSuffix("\"") else { return nil }
        return Int64(etag.dropFirst("\"sp-draft-".count).dropLast())
    }

    /// The revision a live ETag names (`"sp-live-7"` → 7).
    static func liveRevisionNumber(_ etag: String) -> Int? {
        guard etag.hasPrefix("\"sp-live-"), etag.hasSuffix("\"") else { return nil }
        return Int(etag.dropFirst("\"sp-live-".count).dropLast())
    }
}

extension PublishedRevision {
    /// The revision's version as a strong ETag (`"sp-live-7"`): a revision never changes once
    /// published, so its number is its version.
    public var version: String { LayoutStore.liveVersion(revision: revision) }
}

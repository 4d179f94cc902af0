import Foundation
import SQLKit
public import ScreenplayComposer

/// A template as published: one revision of one route.
/// Encodable: the admin API sends it as it is, member for member.
public struct PublishedRevision: Sendable, Hashable, Encodable {
    /// The template, its `revision` set.
    public var template: PageTemplate
    /// The revision number, from 1.
    public var revision: Int
    /// Who published it.
    public var publishedBy: String
    /// When (ISO 8601, UTC).
    public var publishedAt: String
    /// Why (for rollbacks and switches, what was done).
    public var note: String

    init(template: PageTemplate, revision: Int, publishedBy: String, publishedAt: String, note: String) {
        self.template = template
        self.revision = revision
        self.publishedBy = publishedBy
        self.publishedAt = publishedAt
        self.note = note
    }

    init(row: any SQLRow) throws {
        let summary = try RevisionSummary(row: row)
        var template = try LayoutStore.decodeTemplate(try row.decode(column: "template", as: String.self))
        template.revision = summary.revision
        self.init(
            template: template, revision: summary.revision, publishedBy: summary.publishedBy, publishedAt: summary.publishedAt,
            note: summary.note)
    }
}

/// One line of a page's history.
/// Encodable: the admin API sends it as it is, member for member.
public struct RevisionSummary: Sendable, Hashable, Encodable {
    /// The revision number.
    public var revision: Int
    /// Who published it.
    public var publishedBy: String
    /// When (ISO 8601, UTC).
    public var publishedAt: String
    /// Why.
    public var note: String

    init(row: any SQLRow) throws {
        revision = try row.decode(column: "revision", as: Int.self)
        publishedBy = try row.decode(column: "published_by", as: String.self)
        publishedAt = try row.decode(column: "published_at", as: String.self)
        note = try row.decode(column: "note", as: String.self)
    }
}

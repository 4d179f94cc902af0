import Foundation
import SQLKit
import ScreenplayStore

/// Which audit rows to read: by page, person and action, with words somewhere in the row, a page
/// at a time (newest first), for an audit log of years that still opens at once.
public struct AuditQuery: Sendable, Hashable {
    /// Only rows about this page (or experiment key).
    public var subject: String?
    /// Only this person's rows.
    public var actor: String?
    /// Only rows of this action (`publish`, `save draft`, …).
    public var action: String?
    /// Words that must all appear in the row's subject, action, actor or detail (any case).
    public var text: String
    /// Rows older than this row id: the next page after a page ending with it.
    public var before: Int64?
    /// Rows per page (1...500).
    public var limit: Int

    /// A query; empty filters match everything.
    public init(subject: String? = nil, actor: String? = nil, action: String? = nil, text: String = "", before: Int64? = nil, limit: Int = 50) {
        self.subject = subject.flatMap { $0.isEmpty ? nil : $0 }
        self.actor = actor.flatMap { $0.isEmpty ? nil : $0 }
        self.action = action.flatMap { $0.isEmpty ? nil : $0 }
        self.text = text
        self.before = before
        self.limit = min(500, max(1, limit))
    }

    /// The words searched for: at most eight, each at most 100 characters. Both sides go through
    /// the database's `LOWER` (ASCII in SQLite): a word matches in any case of A–Z, and letters
    /// beyond ASCII as typed.
    var words: [String] {
        text.split(whereSeparator: \.isWhitespace).prefix(8).map { String($0.prefix(100)) }
    }

    /// `word` as a LIKE pattern matching it anywhere, its `%`, `_` and `!` taken literally (escaped with `!`).
    static func pattern(_ word: String) -> String {
        "%" + word.replacingOccurrences(of: "!", with: "!!").replacingOccurrences(of: "%", with: "!%").replacingOccurrences(of: "_", with: "!_") + "%"
    }
}

/// A page of the audit log and where the next one starts.
public struct AuditPage: Sendable, Hashable {
    /// The rows, newest first.
    public let entries: [AuditEntry]
    /// The `before` of the next (older) page, or `nil` when this one is the last.
    public let next: Int64?
}

/// What the audit log's filters offer: the pages, people and actions it holds.
public struct AuditFacets: Sendable, Hashable {
    /// Every subject, sorted.
    public let subjects: [String]
    /// Every actor, sorted.
    public let actors: [String]
    /// Every action, sorted.
    public let actions: [String]
}

extension LayoutStore {
    /// The rows `query` selects, newest first, a page at a time.
    public func auditLog(_ query: AuditQuery) async throws -> AuditPage {
        try await store.read { database in
            var select = database.select().columns("*").from("screenplay_layout_audit")
            if let subject = query.subject { select = select.where("subject", .equal, subject) }
            if let actor = query.actor { select = select.where("actor", .equal, actor) }
            if let action = query.action { select = select.where("action", .equal, action) }
            if let before = query.before { select = select.where("id", .lessThan, before) }
            for word in query.words {
                let pattern = AuditQuery.pattern(word)
                select = select.where(
                    SQLQueryString(
                        "(LOWER(subject) LIKE LOWER(\(bind: pattern)) ESCAPE '!' OR LOWER(action) LIKE LOWER(\(bind: pattern)) ESCAPE '!' OR LOWER(actor) LIKE LOWER(\(bind: pattern)) ESCAPE '!' OR LOWER(detail) LIKE LOWER(\(bind: pattern)) ESCAPE '!')"
                    ))
            }
            // One more than a page: whether an older page exists, without counting them all.
            let rows = try await select.orderBy("id", .descending).limit(query.limit + 1).all().map(AuditEntry.init(row:))
            let page = Array(rows.prefix(query.limit))
            return AuditPage(entries: page, next: rows.count > query.limit ? page.last?.id : nil)
        }
    }

    /// The subjects, actors and actions the audit log holds, for its filters.
    public func auditFacets() async throws -> AuditFacets {
        try await store.read { database in
            func distinct(_ column: String) async throws -> [String] {
                try await database.select().distinct().column(column).from("screenplay_layout_audit").orderBy(column).all()
                    .map { try $0.decode(column: column, as: String.self) }
            }
            return AuditFacets(subjects: try await distinct("subject"), actors: try await distinct("actor"), actions: try await distinct("action"))
        }
    }
}

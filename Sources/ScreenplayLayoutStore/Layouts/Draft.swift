import Foundation
import SQLKit
public import ScreenplayComposer

/// The work in progress on one page.
public struct Draft: Sendable, Hashable {
    /// The template as last saved.
    public var template: PageTemplate
    /// The live revision when the draft was started (0: none was live).
    public var basedOn: Int
    /// Who saved it last.
    public var updatedBy: String
    /// When (ISO 8601, UTC).
    public var updatedAt: String
    /// Its version, as a strong ETag (quotes included): changes with every change to the draft
    /// (a save, an undo, a kill switch flipping one of its widgets), so a writer naming it
    /// (``ExpectedVersion``) is refused once anyone changed the draft since they read it.
    public var version: String

    init(template: PageTemplate, basedOn: Int, updatedBy: String, updatedAt: String, version: String) {
        self.template = template
        self.basedOn = basedOn
        self.updatedBy = updatedBy
        self.updatedAt = updatedAt
        self.version = version
    }

    init(row: any SQLRow, historyID: Int64) throws {
        template = try LayoutStore.decodeTemplate(try row.decode(column: "template", as: String.self))
        basedOn = try row.decode(column: "based_on", as: Int.self)
        updatedBy = try row.decode(column: "updated_by", as: String.self)
        updatedAt = try row.decode(column: "updated_at", as: String.self)
        version = LayoutStore.draftVersion(id: historyID)
    }
}

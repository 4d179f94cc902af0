import Foundation
import SQLKit
import ScreenplayComposer
import ScreenplayServer
import ScreenplayStore

/// One editor's change to a draft, as their Undo and Redo buttons name it.
public struct DraftStep: Sendable, Hashable {
    /// Its row in the draft history: what an Undo form names, so it takes back what it showed.
    public let id: Int64
    /// What was done, in words naming the widget (`Moved deal-buy down`), written when it was
    /// done from the action itself, never guessed afterwards from the draft.
    public let label: String
    /// When (ISO 8601, UTC).
    public let at: String
}

/// What one editor can take back, and do again, on one page.
public struct EditorSteps: Sendable, Hashable {
    /// Their newest change still in effect: what Undo takes back.
    public var undo: DraftStep?
    /// The change they undid last: what Redo does again.
    public var redo: DraftStep?
    /// How many of their changes Undo can take back, one after the other.
    public var undoCount: Int
    /// How many Redo can do again.
    public var redoCount: Int

    /// Nothing to undo or redo.
    public static let none = EditorSteps(undo: nil, redo: nil, undoCount: 0, redoCount: 0)
}

/// Undo and redo, each editor's own: ``saveDraft(_:by:replacing:expecting:step:)`` with a
/// `step` records the change as its editor's; undo takes back their newest, redo does again the
/// one they undid last, up to ``DraftHistory/keptSteps`` steps each. Taking a step back or
/// forward changes only what that step changed (``DraftMerge``), so other people's changes made
/// meanwhile stay; when someone has since changed what the step changed, it is refused in words.
extension LayoutStore {
    /// `actor`'s undo and redo on `route`.
    public func steps(of route: String, by actor: String) async throws -> EditorSteps {
        try await store.read { database in
            let undo = try await DraftHistory.edge(.done, route: route, actor: actor, on: database)
            let redo = try await DraftHistory.edge(.undone, newest: false, route: route, actor: actor, on: database)
            return EditorSteps(
                undo: undo.map { DraftStep(id: $0.id, label: $0.label, at: $0.at) }, redo: redo.map { DraftStep(id: $0.id, label: $0.label, at: $0.at) },
                undoCount: try await DraftHistory.count(.done, route: route, actor: actor, on: database),
                redoCount: try await DraftHistory.count(.undone, route: route, actor: actor, on: database))
        }
    }

    /// `actor`'s step `id` on `route` (whatever stack it is on): what a notice after an undo or
    /// a redo names. `nil` for another editor's step, or one no longer kept.
    public func step(_ id: Int64, route: String, actor: String) async throws -> DraftStep? {
        try await store.read { database in
            guard let row = try await DraftHistory.row(id, route: route, on: database), row.actor == actor else { return nil }
            return DraftStep(id: row.id, label: row.label, at: row.at)
        }
    }

    /// Takes back `actor`'s newest change to `route`'s draft, leaving everyone else's.
    ///
    /// - Parameter expected: The step the editor's page showed on its Undo button; when their
    ///   newest step is another by now (they changed something in another tab), nothing is undone.
    /// - Returns: The step taken back.
    /// - Throws: ``LayoutError/stepRefused(route:reason:)`` when there is nothing to undo, the
    ///   step is not the one expected, or someone has since changed what it changed.
    @discardableResult
    public func undo(route: String, by actor: String, step expected: Int64? = nil) async throws(LayoutError) -> DraftStep {
        try await move(route: route, by: actor, expected: expected, undoing: true)
    }

    /// Does again the change `actor` undid last on `route` (see ``undo(route:by:step:)``).
    @discardableResult
    public func redo(route: String, by actor: String, step expected: Int64? = nil) async throws(LayoutError) -> DraftStep {
        try await move(route: route, by: actor, expected: expected, undoing: false)
    }

    private func move(route: String, by actor: String, expected: Int64?, undoing: Bool) async throws(LayoutError) -> DraftStep {
        let verb = undoing ? "undo" : "redo"
        let done = try await guarded {
            try await store.transaction { [self] database in
                try await database.serializeTransactions(on: Self.lockKey(route))
                guard
                    let step = undoing
                        ? try await DraftHistory.edge(.done, route: route, actor: actor, on: database)
                        : try await DraftHistory.edge(.undone, newest: false, route: route, actor: actor, on: database)
                else {
                    throw LayoutError.stepRefused(route: route, reason: "You have nothing to \(verb) on '\(route)': nothing was changed.")
                }
                if let expected, expected != step.id {
                    throw LayoutError.stepRefused(
                        route: route,
                        reason: "Your newest change to \(verb) on '\(route)' is “\(step.label)” now, not the one this page showed "
                            + "(changed in another tab?). Nothing was changed: look, then press \(undoing ? "Undo" : "Redo") again.")
                }
                let draft = try await Self.draft(route: route, on: database)
                let live = try await Self.newest(route: route, on: database)
                guard let current = draft?.template ?? live?.template, !step.before.isEmpty, !step.after.isEmpty else {
                    throw LayoutError.stepRefused(route: route, reason: "“\(step.label)” cannot be \(verb)ne: the page it changed is gone.")
                }
                let (from, to) = try undoing
                    ? (Self.decodeTemplate(step.after), Self.decodeTemplate(step.before))
                    : (Self.decodeTemplate(step.before), Self.decodeTemplate(step.after))
                let result: PageTemplate
                switch DraftMerge.apply(from: from, to: to, onto: current) {
                case .success(let merged): result = merged
                case .failure(let conflict):
                    let others = try await DraftHistory.rows(after: step.id, route: route, limit: 200, on: database).filter { $0.actor != actor }
                    let who = others.last.map { " (last by \($0.actor): “\($0.label)”)" } ?? ""
                    throw LayoutError.stepRefused(
                        route: route,
                        reason: "Not \(undoing ? "undone" : "redone"): “\(step.label)” — \(conflict) changed since\(who). "
                            + "\(undoing ? "Undoing" : "Redoing") it would take that change back too; nothing was changed. Change it by hand instead.")
                }
                let json = try checked(result, validates: false)
                let now = ISO8601.now()
                // Back to exactly the live page: no draft at all, as before the first change.
                let dropsDraft = live.map { Self.sameLayout($0.template, result) } ?? false
                try await database.delete(from: "screenplay_page_drafts").where("route", .equal, route).run()
                if !dropsDraft {
                    try await database.insert(into: "screenplay_page_drafts").columns("route", "template", "based_on", "updated_by", "updated_at")
                        .values(SQLBind(route), SQLBind(json), SQLBind(draft?.basedOn ?? live?.revision ?? 0), SQLBind(actor), SQLBind(now)).run()
                }
                let changes = TemplateDiff(from: current, to: result).summary()
                try await Self.audit(
                    actor: actor, action: "\(verb) draft", subject: route, revision: nil,
                    detail: "\(undoing ? "undid" : "redid") “\(step.label)”\(dropsDraft ? ", back to the live page" : "") — \(changes)", on: database)
                try await DraftHistory.set(undoing ? .undone : .done, id: step.id, on: database)
                try await DraftHistory.record(
                    route: route, actor: actor, label: "\(undoing ? "Undid" : "Redid"): \(step.label)", before: try Self.encodeTemplate(current),
                    after: dropsDraft ? "" : json, state: .fixed, on: database)
                try await self.bus?.announce(.draftChanged(route: route), in: database)
                return DraftStep(id: step.id, label: step.label, at: step.at)
            }
        }
        return done
    }

    /// Whether two templates lay out the same page (their revision numbers aside).
    static func sameLayout(_ a: PageTemplate, _ b: PageTemplate) -> Bool {
        a.title == b.title && a.sections == b.sections
    }
}

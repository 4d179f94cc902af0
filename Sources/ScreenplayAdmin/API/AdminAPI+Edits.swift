import Foundation
import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer

/// `POST pages/{route}/draft/edits`: changes to the draft as data (``DraftEdit``), the same
/// changes the editor's forms make, so a script can move one widget without sending back the
/// whole page it read.
extension AdminAPI {
    /// The body: `{"edits": [{"op": "nudge", "id": "deal-buy", "by": -1}, …]}`.
    struct EditsBody: Decodable {
        let edits: [DraftEdit]
    }

    /// The most edits one request applies: enough for any editor session, few enough that a
    /// refusal's `edits[i]` is quick to find.
    static let maximumEdits = 200

    /// Applies the edits, in order, to the draft (or the live page when there is no draft) and
    /// saves the result as one step named by the edits (`Moved deal-buy up; Removed promo`).
    ///
    /// All or nothing: an edit that names what the page does not have is a 422 naming it
    /// (`edits[2]: $`) and nothing is saved. Without `If-Match`, an edit list made against the page
    /// as it is applies to the page as it is now, like the editor's buttons: when someone saves in
    /// between, the edits are applied again to their version. With `If-Match`, only to that draft.
    func applyEdits(route: String, body: [UInt8], admin: String, expected: ExpectedVersion, path: String) async throws -> ScreenplayService.Response {
        let request: EditsBody = try Self.decode(body)
        guard !request.edits.isEmpty, request.edits.count <= Self.maximumEdits else {
            throw ScreenplayError.invalidField("edits", "send between 1 and \(Self.maximumEdits) edits, not \(request.edits.count)")
        }
        for attempt in 1... {
            var found = try await layouts.draft(of: route)?.template
            if found == nil { found = try await layouts.published(route: route)?.template }
            guard let current = found else { throw ScreenplayError.notFound("no page '\(route)'", path: path) }
            let outcome: DraftEdit.Outcome
            do {
                outcome = try DraftEdit.applied(request.edits, to: current)
            } catch {
                throw LayoutError.invalid([TemplateProblem(path: error.path, message: error.message)])
            }
            let world = try await WorldCheck.problems(in: outcome.template, pages: pages, experiments: experiments)
            let errors = world.filter { !$0.isWarning }
            if !errors.isEmpty { throw LayoutError.invalid(errors) }
            do {
                let draft = try await layouts.saveDraft(outcome.template, by: admin, replacing: current, expecting: expected, step: outcome.label)
                let warnings = layouts.problems(in: outcome.template).filter(\.isWarning) + world.filter(\.isWarning)
                return try Self.json(
                    DraftListing(draft, warnings: warnings.map { ProblemListing(path: $0.path, message: $0.message, warning: true) }),
                    etag: draft.version)
            } catch {
                // Someone saved between the read and the write: apply the edits to theirs.
                guard case .draftChanged? = error as? LayoutError, expected == .any, attempt < 20 else { throw error }
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...20)))
            }
        }
        preconditionFailure("unreachable")
    }
}

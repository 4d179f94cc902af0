import HTTPTypes
import ScreenplayComposer
import ScreenplayLayoutStore
import ScreenplayServer

extension LayoutError {
    /// The one mapping of the layout store's refusals to an HTTP status, code and message, for
    /// both of the admin's presenters: the JSON API sends it as the service's error body (with
    /// the problems of an invalid template, and what changed for a stale write, beside it), the
    /// HTML pages show its message under its status.
    var answer: ScreenplayError {
        switch self {
        case .invalid(let problems):
            ScreenplayError(
                status: .unprocessableContent, code: "invalidTemplate",
                message: "\(problems.count) problem(s): " + problems.prefix(3).map(\.description).joined(separator: "; "),
                path: problems.first?.path)
        case .noDraft, .noSuchRevision, .notPublished, .noSuchWidget: .notFound(description)
        case .conflict: ScreenplayError(status: .conflict, code: "conflict", message: description)
        case .draftChanged: ScreenplayError(status: .conflict, code: "draftChanged", message: description)
        case .experimentInUse: ScreenplayError(status: .conflict, code: "experimentInUse", message: description)
        case .stale(let stale): ScreenplayError(status: .preconditionFailed, code: "preconditionFailed", message: stale.description, path: "If-Match")
        case .stepRefused: ScreenplayError(status: .conflict, code: "stepRefused", message: description)
        case .store: .internalError(description)
        case .unavailable: unavailableError ?? .internalError(description)
        }
    }
}

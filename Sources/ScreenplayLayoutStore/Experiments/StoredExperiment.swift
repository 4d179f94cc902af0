import Foundation
import SQLKit
public import ScreenplayComposer
import ScreenplayServer

/// An experiment as the store keeps it: what a form or an API client reads before changing it.
public struct StoredExperiment: Sendable, Hashable {
    /// The definition.
    public var experiment: Experiment
    /// The definition as stored: canonical JSON (sorted keys), what the admin API answers as is.
    public var json: String
    /// Who saved it last.
    public var updatedBy: String
    /// When (ISO 8601, UTC).
    public var updatedAt: String

    /// Its version, a strong ETag of ``json``: any change to the definition changes it, and two
    /// replicas give the same one for the same definition.
    public var version: String { ExperimentStore.version(of: json) }
}

extension ExperimentStore {
    /// The version of a stored definition: a strong ETag of its JSON.
    public static func version(of json: String) -> String { ETag.strong(for: Array(json.utf8)) }

    /// Throws ``LayoutError/stale(_:)`` unless `current` (nil: none) meets `version`. What
    /// changed is worked out from the audit log, which keeps every definition an experiment had
    /// (`— was {…}`): when the version read is one of them, the change from it to now, in words.
    static func expect(_ version: ExpectedVersion, current: StoredExperiment?, key: String, on database: any SQLDatabase) async throws {
        guard !version.isMet(by: current?.version) else { return }
        var stale = StaleWrite(
            subject: "experiment '\(key)'", currentVersion: current?.version, changedBy: current?.updatedBy, changedAt: current?.updatedAt)
        if version == .absent { stale.changes = "it exists already: made or changed since you looked" }
        if let named = version.namedVersion {
            let rows = try await database.select().columns("actor", "at", "detail").from("screenplay_layout_audit")
                .where("subject", .equal, "experiment:\(key)").orderBy("id", .descending).limit(50).all()
            var readDefinition: Experiment?
            for row in rows {
                let detail = try row.decode(column: "detail", as: String.self)
                guard let json = Self.definition(in: detail), Self.version(of: json) == named else { continue }
                readDefinition = try? Self.decode(json)
                break
            }
            if let readDefinition {
                stale.changes = ExperimentChange(from: readDefinition, to: current?.experiment).summary()
            } else if current == nil, let last = rows.first {
                (stale.changedBy, stale.changedAt) = (try last.decode(column: "actor", as: String.self), try last.decode(column: "at", as: String.self))
            }
        }
        throw LayoutError.stale(stale)
    }

    /// The definition an audit row keeps after its summary (`… — was {…}` or `… — {…}`).
    static func definition(in detail: String) -> String? {
        guard let mark = detail.range(of: " — was {") ?? detail.range(of: " — {") else { return nil }
        let json = detail[mark.lowerBound...].drop { $0 != "{" }
        return String(json)
    }
}

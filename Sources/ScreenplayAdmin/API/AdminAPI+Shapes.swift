import Foundation
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer

/// The JSON the admin API answers and reads, member for member.
extension AdminAPI {
    // MARK: Wire shapes

    struct DraftListing: Encodable {
        let basedOn: Int
        let updatedBy: String
        let updatedAt: String
        let template: PageTemplate
        let warnings: [ProblemListing]
        /// The draft's version: what `If-Match` names to change this draft and no other.
        let etag: String
        init(_ draft: Draft, warnings: [ProblemListing]) {
            basedOn = draft.basedOn
            updatedBy = draft.updatedBy
            updatedAt = draft.updatedAt
            template = draft.template
            self.warnings = warnings
            etag = draft.version
        }
    }

    struct PageDetail: Encodable {
        let route: String
        let live: PublishedRevision?
        /// The live revision's version, for `If-Match` on a rollback or a kill switch.
        let liveEtag: String?
        let draft: DraftListing?
        let history: [RevisionSummary]
        let latestComposition: CompositionListing?
    }

    struct CompositionListing: Encodable {
        struct Widget: Encodable {
            let id: String
            let kind: String
            let vertical: String
            let outcome: String
            let shown: Bool
            let latencyMilliseconds: Double?
            let bytes: Int
        }
        let templateRevision: Int
        let apiVersion: Int
        let bytes: Int
        let milliseconds: Double
        let overBudget: [String]
        let heaviest: [String]
        let widgets: [Widget]
        init(_ page: ComposedPage) {
            templateRevision = page.templateRevision
            apiVersion = page.apiVersion.rawValue
            bytes = page.bytes.count
            milliseconds = Self.milliseconds(page.duration)
            overBudget = page.overruns.map(\.description)
            heaviest = page.heaviestWidgets().map(\.instanceID)
            widgets = page.widgets.map { report in
                Widget(
                    id: report.instanceID, kind: report.kind, vertical: report.vertical, outcome: report.outcome.description,
                    shown: report.outcome.isShown,
                    latencyMilliseconds: report.providerLatency.map(Self.milliseconds), bytes: report.bytes)
            }
        }
        /// To the hundredth of a millisecond.
        static func milliseconds(_ duration: Duration) -> Double { (duration.milliseconds * 100).rounded() / 100 }
    }

    struct PreviewListing: Encodable {
        let screen: JSONValue
        let composition: CompositionListing
    }

    struct ReportListing: Encodable {
        let experiment: String
        let exposures: [String: Int]
        let total: Int
    }

    struct ProblemListing: Encodable {
        let path: String
        let message: String
        let warning: Bool
    }

    struct PublishBody: Decodable {
        var expectedLive: Int?
        var note: String?
    }

    struct RollbackBody: Decodable {
        let revision: Int
        let expectedLive: Int?
    }

    struct EnabledBody: Decodable {
        let enabled: Bool
    }

    struct PreviewBody: Decodable {
        var source: String?
        var platform: String?
        var apiVersion: Int?
        var userID: String?
        var locale: String?
        var segments: [String]?
        var variants: [String: String]?
        var kinds: [String]?
    }

    /// `POST tokens/revoke`'s body: a token, or an admin with the ids of their tokens (or all).
    struct RevokeBody: Decodable {
        /// The token to revoke as its holder sends it: an admin API token or an app user's.
        var token: String?
        /// Whose admin API tokens to revoke by id.
        var admin: String?
        /// Their ids, as `GET tokens` lists them.
        var ids: [String]?
        /// Every token of `admin`.
        var all: Bool?
    }

    /// What a revocation of admin tokens did.
    struct RevokedListing: Encodable {
        let revoked: Bool
        /// The admin API tokens revoked, by id (never the tokens).
        let tokens: [AdminDirectory.APIToken]
    }
}

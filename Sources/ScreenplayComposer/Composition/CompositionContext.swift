public import Foundation
public import ScreenplayContract
public import ScreenplayServer

/// Everything about one request that decides which widgets a page shows and how it is encoded:
/// who asks, from which app, in which language, when.
///
/// A value, filled in once per request by the HTTP layer (or by the admin's preview, which can
/// pretend to be any user and force experiment variants), then read by condition evaluation and
/// handed to every provider. Nothing in it reads a clock or a store by itself: `now` is a field,
/// so the same context always composes the same page.
public struct CompositionContext: Sendable {
    /// The page's route (`shop`, `shop/deals`).
    public var route: String
    /// The user's stable id; `nil` for an anonymous reader, who takes part in no experiment.
    public var userID: String?
    /// The client's platform.
    public var platform: Platform
    /// The client's API version: what the page is encoded for.
    public var apiVersion: APIVersion
    /// App-defined component kinds the client renders (its `Screenplay-Components` header); widget
    /// kinds missing here get their fallback.
    public var clientKinds: Set<String>
    /// The client's locale (`de-CH`), when it sent one.
    public var locale: String?
    /// The segments the user belongs to (`beta`, `premium`), as the identity layer knows them.
    public var segments: Set<String>
    /// The instant the request is composed at: windows and experiments are judged against it.
    public var now: Date
    /// The experiments in force.
    public var experiments: ExperimentCatalog
    /// Variants to use instead of the bucketing, by experiment key: for the admin's preview and
    /// for QA ("show me the treatment"). An override counts as an exposure like a bucketed variant,
    /// so previews should use a user id that reports ignore.
    public var variantOverrides: [String: String]

    /// Creates a context.
    public init(
        route: String, userID: String?, platform: Platform, apiVersion: APIVersion, clientKinds: Set<String> = [],
        locale: String? = nil, segments: Set<String> = [], now: Date = Date(), experiments: ExperimentCatalog = .init(),
        variantOverrides: [String: String] = [:]
    ) {
        self.route = route
        self.userID = userID
        self.platform = platform
        self.apiVersion = apiVersion
        self.clientKinds = clientKinds
        self.locale = locale
        self.segments = segments
        self.now = now
        self.experiments = experiments
        self.variantOverrides = variantOverrides
    }

    /// The user's variant of experiment `key`: an override when one is set, else the bucketing of
    /// ``Experiment/variant(for:segments:at:)``; `nil` when the experiment is unknown, not running,
    /// or the user is outside its target segment or anonymous.
    public func variant(for key: String) -> String? {
        if let forced = variantOverrides[key] { return forced }
        return experiments[key]?.variant(for: userID, segments: segments, at: now)
    }
}

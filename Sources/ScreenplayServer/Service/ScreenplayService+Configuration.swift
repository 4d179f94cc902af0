public import Foundation
public import ScreenplayContract

extension ScreenplayService {
    /// Limits and names.
    public struct Configuration: Sendable {
        /// Where the API is mounted (`/api`).
        public var pathPrefix: String
        /// The API versions served; requests for others get a 400 naming this range.
        public var supportedVersions: ClosedRange<APIVersion>
        /// The largest command body accepted; larger ones get a 413 stating it.
        public var maximumBodySize: Int
        /// The most bytes of encoded screens kept in memory. Older bytes are evicted least
        /// recently used first; one screen larger than an eighth of this is served, never kept.
        public var cacheByteBudget: Int
        /// The most bytes remembered about answered revalidations (``RevalidationMemory``).
        public var revalidationByteBudget: Int
        /// Commands per identity: `burst` at once, then `perSecond`.
        public var commandRate: (perSecond: Double, burst: Double)
        /// New identities (first commands from clients without a token), for the whole process.
        public var identityCreationRate: (perSecond: Double, burst: Double)
        /// New identities from one client address (when the adapter passes it).
        public var identityCreationPerAddress: (perSecond: Double, burst: Double)
        /// Versions still served but on their way out, with the date they were deprecated: their
        /// responses carry RFC 9745's `Deprecation: @<unix time>` (plus a readable
        /// `Screenplay-Deprecation`) so app teams see it in their logs before the version is dropped.
        public var deprecatedVersions: [APIVersion: Date]
        /// Whether every freshly encoded screen is decoded back, strictly, as a client of its
        /// version would, before it is cached and sent. A screen that a client would refuse (a
        /// forbidden link scheme, a bad color, an out-of-range size) then fails loudly here, with
        /// its JSON path in the log, instead of silently losing a component on every device.
        /// Costs one decode per cache miss, none per cache hit.
        public var verifiesEncodedScreens: Bool
        /// What bounds the screen event streams (``EventStreamLimits``).
        public var eventStreams: EventStreamLimits
        /// What bounds an offline sync (``SyncLimits``).
        public var sync: SyncLimits

        /// The defaults: `/api`, every version the contract knows, none deprecated, 64 KiB
        /// bodies, 64 MiB of cached screens, 4 MiB of remembered revalidations, verification on,
        /// the event streams' and the sync's default limits.
        public init(
            pathPrefix: String = "/api", supportedVersions: ClosedRange<APIVersion> = APIVersion.supported,
            deprecatedVersions: [APIVersion: Date] = [:], maximumBodySize: Int = 64 * 1024, cacheByteBudget: Int = 64 << 20,
            verifiesEncodedScreens: Bool = true, commandRate: (perSecond: Double, burst: Double) = (10, 60),
            identityCreationRate: (perSecond: Double, burst: Double) = (20, 200),
            identityCreationPerAddress: (perSecond: Double, burst: Double) = (1, 20), revalidationByteBudget: Int = 4 << 20,
            eventStreams: EventStreamLimits = .init(), sync: SyncLimits = .init()
        ) {
            self.eventStreams = eventStreams
            self.sync = sync
            self.revalidationByteBudget = revalidationByteBudget
            self.identityCreationPerAddress = identityCreationPerAddress
            self.commandRate = commandRate
            self.identityCreationRate = identityCreationRate
            self.pathPrefix = pathPrefix
            self.supportedVersions = supportedVersions
            self.deprecatedVersions = deprecatedVersions
            self.maximumBodySize = maximumBodySize
            self.cacheByteBudget = cacheByteBudget
            self.verifiesEncodedScreens = verifiesEncodedScreens
        }
    }
}

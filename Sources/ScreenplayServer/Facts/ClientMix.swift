public import Foundation
public import HTTPTypes
public import ScreenplayContract
import Synchronization

/// Who asks for screens: this server's screen requests counted by API version, platform and
/// language, per UTC day, over the last ``days`` days.
///
/// What the layout admin offers when a widget is aimed at app versions ("v6, 81 % of requests in
/// the last 7 days"): targeting from facts, not free text. Counts are this process's (a restart
/// starts again, each replica counts its own) and cover every screen request the service answers,
/// those answered from memory before routing included. Platforms and languages are what clients
/// send, so each day keeps at most ``distinctLimit`` of each and counts the rest as `other`: a
/// client making up names cannot grow it.
public final class ClientMix: Sendable {
    /// The counts of one span of days.
    public struct Counts: Sendable, Hashable {
        /// Requests counted.
        public var total = 0
        /// By API version number.
        public var versions: [Int: Int] = [:]
        /// By platform (`ios`, `android`, `web`, `unknown`, `other`).
        public var platforms: [String: Int] = [:]
        /// By language (`de` from `de-CH`), `none` for requests naming none.
        public var languages: [String: Int] = [:]

        /// The share of requests made at `version` (0...1), or `nil` when nothing was counted.
        public func share(of version: APIVersion) -> Double? {
            total == 0 ? nil : Double(versions[version.rawValue] ?? 0) / Double(total)
        }

        /// The share of requests at `version` or later (what a "from version N" condition reaches).
        public func share(from version: APIVersion) -> Double? {
            total == 0 ? nil : Double(versions.filter { $0.key >= version.rawValue }.values.reduce(0, +)) / Double(total)
        }

        mutating func add(_ other: Counts) {
            total += other.total
            versions.merge(other.versions, uniquingKeysWith: +)
            platforms.merge(other.platforms, uniquingKeysWith: +)
            languages.merge(other.languages, uniquingKeysWith: +)
        }
    }

    /// How many days are kept (7).
    public let days: Int
    /// The most platform or language names one day keeps; the rest count as `other`.
    public static let distinctLimit = 32

    private let byDay = Mutex<[Int: Counts]>([:])

    /// A mix kept for `days` days.
    public init(days: Int = 7) {
        self.days = max(1, days)
    }

    /// Counts one request.
    public func record(version: APIVersion, platform: Platform, locale: String?, now: Date = Date()) {
        let day = Self.day(of: now)
        let language = locale.flatMap { $0.split(separator: "-").first.map { $0.lowercased() } } ?? "none"
        byDay.withLock { counts in
            // In place: a copy of the day's counts taken out and put back would copy its tables on
            // every request (this runs on the event loop for answers from memory).
            counts[day, default: Counts()].total += 1
            counts[day, default: Counts()].versions[version.rawValue, default: 0] += 1
            Self.count(platform.rawValue, in: &counts[day, default: Counts()].platforms)
            Self.count(language, in: &counts[day, default: Counts()].languages)
            if counts.count > days { counts = counts.filter { $0.key > day - days } }
        }
    }

    /// Counts a request from what it says: `/api/v5/screens/…` at version 5 (a path outside
    /// `apiPrefix`, a web page, at the newest version as the web), the platform from its header
    /// (`web` for a web page without one), the language from `Accept-Language`.
    public func record(_ request: HTTPRequest, apiPrefix: String, now: Date = Date()) {
        let path = request.path ?? "/"
        let prefix = apiPrefix.hasSuffix("/") ? apiPrefix : apiPrefix + "/"
        var version = APIVersion.latest
        var api = false
        if path.hasPrefix(prefix + "v") {
            let digits = path.dropFirst(prefix.count + 1).prefix { $0.isASCII && $0.isNumber }
            if let number = Int(digits), (1...999).contains(number) {
                version = APIVersion(number)
                api = true
            }
        }
        var platform = ScreenplayService.platform(in: request.headerFields)
        if !api, platform.rawValue == "unknown" { platform = .web }
        record(version: version, platform: platform, locale: ScreenplayService.locale(in: request.headerFields), now: now)
    }

    /// The counts of the last ``days`` days up to `now`.
    public func counts(now: Date = Date()) -> Counts {
        let today = Self.day(of: now)
        return byDay.withLock { counts in
            counts.filter { $0.key > today - days && $0.key <= today }.values.reduce(into: Counts()) { $0.add($1) }
        }
    }

    private static func count(_ name: String, in table: inout [String: Int]) {
        if table[name] != nil || table.count < distinctLimit {
            table[name, default: 0] += 1
        } else {
            table["other", default: 0] += 1
        }
    }

    /// Days since 1970, in UTC.
    static func day(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }
}

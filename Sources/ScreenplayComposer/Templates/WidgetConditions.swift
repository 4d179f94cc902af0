public import Foundation
public import ScreenplayContract
public import ScreenplayServer

/// When a widget instance is shown: every condition that is set must hold; an unset one holds
/// for everyone. Together with the instance's on/off switch, this is what the layout admin edits.
///
/// Evaluation (``evaluate(in:)``) is a pure function of the conditions and the request's
/// ``CompositionContext``: no clock, no store, no randomness, so a preview in the admin shows
/// exactly what a user with the same context gets.
public struct WidgetConditions: Codable, Sendable, Hashable {
    /// Platforms that see the widget; `nil` means all.
    public var platforms: Set<Platform>?
    /// API versions that see the widget, inclusive; `nil` means all.
    public var apiVersions: APIVersionRange?
    /// Locale prefixes that see the widget: `de` matches `de`, `de-CH` and `de_AT`; `de-CH`
    /// matches only Swiss German. `nil` means every locale.
    public var locales: [String]?
    /// User segments that see the widget (any one is enough); `nil` means everyone.
    public var segments: Set<String>?
    /// The experiment variants that see the widget; `nil` means everyone, in or out of experiments.
    public var experiment: ExperimentCondition?
    /// When the widget is shown; `nil` means always.
    public var window: DateWindow?

    /// No conditions: shown to everyone, always.
    public static let always = WidgetConditions()

    /// Creates conditions; unset ones hold for everyone.
    public init(
        platforms: Set<Platform>? = nil, apiVersions: APIVersionRange? = nil, locales: [String]? = nil, segments: Set<String>? = nil,
        experiment: ExperimentCondition? = nil, window: DateWindow? = nil
    ) {
        self.platforms = platforms
        self.apiVersions = apiVersions
        self.locales = locales
        self.segments = segments
        self.experiment = experiment
        self.window = window
    }

    /// Whether the conditions hold in `context`, the first that does not, and the experiment
    /// variant they consulted.
    ///
    /// Conditions are checked in a fixed order, the experiment last: a user counts as exposed to
    /// an experiment only when it alone decides what they see, never when the widget was out of
    /// reach anyway (another platform, another locale).
    public func evaluate(in context: CompositionContext) -> ConditionVerdict {
        if let platforms, !platforms.contains(context.platform) { return .init(mismatch: .platform(context.platform)) }
        if let apiVersions, !apiVersions.contains(context.apiVersion) { return .init(mismatch: .apiVersion(context.apiVersion)) }
        if let locales, !locales.contains(where: { Self.locale(context.locale, matches: $0) }) {
            return .init(mismatch: .locale(context.locale))
        }
        if let segments, segments.isDisjoint(with: context.segments) { return .init(mismatch: .segment) }
        if let window {
            if let start = window.start, context.now < start { return .init(mismatch: .notYetStarted(start)) }
            if let end = window.end, context.now >= end { return .init(mismatch: .ended(end)) }
        }
        guard let experiment else { return .init(mismatch: nil) }
        guard let variant = context.variant(for: experiment.key) else {
            return .init(mismatch: .experiment(key: experiment.key, variant: nil))
        }
        let exposure = ExposedVariant(experiment: experiment.key, variant: variant)
        let mismatch: ConditionMismatch? = experiment.variants.contains(variant) ? nil : .experiment(key: experiment.key, variant: variant)
        return .init(mismatch: mismatch, exposure: exposure)
    }

    /// Whether the request's locale falls under `prefix`: equal, or `prefix` followed by a
    /// region or script subtag. Case and `_`/`-` do not matter (`de_CH` is `de-ch`).
    public static func locale(_ locale: String?, matches prefix: String) -> Bool {
        guard let locale else { return false }
        let have = normalized(locale)
        let want = normalized(prefix)
        return !want.isEmpty && (have == want || have.hasPrefix(want + "-"))
    }

    static func normalized(_ locale: String) -> String {
        locale.lowercased().replacingOccurrences(of: "_", with: "-")
    }

    /// The platforms this build's clients name.
    static let knownPlatforms: Set<Platform> = [.iOS, .android, .web]

    /// Whether `name` could be a client's platform: 1 to 32 of `a-z`, `0-9` and `-`.
    static func isPlatformName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// What makes the conditions unsatisfiable or ill-formed, with paths under `path`: an empty
    /// list (nobody would see the widget; remove the condition or switch the widget off), a
    /// version range whose minimum exceeds its maximum, a window that ends before it starts, a
    /// locale that is not a language tag, an experiment unknown to `experiments` (when given) or
    /// a variant it does not have.
    public func problems(at path: String, experiments: ExperimentCatalog?) -> [TemplateProblem] {
        var problems: [TemplateProblem] = []
        func empty(_ member: String) {
            problems.append(
                .init(path: "\(path).\(member)", message: "an empty list matches nobody; remove the condition or switch the widget off"))
        }
        if platforms?.isEmpty == true { empty("platforms") }
        // Platforms are open (a new one is a new value), so one this build does not name is a
        // warning, not an error: most often it is a typo that hides the widget everywhere.
        for platform in (platforms ?? []).sorted() where !Self.knownPlatforms.contains(platform) {
            // What a client could send as its platform: a lowercase word. Anything else (a space,
            // markup, a paragraph) can only be a slip, and would hide the widget everywhere.
            guard Self.isPlatformName(platform.rawValue) else {
                problems.append(
                    .init(
                        path: "\(path).platforms",
                        message: "'\(platform.rawValue.prefix(40))' is not a platform name: 1 to 32 of a-z, 0-9 and -"))
                continue
            }
            problems.append(
                .init(
                    path: "\(path).platforms",
                    message: "'\(platform.rawValue.prefix(40))' is no platform this server knows (android, ios, web): no such client will see it",
                    isWarning: true))
        }
        if segments?.isEmpty == true { empty("segments") }
        for segment in (segments ?? []).sorted() where segment.count > Experiment.maximumSegmentLength {
            problems.append(
                .init(
                    path: "\(path).segments",
                    message: "a segment name of \(segment.count) characters; at most \(Experiment.maximumSegmentLength)"))
        }
        if let locales {
            if locales.isEmpty { empty("locales") }
            for (index, locale) in locales.enumerated() where !Self.isLanguageTag(locale) {
                problems.append(
                    .init(
                        path: "\(path).locales[\(index)]", message: "'\(locale.prefix(40))' is not a language tag such as 'de' or 'de-CH'"))
            }
        }
        // A version no client sends would hide the widget from everyone (or, as a maximum, from
        // no one): targeting names the released versions only.
        for (bound, value) in [("minimum", apiVersions?.minimum), ("maximum", apiVersions?.maximum)] {
            guard let value, !APIVersion.supported.contains(value) else { continue }
            problems.append(
                .init(
                    path: "\(path).apiVersions.\(bound)",
                    message: "no client sends \(value): the released versions are \(APIVersion.supported.lowerBound) to \(APIVersion.supported.upperBound)"))
        }
        if let range = apiVersions, let minimum = range.minimum, let maximum = range.maximum, minimum > maximum {
            problems.append(
                .init(path: "\(path).apiVersions", message: "minimum \(minimum) is above maximum \(maximum): no client matches"))
        }
        if let window, let start = window.start, let end = window.end, end <= start {
            problems.append(.init(path: "\(path).window", message: "the window ends (\(end.formatted(.iso8601))) before or when it starts (\(start.formatted(.iso8601)))"))
        }
        if let experiment {
            if experiment.variants.isEmpty {
                problems.append(.init(path: "\(path).experiment.variants", message: "name at least one variant"))
            }
            if let experiments {
                if let known = experiments[experiment.key] {
                    let names = Set(known.variants.map(\.name))
                    for variant in experiment.variants.sorted() where !names.contains(variant) {
                        problems.append(
                            .init(
                                path: "\(path).experiment.variants",
                                message:
                                    "experiment '\(experiment.key)' has no variant '\(variant)' (it has \(names.sorted().joined(separator: ", ")))"
                            ))
                    }
                } else {
                    problems.append(.init(path: "\(path).experiment.key", message: "no experiment '\(experiment.key.prefix(64))'"))
                }
            }
        }
        return problems
    }

    enum CodingKeys: String, CodingKey { case platforms, apiVersions, locales, segments, experiment, window }

    /// Writes the set conditions; sets sorted, so a stored template's JSON is the same for the
    /// same conditions (revisions diff cleanly).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(platforms?.sorted(), forKey: .platforms)
        try container.encodeIfPresent(apiVersions, forKey: .apiVersions)
        try container.encodeIfPresent(locales, forKey: .locales)
        try container.encodeIfPresent(segments?.sorted(), forKey: .segments)
        try container.encodeIfPresent(experiment, forKey: .experiment)
        try container.encodeIfPresent(window, forKey: .window)
    }

    /// A BCP 47-like tag: letters and digits in parts of 1 to 8, separated by `-` or `_`, the first
    /// of 2 or 3 letters.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}

/// The result of evaluating a widget's conditions: the first one that failed, if any, and the
/// experiment variant consulted on the way (an exposure, whether or not the widget shows).
public struct ConditionVerdict: Sendable, Hashable {
    /// The first condition that does not hold; `nil` when the widget shows.
    public let mismatch: ConditionMismatch?
    /// The experiment and variant that decided, when an experiment condition was reached.
    public let exposure: ExposedVariant?

    /// Creates a verdict.
    public init(mismatch: ConditionMismatch?, exposure: ExposedVariant? = nil) {
        self.mismatch = mismatch
        self.exposure = exposure
    }

    /// Whether every condition holds.
    public var isMet: Bool { mismatch == nil }
}

/// An experiment and the variant a user was found in.
public struct ExposedVariant: Sendable, Hashable {
    /// The experiment's key.
    public let experiment: String
    /// The user's variant.
    public let variant: String

    /// Creates the pair.
    public init(experiment: String, variant: String) {
        self.experiment = experiment
        self.variant = variant
    }
}

/// Which condition kept a widget off the page, for the per-widget report and the admin's "why is
/// this not shown?".
public enum ConditionMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The client's platform is not listed.
    case platform(Platform)
    /// The client's API version is outside the range.
    case apiVersion(APIVersion)
    /// The request's locale (or its absence) matches no listed prefix.
    case locale(String?)
    /// The user is in none of the listed segments.
    case segment
    /// The user is in no variant of the experiment (`nil`: not in it at all) or in another one.
    case experiment(key: String, variant: String?)
    /// The window has not opened yet.
    case notYetStarted(Date)
    /// The window has closed.
    case ended(Date)

    /// `platform android is not listed`.
    public var description: String {
        switch self {
        case .platform(let platform): "platform \(platform) is not listed"
        case .apiVersion(let version): "API \(version) is outside the range"
        case .locale(let locale): "locale \(locale.map { "'\($0)'" } ?? "(none)") matches no listed prefix"
        case .segment: "the user is in none of the listed segments"
        case .experiment(let key, let variant?): "the user is in variant '\(variant)' of '\(key)', not a listed one"
        case .experiment(let key, nil): "the user takes no part in experiment '\(key)'"
        case .notYetStarted(let start): "shown from \(start.formatted(.iso8601))"
        case .ended(let end): "shown until \(end.formatted(.iso8601))"
        }
    }
}

/// API versions from ``minimum`` to ``maximum``, both inclusive; an unset bound is open.
public struct APIVersionRange: Codable, Sendable, Hashable {
    /// The oldest version included.
    public var minimum: APIVersion?
    /// The newest version included.
    public var maximum: APIVersion?

    /// A range; leave a bound out to leave it open.
    public init(minimum: APIVersion? = nil, maximum: APIVersion? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Whether `version` is in the range.
    public func contains(_ version: APIVersion) -> Bool {
        if let minimum, version < minimum { return false }
        if let maximum, version > maximum { return false }
        return true
    }
}

/// A widget's experiment condition: shown to users in one of ``variants`` of experiment ``key``.
public struct ExperimentCondition: Codable, Sendable, Hashable {
    /// The experiment's key.
    public var key: String
    /// The variants that see the widget.
    public var variants: Set<String>

    /// Shown to users in `variants` of `key`.
    public init(key: String, variants: Set<String>) {
        self.key = key
        self.variants = variants
    }

    /// Shown to users in `variant` of `key`: `experimentKey = variant`.
    public init(_ key: String, is variant: String) { self.init(key: key, variants: [variant]) }

    enum CodingKeys: String, CodingKey { case key, variants }

    /// Writes the key and the variants, sorted.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(variants.sorted(), forKey: .variants)
    }
}

/// A half-open interval of time, `start ≤ now < end`: consecutive windows never overlap and
/// never leave a gap. Stored as ISO 8601 text.
public struct DateWindow: Codable, Sendable, Hashable {
    /// The first instant included; `nil` means from always.
    public var start: Date?
    /// The first instant excluded; `nil` means forever.
    public var end: Date?

    /// A window; leave a bound out to leave it open.
    public init(start: Date? = nil, end: Date? = nil) {
        self.start = start
        self.end = end
    }

    /// Whether `date` is inside.
    public func contains(_ date: Date) -> Bool {
        if let start, date < start { return false }
        if let end, date >= end { return false }
        return true
    }

    enum CodingKeys: String, CodingKey { case start, end }

    /// Reads ISO 8601 bounds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decodeISO8601IfPresent(forKey: .start)
        end = try container.decodeISO8601IfPresent(forKey: .end)
    }

    /// Writes the set bounds as ISO 8601 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeISO8601IfPresent(start, forKey: .start)
        try container.encodeISO8601IfPresent(end, forKey: .end)
    }
}

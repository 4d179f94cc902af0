public import ScreenplayContract
public import ScreenplayServer

/// A composed page: the encoded screen, ready to send, and the report of how each widget fared.
///
/// The bytes are a normal screen for ``apiVersion``: strict decoders of that version read them
/// with no issue. The report answers the questions a page's owners ask: which widget made the
/// page heavy (bytes and share per widget), which provider made it slow (latency per widget), and
/// why a widget is missing (its outcome).
public struct ComposedPage: Sendable {
    /// The encoded screen.
    public let bytes: [UInt8]
    /// The version it is encoded for.
    public let apiVersion: APIVersion
    /// The template's route.
    public let route: String
    /// The template revision it was composed from.
    public let templateRevision: Int
    /// One report per instance of the template, in page order, shown or not.
    public let widgets: [WidgetReport]
    /// Entity members two providers disagreed on, with the value that was kept.
    public let entityConflicts: [EntityConflict]
    /// Page-level problems that cost no widget by themselves (answers for instances nobody asked
    /// about, entities dropped for breaking the contract's rules).
    public let problems: [String]
    /// The experiment variants this composition exposed the user to.
    public let exposures: [ExposedVariant]
    /// How long composition took, conditions to bytes.
    public let duration: Duration
    /// The budget limits the page broke; empty when within budget.
    public let overruns: [BudgetOverrun]

    /// Creates a composed page (the ``Composer`` does).
    public init(
        bytes: [UInt8], apiVersion: APIVersion, route: String, templateRevision: Int, widgets: [WidgetReport],
        entityConflicts: [EntityConflict], problems: [String], exposures: [ExposedVariant], duration: Duration,
        overruns: [BudgetOverrun]
    ) {
        self.bytes = bytes
        self.apiVersion = apiVersion
        self.route = route
        self.templateRevision = templateRevision
        self.widgets = widgets
        self.entityConflicts = entityConflicts
        self.problems = problems
        self.exposures = exposures
        self.duration = duration
        self.overruns = overruns
    }

    /// Whether the page broke its byte or latency budget (the admin flags such pages).
    public var isOverBudget: Bool { !overruns.isEmpty }

    /// The report of instance `id`.
    public func report(for id: String) -> WidgetReport? { widgets.first { $0.instanceID == id } }

    /// The `count` widgets with the most bytes on the page, heaviest first (ties in page order).
    public func heaviestWidgets(_ count: Int = 3) -> [WidgetReport] {
        let ranked = widgets.enumerated().filter { $0.element.bytes > 0 }.sorted { left, right in
            left.element.bytes != right.element.bytes ? left.element.bytes > right.element.bytes : left.offset < right.offset
        }
        return ranked.prefix(count).map(\.element)
    }

    /// The `count` widgets whose providers took longest, slowest first (ties in page order).
    public func slowestWidgets(_ count: Int = 3) -> [WidgetReport] {
        let ranked = widgets.enumerated().filter { $0.element.providerLatency != nil }.sorted { left, right in
            let (a, b) = (left.element.providerLatency ?? .zero, right.element.providerLatency ?? .zero)
            return a != b ? a > b : left.offset < right.offset
        }
        return ranked.prefix(count).map(\.element)
    }

    /// The encoded body with its ETag, as the service caches and sends it.
    public var body: EncodedBody { EncodedBody(bytes: bytes) }
}

/// How one widget instance fared on one composed page.
public struct WidgetReport: Sendable, Hashable {
    /// The instance's id (also its component id).
    public let instanceID: String
    /// The widget kind.
    public let kind: String
    /// The vertical whose provider was asked.
    public let vertical: String
    /// Shown, replaced by a fallback, or omitted, and why.
    public let outcome: WidgetOutcome
    /// How long the provider call that answered (or failed to answer) for it took; `nil` when no
    /// provider was asked.
    public let providerLatency: Duration?
    /// The bytes the widget put into the page (its fragment, or its fallback's encoding).
    public let bytes: Int
    /// Its share of the page's bytes, 0 to 1.
    public let share: Double
    /// Warnings about a widget that was still shown (unknown or deprecated fields).
    public let warnings: [WidgetProblem]

    /// Creates a report (the ``Composer`` does).
    public init(
        instanceID: String, kind: String, vertical: String, outcome: WidgetOutcome, providerLatency: Duration?, bytes: Int,
        share: Double, warnings: [WidgetProblem] = []
    ) {
        self.instanceID = instanceID
        self.kind = kind
        self.vertical = vertical
        self.outcome = outcome
        self.providerLatency = providerLatency
        self.bytes = bytes
        self.share = share
        self.warnings = warnings
    }
}

/// What became of a widget instance on a page.
public enum WidgetOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The provider's component is on the page, as it was sent.
    case shown
    /// Components built by the contract's fallback stand in its place.
    case fallback(FallbackReason)
    /// Nothing of it is on the page.
    case omitted(OmissionReason)

    /// Whether the provider's own component is on the page.
    public var isShown: Bool { self == .shown }

    /// `omitted: timed out after 250 ms`.
    public var description: String {
        switch self {
        case .shown: "shown"
        case .fallback(let reason): "fallback: \(reason)"
        case .omitted(let reason): "omitted: \(reason)"
        }
    }
}

/// Why a widget shows its fallback.
public enum FallbackReason: Sendable, Hashable, CustomStringConvertible {
    /// The client cannot render the kind (an older API version, or an app that did not register
    /// it): the contract's ``WidgetContract/fallback`` was built from the widget's JSON.
    case kindNotRendered
    /// The provider did not deliver; the contract's ``WidgetContract/unavailable`` stands in.
    case unavailable(OmissionReason)

    /// `the client does not render the kind`.
    public var description: String {
        switch self {
        case .kindNotRendered: "the client does not render the kind"
        case .unavailable(let reason): "unavailable (\(reason))"
        }
    }
}

/// Why a widget is not on the page.
public enum OmissionReason: Sendable, Hashable, CustomStringConvertible {
    /// The instance is switched off.
    case disabled
    /// One of its conditions does not hold for this request.
    case conditionNotMet(ConditionMismatch)
    /// The instance is malformed (an id that is not an identifier, a repeated id).
    case invalidInstance(String)
    /// The catalog has no contract for its kind.
    case unknownKind
    /// No provider serves its vertical.
    case noProvider
    /// The provider did not answer before its deadline.
    case timedOut(after: Duration)
    /// The provider threw; the error's description.
    case providerFailed(String)
    /// The composition was cancelled (the client went away) before the provider answered.
    case cancelled
    /// The provider answered, but not for this instance.
    case missingFromResponse
    /// The fragment is larger than the composer accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// The fragment is not JSON (with line and column) or not UTF-8.
    case malformedJSON(String)
    /// The fragment breaks its kind's contract (errors only; warnings do not omit).
    case contractViolation([WidgetProblem])
    /// The fragment binds to an entity member no provider sent.
    case unresolvedBinding(String)
    /// The client cannot render the kind and its fallback is empty.
    case noFallbackForClient
    /// Its fallback's components could not be encoded (a bug in the contract's fallback).
    case fallbackUnencodable(String)

    /// Whether this is the normal working of conditions and switches rather than a failure worth
    /// a warning in the logs.
    public var isExpected: Bool {
        switch self {
        case .disabled, .conditionNotMet, .noFallbackForClient: true
        default: false
        }
    }

    /// `timed out after 250 ms`.
    public var description: String {
        switch self {
        case .disabled: "switched off"
        case .conditionNotMet(let mismatch): "condition not met: \(mismatch)"
        case .invalidInstance(let message): "invalid instance: \(message)"
        case .unknownKind: "unknown widget kind"
        case .noProvider: "no provider for the vertical"
        case .timedOut(let after): "timed out after \(after.formattedMilliseconds)"
        case .providerFailed(let error): "provider failed: \(error)"
        case .cancelled: "cancelled"
        case .missingFromResponse: "the provider's answer left it out"
        case .tooLarge(let bytes, let limit): "\(bytes) bytes; the limit is \(limit)"
        case .malformedJSON(let message): "malformed JSON: \(message)"
        case .contractViolation(let problems): "contract violation: " + problems.map(\.description).joined(separator: "; ")
        case .unresolvedBinding(let message): "unresolved binding: \(message)"
        case .noFallbackForClient: "the client does not render the kind and it has no fallback"
        case .fallbackUnencodable(let error): "its fallback could not be encoded: \(error)"
        }
    }
}

/// Two providers disagreeing about one entity member; the page carries ``kept``.
public struct EntityConflict: Sendable, Hashable, CustomStringConvertible {
    /// The entity (`product/42`).
    public let entity: String
    /// The member (`price`).
    public let member: String
    /// The value kept and the vertical that sent it: the one whose first widget comes first on
    /// the page, so the winner never depends on which provider answered first.
    public let kept: (vertical: String, value: JSONValue)
    /// The value dropped and its vertical.
    public let dropped: (vertical: String, value: JSONValue)

    /// Creates a conflict record.
    public init(entity: String, member: String, kept: (vertical: String, value: JSONValue), dropped: (vertical: String, value: JSONValue)) {
        self.entity = entity
        self.member = member
        self.kept = kept
        self.dropped = dropped
    }

    /// Compares every part.
    public static func == (lhs: EntityConflict, rhs: EntityConflict) -> Bool {
        lhs.entity == rhs.entity && lhs.member == rhs.member && lhs.kept.vertical == rhs.kept.vertical && lhs.kept.value == rhs.kept.value
            && lhs.dropped.vertical == rhs.dropped.vertical && lhs.dropped.value == rhs.dropped.value
    }

    /// Hashes every part.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(member)
        hasher.combine(kept.vertical)
        hasher.combine(kept.value)
        hasher.combine(dropped.vertical)
        hasher.combine(dropped.value)
    }

    /// `product/42.price: shop says "€12" (kept), ads says "€13"`.
    public var description: String {
        "\(entity).\(member): \(kept.vertical) says \(kept.value.compactText) (kept), \(dropped.vertical) says \(dropped.value.compactText)"
    }
}

/// A page's limits: pages over them are flagged in the report and logged with their heaviest
/// (or slowest) widgets named.
public struct PageBudget: Sendable, Hashable {
    /// The most bytes a composed page should have; `nil` for no limit.
    public var maximumBytes: Int?
    /// The longest a composition should take; `nil` for no limit.
    public var maximumDuration: Duration?

    /// A budget; `nil` leaves a limit out.
    public init(maximumBytes: Int? = nil, maximumDuration: Duration? = nil) {
        self.maximumBytes = maximumBytes
        self.maximumDuration = maximumDuration
    }

    /// No limits.
    public static let unlimited = PageBudget()
}

/// One budget limit a page broke, with the widgets most to blame.
public enum BudgetOverrun: Sendable, Hashable, CustomStringConvertible {
    /// The page has `bytes`, over `limit`; `heaviest` are the instance ids with most bytes.
    case bytes(Int, limit: Int, heaviest: [String])
    /// Composition took `duration`, over `limit`; `slowest` are the instances whose providers took longest.
    case duration(Duration, limit: Duration, slowest: [String])

    /// `182340 bytes, over the budget of 150000; heaviest: reviews-1, deals-2`.
    public var description: String {
        switch self {
        case .bytes(let bytes, let limit, let heaviest):
            "\(bytes) bytes, over the budget of \(limit); heaviest: \(heaviest.joined(separator: ", "))"
        case .duration(let duration, let limit, let slowest):
            "\(duration.formattedMilliseconds), over the budget of \(limit.formattedMilliseconds); slowest: \(slowest.joined(separator: ", "))"
        }
    }
}

extension Duration {
    /// The duration in milliseconds, fractions included.
    public var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }

    /// Whole milliseconds, rounded down: what timeouts on the wire are given in.
    public var wholeMilliseconds: Int64 { components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000 }

    /// `250 ms`, `1.5 ms`: what logs and reports show.
    public var formattedMilliseconds: String {
        if milliseconds >= 10 { return "\(Int(milliseconds.rounded())) ms" }
        return "\((milliseconds * 10).rounded() / 10) ms"
    }
}

extension JSONValue {
    /// Short JSON-ish text for logs (strings quoted, containers summarized).
    var compactText: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value.prefix(80))\""
        case .array(let values): "[\(values.count) values]"
        case .object(let members): "{\(members.count) members}"
        }
    }
}

public import ScreenplayContract

/// A vertical's data source: given the widget instances of its vertical on one page and the
/// request's context, it answers each instance's component JSON, plus any entities those
/// components bind to.
///
/// In-process providers are Swift types; a remote provider (``RemoteWidgetProvider``) calls
/// another team's HTTP endpoint and hands the response's bytes on as they are. Both meet the same
/// rules, enforced by the ``Composer`` rather than trusted:
/// - answer within the deadline (``WidgetRequest/deadline``); a late answer is dropped, and a
///   provider that ignores cancellation is abandoned, never waited for;
/// - answer each instance with a JSON object of the instance's kind (``WidgetFragment``),
///   valid against the kind's ``WidgetContract``; anything else costs that widget only;
/// - answer only for the instances asked about (others are ignored and logged).
///
/// Throwing fails every widget of the call (logged with the error), never the page.
public protocol WidgetProvider: Sendable {
    /// The components (and shared entities) for `request`'s instances.
    func fragments(for request: WidgetRequest) async throws -> WidgetResponse
}

/// One call to a provider: the instances it is asked for, in page order, and the request's
/// context.
public struct WidgetRequest: Sendable {
    /// The vertical asked.
    public let vertical: String
    /// The instances to answer, in page order; each answer is keyed by the instance's ``WidgetInstance/id``.
    public let instances: [WidgetInstance]
    /// Who asks and from where (user, platform, API version, locale).
    public let context: CompositionContext
    /// When the composer stops waiting: a remote provider passes the remaining time on as its
    /// own request timeout.
    public let deadline: ContinuousClock.Instant

    /// Creates a request.
    public init(vertical: String, instances: [WidgetInstance], context: CompositionContext, deadline: ContinuousClock.Instant) {
        self.vertical = vertical
        self.instances = instances
        self.context = context
        self.deadline = deadline
    }
}

/// A provider's answer: one component per instance, plus entities shared by the page.
public struct WidgetResponse: Sendable {
    /// Each instance's component JSON, by instance id.
    public var fragments: [String: WidgetFragment]
    /// Facts the components bind to (`{"product/42": {"price": "€12"}}`). The composer merges the
    /// entities of every provider into the screen once; a component refers to them with
    /// `"bind": {"price": {"entity": "product/42", "field": "price"}}`.
    public var entities: Entities

    /// Creates an answer.
    public init(fragments: [String: WidgetFragment], entities: Entities = [:]) {
        self.fragments = fragments
        self.entities = entities
    }
}

/// One widget's component as a provider hands it over: JSON bytes (what a remote provider
/// received, passed on without decoding) or a ``JSONValue`` (what an in-process provider builds).
///
/// Either way it is a JSON object whose `type` is the instance's widget kind, with the kind's
/// fields and optionally `bind` and `accessibility` (v4). It may leave `id` out: the composer sets
/// it to the instance id. Bytes that pass validation reach the client exactly as they arrived.
public enum WidgetFragment: Sendable, Hashable {
    /// Encoded JSON, spliced into the page as it is once valid.
    case bytes([UInt8])
    /// A value, encoded once (sorted keys) and then treated like bytes.
    case json(JSONValue)
}

/// A provider made from a closure: for tests, demos and verticals small enough not to need a
/// type of their own.
public struct ClosureWidgetProvider: WidgetProvider {
    private let body: @Sendable (WidgetRequest) async throws -> WidgetResponse

    /// A provider that answers with `body`.
    public init(_ body: @escaping @Sendable (WidgetRequest) async throws -> WidgetResponse) {
        self.body = body
    }

    /// Runs the closure.
    public func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        try await body(request)
    }
}

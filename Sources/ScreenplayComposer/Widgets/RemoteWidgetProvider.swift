import Foundation
public import ScreenplayContract
import ScreenplayServer

/// The body a remote provider receives: which instances of its vertical are on the page, and
/// who asks. Posted as JSON to the provider's URL; the answer is the envelope
/// ``WidgetResponse/init(envelope:)`` reads (`{"widgets": {…}, "entities": {…}}`).
///
/// ```json
/// {"vertical": "promotions", "route": "shop",
///  "instances": [{"id": "spring-sale", "kind": "promoBanner", "parameters": {"slot": "top"}}],
///  "context": {"userID": "42", "platform": "ios", "apiVersion": 4, "locale": "de-CH",
///              "segments": ["beta"], "variants": {"home-teaser": "treatment"}},
///  "timeoutMilliseconds": 240}
/// ```
///
/// `timeoutMilliseconds` is what remains of the composer's deadline when the call is sent: a
/// provider that cannot answer in time should not start.
public struct WidgetCall: Codable, Sendable, Hashable {
    /// One instance to answer.
    public struct Instance: Codable, Sendable, Hashable {
        /// The instance id: the key of its answer.
        public var id: String
        /// The widget kind to answer with.
        public var kind: String
        /// The parameters set in the layout admin.
        public var parameters: JSONValue

        /// Creates an instance.
        public init(id: String, kind: String, parameters: JSONValue) {
            self.id = id
            self.kind = kind
            self.parameters = parameters
        }
    }

    /// Who asks.
    public struct Context: Codable, Sendable, Hashable {
        /// The user's stable id; absent for an anonymous reader.
        public var userID: String?
        /// The client's platform.
        public var platform: String
        /// The client's API version.
        public var apiVersion: Int
        /// The client's locale.
        public var locale: String?
        /// The user's segments, sorted.
        public var segments: [String]
        /// The user's variant of every experiment they take part in.
        public var variants: [String: String]

        /// Creates a context.
        public init(
            userID: String?, platform: String, apiVersion: Int, locale: String?, segments: [String], variants: [String: String]
        ) {
            self.userID = userID
            self.platform = platform
            self.apiVersion = apiVersion
            self.locale = locale
            self.segments = segments
            self.variants = variants
        }
    }

    /// The vertical asked.
    public var vertical: String
    /// The page's route.
    public var route: String
    /// The instances, in page order.
    public var instances: [Instance]
    /// Who asks.
    public var context: Context
    /// The time left before the composer stops waiting.
    public var timeoutMilliseconds: Int

    /// The call for `request`, with the time left until its deadline.
    public init(_ request: WidgetRequest, now: ContinuousClock.Instant = .now) {
        vertical = request.vertical
        route = request.context.route
        instances = request.instances.map { Instance(id: $0.id, kind: $0.kind, parameters: $0.parameters) }
        var variants: [String: String] = [:]
        for key in request.context.experiments.experiments.keys {
            if let variant = request.context.variant(for: key) { variants[key] = variant }
        }
        context = Context(
            userID: request.context.userID, platform: request.context.platform.rawValue, apiVersion: request.context.apiVersion.rawValue,
            locale: request.context.locale, segments: request.context.segments.sorted(), variants: variants)
        let left = request.deadline - now
        timeoutMilliseconds = max(0, Int(left.wholeMilliseconds))
    }
}

/// Sends one HTTP POST and returns the answer, within a deadline and a size limit: what a
/// ``RemoteWidgetProvider`` needs from an HTTP client.
///
/// Two implementations ship: one over AsyncHTTPClient (TLS, connection pools: for providers
/// across a network), one over plain NIO HTTP/1.1 (no TLS, for providers on loopback or a private
/// network; the demo's), so a server that never calls out over TLS links no TLS stack.
public protocol WidgetHTTPTransport: Sendable {
    /// POSTs `body` (JSON) to `url`; returns the status code and at most `maximumBytes` of body
    /// (more is an error, not a truncation). Gives up at `deadline`.
    func post(url: String, body: [UInt8], deadline: ContinuousClock.Instant, maximumBytes: Int) async throws -> (status: Int, body: [UInt8])
}

/// A vertical served by another team's HTTP endpoint: each call POSTs a ``WidgetCall`` and reads
/// the envelope it answers with, keeping each widget's bytes as they arrived (validated by the
/// composer, spliced, never re-encoded).
///
/// Anything but a 200 with a readable envelope throws ``RemoteProviderError``, which costs the
/// call's widgets only (the composer logs it with each instance id).
///
/// The team can also own the checks of what its widgets' parameters name (the promotion, the
/// store a banner points at): given a ``referencesURL``, the provider adopts
/// ``WidgetReferenceChecking`` over HTTP (a ``WidgetReferenceCall`` POSTed there, answered with
/// `{"missing": […]}`), and the layout admin refuses a template naming what the service does not
/// know; the same question, asked with `"wantsNames": true` when an editor is shown, lets the
/// service say what those things are called (``WidgetReferenceNaming``). Without one it checks
/// and names nothing (``checksReferences`` is `false`), so its widgets' references are taken on
/// trust, as for any provider that does not check.
public struct RemoteWidgetProvider: WidgetProvider {
    /// Where calls go.
    public let url: String
    let transport: any WidgetHTTPTransport
    /// The largest answer read, to either call; a larger one fails the call.
    public let maximumResponseBytes: Int
    /// Where reference questions go (see ``WidgetReferenceCall``); `nil` when the service checks
    /// no references and is never asked.
    public let referencesURL: String?
    /// How long a reference question may take. A person saving a template waits for it; past
    /// it, the template is saved with a warning that the references could not be checked.
    public let referencesTimeout: Duration
    /// How long a question for names may take: by default a second, as long as the layout admin
    /// waits for names before showing an editor without them
    /// (``PageTemplate/referenceNames(catalog:providers:timeout:)``).
    public let namingTimeout: Duration

    /// A provider at `url`, reached through `transport`; with `referencesURL`, one that also
    /// answers which of the things its widgets name exist, within `referencesTimeout`, and what
    /// they are called, within `namingTimeout`.
    public init(
        url: String, transport: any WidgetHTTPTransport, maximumResponseBytes: Int = 1 << 20, referencesURL: String? = nil,
        referencesTimeout: Duration = .seconds(2), namingTimeout: Duration = .seconds(1)
    ) {
        self.url = url
        self.transport = transport
        self.maximumResponseBytes = maximumResponseBytes
        self.referencesURL = referencesURL
        self.referencesTimeout = referencesTimeout
        self.namingTimeout = namingTimeout
    }

    /// POSTs the call and reads the envelope.
    public func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        let body = try await post(WidgetCall(request), to: url, deadline: request.deadline)
        do {
            return try WidgetResponse(envelope: body)
        } catch {
            throw RemoteProviderError.unreadable(error)
        }
    }

    /// POSTs `message` as JSON (sorted keys, so equal calls are equal bytes) to `target` and
    /// returns the body of a 200 answer of at most ``maximumResponseBytes``: how every call
    /// reaches the service, so both calls fail in the same words.
    func post(_ message: some Encodable, to target: String, deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = Array(try encoder.encode(message))
        let answer = try await transport.post(url: target, body: body, deadline: deadline, maximumBytes: maximumResponseBytes)
        guard answer.status == 200 else {
            throw RemoteProviderError.status(answer.status, excerpt: String(decoding: answer.body.prefix(200), as: UTF8.self))
        }
        return answer.body
    }
}

/// Why a remote provider's call failed.
public enum RemoteProviderError: Error, Sendable, CustomStringConvertible {
    /// It answered with another status than 200 (the start of its body, for the log).
    case status(Int, excerpt: String)
    /// Its body is not an envelope.
    case unreadable(WidgetEnvelopeError)
    /// Its answer to a reference question is not `{"missing": […]}` of values it was asked
    /// about (see ``WidgetReferenceCall``).
    case unreadableReferences(WidgetEnvelopeError)
    /// Its body is larger than the limit.
    case tooLarge(limit: Int)
    /// It did not answer before the deadline.
    case timedOut
    /// The URL cannot be called by this transport.
    case badURL(String)

    /// One line for the log.
    public var description: String {
        switch self {
        case .status(let code, let excerpt): "the provider answered \(code): \(excerpt)"
        case .unreadable(let error): "the provider's answer is not a widget envelope: \(error)"
        case .unreadableReferences(let error): "the provider's answer about references cannot be used: \(error)"
        case .tooLarge(let limit): "the provider's answer is larger than \(limit) bytes"
        case .timedOut: "the provider did not answer in time"
        case .badURL(let url): "cannot call '\(url)'"
        }
    }
}

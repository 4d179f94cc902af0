import Foundation
import Logging
import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization

// MARK: Logs

/// Every log record of the loggers it made, for assertions on what the composer logged.
final class CapturedLogs: Sendable {
    struct Record: Sendable, CustomStringConvertible {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
        var description: String { "[\(level)] \(message) \(metadata.sorted { $0.key < $1.key })" }
    }

    private let records = Mutex<[Record]>([])

    func append(_ record: Record) { records.withLock { $0.append(record) } }

    var all: [Record] { records.withLock { $0 } }

    /// Records at warning level or above whose `widget` metadata is `id`.
    func warnings(about id: String) -> [Record] {
        all.filter { $0.level >= .warning && $0.metadata["widget"] == id }
    }

    /// A logger whose records land here (every level).
    var logger: Logger {
        Logger(label: "composer-test") { _ in CapturingLogHandler(sink: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let sink: CapturedLogs
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        sink.append(.init(level: event.level, message: event.message.description, metadata: merged.mapValues { "\($0)" }))
    }
}

// MARK: Contracts

enum Widgets {
    /// `productCard` (v2): a product with a title, a price text (bindable), an optional image URL, a
    /// deprecated `badge`, and a `discount` added in v4 (required from there). Older clients and
    /// apps that do not render it get a list row with the title and the price.
    static let productCard = try! WidgetContract(
        type: "productCard", summary: "A product with its price.",
        versioning: KindVersioning(introduced: .v2, fallback: "a list row with the title and the price"),
        fields: [
            .required("title", .string, introduced: .v2, summary: "The product's name."),
            WidgetField.required("price", .string, introduced: .v2, summary: "The price as display text.").bindable(),
            .optional("image", .url, introduced: .v2),
            .optional("rating", .number, introduced: .v2),
            .optional("stock", .integer, introduced: .v2),
            .optional("tags", .array, introduced: .v2),
            .optional("badge", .string, introduced: .v2).deprecated("use 'tags'"),
            .required("discount", .boolean, introduced: .v4),
        ],
        parameters: [.required("productID", .string), .optional("showImage", .boolean)],
        fallback: { json in
            [.listRow(.init(title: json["title"]?.stringValue ?? "?", subtitle: json["price"]?.stringValue))]
        })

    /// `reviewSummary` (v1): stars and a count; no fallback (dropped for apps without it);
    /// shows a text when its provider fails.
    static let reviewSummary = try! WidgetContract(
        type: "reviewSummary", summary: "The average rating and the number of reviews.",
        versioning: KindVersioning(introduced: .v1, fallback: "dropped"),
        fields: [.required("stars", .number), .required("count", .integer), .optional("link", .url)],
        fallback: { _ in [] },
        unavailable: { instance in [.text(.init("Reviews are unavailable right now"))] })

    /// `banner` (v1): a headline; apps without it get a text with the headline.
    static let banner = try! WidgetContract(
        type: "banner", summary: "A headline across the page.", versioning: KindVersioning(introduced: .v1, fallback: "a text"),
        fields: [.required("headline", .string), .optional("object", .object)],
        fallback: { json in [.text(.init(json["headline"]?.stringValue ?? ""))] })

    static let catalog = try! WidgetCatalog([productCard, reviewSummary, banner])

    /// Every widget kind: what an up-to-date app renders.
    static let allKinds: Set<String> = ["productCard", "reviewSummary", "banner"]
}

// MARK: Providers

/// Answers each instance with `answer(instance)` after `delay`; counts calls and the instances asked.
struct ScriptedProvider: WidgetProvider {
    var delay: Duration = .zero
    var entities: Entities = [:]
    var calls: Counter? = nil
    let answer: @Sendable (WidgetInstance) -> WidgetFragment?

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        calls?.increment()
        if delay > .zero { try await Task.sleep(for: delay) }
        var fragments: [String: WidgetFragment] = [:]
        for instance in request.instances { fragments[instance.id] = answer(instance) }
        return WidgetResponse(fragments: fragments, entities: entities)
    }
}

/// Always throws.
struct FailingProvider: WidgetProvider {
    struct Outage: Error, CustomStringConvertible {
        var description: String { "connection refused by inventory-db" }
    }

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse { throw Outage() }
}

/// Ignores cancellation and never answers until the test calls ``release()``: the page returning
/// while ``heldCalls`` is still above zero proves the composer did not wait for it, whatever the
/// machine's load (no wall-clock bound needed).
final class StubbornProvider: WidgetProvider {
    private struct State {
        var waiting: [CheckedContinuation<Void, Never>] = []
        var released = false
    }

    private let state = Mutex(State())

    /// Calls that are still waiting.
    var heldCalls: Int { state.withLock { $0.waiting.count } }

    /// Lets every held call (and every later one) answer.
    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let answerNow = state.withLock { state in
                if state.released { return true }
                state.waiting.append(continuation)
                return false
            }
            if answerNow { continuation.resume() }
        }
        return WidgetResponse(fragments: Dictionary(uniqueKeysWithValues: request.instances.map { ($0.id, WidgetFragment.bytes([])) }))
    }
}

/// Counts the calls in flight, the most there ever were at once, and the span from the first
/// call's start to the last call's end.
final class InFlightGauge: Sendable {
    private struct State {
        var current = 0
        var peak = 0
        var firstEnter: ContinuousClock.Instant?
        var lastLeave: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    func enter() {
        state.withLock { state in
            state.current += 1
            state.peak = max(state.peak, state.current)
            if state.firstEnter == nil { state.firstEnter = .now }
        }
    }

    func leave() {
        state.withLock { state in
            state.current -= 1
            state.lastLeave = .now
        }
    }

    var peak: Int { state.withLock { $0.peak } }

    /// From the first call's start to the last call's end.
    var span: Duration {
        state.withLock { state in
            guard let first = state.firstEnter, let last = state.lastLeave else { return .zero }
            return last - first
        }
    }
}

// MARK: Fragments

enum Fragments {
    static func product(_ title: String, price: String = "€12", extra: String = "") -> WidgetFragment {
        .bytes(Array(#"{"type":"productCard","title":"\#(title)","price":"\#(price)","discount":false\#(extra)}"#.utf8))
    }

    static func review(stars: Double = 4.5, count: Int = 120) -> WidgetFragment {
        .json(["type": "reviewSummary", "stars": .number(stars), "count": .integer(count)])
    }

    static func banner(_ headline: String) -> WidgetFragment {
        .bytes(Array(#"{"type": "banner", "headline": "\#(headline)"}"#.utf8))
    }
}

// MARK: Templates and contexts

func widget(
    _ id: String, _ kind: String, vertical: String, parameters: JSONValue = [:], conditions: WidgetConditions = .always,
    enabled: Bool = true, timeoutMilliseconds: Int? = nil
) -> WidgetInstance {
    WidgetInstance(
        id: id, kind: kind, vertical: vertical, parameters: parameters, conditions: conditions, isEnabled: enabled,
        timeoutMilliseconds: timeoutMilliseconds)
}

func template(_ sections: [PageTemplate.Section], revision: Int = 1) -> PageTemplate {
    PageTemplate(route: "shop", title: "Shop", revision: revision, sections: sections)
}

func context(
    version: APIVersion = .latest, kinds: Set<String> = Widgets.allKinds, user: String? = "user-1", platform: Platform = .iOS,
    locale: String? = "de-CH", segments: Set<String> = [], now: Date = Date(timeIntervalSince1970: 1_750_000_000),
    experiments: ExperimentCatalog = .init(), overrides: [String: String] = [:]
) -> CompositionContext {
    CompositionContext(
        route: "shop", userID: user, platform: platform, apiVersion: version, clientKinds: kinds, locale: locale, segments: segments,
        now: now, experiments: experiments, variantOverrides: overrides)
}

/// The composed page decoded strictly, as a client of its version that renders `kinds` decodes it.
func decodeStrictly(_ page: ComposedPage, kinds: Set<String> = Widgets.allKinds) throws -> Decoded<Screen> {
    try ScreenplayDecoder(mode: .strict, apiVersion: page.apiVersion, customKinds: kinds).decode(Screen.self, from: Data(page.bytes))
}

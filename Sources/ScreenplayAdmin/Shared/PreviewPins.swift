import Foundation
import ScreenplayComposer
import ScreenplayContract

/// Provider answers kept in the preview, so a flaky or changing vertical never makes the draft and
/// the live page differ for reasons the editor did not cause: what changes in a preview is the
/// layout's doing.
///
/// Every preview composes through ``PinningProvider``, which remembers each widget's answer (per
/// admin session, page and widget) and, by default, keeps answering the widget with it, in both
/// columns and in every later look (the live preview's too), without asking the provider again, as
/// long as its kind and parameters are the ones it was answered for (an edited widget asks again).
/// A failure is never kept: the next look asks again. Asking for fresh answers
/// (``forgetAnswers(session:route:)``) asks every provider again, except for widgets the admin
/// pinned: a pin keeps its answer through that too, until unpinned. Everything lives in this
/// process's memory and ends with the session: an editing aid, never what users see.
actor PreviewPins {
    /// An answer as a provider gave it: the widget's component and the entities the call sent
    /// (what its bindings point at).
    struct Answer: Sendable {
        let kind: String
        let parameters: JSONValue
        let fragment: WidgetFragment
        let entities: Entities
        let at: Date
    }

    struct Key: Hashable {
        let session: String
        let route: String
        let widget: String
    }

    /// Answers remembered at most (oldest forgotten first) and the largest one remembered, so a
    /// busy preview or a huge answer cannot grow the process without bound.
    let capacity: Int
    let largestAnswer: Int
    private var seen: [Key: Answer] = [:]
    private var pinned: [Key: Answer] = [:]

    init(capacity: Int = 2_000, largestAnswer: Int = 256 * 1024) {
        self.capacity = capacity
        self.largestAnswer = largestAnswer
    }

    /// Keeps `answer` as the last one `widget` got.
    func remember(_ answer: Answer, for key: Key) {
        if case .bytes(let bytes) = answer.fragment, bytes.count > largestAnswer { return }
        seen[key] = answer
        Self.trim(&seen, to: capacity)
    }

    /// Pins the last answer `key`'s widget got; `false` when it has none (it never answered).
    func pin(_ key: Key) -> Bool {
        guard let answer = seen[key] else { return false }
        pinned[key] = answer
        Self.trim(&pinned, to: capacity)
        return true
    }

    /// Drops a pin, or every pin of a session's page when `widget` is `nil`, and the answers the
    /// pins kept: an unpinned widget asks its provider again.
    func unpin(session: String, route: String, widget: String?) {
        let dropped = pinned.keys.filter { $0.session == session && $0.route == route && (widget == nil || $0.widget == widget) }
        for key in dropped {
            pinned[key] = nil
            seen[key] = nil
        }
        if let widget { seen[Key(session: session, route: route, widget: widget)] = nil }
    }

    /// Forgets the answers kept for `session`'s preview of `route` (pins stay): every widget not
    /// pinned asks its provider again at the next look.
    func forgetAnswers(session: String, route: String) {
        seen = seen.filter { $0.key.session != session || $0.key.route != route }
    }

    /// The pinned answers of `session`'s preview of `route`, by widget.
    func pins(session: String, route: String) -> [String: Answer] {
        var found: [String: Answer] = [:]
        for (key, answer) in pinned where key.session == session && key.route == route { found[key.widget] = answer }
        return found
    }

    /// The last answers of `session`'s preview of `route`, by widget: what a pin would keep.
    func lastAnswers(session: String, route: String) -> [String: Answer] {
        var found: [String: Answer] = [:]
        for (key, answer) in seen where key.session == session && key.route == route { found[key.widget] = answer }
        return found
    }

    private static func trim(_ answers: inout [Key: Answer], to capacity: Int) {
        guard answers.count > capacity else { return }
        for (key, _) in answers.sorted(by: { $0.value.at < $1.value.at }).prefix(answers.count - capacity) { answers[key] = nil }
    }
}

/// A provider that answers pinned widgets with their pinned answer, the others with the answer
/// kept from an earlier look, and asks `base` only for widgets with neither, remembering each
/// answer `base` gives (kept from then on, and what a pin keeps).
struct PinningProvider: WidgetProvider {
    let base: any WidgetProvider
    let pins: PreviewPins
    let session: String
    let route: String

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        // A pin wins over a kept answer; either holds for the widget it was answered for: an
        // edited kind or parameters ask again.
        let pinned = await pins.lastAnswers(session: session, route: route).merging(await pins.pins(session: session, route: route)) { _, pin in pin }
        let held = request.instances.filter { instance in
            pinned[instance.id].map { $0.kind == instance.kind && $0.parameters == instance.parameters } ?? false
        }
        let heldIDs = Set(held.map(\.id))
        let asked = request.instances.filter { !heldIDs.contains($0.id) }
        var response = WidgetResponse(fragments: [:])
        if !asked.isEmpty {
            do {
                response = try await base.fragments(
                    for: WidgetRequest(vertical: request.vertical, instances: asked, context: request.context, deadline: request.deadline))
            } catch where !held.isEmpty {
                // The pinned widgets still show; the others are left unanswered.
                response = WidgetResponse(fragments: [:])
            }
            let now = Date()
            for instance in asked {
                guard let fragment = response.fragments[instance.id] else { continue }
                await pins.remember(
                    .init(kind: instance.kind, parameters: instance.parameters, fragment: fragment, entities: response.entities, at: now),
                    for: .init(session: session, route: route, widget: instance.id))
            }
        }
        for instance in held {
            guard let answer = pinned[instance.id] else { continue }
            response.fragments[instance.id] = answer.fragment
            for (entity, fields) in answer.entities where response.entities[entity] == nil { response.entities[entity] = fields }
        }
        return response
    }
}

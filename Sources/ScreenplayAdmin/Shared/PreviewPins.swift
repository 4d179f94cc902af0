import Foundation
import ScreenplayComposer
import ScreenplayContract

/// Provider answers an admin pinned in the preview, so a flaky or changing vertical stops making
/// the draft and the live page differ for reasons the editor did not cause.
///
/// Every preview composes through ``PinningProvider``, which remembers each widget's last answer
/// (per admin session, page and widget). Pinning copies that answer; from then on the widget is
/// answered with it, in both columns, without asking the provider, as long as its kind and
/// parameters are the ones it was answered for (an edited widget asks again). Pins live in this
/// process's memory and end with the session: they are an editing aid, never what users see.
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

    /// Drops a pin, or every pin of a session's page when `widget` is `nil`.
    func unpin(session: String, route: String, widget: String?) {
        if let widget {
            pinned[Key(session: session, route: route, widget: widget)] = nil
        } else {
            pinned = pinned.filter { $0.key.session != session || $0.key.route != route }
        }
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

/// A provider that answers pinned widgets with their pinned answer and asks `base` for the rest,
/// remembering each answer `base` gives (what a later pin keeps).
struct PinningProvider: WidgetProvider {
    let base: any WidgetProvider
    let pins: PreviewPins
    let session: String
    let route: String

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        let pinned = await pins.pins(session: session, route: route)
        // A pin holds for the widget it was made on: an edited kind or parameters ask again.
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

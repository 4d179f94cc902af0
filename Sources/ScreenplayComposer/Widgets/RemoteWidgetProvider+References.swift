import Foundation
public import ScreenplayContract

/// The question a ``RemoteWidgetProvider`` with a references URL asks its service when a
/// template is saved: which of these values, each naming a `names`, name nothing it knows. This
/// is how a vertical served over HTTP owns the checks of what its widgets' parameters name, as an
/// in-process provider does by adopting ``WidgetReferenceChecking``.
///
/// POSTed as JSON to ``RemoteWidgetProvider/referencesURL``:
///
/// ```json
/// {"names": "promotion", "values": ["spring-sale", "summer-sale"], "timeoutMilliseconds": 2000}
/// ```
///
/// The service answers 200 with those it does not know, any of the values asked, in any order
/// (other members are ignored, so it can add diagnostics):
///
/// ```json
/// {"missing": ["summer-sale"]}
/// ```
///
/// `names` is the contract's word for what is named (``WidgetReference/names``); `values` are
/// the parameter values as the template holds them (any JSON, each once, in a stable order);
/// `timeoutMilliseconds` is how long the provider waits (a service that cannot answer in time
/// should not start). Anything else fails the question with a ``RemoteProviderError``: another
/// status, more than ``RemoteWidgetProvider/maximumResponseBytes``, no answer in time, a body
/// that is not such an object (with the JSON path or the line and column), or a value that was
/// not asked about (a service answering another question). The layout admin then saves the
/// template with a warning naming the vertical: another team's outage does not block a save.
///
/// When the layout admin shows an editor, the same question comes with `"wantsNames": true`: the
/// service may then say what the values it knows are called, so a product person reads
/// "spring-sale (Spring sale · 20 % off shipping)" rather than a bare key
/// (``WidgetReferenceNaming``). Only `names` is read from that answer; a service that leaves it
/// out, fails or is late costs the editor those names only:
///
/// ```json
/// {"missing": [], "names": [{"value": "spring-sale", "name": "Spring sale · 20 % off shipping"}]}
/// ```
///
/// Each name is one line of at most ``maximumNameLength`` characters (Unicode scalars) with
/// something visible and no direction overrides, for a value asked about, each value once.
public struct WidgetReferenceCall: Codable, Sendable, Hashable {
    /// What the values name: `work`, `promotion`.
    public var names: String
    /// The values to look up, each once.
    public var values: [JSONValue]
    /// How long the provider waits for the answer.
    public var timeoutMilliseconds: Int
    /// `true` when the names of the values are wanted too (an editor being shown); absent from
    /// a save's check, which reads `missing` only.
    public var wantsNames: Bool?

    /// The longest name read, in characters: a title and who made it, not a paragraph.
    public static let maximumNameLength = 200

    /// Creates a question.
    public init(names: String, values: [JSONValue], timeoutMilliseconds: Int, wantsNames: Bool? = nil) {
        self.names = names
        self.values = values
        self.timeoutMilliseconds = timeoutMilliseconds
        self.wantsNames = wantsNames
    }
}

extension RemoteWidgetProvider: WidgetReferenceChecking {
    /// Only a provider given a ``referencesURL`` checks: one without is never asked, and what its
    /// widgets name is taken on trust, as before the service offered checks.
    public var checksReferences: Bool { referencesURL != nil }

    /// Asks the service which of `values` name no `names` it knows (a ``WidgetReferenceCall`` to
    /// ``referencesURL``), giving up after ``referencesTimeout``. Without a references URL nothing
    /// is asked and nothing is reported missing; ``PageTemplate/referenceProblems(catalog:providers:)``
    /// does not call it then (``checksReferences`` is `false`).
    ///
    /// - Throws: ``RemoteProviderError``: ``RemoteProviderError/status(_:excerpt:)``,
    ///   ``RemoteProviderError/tooLarge(limit:)``, ``RemoteProviderError/timedOut``,
    ///   ``RemoteProviderError/unreadableReferences(_:)`` for an answer that is not
    ///   `{"missing": […]}` of values asked about, or the transport's error.
    public func missingReferences(_ names: String, among values: Set<JSONValue>) async throws -> Set<JSONValue> {
        guard let referencesURL, !values.isEmpty else { return [] }
        let (body, asked) = try await ask(names, about: values, wantsNames: nil, at: referencesURL, within: referencesTimeout)
        do {
            return try Self.missing(in: body, asked: asked)
        } catch {
            throw RemoteProviderError.unreadableReferences(error)
        }
    }

    /// POSTs the question about `values` to `url`, waiting at most `timeout` (which the question
    /// tells the service); the answer's body and the values asked, by their JSON text.
    private func ask(
        _ names: String, about values: Set<JSONValue>, wantsNames: Bool?, at url: String, within timeout: Duration
    ) async throws -> (body: [UInt8], asked: [String: JSONValue]) {
        let asked = try Self.byText(values)
        let call = WidgetReferenceCall(
            names: names, values: asked.keys.sorted().compactMap { asked[$0] },
            timeoutMilliseconds: max(0, Int(timeout.wholeMilliseconds)), wantsNames: wantsNames)
        return (try await post(call, to: url, deadline: .now + timeout), asked)
    }

    /// The values asked, by their JSON text (sorted keys): an answered value is matched by its
    /// text, so `3` matches a `3` the template holds however it was decoded.
    static func byText(_ values: Set<JSONValue>) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for value in values { result[try text(of: value)] = value }
        return result
    }

    static func text(of value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The members of the answer `body`: a JSON object, or an error at its path.
    static func members(of body: [UInt8]) throws(WidgetEnvelopeError) -> [String: JSONValue] {
        guard String(validating: body, as: UTF8.self) != nil else { throw WidgetEnvelopeError(path: "$", "the body is not valid UTF-8") }
        if let failure = JSONSyntax.firstError(in: Data(body)) { throw WidgetEnvelopeError(path: "$", "malformed JSON at \(failure)") }
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            throw WidgetEnvelopeError(path: "$", #"the body must be a JSON object: {"missing": […]}"#)
        }
        return members
    }

    /// The values of `asked` that the answer `body` lists under `missing`.
    static func missing(in body: [UInt8], asked: [String: JSONValue]) throws(WidgetEnvelopeError) -> Set<JSONValue> {
        let members = try members(of: body)
        guard let listed = members["missing"] else { throw WidgetEnvelopeError(path: "$.missing", "missing required member 'missing'") }
        guard case .array(let answered) = listed else {
            throw WidgetEnvelopeError(path: "$.missing", "'missing' must be an array of the values asked about")
        }
        var missing: Set<JSONValue> = []
        for (index, value) in answered.enumerated() {
            guard let text = try? text(of: value), let original = asked[text] else {
                throw WidgetEnvelopeError(path: "$.missing[\(index)]", "\(PageTemplate.describe(value)) was not asked about")
            }
            missing.insert(original)
        }
        return missing
    }
}

extension RemoteWidgetProvider: WidgetReferenceNaming {
    /// Asks the service what `values` are called (the reference question with `"wantsNames": true`,
    /// see ``WidgetReferenceCall``), giving up after ``namingTimeout``. Without a references URL
    /// nothing is asked and nothing is named; an answer without `names` names nothing.
    ///
    /// - Throws: what ``missingReferences(_:among:)`` throws, with
    ///   ``RemoteProviderError/unreadableReferences(_:)`` for `names` that are not an array of
    ///   `{"value", "name"}` for values asked about, each name one line of at most
    ///   ``WidgetReferenceCall/maximumNameLength`` characters. The layout admin then shows the
    ///   values without names.
    public func referenceNames(_ names: String, for values: Set<JSONValue>) async throws -> [JSONValue: String] {
        guard let referencesURL, !values.isEmpty else { return [:] }
        let (body, asked) = try await ask(
            names, about: values, wantsNames: true, at: referencesURL, within: namingTimeout)
        do {
            return try Self.names(in: body, asked: asked)
        } catch {
            throw RemoteProviderError.unreadableReferences(error)
        }
    }

    /// The names the answer `body` gives under `names`, by the value asked.
    static func names(in body: [UInt8], asked: [String: JSONValue]) throws(WidgetEnvelopeError) -> [JSONValue: String] {
        guard let listed = try members(of: body)["names"] else { return [:] }
        guard case .array(let entries) = listed else {
            throw WidgetEnvelopeError(path: "$.names", #"'names' must be an array of {"value": …, "name": "…"}"#)
        }
        var named: [JSONValue: String] = [:]
        var firstAt: [JSONValue: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "$.names[\(index)]"
            guard case .object(let pair) = entry else { throw WidgetEnvelopeError(path: path, #"must be an object: {"value": …, "name": "…"}"#) }
            guard let value = pair["value"] else { throw WidgetEnvelopeError(path: path + ".value", "missing required member 'value'") }
            guard let text = try? text(of: value), let original = asked[text] else {
                throw WidgetEnvelopeError(path: path + ".value", "\(PageTemplate.describe(value)) was not asked about")
            }
            if let first = firstAt[original] {
                throw WidgetEnvelopeError(path: path + ".value", "\(PageTemplate.describe(value)) is named twice (first at $.names[\(first)])")
            }
            firstAt[original] = index
            guard case .string(let name)? = pair["name"] else {
                throw WidgetEnvelopeError(path: path + ".name", "must be a string: what a person reads for \(PageTemplate.describe(value))")
            }
            if let problem = Self.nameProblem(name) { throw WidgetEnvelopeError(path: path + ".name", problem) }
            named[original] = name.trimmingCharacters(in: .whitespaces)
        }
        return named
    }

    /// Why `name` cannot be shown as a reference's name, or `nil`: it must be one line of at most
    /// ``WidgetReferenceCall/maximumNameLength`` Unicode scalars (so combining marks cannot
    /// stretch it), with something visible, and no direction overrides that could make it read
    /// as another name.
    static func nameProblem(_ name: String) -> String? {
        let scalars = name.trimmingCharacters(in: .whitespaces).unicodeScalars
        let limit = WidgetReferenceCall.maximumNameLength
        if scalars.count > limit { return "is \(scalars.count) characters; at most \(limit)" }
        if scalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return "must be one line: it holds a line break or another control character"
        }
        if scalars.contains(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }) {
            return "must not hold a direction override (U+202A…U+202E, U+2066…U+2069)"
        }
        if !scalars.contains(where: { !$0.properties.isWhitespace && $0.properties.generalCategory != .format }) {
            return "must not be empty: it shows nothing"
        }
        return nil
    }
}

import Foundation
import Synchronization

/// How strictly arrays of components, actions and menu items decode.
public enum DecodingMode: Sendable, Hashable {
    /// One bad element becomes a ``DecodingIssue`` and the rest of the screen survives. What
    /// clients use.
    case lossy
    /// The first bad element fails the whole decode. What contract tests and benchmarks compare
    /// against.
    case strict
}

/// Collects the issues of one decode. Shared with the decoder through `userInfo`.
final class DecodingIssueLog: Sendable {
    private let issues = Mutex<[DecodingIssue]>([])
    let mode: DecodingMode
    let customKinds: Set<String>

    init(mode: DecodingMode, customKinds: Set<String> = []) {
        self.mode = mode
        self.customKinds = customKinds
    }

    func record(_ issue: DecodingIssue) {
        issues.withLock { $0.append(issue) }
    }

    var recorded: [DecodingIssue] { issues.withLock { $0 } }

    /// The variable types of the screens being decoded, innermost last (a command result's
    /// screen inside a screen's decode has its own).
    private let scopes = Mutex<[[String: ExpressionType]]>([])

    /// The variable types expressions are checked against here, if a screen is being decoded.
    var expressionScope: [String: ExpressionType]? { scopes.withLock { $0.last } }

    /// Runs `body` with `types` as the expression scope.
    func withExpressionScope<Result>(_ types: [String: ExpressionType], _ body: () throws -> Result) rethrows -> Result {
        scopes.withLock { $0.append(types) }
        defer { _ = scopes.withLock { $0.removeLast() } }
        return try body()
    }
}

extension CodingUserInfoKey {
    /// Where ``ScreenplayDecoder`` puts the issue log for the types being decoded.
    static let screenplayIssueLog = CodingUserInfoKey(rawValue: "screenplay.issueLog")!
}

extension Decoder {
    var issueLog: DecodingIssueLog? { userInfo[.screenplayIssueLog] as? DecodingIssueLog }

    /// Records an unknown kind (kept, never rendered) at this decoder's path.
    func recordUnknownKind(_ family: String, type: String) {
        guard let issueLog, !(family == "component" && issueLog.customKinds.contains(type)) else { return }
        issueLog.record(
            DecodingIssue(kind: .unknownKind, path: JSONPath.render(codingPath), message: "unknown \(family) type '\(type)'")
        )
    }
}

extension Decoder {
    /// Records an open-enum value this client does not know, at this decoder's path.
    func recordUnknownValue(_ value: String, replacedBy fallback: String) {
        issueLog?.record(
            DecodingIssue(
                kind: .unknownValue, path: JSONPath.render(codingPath),
                message: "unknown value '\(value.prefix(80))'; shown as '\(fallback)'"))
    }
}

/// Decodes one array element, catching its failure so the array keeps going.
///
/// Decoding a `LossyElement` always succeeds in lossy mode, which moves the unkeyed container
/// past the bad element; that is what lets the next element decode.
struct LossyElement<Wrapped: Decodable>: Decodable {
    let value: Wrapped?

    init(value: Wrapped?) { self.value = value }

    init(from decoder: any Decoder) throws {
        do {
            value = try Wrapped(from: decoder)
        } catch {
            guard let log = decoder.issueLog, log.mode == .lossy else { throw error }
            let (path, message) = JSONPath.describe(error, fallbackPath: decoder.codingPath)
            log.record(DecodingIssue(kind: .invalidElement, path: path, message: message))
            value = nil
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a required array element by element; bad elements are logged and skipped (lossy
    /// mode). A missing key or `null` fails the whole containing element, as for any required field.
    func decodeLossyArray<Element: Decodable>(of type: Element.Type, forKey key: Key) throws -> [Element] {
        var array = try nestedUnkeyedContainer(forKey: key)
        var result: [Element] = []
        if let count = array.count { result.reserveCapacity(count) }
        while !array.isAtEnd {
            if let element = try array.decode(LossyElement<Element>.self).value {
                result.append(element)
            }
        }
        return result
    }

    /// Like ``decodeLossyArray(of:forKey:)`` but keeps "absent" apart from "empty".
    func decodeLossyArrayIfPresent<Element: Decodable>(of type: Element.Type, forKey key: Key) throws -> [Element]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeLossyArray(of: type, forKey: key)
    }
}

/// A wrapper the schema recorder sees through: it records the wrapped type and wraps the
/// stand-in value it gets back.
package protocol SchemaTransparentWrapper {
    /// The type whose schema the wrapper has.
    static var wrappedType: any Decodable.Type { get }
    /// Wraps a stand-in value of ``wrappedType``.
    static func wrapping(_ value: Any) -> Any
}

extension LossyElement: SchemaTransparentWrapper {
    package static var wrappedType: any Decodable.Type { Wrapped.self }
    package static func wrapping(_ value: Any) -> Any { LossyElement(value: value as? Wrapped) }
}

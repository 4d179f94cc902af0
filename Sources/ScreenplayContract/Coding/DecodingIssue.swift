import Foundation

/// Something the lossy decoder skipped or kept aside, with where it was.
///
/// Clients log these (and tests assert there are none): a screen with one broken component
/// still shows the rest, but the mistake is never silent.
public struct DecodingIssue: Sendable, Hashable, CustomStringConvertible {
    /// Why the element was set aside.
    public enum Kind: String, Sendable, Hashable {
        /// A component, action or result whose `type` this client does not know. Kept as
        /// `unknown`, never rendered.
        case unknownKind
        /// An element of a known kind that failed to decode (missing field, wrong type, bad
        /// value). Skipped.
        case invalidElement
        /// A value of an open enum (``OpenEnumeration``) this client does not know: replaced by
        /// the enum's fallback; the element is kept.
        case unknownValue
    }

    /// What happened.
    public let kind: Kind
    /// The JSON path of the element or field, e.g. `$.sections[1].components[3].title`.
    public let path: String
    /// A reason a person can act on.
    public let message: String

    /// Creates an issue.
    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `$.sections[0].components[2]: unknown component type 'grid'`.
    public var description: String { "\(path): \(message)" }
}

/// Turns coding paths into JSON paths (`$.sections[0].components[3]`).
public enum JSONPath {
    /// The JSON path of a coding path.
    public static func render(_ path: [any CodingKey]) -> String {
        var result = "$"
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else if key.stringValue.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) && !key.stringValue.isEmpty {
                result += "." + key.stringValue
            } else {
                let escaped = key.stringValue.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                result += "[\"" + escaped + "\"]"
            }
        }
        return result
    }

    /// Where a decoding error happened, and a reason that does not repeat Foundation's jargon.
    static func describe(_ error: any Error, fallbackPath: [any CodingKey]) -> (path: String, message: String) {
        guard let error = error as? DecodingError else {
            return (render(fallbackPath), String(describing: error))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (render(context.codingPath + [key]), "missing required field '\(key.stringValue)'")
        case .typeMismatch(let type, let context):
            return (render(context.codingPath), "expected \(describeType(type)): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (render(context.codingPath), "expected \(describeType(type)), found null")
        case .dataCorrupted(let context):
            return (render(context.codingPath), context.debugDescription)
        @unknown default:
            return (render(fallbackPath), String(describing: error))
        }
    }

    private static func describeType(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type, is Int64.Type, is Float.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "\(type)"
        }
    }
}

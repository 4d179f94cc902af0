import Foundation
import ScreenplayContract

extension WidgetResponse {
    /// Reads the body a remote provider answers with, keeping each widget's bytes as they are:
    ///
    /// ```json
    /// {"widgets": {"tea": {"type": "productCard", …}, "cup": {…}},
    ///  "entities": {"product/42": {"price": "€12"}}}
    /// ```
    ///
    /// Each member of `widgets` becomes a ``WidgetFragment/bytes(_:)`` slice of the body, byte for
    /// byte, so what the composer splices is exactly what the provider sent; `entities` (optional)
    /// is decoded, since entities from several providers are merged. Other members are ignored, so
    /// providers can add diagnostics. This is the wire format ``RemoteWidgetProvider`` reads;
    /// in-process providers never need it.
    ///
    /// - Throws: ``WidgetEnvelopeError`` for a body that is not UTF-8 JSON (with line and column),
    ///   not an object, without a `widgets` object, with a widget named twice, or with entities of
    ///   the wrong shape.
    public init(envelope bytes: [UInt8]) throws(WidgetEnvelopeError) {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw WidgetEnvelopeError(path: "$", "the body is not valid UTF-8") }
        if let failure = JSONSyntax.firstError(in: Data(bytes)) { throw WidgetEnvelopeError(path: "$", "malformed JSON at \(failure)") }
        var reader = EnvelopeReader(bytes: bytes)
        guard let top = reader.members() else { throw WidgetEnvelopeError(path: "$", "the body must be a JSON object") }
        guard let widgets = top.first(where: { $0.key == "widgets" }) else {
            throw WidgetEnvelopeError(path: "$.widgets", "missing required member 'widgets'")
        }
        var nested = EnvelopeReader(bytes: bytes, index: widgets.value.lowerBound)
        guard let members = nested.members() else {
            throw WidgetEnvelopeError(path: "$.widgets", "'widgets' must be an object of widgets by instance id")
        }
        var fragments: [String: WidgetFragment] = [:]
        for member in members {
            guard fragments[member.key] == nil else {
                throw WidgetEnvelopeError(
                    path: JSONPath.render([AnyCodingKey("widgets"), AnyCodingKey(member.key)]), "the widget is answered twice")
            }
            fragments[member.key] = .bytes(Array(bytes[member.value]))
        }
        var entities: Entities = [:]
        if let member = top.first(where: { $0.key == "entities" }) {
            do {
                entities = try JSONDecoder().decode(Entities.self, from: Data(bytes[member.value]))
            } catch {
                throw WidgetEnvelopeError(path: "$.entities", "'entities' must be an object of objects: {\"product/42\": {\"price\": …}}")
            }
        }
        self.init(fragments: fragments, entities: entities)
    }
}

/// A remote provider's body that cannot be read, and where.
public struct WidgetEnvelopeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the problem.
    public let path: String
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// `$.widgets: missing required member 'widgets'`.
    public var description: String { "\(path): \(message)" }
}

/// Walks well-formed JSON (checked by ``JSONSyntax`` first) by byte offsets, without building
/// values: the members of an object and where each value starts and ends.
struct EnvelopeReader {
    let bytes: [UInt8]
    var index: Int

    init(bytes: [UInt8], index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    /// The object's members at `index` (keys decoded, values as byte ranges), or `nil` when the
    /// value there is not an object.
    mutating func members() -> [(key: String, value: Range<Int>)]? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var result: [(key: String, value: Range<Int>)] = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return result
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let keyStart = index
            skipString()
            let key = (try? JSONDecoder().decode(String.self, from: Data(bytes[keyStart..<index]))) ?? ""
            skipWhitespace()
            index += 1  // ':'
            skipWhitespace()
            let valueStart = index
            skipValue()
            result.append((key, valueStart..<index))
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    /// From an opening quote to just past the closing one.
    mutating func skipString() {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
    }

    /// From the start of any value to just past its end.
    mutating func skipValue() {
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipString()
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                default: break
                }
                index += 1
            }
        default:
            while index < bytes.count,
                ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(bytes[index])
            {
                index += 1
            }
        }
    }
}

import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer

/// Bodies in and out: decoding with JSON paths in every error, encoding answers, and the layout
/// store's refusals as the service's JSON errors.
extension AdminAPI {
    /// A refusal of the layout store as JSON (``LayoutError/answer``), with every problem of an
    /// invalid template (`problems`) and what changed since a stale write's version beside it.
    static func response(for error: LayoutError) -> ScreenplayService.Response {
        switch error {
        case .invalid(let problems):
            var response = ScreenplayService.errorResponse(error.answer)
            let listing = problems.map { ProblemListing(path: $0.path, message: $0.message, warning: $0.isWarning) }
            if var object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)),
                let encoded = try? JSONEncoder().encode(listing), let list = try? JSONDecoder().decode(JSONValue.self, from: encoded)
            {
                object["problems"] = list
                response.body = (try? Array(ScreenplayEncoder().encode(JSONValue.object(object)))) ?? response.body
            }
            return response
        case .stale(let stale):
            return response(for: stale)
        default:
            return ScreenplayService.errorResponse(error.answer)
        }
    }

    static func json(_ value: some Encodable) throws -> ScreenplayService.Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var head = HTTPResponse(status: .ok)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[ScreenplayService.contentTypeOptions] = "nosniff"
        let body = Array(try encoder.encode(value))
        // A strong ETag of what is answered: what a later If-None-Match names.
        head.headerFields[.eTag] = ETag.strong(for: body)
        return ScreenplayService.Response(head: head, body: body)
    }

    /// Decodes a body, as the service would: malformed JSON (or a member named twice in one
    /// object, which readers take differently) names line and column, a wrong shape names the
    /// JSON path.
    static func decode<Value: Decodable>(_ body: [UInt8]) throws -> Value {
        let data = Data(body)
        if let failure = JSONSyntax.firstError(in: data, refusingDuplicateNames: true) { throw ScreenplayError.malformedJSON("the body is not valid JSON: \(failure)") }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw invalid(JSONPath.render(context.codingPath + [key]), "missing required member '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(expected, context) {
            // Swift's own wording names Swift types ("Dictionary<String, Any>"); say it in JSON's.
            throw invalid(JSONPath.render(context.codingPath), "expected \(Self.jsonName(of: expected)) here")
        } catch let DecodingError.valueNotFound(_, context) {
            throw invalid(JSONPath.render(context.codingPath), context.debugDescription)
        } catch let DecodingError.dataCorrupted(context) {
            throw invalid(JSONPath.render(context.codingPath), context.debugDescription)
        }
    }

    /// The JSON name of what a Swift type decodes from: "an object", "an array", "a string"…
    static func jsonName(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
        if name.hasPrefix("Array") || name.hasPrefix("UnkeyedDecodingContainer") { return "an array" }
        switch name {
        case "String": return "a string"
        case "Bool": return "true or false"
        case "Int", "Int64", "Int32", "UInt", "UInt64": return "a whole number"
        case "Double", "Float", "Decimal": return "a number"
        default: return "a value of another type"
        }
    }

    /// A 422 naming the JSON path of what is wrong in the body.
    static func invalid(_ path: String, _ message: String) -> ScreenplayError {
        ScreenplayError(status: .unprocessableContent, code: "invalidField", message: message, path: path)
    }
}

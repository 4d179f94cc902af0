import Foundation
import HTTPTypes
import ScreenplayContract

/// The one reader of JSON request bodies (commands, offline sync): the body must be declared
/// `application/json` (else `415`, naming what was declared) and be JSON within the contract's
/// nesting limit, naming no member twice in one object (else `400`, naming the line and column
/// where it stops being JSON, or of the repeated name).
enum JSONRequestBody {
    /// Parses `body`, declared as `contentType`. An empty body is `400` like any other that is
    /// not JSON; a caller for whom empty means something (a command without payload) decides
    /// that before asking.
    static func parse(_ body: [UInt8], contentType: String?) throws(ScreenplayError) -> JSONValue {
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingWhitespaceSubstring().lowercased() }
        guard mediaType == "application/json" else { throw .unsupportedMediaType(contentType) }
        let data = Data(body)
        if let failure = JSONSyntax.firstError(in: data, refusingDuplicateNames: true) {
            throw .malformedJSON("request body is not valid JSON: \(failure)")
        }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch let error as DecodingError {
            // The syntax is sound (checked above), so what cannot be read is a number no 64-bit
            // float holds (`1e400`) or a string holding a lone surrogate (`"\ud800"`, no
            // character): said at its path, without the decoder's own words.
            let path = Self.path(Self.codingPath(of: error))
            throw ScreenplayError(
                status: .badRequest, code: "malformedJSON",
                message: "the value at \(path) cannot be read: a number out of range (it must fit a 64-bit float) or a string with a lone surrogate escape (\\uD800–\\uDFFF unpaired)",
                path: path)
        } catch {
            throw .malformedJSON("request body is not valid JSON")
        }
    }

    static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath
        @unknown default:
            []
        }
    }

    /// `$.members[2].name` for a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("$") { path, key in key.intValue.map { path + "[\($0)]" } ?? path + "." + key.stringValue }
    }
}

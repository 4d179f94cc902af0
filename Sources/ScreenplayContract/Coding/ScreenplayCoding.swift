public import Foundation

/// A decoded value and what the lossy decoder set aside on the way.
public struct Decoded<Value: Sendable>: Sendable {
    /// The value, minus skipped elements; unknown kinds are kept as `unknown`.
    public let value: Value
    /// Every skipped or unknown element, in document order.
    public let issues: [DecodingIssue]
}

extension Decoded: Equatable where Value: Equatable {}

/// The failure of a whole decode: the input is not JSON, or a required top-level field is
/// missing. (Element-level failures are ``DecodingIssue``s instead.)
public struct ScreenplayDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path where decoding stopped (`$` for a syntax error).
    public let path: String
    /// What went wrong, including the line and column of a syntax error.
    public let message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `$.sections: missing required field 'sections'`.
    public var description: String { "\(path): \(message)" }
}

/// Decodes contract types the way clients do: lossily by default, collecting issues with paths.
public struct ScreenplayDecoder: Sendable {
    /// Lossy (clients) or strict (contract tests, benchmarks).
    public var mode: DecodingMode
    /// The API version read: later kinds are unknown, changed fields are read in its shape.
    public var apiVersion: APIVersion
    /// App-defined component kinds this client renders: kept as ``Component/unknown(_:)`` for
    /// the app's renderer, but not reported as issues.
    public var customKinds: Set<String>
    /// The reader's locale (a BCP 47 tag): what a row template's holes format numbers and dates
    /// with when a screen's rows are made (v6).
    public var locale: String

    /// Creates a decoder for a client of `apiVersion` that renders `customKinds`, in `locale`.
    public init(mode: DecodingMode = .lossy, apiVersion: APIVersion = .latest, customKinds: Set<String> = [], locale: String = "en") {
        self.mode = mode
        self.apiVersion = apiVersion
        self.customKinds = customKinds
        self.locale = locale
    }

    /// Decodes `type` from `data`, returning the value and every issue met.
    public func decode<Value: Decodable & Sendable>(_ type: Value.Type, from data: Data) throws(ScreenplayDecodingError) -> Decoded<Value> {
        let log = DecodingIssueLog(mode: mode, customKinds: customKinds)
        let decoder = JSONDecoder()
        decoder.userInfo[.screenplayIssueLog] = log
        decoder.userInfo[.screenplayAPIVersion] = apiVersion
        decoder.userInfo[.screenplayLocale] = locale
        do {
            let value = try decoder.decode(Value.self, from: data)
            return Decoded(value: value, issues: log.recorded)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw ScreenplayDecodingError(path: "$", message: JSONSyntax.describe(context, data: data))
            }
            let (path, message) = JSONPath.describe(error, fallbackPath: [])
            throw ScreenplayDecodingError(path: path, message: message)
        } catch {
            throw ScreenplayDecodingError(path: "$", message: String(describing: error))
        }
    }
}

/// Encodes contract types deterministically: the same value always gives the same bytes, so a
/// hash of the bytes is a stable ETag.
public struct ScreenplayEncoder: Sendable {
    /// The API version written: fields that changed shape are written as that version had them.
    /// (Kinds the version lacks must be downgraded before encoding; the server does that.)
    public var apiVersion: APIVersion

    /// Creates an encoder for clients of `apiVersion`.
    public init(apiVersion: APIVersion = .latest) { self.apiVersion = apiVersion }

    /// Encodes with sorted keys and unescaped slashes (URLs stay readable).
    public func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[.screenplayAPIVersion] = apiVersion
        return try encoder.encode(value)
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract

/// Which API versions are served, and which of them are on their way out: reads the version
/// segment of a request (`v4`) and marks the answers of deprecated versions.
struct APIVersionPolicy: Sendable {
    /// The versions served; requests for others get a 400 naming this range.
    let supported: ClosedRange<APIVersion>
    /// Versions still served but deprecated, with the date they were.
    let deprecated: [APIVersion: Date]

    /// The version a path segment names: exactly `v` and a number without sign or leading zero
    /// (one URL per version and screen), within ``supported``; anything else is a 400 naming the range.
    func version(from segment: String) throws(ScreenplayError) -> APIVersion {
        let digits = segment.dropFirst()
        guard segment.hasPrefix("v"), !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.first != "0",
            digits.count <= 6, let number = Int(digits)
        else {
            throw .unsupportedVersion(segment, supported: supported)
        }
        let version = APIVersion(number)
        guard supported.contains(version) else { throw .unsupportedVersion(segment, supported: supported) }
        return version
    }

    /// RFC 9745's `Deprecation` and its readable notice, on answers in a deprecated version, so
    /// app teams see it in their logs before the version is dropped.
    func addDeprecation(to head: inout HTTPResponse, version: APIVersion) {
        guard let since = deprecated[version] else { return }
        head.headerFields[ScreenplayService.deprecationHeader] = "@\(Int(since.timeIntervalSince1970))"
        head.headerFields[ScreenplayService.deprecationNoticeHeader] =
            "API \(version) is deprecated; move to \(supported.upperBound) (supported: \(supported.lowerBound) through \(supported.upperBound))"
    }
}

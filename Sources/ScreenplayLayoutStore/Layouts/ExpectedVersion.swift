/// What a write expects to find where it writes: what its writer read.
///
/// Every admin write can name the version it read (the JSON API's `If-Match`, the pages' hidden
/// fields), and the store compares it inside the write's own transaction, under the same lock as
/// the write, so two people can never both succeed in replacing the same version. A write whose
/// expectation no longer holds is refused with ``LayoutError/stale(_:)``, which says what changed,
/// rather than overwriting a change its writer never saw.
public enum ExpectedVersion: Sendable, Hashable {
    /// No expectation: the write replaces whatever is there. What a JSON API client that sends no
    /// `If-Match` gets, so scripts written before versions existed keep working.
    case any
    /// Nothing may be there yet (`If-None-Match: *`): create, never replace.
    case absent
    /// Something must be there, whatever its version (`If-Match: *`).
    case present
    /// One of these versions exactly (the ETags an `If-Match` lists, quotes included).
    case oneOf(Set<String>)

    /// One version exactly.
    public static func version(_ version: String) -> ExpectedVersion { .oneOf([version]) }

    /// Whether a thing whose version is `current` (`nil`: nothing there) meets the expectation.
    public func isMet(by current: String?) -> Bool {
        switch self {
        case .any: true
        case .absent: current == nil
        case .present: current != nil
        case .oneOf(let versions): current.map(versions.contains) ?? false
        }
    }

    /// The version this expectation names, when it names exactly one: where "what changed since"
    /// can be worked out from.
    public var namedVersion: String? {
        guard case .oneOf(let versions) = self, versions.count == 1 else { return nil }
        return versions.first
    }
}

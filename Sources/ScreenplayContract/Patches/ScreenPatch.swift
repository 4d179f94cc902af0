/// The change from one encoded version of a screen to the next, as operations on its JSON: what
/// a live `screen` event carries (v6, when the client asked for patches) so that a one-row change
/// of a long list costs a few hundred bytes instead of the whole screen.
///
/// Lists of objects that each carry a distinct string `id` (sections, components, rows) are
/// *keyed*: an operation names an element by its id, never by its position, so a row that moved
/// is still the same row and a removal elsewhere does not shift what the next operation means.
/// Any other array is addressed by index when only its elements changed, and replaced whole when
/// its length did.
///
/// The receiver applies the operations in order to the JSON of the version it holds, encodes the
/// result canonically (``JSONValue/canonicalBytes``) and compares its ``EntityTag`` with the tag
/// the server announced: anything that does not apply or does not match is a reason to fetch the
/// screen whole, never to show a guess.
///
/// On the wire a patch is a JSON array of operations, each itself an array:
/// `["set", path, value]`, `["remove", path]`, `["insert", path, index, value]` (into the keyed
/// list at `path`, at its final position), `["order", path, [ids]]` (the keyed list's remaining
/// elements in their new order). A path is an array of steps: a string is an object's member, an
/// integer an array's index, `{"id": "…"}` a keyed list's element.
public struct ScreenPatch: Sendable, Hashable {
    /// One step of a path into a JSON value.
    public enum Step: Sendable, Hashable {
        /// An object's member.
        case key(String)
        /// An array's element by position (arrays whose elements carry no ids).
        case index(Int)
        /// A keyed list's element by its `id`.
        case id(String)
    }

    /// One change.
    public enum Operation: Sendable, Hashable {
        /// Puts `value` at the path (an object's member added or replaced, a keyed element or an
        /// indexed element replaced; the empty path replaces the whole document).
        case set([Step], JSONValue)
        /// Removes the member or keyed element at the path.
        case remove([Step])
        /// Inserts `value` into the keyed list at the path, at `index` of the list as it will be.
        case insert([Step], index: Int, JSONValue)
        /// Puts the keyed list's elements in this order (every one of them named once).
        case order([Step], [String])
    }

    /// The operations, applied in order.
    public var operations: [Operation]

    /// A patch of `operations`.
    public init(operations: [Operation]) { self.operations = operations }

    /// Whether the patch changes nothing.
    public var isEmpty: Bool { operations.isEmpty }

    /// The most operations a patch may hold, and the deepest path: a patch past them is refused
    /// when read (a sender with more to say sends the screen whole).
    public static let operationLimit = 10_000
    /// See ``operationLimit``.
    public static let depthLimit = 64
}

/// Why a patch could not be read or applied: which operation, where, and what was wrong.
public struct PatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation's position in the patch (`nil`: the patch as a whole).
    public let operation: Int?
    /// The path as a readable string (`sections[id=works].components[3]`).
    public let path: String
    /// What was wrong.
    public let message: String

    /// An error at `operation`, `path`.
    public init(operation: Int?, path: String, message: String) {
        self.operation = operation
        self.path = path
        self.message = message
    }

    /// Says where and what.
    public var description: String {
        let at = operation.map { "operation \($0)" } ?? "the patch"
        return path.isEmpty ? "\(at): \(message)" : "\(at) at \(path): \(message)"
    }
}

extension ScreenPatch.Step {
    /// How the step reads in an error message.
    var readable: String {
        switch self {
        case .key(let key): ".\(key)"
        case .index(let index): "[\(index)]"
        case .id(let id): "[id=\(id)]"
        }
    }
}

extension ScreenPatch {
    /// `path` as a readable string.
    static func readable(_ path: some Collection<Step>) -> String {
        let text = path.map(\.readable).joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
}

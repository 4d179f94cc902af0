public import Foundation

/// One screen kept for offline use: the body exactly as the server sent it for this app's API
/// version, so it is decoded (lossily, with today's decoder) when read, like a fresh answer.
public struct OfflineEntry: Sendable, Hashable {
    /// The screen's reference, relative to the API base (`screens/playlist/3`).
    public var reference: String
    /// The ETag it was served with: what the next sync sends.
    public var etag: String?
    /// When it was written; shown with an offline copy ("saved 2 hours ago").
    public var savedAt: Date
    /// The API version its body is in; a copy in another version is not used.
    public var apiVersion: Int
    /// The screen's JSON.
    public var body: [UInt8]

    /// Describes an entry.
    public init(reference: String, etag: String?, savedAt: Date, apiVersion: Int, body: [UInt8]) {
        self.reference = reference
        self.etag = etag
        self.savedAt = savedAt
        self.apiVersion = apiVersion
        self.body = body
    }
}

/// Why an offline entry could not be read or written.
public enum OfflineStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was on disk is not what was written (truncated, altered, another format): the entry
    /// was dropped.
    case corrupt(reference: String, reason: String)
    /// The entry alone is larger than the whole store may hold.
    case tooLarge(reference: String, bytes: Int, limit: Int)
    /// The file system refused (full, read-only, gone).
    case io(reference: String, reason: String)

    /// What went wrong, and with which screen.
    public var description: String {
        switch self {
        case .corrupt(let reference, let reason): "the offline copy of '\(reference)' was damaged (\(reason)) and was dropped"
        case .tooLarge(let reference, let bytes, let limit):
            "'\(reference)' is \(bytes) bytes, more than the \(limit) bytes kept offline in all"
        case .io(let reference, let reason): "the offline copy of '\(reference)' could not be written: \(reason)"
        }
    }
}

/// Where screens kept for offline use live: on disk in apps (``FileOfflineStorage``), in memory
/// in tests. Bounded by its implementation; reading an entry counts as using it (least recently
/// used goes first).
///
/// An implementation never crashes on what it finds: a damaged entry is reported
/// (``OfflineStorageError/corrupt(reference:reason:)``) and forgotten.
public protocol OfflineStorage: Sendable {
    /// The entry for `reference`, or `nil` when there is none.
    func read(_ reference: String) async throws(OfflineStorageError) -> OfflineEntry?
    /// Stores `entry`, replacing any entry for its reference, whole or not at all.
    func write(_ entry: OfflineEntry) async throws(OfflineStorageError)
    /// Forgets the entry for `reference`.
    func remove(_ reference: String) async
    /// The references held now.
    func references() async -> Set<String>
    /// The screens the app marked for offline use, each with how many links deep to follow.
    func marks() async -> [String: Int]
    /// Replaces the marks.
    func saveMarks(_ marks: [String: Int]) async throws(OfflineStorageError)
}

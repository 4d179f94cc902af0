public import Foundation
public import ScreenplayContract

/// A report queue in one JSON file: `{"format": "screenplay-reports 1", "events": [...]}`, each
/// event as the wire writes it (``ClientEvent``'s own coding), so the file reads like a batch.
///
/// Writes go to a temporary file renamed over the old one, so a crash leaves the old queue or
/// the new, never half of one. A file that cannot be read as a queue (cut short, altered,
/// another format) is read as empty and replaced at once, and ``damage`` says what was found:
/// never a crash, and never the same damage read twice.
public actor FileReportQueue: ReportQueueStorage {
    /// The file.
    public nonisolated let file: URL
    /// What was wrong with the file when it was last loaded, in words; `nil` when it was sound
    /// or missing. For the app's log: the events in it are lost.
    public private(set) var damage: String?

    /// The file's first member, so that a later layout is told apart from damage.
    static let format = "screenplay-reports 1"

    private struct Stored: Codable {
        var format: String
        var events: [ClientEvent]
    }

    /// A queue kept in `file` (created, with its folder, on the first save).
    public init(file: URL) { self.file = file }

    /// The events in the file, oldest first, at most ``ClientEvent/Limits/queuedEvents`` (the
    /// newest, should a file hold more); none when the file is missing or damaged.
    public func load() -> [ClientEvent] {
        damage = nil
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            return replaceDamaged(because: "unreadable: \(error)")
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            return replaceDamaged(because: "not a queue of reports (\(data.count) bytes)")
        }
        guard stored.format == Self.format else { return replaceDamaged(because: "another format, '\(stored.format.prefix(40))'") }
        return Array(stored.events.suffix(ClientEvent.Limits.queuedEvents))
    }

    /// Writes `events` over the file, atomically.
    public func save(_ events: [ClientEvent]) throws(ReportQueueStorageError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try JSONEncoder().encode(Stored(format: Self.format, events: events)).write(to: file, options: .atomic)
        } catch {
            throw ReportQueueStorageError(location: file.path, reason: "\(error)")
        }
    }

    /// Notes the damage and writes an empty queue over it, so the next launch does not find it
    /// again; a failed write is left to the next save.
    private func replaceDamaged(because reason: String) -> [ClientEvent] {
        damage = reason
        try? save([])
        return []
    }
}

import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

/// The report queue's file: read back as written, bounded, and never fooled (or crashed) by a
/// damaged file.
@Suite("File report queue")
struct FileReportQueueTests {
    /// A fresh folder (not created), removed after `body`.
    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reports-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    static func event(_ index: Int) -> ClientEvent {
        ClientEvent(
            id: "id-\(index)", kind: index.isMultiple(of: 2) ? .visible : .played, key: "k\(index)",
            screen: index.isMultiple(of: 3) ? nil : "screens/home", at: Date(timeIntervalSince1970: 1_800_000_000.125 + Double(index)))
    }

    @Test("events read back as written, in order; a missing file is an empty queue")
    func roundTrip() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("nested/reports.json")
            let queue = FileReportQueue(file: file)
            #expect(await queue.load() == [])
            #expect(await queue.damage == nil, "missing is not damaged")
            let events = (0..<5).map(Self.event)
            try await queue.save(events)
            #expect(await FileReportQueue(file: file).load() == events)
            try await queue.save([])
            #expect(await FileReportQueue(file: file).load() == [])
        }
    }

    @Test(
        "a damaged file is read as empty, said so, and replaced",
        arguments: ["", "{\"format\": \"screenplay-reports 1\", \"events\": [{", "[1, 2]", "{\"format\": \"reports 9\", \"events\": []}", "\u{FF}\u{FE}"])
    func damaged(content: String) async throws {
        try await Self.withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("reports.json")
            try Data(content.utf8).write(to: file)
            let queue = FileReportQueue(file: file)
            #expect(await queue.load() == [])
            #expect(await queue.damage != nil)
            let again = FileReportQueue(file: file)
            #expect(await again.load() == [])
            #expect(await again.damage == nil, "the damage was replaced by an empty queue")
        }
    }

    @Test("a file holding more than the queue's bound gives the newest")
    func bounded() async throws {
        try await Self.withFolder { folder in
            let file = folder.appendingPathComponent("reports.json")
            let events = (0..<(ClientEvent.Limits.queuedEvents + 3)).map(Self.event)
            try await FileReportQueue(file: file).save(events)
            #expect(await FileReportQueue(file: file).load() == Array(events.suffix(ClientEvent.Limits.queuedEvents)))
        }
    }

    @Test("a file that cannot be written is a typed error naming it")
    func unwritable() async throws {
        try await Self.withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let blocker = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let queue = FileReportQueue(file: blocker.appendingPathComponent("reports.json"))
            let error = await #expect(throws: ReportQueueStorageError.self) { try await queue.save([Self.event(1)]) }
            #expect(error?.location.hasSuffix("file/reports.json") == true)
        }
    }
}

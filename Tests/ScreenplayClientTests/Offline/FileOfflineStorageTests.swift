import Foundation
import ScreenplayClient
import Testing

/// The file-backed offline store: bounded, least recently used first, written whole, and never
/// fooled (or crashed) by what it finds on disk.
@Suite("File offline storage")
struct FileOfflineStorageTests {
    /// A fresh folder, removed after `body`.
    static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    static func entry(_ reference: String, bytes: Int = 100, etag: String = "\"e\"") -> OfflineEntry {
        OfflineEntry(
            reference: reference, etag: etag, savedAt: Date(timeIntervalSince1970: 1_790_000_000), apiVersion: 5,
            body: Array(repeating: UInt8(ascii: "x"), count: bytes))
    }

    static func files(in folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasSuffix(".screen") }
    }

    @Test("an entry reads back as written, across a reopen, and marks are kept")
    func roundTrip() async throws {
        try await Self.withFolder { folder in
            let storage = try FileOfflineStorage(directory: folder)
            try await storage.write(Self.entry("screens/home"))
            try await storage.saveMarks(["screens/library": 1])
            #expect(try await storage.read("screens/home") == Self.entry("screens/home"))
            #expect(try await storage.read("screens/nowhere") == nil)
            let reopened = try FileOfflineStorage(directory: folder)
            #expect(try await reopened.read("screens/home") == Self.entry("screens/home"))
            #expect(await reopened.marks() == ["screens/library": 1])
            #expect(await reopened.references() == ["screens/home"])
        }
    }

    @Test("bounded in bytes: the least recently used go first, and reading counts as use")
    func leastRecentlyUsedGoesFirst() async throws {
        try await Self.withFolder { folder in
            // Each file is its header plus 1 000 bytes; room for three.
            let probe = try FileOfflineStorage(directory: folder.appendingPathComponent("probe"))
            try await probe.write(Self.entry("screens/a", bytes: 1_000))
            let size = await probe.totalBytes
            let storage = try FileOfflineStorage(directory: folder.appendingPathComponent("store"), byteLimit: size * 3 + 10)
            for name in ["a", "b", "c"] {
                try await storage.write(Self.entry("screens/\(name)", bytes: 1_000))
                try await Task.sleep(for: .milliseconds(5))
            }
            _ = try await storage.read("screens/a")  // a is now the most recent
            try await storage.write(Self.entry("screens/d", bytes: 1_000))
            #expect(await storage.references() == ["screens/a", "screens/c", "screens/d"])
            #expect(await storage.totalBytes <= size * 3 + 10)
            #expect(Self.files(in: folder.appendingPathComponent("store")).count == 3, "the evicted file is gone from disk")
            await #expect(throws: OfflineStorageError.self) { try await storage.write(Self.entry("screens/huge", bytes: size * 4)) }
        }
    }

    @Test("a file cut short, altered, swapped for another's or not an entry at all is dropped when read, never a crash", arguments: [
        "truncated", "flipped", "swapped", "garbage",
    ])
    func corruptionIsDetected(_ damage: String) async throws {
        try await Self.withFolder { folder in
            let storage = try FileOfflineStorage(directory: folder)
            try await storage.write(Self.entry("screens/home", bytes: 500))
            try await storage.write(Self.entry("screens/library", bytes: 500))
            let file = folder.appendingPathComponent(try #require(Self.files(in: folder).first { file in
                (try? String(contentsOf: file, encoding: .utf8))?.contains("home") == true
            }).lastPathComponent)
            var bytes = Array(try Data(contentsOf: file))
            switch damage {
            case "truncated": bytes.removeLast(40)
            case "flipped": bytes[bytes.count - 10] ^= 0x01
            case "swapped":
                let other = try #require(Self.files(in: folder).first { $0.lastPathComponent != file.lastPathComponent })
                bytes = Array(try Data(contentsOf: other))
            default: bytes = Array("{\"not\": \"an entry\"}".utf8)
            }
            try Data(bytes).write(to: file)
            await #expect(throws: OfflineStorageError.self) { try await storage.read("screens/home") }
            #expect(try await storage.read("screens/home") == nil, "dropped after it was found damaged")
            #expect(await storage.references() == ["screens/library"])
            #expect(try await storage.read("screens/library") == Self.entry("screens/library", bytes: 500), "the others are untouched")
        }
    }

    @Test("opening a folder with damaged files, strangers and a write cut off by a crash keeps only sound entries")
    func openingSkipsDamage() async throws {
        try await Self.withFolder { folder in
            let storage = try FileOfflineStorage(directory: folder)
            try await storage.write(Self.entry("screens/home"))
            try Data("half a wri".utf8).write(to: folder.appendingPathComponent(".screen.tmp-1234"))
            try Data("screenplay-offline 1\n{broken".utf8).write(to: folder.appendingPathComponent("0123456789abcdef.screen"))
            let reopened = try FileOfflineStorage(directory: folder)
            #expect(await reopened.references() == ["screens/home"])
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".screen.tmp-1234").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("0123456789abcdef.screen").path))
        }
    }

    @Test("a hostile reference never becomes a path: files stay in the folder, named by a hash")
    func hostileReferencesStayInside() async throws {
        try await Self.withFolder { folder in
            let storage = try FileOfflineStorage(directory: folder.appendingPathComponent("inner"))
            let hostile = "screens/../../../etc/passwd\u{0}/x"
            try await storage.write(Self.entry(hostile))
            #expect(try await storage.read(hostile)?.reference == hostile)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names == ["inner"], "nothing written outside the store's folder: \(names)")
            #expect(Self.files(in: folder.appendingPathComponent("inner")).allSatisfy { $0.lastPathComponent.count == 16 + 7 })
        }
    }
}

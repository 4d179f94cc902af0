public import Foundation

/// Offline screens in a folder of their own: one file per screen, bounded in bytes, the least
/// recently used dropped first.
///
/// Each file is a line naming the format, a line of JSON describing the entry (its reference,
/// ETag, date, API version, body length and checksum), then the body. Files are named by a hash
/// of the reference, so no path the server sends becomes a path on disk. Writes go to a temporary
/// file renamed over the old one, so a crash leaves the old entry or the new, never half of one.
/// A file that does not match its description (cut short, altered, another format) is reported
/// and removed when read, and skipped when the folder is opened: never a crash.
public actor FileOfflineStorage: OfflineStorage {
    /// The folder.
    public nonisolated let directory: URL
    /// The most bytes of files kept; past it the least recently used entries go.
    public nonisolated let byteLimit: Int

    private struct Item {
        var file: URL
        var bytes: Int
        var lastUse: Date
    }

    private var index: [String: Item] = [:]
    private var storedMarks: [String: Int] = [:]
    /// The bytes of every entry file.
    public private(set) var totalBytes = 0

    static let magic = Array("screenplay-offline 1\n".utf8)
    static let suffix = ".screen"

    /// Opens (creating it when missing) the folder at `directory`, holding at most `byteLimit`
    /// bytes (50 MiB by default). Files it cannot read are removed; a folder it cannot create
    /// is an ``OfflineStorageError/io(reference:reason:)``.
    public init(directory: URL, byteLimit: Int = 50 << 20) throws(OfflineStorageError) {
        self.directory = directory
        self.byteLimit = byteLimit
        let files = FileManager.default
        do {
            try files.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .io(reference: directory.path, reason: "\(error)")
        }
        let contents = (try? files.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey, .fileSizeKey])) ?? []
        for file in contents {
            let name = file.lastPathComponent
            if name.hasPrefix(".") {
                // A temporary file of a write that never finished.
                try? files.removeItem(at: file)
                continue
            }
            guard name.hasSuffix(Self.suffix) else { continue }
            guard let header = Self.header(of: file), file.lastPathComponent == Self.fileName(for: header.reference) else {
                try? files.removeItem(at: file)
                continue
            }
            let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .fileSizeKey])
            let bytes = values?.fileSize ?? 0
            index[header.reference] = Item(file: file, bytes: bytes, lastUse: values?.contentModificationDate ?? .distantPast)
            totalBytes += bytes
        }
        if let data = try? Data(contentsOf: directory.appendingPathComponent("marks.json")),
            let marks = try? JSONDecoder().decode([String: Int].self, from: data)
        {
            storedMarks = marks
        }
    }

    /// The entry for `reference`; a damaged file is removed and reported.
    public func read(_ reference: String) throws(OfflineStorageError) -> OfflineEntry? {
        guard let item = index[reference] else { return nil }
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: item.file))
        } catch {
            forget(reference)
            throw .corrupt(reference: reference, reason: "unreadable: \(error)")
        }
        switch Self.decode(bytes) {
        case .failure(let damage):
            forget(reference)
            throw .corrupt(reference: reference, reason: damage.reason)
        case .success(let entry) where entry.reference != reference:
            forget(reference)
            throw .corrupt(reference: reference, reason: "it holds '\(entry.reference.prefix(100))'")
        case .success(let entry):
            let now = Date()
            index[reference]?.lastUse = now
            try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: item.file.path)
            return entry
        }
    }

    /// Writes `entry` whole (a temporary file renamed over the old one), then makes room.
    public func write(_ entry: OfflineEntry) throws(OfflineStorageError) {
        let bytes = Self.encode(entry)
        guard bytes.count <= byteLimit else { throw .tooLarge(reference: entry.reference, bytes: bytes.count, limit: byteLimit) }
        let file = directory.appendingPathComponent(Self.fileName(for: entry.reference))
        do {
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw .io(reference: entry.reference, reason: "\(error)")
        }
        totalBytes += bytes.count - (index[entry.reference]?.bytes ?? 0)
        index[entry.reference] = Item(file: file, bytes: bytes.count, lastUse: Date())
        while totalBytes > byteLimit,
            let oldest = index.filter({ $0.key != entry.reference }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            forget(oldest)
        }
    }

    /// Removes the entry for `reference`.
    public func remove(_ reference: String) { forget(reference) }

    /// The references held.
    public func references() -> Set<String> { Set(index.keys) }

    /// The marks saved last.
    public func marks() -> [String: Int] { storedMarks }

    /// Saves the marks (atomically, beside the entries).
    public func saveMarks(_ marks: [String: Int]) throws(OfflineStorageError) {
        do {
            let data = try JSONEncoder().encode(marks)
            try data.write(to: directory.appendingPathComponent("marks.json"), options: .atomic)
        } catch {
            throw .io(reference: "marks", reason: "\(error)")
        }
        storedMarks = marks
    }

    private func forget(_ reference: String) {
        guard let item = index.removeValue(forKey: reference) else { return }
        totalBytes -= item.bytes
        try? FileManager.default.removeItem(at: item.file)
    }

    // MARK: The file format

    /// Why a file is not a readable entry.
    struct Damage: Error {
        let reason: String
    }

    private struct Header: Codable {
        var reference: String
        var etag: String?
        var savedAt: Double
        var apiVersion: Int
        var bytes: Int
        var checksum: String
    }

    /// The file name of `reference`: a hash, never the reference itself.
    static func fileName(for reference: String) -> String { checksum(Array(reference.utf8)) + suffix }

    /// FNV-1a 64 as 16 hex digits: catches a cut or altered file (not an attacker: the folder is the app's own).
    static func checksum(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func encode(_ entry: OfflineEntry) -> [UInt8] {
        let header = Header(
            reference: entry.reference, etag: entry.etag, savedAt: entry.savedAt.timeIntervalSince1970, apiVersion: entry.apiVersion,
            bytes: entry.body.count, checksum: checksum(entry.body))
        let line = (try? JSONEncoder().encode(header)).map(Array.init) ?? []
        return magic + line + [0x0A] + entry.body
    }

    static func decode(_ bytes: [UInt8]) -> Result<OfflineEntry, Damage> {
        guard bytes.starts(with: magic) else { return .failure(Damage(reason: "not an offline entry")) }
        let rest = bytes[magic.count...]
        guard let newline = rest.firstIndex(of: 0x0A) else { return .failure(Damage(reason: "cut short in its header")) }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(rest[..<newline])) else {
            return .failure(Damage(reason: "its header is not readable"))
        }
        let body = Array(rest[(newline + 1)...])
        guard body.count == header.bytes else { return .failure(Damage(reason: "\(body.count) bytes where \(header.bytes) were written")) }
        guard checksum(body) == header.checksum else { return .failure(Damage(reason: "its checksum does not match")) }
        return .success(
            OfflineEntry(
                reference: header.reference, etag: header.etag, savedAt: Date(timeIntervalSince1970: header.savedAt),
                apiVersion: header.apiVersion, body: body))
    }

    /// The header of `file`, read from its first bytes only.
    private static func header(of file: URL) -> Header? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: 16 * 1024).map(Array.init), start.starts(with: magic) else { return nil }
        let rest = start[magic.count...]
        guard let newline = rest.firstIndex(of: 0x0A) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: Data(rest[..<newline]))
    }
}

import Foundation
import HTTPTypes
public import ScreenplayContract

/// What one offline sync did.
public struct OfflineSyncReport: Sendable, Hashable {
    /// Sync requests sent (one per page of screens).
    public var requests = 0
    /// Screens whose copy was written (new or changed).
    public var changed = 0
    /// Screens the server said were unchanged.
    public var unchanged = 0
    /// Copies dropped: gone from the server, or no longer marked or linked.
    public var removed = 0
    /// Screens the server could not build now (their copies are kept).
    public var failed = 0
    /// Bytes of the answers, as received.
    public var bytesReceived = 0
    /// The screens held offline after the sync.
    public var held: Set<String> = []
    /// What was wrong with the answers, each with where (`sync.changed[2].path`); what was
    /// held before stays.
    public var issues: [DecodingIssue] = []

    /// An empty report.
    public init() {}
}

/// Offline use: the app marks screens (and how many links deep to follow from them), a sync
/// brings their copies up to date with `POST {api}/sync` sending the ETags held (only what
/// changed comes back), and while the app says it is offline (or the server cannot be reached)
/// screens are read from the copies, marked ``LoadedScreen/isOffline``, and commands are refused.
extension ScreenLoader {
    /// Whether `reference` is an entry the app keeps for itself (app state, the playback
    /// bookmark), which no sync asks the server for or removes.
    public static func isKeptForTheApp(_ reference: String) -> Bool {
        reference == AppStateStorage.reference || reference == PlaybackBookmark.reference
    }

    /// The most screens one sync keeps, marks and their links together.
    public static let maximumOfflineScreens = 500
    /// Screens named per sync request.
    static let syncPageSize = 100
    /// The largest sync answer read; a larger one is an issue and the sync stops.
    static let maximumSyncAnswerBytes = 16 << 20

    /// Tells the loader whether the app is offline (from the system's reachability, or the
    /// user's choice): offline, screens come from their copies and commands are refused with
    /// ``ClientError/Kind/offline``.
    public func setOffline(_ offline: Bool) { isOffline = offline }

    /// Marks the screen at `reference` for offline use, with the screens it links to `depth`
    /// links deep (0: the screen alone). Kept by the storage; the next sync fetches them.
    public func markForOffline(_ reference: String, depth: Int = 0) async throws(OfflineStorageError) {
        guard let storage = offlineStorage else { return }
        var marks = await storage.marks()
        marks[reference] = max(0, min(depth, 3))
        try await storage.saveMarks(marks)
    }

    /// Unmarks the screen at `reference`; the next sync drops what only it kept.
    public func unmarkForOffline(_ reference: String) async throws(OfflineStorageError) {
        guard let storage = offlineStorage else { return }
        var marks = await storage.marks()
        marks[reference] = nil
        try await storage.saveMarks(marks)
    }

    /// The copy of the screen at `reference`, decoded, marked offline; `.offline` when there is
    /// none (a damaged one is dropped and counts as none).
    func offlineCopy(of reference: String, url: URL) async throws(ClientError) -> LoadedScreen {
        let missing = ClientError(kind: .offline, message: "You are offline, and this screen was not saved for offline use.")
        guard let storage = offlineStorage,
            let entry = try? await storage.read(reference), entry.apiVersion == endpoint.apiVersion.rawValue,
            let decoded = try? decoder.decode(Screen.self, from: Data(entry.body))
        else { throw missing }
        return LoadedScreen(screen: decoded.value, issues: decoded.issues, etag: entry.etag, revalidated: false, offlineSince: entry.savedAt)
    }

    /// After a fresh answer: when the screen is held offline, its copy becomes this answer.
    func keepOfflineCopyCurrent(_ reference: String, etag: String?, body: [UInt8]) async {
        guard let storage = offlineStorage, await storage.references().contains(reference) else { return }
        try? await storage.write(
            OfflineEntry(reference: reference, etag: etag, savedAt: Date(), apiVersion: endpoint.apiVersion.rawValue, body: body))
    }

    /// Brings the offline copies up to date: the marked screens, then what they link to (as
    /// deep as each mark says), asking only for what changed since the copies held; copies no
    /// longer marked or linked are dropped. A failure to reach the server throws (nothing held
    /// is lost); a bad answer stops the sync with an issue and keeps what was held.
    public func syncOffline() async throws(ClientError) -> OfflineSyncReport {
        var report = OfflineSyncReport()
        guard let storage = offlineStorage else { return report }
        let marks = await storage.marks()
        var depths: [String: Int] = [:]
        var frontier: [String] = []
        for (reference, depth) in marks.sorted(by: { $0.key < $1.key }) {
            guard let entry = LiveWatch.streamEntry(for: reference) else {
                report.issues.append(DecodingIssue(kind: .invalidElement, path: "offline.marks", message: "'\(reference)' is not a screen"))
                continue
            }
            depths[entry] = depth
            frontier.append(entry)
        }
        var complete = true
        while !frontier.isEmpty, complete {
            complete = try await syncPages(frontier, storage: storage, report: &report)
            var next: [String] = []
            for entry in frontier where (depths[entry] ?? 0) > 0 {
                for link in await links(of: entry, storage: storage) where depths[link] == nil {
                    guard depths.count < Self.maximumOfflineScreens else {
                        report.issues.append(
                            DecodingIssue(
                                kind: .invalidElement, path: "offline",
                                message: "stopped at \(Self.maximumOfflineScreens) screens; lower a mark's depth"))
                        break
                    }
                    depths[link] = (depths[entry] ?? 1) - 1
                    next.append(link)
                }
            }
            frontier = next
        }
        let held = Set(depths.keys.map(LiveWatch.url(forStreamEntry:)))
        // Only a complete sync knows what is no longer wanted.
        if complete {
            for reference in await storage.references() where !held.contains(reference) && !Self.isKeptForTheApp(reference) {
                await storage.remove(reference)
                report.removed += 1
            }
        }
        report.held = await storage.references()
        return report
    }

    /// Syncs `entries` page by page; `false` when an answer was unusable (the sync stops).
    private func syncPages(_ entries: [String], storage: any OfflineStorage, report: inout OfflineSyncReport) async throws(ClientError) -> Bool {
        var pending = entries
        while !pending.isEmpty {
            let page = Array(pending.prefix(Self.syncPageSize))
            pending.removeFirst(page.count)
            var manifest: [JSONValue] = []
            for entry in page {
                let reference = LiveWatch.url(forStreamEntry: entry)
                let held = try? await storage.read(reference)
                var item: [String: JSONValue] = ["path": .string(entry)]
                if let etag = held?.etag, held?.apiVersion == endpoint.apiVersion.rawValue { item["etag"] = .string(etag) }
                manifest.append(.object(item))
            }
            guard let url = endpoint.resolve("sync") else { throw ClientError(kind: .invalidURL, message: "no sync URL") }
            var request = try await makeRequest(.post, url: url)
            request.headerFields[.contentType] = "application/json"
            let body = (try? JSONEncoder().encode(JSONValue.object(["screens": .array(manifest)]))).map(Array.init) ?? []
            let (response, answerBytes) = try await send(request, body: body)
            report.requests += 1
            report.bytesReceived += answerBytes.count
            try Self.check(response, body: answerBytes, url: url)
            guard answerBytes.count <= Self.maximumSyncAnswerBytes else {
                report.issues.append(
                    DecodingIssue(
                        kind: .invalidElement, path: "sync",
                        message: "the answer is \(answerBytes.count) bytes, over the \(Self.maximumSyncAnswerBytes) read; nothing taken from it"))
                return false
            }
            guard let answer = try? JSONDecoder().decode(SyncAnswer.self, from: Data(answerBytes)) else {
                report.issues.append(
                    DecodingIssue(kind: .invalidElement, path: "sync", message: "the answer is not a sync answer (cut short?); nothing taken from it"))
                return false
            }
            let asked = Set(page)
            var answered: Set<String> = []
            func issue(_ path: String, _ message: String) {
                report.issues.append(DecodingIssue(kind: .invalidElement, path: path, message: message))
            }
            func claim(_ entry: String, at path: String) -> Bool {
                guard asked.contains(entry) else {
                    issue(path, "'\(entry.prefix(100))' was not asked for; ignored")
                    return false
                }
                guard answered.insert(entry).inserted else {
                    issue(path, "'\(entry.prefix(100))' is answered twice; the first answer stands")
                    return false
                }
                return true
            }
            for (index, changed) in answer.changed.enumerated() {
                let at = "sync.changed[\(index)]"
                guard claim(changed.path, at: at + ".path") else { continue }
                let screenBytes = (try? JSONEncoder().encode(changed.screen)).map(Array.init) ?? []
                guard (try? decoder.decode(Screen.self, from: Data(screenBytes))) != nil else {
                    issue(at + ".screen", "is not a screen; the copy held stays")
                    continue
                }
                let reference = LiveWatch.url(forStreamEntry: changed.path)
                do {
                    try await storage.write(
                        OfflineEntry(
                            reference: reference, etag: changed.etag, savedAt: Date(), apiVersion: endpoint.apiVersion.rawValue, body: screenBytes))
                    report.changed += 1
                } catch {
                    issue(at, error.description)
                }
            }
            for (index, entry) in answer.gone.enumerated() where claim(entry, at: "sync.gone[\(index)]") {
                await storage.remove(LiveWatch.url(forStreamEntry: entry))
                report.removed += 1
            }
            for (index, failure) in answer.failed.enumerated() where claim(failure.path, at: "sync.failed[\(index)].path") {
                report.failed += 1
            }
            report.unchanged += answer.unchanged
            var again: [String] = []
            for (index, entry) in answer.more.enumerated() where claim(entry, at: "sync.more[\(index)]") { again.append(entry) }
            pending = again + pending
        }
        return true
    }

    /// The screens (as stream entries) the held copy of `entry` links to.
    private func links(of entry: String, storage: any OfflineStorage) async -> [String] {
        guard let copy = try? await storage.read(LiveWatch.url(forStreamEntry: entry)),
            let json = try? JSONDecoder().decode(JSONValue.self, from: Data(copy.body))
        else { return [] }
        var found: [String] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if members["type"] == .string("navigate"), case .string(let url)? = members["url"], let link = LiveWatch.streamEntry(for: url),
                    !found.contains(link)
                {
                    found.append(link)
                }
                members.values.forEach(visit)
            case .array(let items): items.forEach(visit)
            default: break
            }
        }
        visit(json)
        return found
    }
}

/// A sync answer as the server sends it.
struct SyncAnswer: Decodable {
    struct Changed: Decodable {
        let path: String
        let etag: String?
        let screen: JSONValue
    }

    struct Failed: Decodable {
        let path: String
    }

    let changed: [Changed]
    let unchanged: Int
    let gone: [String]
    let failed: [Failed]
    let more: [String]
}

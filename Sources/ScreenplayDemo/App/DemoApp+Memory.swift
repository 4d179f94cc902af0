import Foundation
import ScreenplayComposer
import ScreenplayServer
import ScreenplayWeb

extension DemoApp {
    /// What this process's memory holds, in one line: resident memory, then each byte-budgeted
    /// cache (entries, bytes of its budget), the revalidation memory, the screens held for
    /// patches and the event streams open. `serve --memory-report SECONDS` writes it to standard
    /// error that often, and `scripts/load.sh` prints it beside the soak's resident memory: a
    /// cache still filling toward its budget tells itself apart from memory nothing accounts for.
    public var memoryReport: String {
        func cache(_ name: String, _ statistics: CacheStatistics) -> String {
            "\(name) \(statistics.entries) entries \(Self.mebibytes(statistics.bytes))/\(Self.mebibytes(statistics.byteBudget)) MiB"
        }
        let resident = Self.residentBytes().map { "\(Self.mebibytes($0)) MiB" } ?? "unknown"
        return [
            "resident \(resident)",
            cache("screens", service.cacheStatistics),
            cache("composed", pages.cacheStatistics),
            cache("web pages", webSite.pageCacheStatistics),
            "revalidation memory \(Self.mebibytes(service.revalidations?.bytes ?? 0)) MiB",
            "held for patches \(Self.mebibytes(service.events?.heldForPatches ?? 0)) MiB",
            "streams \(service.events?.openStreams ?? 0)",
        ].joined(separator: "; ")
    }

    /// `bytes` in MiB with one decimal.
    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }

    /// This process's resident memory (Linux's `VmRSS`), or `nil` where `/proc` does not say.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kibibytes = line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kibibytes * 1_024
    }
}

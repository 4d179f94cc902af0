import Foundation
public import ScreenplayContract

/// App-scoped state values (v6) kept across launches in the offline storage, as one entry under
/// a reference no screen has: each value with its type, so a value kept by an older screen is
/// read back only as what it was (and each screen then checks it against its own declaration).
public enum AppStateStorage {
    /// The entry's reference: screens are `screens/…`, so it never names one, and the offline sync
    /// never asks the server for it nor removes it.
    public static let reference = "screenplay/app-state"

    /// The values kept in `storage`, each with its type; none when there is no entry or it cannot
    /// be read (a value that is not of its kept type is left out).
    public static func read(from storage: any OfflineStorage) async -> (values: [String: ExpressionValue], types: [String: ExpressionType]) {
        guard let entry = try? await storage.read(reference),
            let json = try? JSONDecoder().decode(JSONValue.self, from: Data(entry.body)), case .object(let members) = json
        else { return ([:], [:]) }
        var values: [String: ExpressionValue] = [:]
        var types: [String: ExpressionType] = [:]
        for (name, kept) in members {
            guard let type = kept["type"].flatMap(ExpressionType.init(json:)), let value = kept["value"].flatMap({ ExpressionValue(json: $0, as: type) })
            else { continue }
            values[name] = value
            types[name] = type
        }
        return (values, types)
    }

    /// Keeps `values` (each with its type from `types`) in `storage`, replacing what was kept.
    public static func write(_ values: [String: ExpressionValue], types: [String: ExpressionType], to storage: any OfflineStorage) async {
        var members: [String: JSONValue] = [:]
        for (name, value) in values {
            guard let type = types[name] else { continue }
            members[name] = ["type": type.json, "value": value.json]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let body = try? encoder.encode(JSONValue.object(members)) else { return }
        try? await storage.write(OfflineEntry(reference: reference, etag: nil, savedAt: Date(), apiVersion: 0, body: Array(body)))
    }
}

import Foundation
public import ScreenplayContract

/// A command's body, read and checked before any handler sees it: empty means `{}`; otherwise
/// it must be declared and valid JSON, and its `storage` (v4: the sending screen's client
/// storage) must keep within the contract's limits, whether or not the command reads it.
enum CommandPayload {
    /// Parses a command body, or throws the 415/400 that says what is wrong and where
    /// (``JSONRequestBody``, the one reader of JSON bodies). Empty means `{}`: a button's command
    /// may carry no payload, and then declares no type either.
    static func parse(_ body: [UInt8], contentType: String?) throws(ScreenplayError) -> JSONValue {
        guard !body.isEmpty else { return .object([:]) }
        return try JSONRequestBody.parse(body, contentType: contentType)
    }

    /// Checks `storage`: an object of at most 64 keys (ids), each a string of at most 4 096
    /// characters. Anything else is a 422 naming the member.
    static func checkStorage(in payload: JSONValue) throws(ScreenplayError) {
        guard let storage = payload["storage"] else { return }
        guard case .object(let members) = storage else {
            throw .invalidField("storage", "'storage' must be an object of strings, found \(storage.typeName)")
        }
        let limits = ValueRules.StorageValues.self
        guard members.count <= limits.keyMaximum else {
            throw .invalidField("storage", "'storage' has \(members.count) keys; the limit is \(limits.keyMaximum)")
        }
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            guard ValueRules.isIdentifier(key, maximum: ValueRules.Key.maximum) else {
                throw .invalidField("storage", "'storage' has the key '\(key.prefix(40))'; keys are 1...64 of A-Z a-z 0-9 . _ : / ~ -")
            }
            guard let text = value.stringValue else {
                throw .invalidField("storage." + key, "'storage.\(key)' must be a string, found \(value.typeName)")
            }
            guard text.unicodeScalars.count <= limits.valueMaximum else {
                throw .invalidField(
                    "storage." + key,
                    "'storage.\(key)' is \(text.unicodeScalars.count) characters long; the limit is \(limits.valueMaximum)")
            }
        }
    }
}

extension ScreenplayService {
    /// Parses a command body: empty means `{}`; otherwise it must be declared and valid JSON.
    public static func parsePayload(_ body: [UInt8], contentType: String?) throws(ScreenplayError) -> JSONValue {
        try CommandPayload.parse(body, contentType: contentType)
    }
}

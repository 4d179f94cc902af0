import Foundation

extension JSONValue {
    /// The value's canonical JSON: compact, keys sorted, slashes unescaped, exactly as the server
    /// encodes screens, so the bytes (and their ``EntityTag``) of a patched screen match the
    /// server's own.
    public var canonicalBytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map(Array.init) ?? Array("null".utf8)
    }
}

/// The strong entity tag of a representation's bytes, as every Screenplay server computes it and
/// as a client checks a patched screen against: `"sp-<16 hex digits>"`, FNV-1a 64 over the bytes
/// mixed with their length. Deterministic across processes, replicas and platforms.
public enum EntityTag {
    /// The tag of `bytes`.
    public static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        let hex = String(hash, radix: 16)
        return "\"sp-" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// The tag naming the same content as `tag` in its identity form: a gzip variant
    /// (`"sp-…-gz"`) is the same content compressed.
    public static func identity(of tag: String) -> String {
        tag.hasSuffix("-gz\"") ? String(tag.dropLast(4)) + "\"" : tag
    }
}

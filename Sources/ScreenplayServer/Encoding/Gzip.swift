import CZlib

/// gzip (RFC 1952) through the system zlib: what cached responses are compressed with, once per
/// cache entry, so a request for compressed bytes costs no compression.
public enum Gzip {
    /// Bodies shorter than this are sent as they are: the gzip header and the CPU cost more than
    /// the bytes saved.
    public static let minimumSize = 1_024

    /// `bytes` gzipped at `level` (1 fastest … 9 smallest; 6 is zlib's balance), or `nil` when
    /// zlib fails (out of memory) or the result would not be smaller.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits plus 16: a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) < bytes.count else { return nil }
        // A copy of exactly the compressed bytes: the working buffer is as large as the input
        // (zlib's bound), and cutting it would keep that capacity, so a cached body would hold
        // its uncompressed size again for a form counted at its compressed one.
        return Array(output[..<Int(stream.total_out)])
    }

    /// Inflates gzip `bytes`, refusing to produce more than `limit` bytes (a zip bomb stops
    /// there). For tests and tools that read what a server sent; `nil` for anything but one
    /// complete, valid gzip member within the limit.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return nil }
                output.append(contentsOf: chunk[..<produced])
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? output : nil
                case Z_OK: continue
                default: return nil  // Z_BUF_ERROR with no input left: truncated
                }
            }
        }
    }
}

/// Content codings a client accepts (`Accept-Encoding`, RFC 9110 §12.5.3).
public enum ContentCoding {
    /// Whether `acceptEncoding` allows gzip: listed (or `x-gzip`, or `*`) with a non-zero
    /// quality. An absent header means identity only here: sending gzip to a client that did
    /// not ask is what breaks old HTTP stacks.
    public static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        var gzip: Bool?
        var star: Bool?
        for item in acceptEncoding.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let name = parts.first?.trimmingWhitespaceSubstring().lowercased() else { continue }
            var allowed = true
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespaceSubstring().lowercased() }
                if pair.count == 2, pair[0] == "q" { allowed = (Double(pair[1]) ?? 0) > 0 }
            }
            switch name {
            case "gzip", "x-gzip": gzip = allowed && (gzip ?? true)
            case "*": star = allowed
            default: continue
            }
        }
        return gzip ?? star ?? false
    }
}

import Foundation

/// A demo track's audio: as long as its row says, synthesized music (a chord progression with a
/// plucked melody over a bass line, different per track), as 8-bit mono WAV at 11 025 Hz.
///
/// Every byte is a pure function of the track and its offset, so any range is made on demand
/// (the `Range` answers that let a browser seek) and a whole 30-minute track is never in memory.
struct AudioTrack: Sendable {
    /// The track's id: what the music is derived from.
    let seed: Int64
    /// Its length, in seconds.
    let seconds: Int
    /// Seconds a beat lasts (84 to 116 beats a minute).
    private let beat: Double
    /// The chords' scale degrees, one per bar, repeating.
    private let progression: [Int]
    /// The frequency of each semitone above the bass's octave, from the track's key.
    private let frequencies: [Double]

    /// The audio of track `seed`, `seconds` long.
    init(seed: Int64, seconds: Int) {
        self.seed = seed
        self.seconds = seconds
        let key = Int(UInt64(bitPattern: seed) % 12)
        beat = 60.0 / Double(84 + Int(UInt64(bitPattern: seed) % 5) * 8)
        progression = Self.progressions[Int(UInt64(bitPattern: seed) % UInt64(Self.progressions.count))]
        let tonic = 98.0 * pow(2, Double(key) / 12)
        frequencies = (0..<48).map { tonic * pow(2, Double($0) / 12) }
    }

    static let sampleRate = 11_025
    static let headerSize = 44

    /// Samples in the track.
    var sampleCount: Int { max(1, seconds) * Self.sampleRate }
    /// Bytes in the file, header included.
    var byteCount: Int { Self.headerSize + sampleCount }
    /// A strong tag for the file: its content follows from the seed, the length and this version.
    var etag: String { "\"track-\(seed)-\(seconds)-v1\"" }

    /// The bytes in `range` (offsets into the file).
    func bytes(_ range: Range<Int>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        let header = self.header
        for offset in range {
            result.append(offset < Self.headerSize ? header[offset] : sample(offset - Self.headerSize))
        }
        return result
    }

    /// The RIFF/WAVE header: PCM, one channel, 8 bits.
    var header: [UInt8] {
        var bytes: [UInt8] = []
        func append32(_ value: Int) { bytes += withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, Array.init) }
        func append16(_ value: Int) { bytes += withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, Array.init) }
        bytes += Array("RIFF".utf8)
        append32(36 + sampleCount)
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(1)
        append16(1)
        append32(Self.sampleRate)
        append32(Self.sampleRate)
        append16(1)
        append16(8)
        bytes += Array("data".utf8)
        append32(sampleCount)
        return bytes
    }

    // MARK: The music

    /// Semitones of the major scale's degrees, for chords.
    private static let scale = [0, 2, 4, 5, 7, 9, 11]
    /// I–vi–IV–V, and three other common progressions (scale degrees, 0-based).
    private static let progressions = [[0, 5, 3, 4], [0, 4, 5, 3], [5, 3, 0, 4], [0, 3, 4, 3]]

    /// The sample at index `index`: melody and bass, enveloped, faded in and out.
    func sample(_ index: Int) -> UInt8 {
        let time = Double(index) / Double(Self.sampleRate)
        let beatIndex = Int(time / beat)
        let inBeat = time - Double(beatIndex) * beat
        let bar = beatIndex / 4
        let degree = progression[bar % progression.count]
        // The chord's three tones; the melody picks one per beat, an octave up now and then.
        let chord = [0, 2, 4].map { Self.scale[(degree + $0) % 7] + ((degree + $0) >= 7 ? 12 : 0) }
        let pick = Self.mix(seed, beatIndex)
        let melody = frequencies[chord[Int(pick % 3)] + (pick & 8 == 0 ? 24 : 36) - 12]
        let bass = frequencies[chord[0]]
        // A pluck: fast attack, exponential decay, a short release so notes never click.
        let attack = min(1, inBeat / 0.01)
        let release = min(1, (beat - inBeat) / 0.02)
        let melodyEnvelope = attack * release * exp(-3.2 * inBeat)
        let inBar = time - Double(bar * 4) * beat
        let bassEnvelope = min(1, inBar / 0.02) * min(1, (4 * beat - inBar) / 0.03) * exp(-0.7 * inBar)
        var value = 0.55 * melodyEnvelope * (sin(2 * .pi * melody * time) + 0.25 * sin(4 * .pi * melody * time))
        value += 0.35 * bassEnvelope * sin(2 * .pi * bass * time)
        // The whole track fades in and out over a second.
        let edge = min(1, time, (Double(sampleCount - index) / Double(Self.sampleRate)))
        return UInt8(clamping: 128 + Int((value * edge * 90).rounded()))
    }

    /// A stable pseudo-random number for a beat of a track.
    private static func mix(_ seed: Int64, _ beat: Int) -> UInt64 {
        var value = UInt64(bitPattern: seed) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(beat) &* 0xBF58_476D_1CE4_E5B9
        value ^= value >> 31
        value = value &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 29)
    }
}

/// A `Range: bytes=…` header, read as RFC 9110 says: one range (`a-b`, `a-`, or the last `-n`
/// bytes); several ranges, or a header that is not one, are answered with the whole file.
enum ByteRange {
    /// What a request's `Range` asks for, out of a file of `size` bytes.
    enum Request: Equatable {
        /// No range, or one the server may ignore: the whole file, `200`.
        case whole
        /// These bytes: `206`.
        case part(Range<Int>)
        /// A range wholly past the end: `416`.
        case unsatisfiable
    }

    static func parse(_ header: String?, size: Int) -> Request {
        guard let header else { return .whole }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), size > 0 else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count)
        guard !spec.contains(",") else { return .whole }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard parts.count == 2 else { return .whole }
        let digits = { (text: String) -> Int? in
            guard !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
            return Int(text)
        }
        if parts[0].isEmpty {
            // The last n bytes.
            guard let count = digits(parts[1]) else { return .whole }
            guard count > 0 else { return .unsatisfiable }
            return .part(max(0, size - count)..<size)
        }
        guard let start = digits(parts[0]) else { return .whole }
        guard start < size else { return .unsatisfiable }
        if parts[1].isEmpty { return .part(start..<size) }
        guard let end = digits(parts[1]), end >= start else { return .whole }
        return .part(start..<(min(end, size - 1) + 1))
    }
}

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
    /// Samples a beat lasts (84 to 116 beats a minute), a whole number so beats start on samples.
    private let beatSamples: Int
    /// The chords' scale degrees, one per bar, repeating.
    private let progression: [Int]
    /// The frequency of each semitone above the bass's octave, from the track's key.
    private let frequencies: [Double]

    /// The audio of track `seed`, `seconds` long.
    init(seed: Int64, seconds: Int) {
        self.seed = seed
        self.seconds = seconds
        let bits = UInt64(bitPattern: seed)
        beatSamples = Self.sampleRate * 60 / (84 + Int(bits % 5) * 8)
        progression = Self.progressions[Int(bits % UInt64(Self.progressions.count))]
        let tonic = 98.0 * pow(2, Double(Int(bits % 12)) / 12)
        frequencies = (0..<48).map { tonic * pow(2, Double($0) / 12) }
    }

    static let sampleRate = 11_025
    static let headerSize = 44

    /// Samples in the track.
    var sampleCount: Int { max(1, seconds) * Self.sampleRate }
    /// Bytes in the file, header included.
    var byteCount: Int { Self.headerSize + sampleCount }
    /// A strong tag for the file: its content follows from the seed, the length and this version.
    var etag: String { "\"track-\(seed)-\(seconds)-v2\"" }

    /// The bytes in `range` (offsets into the file).
    func bytes(_ range: Range<Int>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(range.count)
        if range.lowerBound < Self.headerSize {
            result += header[range.lowerBound..<min(range.upperBound, Self.headerSize)]
        }
        var sample = max(range.lowerBound, Self.headerSize) - Self.headerSize
        let end = min(range.upperBound, byteCount) - Self.headerSize
        while sample < end {
            // A whole beat is made from its first sample, whatever part of it is asked for, so a
            // sample is the same bytes in every range that holds it.
            let beat = sample / beatSamples
            let beatEnd = min((beat + 1) * beatSamples, sampleCount, end)
            render(beat: beat, from: sample, to: beatEnd, into: &result)
            sample = beatEnd
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

    /// Appends samples `from..<to` of beat `beat`: a plucked melody note (fast attack,
    /// exponential decay, a short release so notes never click) with its octave, over the bar's
    /// bass note; the whole track fades in and out over a second. Sines and decays run as
    /// recurrences from the beat's first sample: a few multiplications a sample, no `sin` or `exp`.
    private func render(beat: Int, from: Int, to: Int, into result: inout [UInt8]) {
        let rate = Double(Self.sampleRate)
        let bar = beat / 4
        let degree = progression[bar % progression.count]
        let chord = [0, 2, 4].map { Self.scale[(degree + $0) % 7] + ((degree + $0) >= 7 ? 12 : 0) }
        let pick = Self.mix(seed, beat)
        let melody = Oscillator(frequency: frequencies[chord[Int(pick % 3)] + (pick & 8 == 0 ? 24 : 36) - 12], phase: 0)
        let octave = Oscillator(frequency: melody.frequency * 2, phase: 0)
        let barStart = bar * 4 * beatSamples
        let inBarAtBeat = Double(beat * beatSamples - barStart) / rate
        let bassFrequency = frequencies[chord[0]]
        let bass = Oscillator(frequency: bassFrequency, phase: 2 * .pi * bassFrequency * inBarAtBeat)
        var (m, o, b) = (melody, octave, bass)
        var melodyDecay = 1.0
        var bassDecay = exp(-0.7 * inBarAtBeat)
        let melodyStep = exp(-3.2 / rate)
        let bassStep = exp(-0.7 / rate)
        let beatStart = beat * beatSamples
        let barLength = Double(4 * beatSamples) / rate
        let beatLength = Double(beatSamples) / rate
        for index in beatStart..<to {
            if index >= from {
                let inBeat = Double(index - beatStart) / rate
                let inBar = inBarAtBeat + inBeat
                let melodyEnvelope = min(1, inBeat / 0.01) * min(1, (beatLength - inBeat) / 0.02) * melodyDecay
                let bassEnvelope = min(1, inBar / 0.02) * min(1, (barLength - inBar) / 0.03) * bassDecay
                let value = 0.55 * melodyEnvelope * (m.value + 0.25 * o.value) + 0.35 * bassEnvelope * b.value
                let time = Double(index) / rate
                let edge = min(1, time, Double(sampleCount - index) / rate)
                result.append(UInt8(clamping: 128 + Int((value * edge * 90).rounded())))
            }
            m.advance()
            o.advance()
            b.advance()
            melodyDecay *= melodyStep
            bassDecay *= bassStep
        }
    }

    /// A sine as a recurrence: `sin(n·w + phase)` for n = 0, 1, 2… with two multiplications a step.
    private struct Oscillator {
        let frequency: Double
        private let coefficient: Double
        private var current: Double
        private var previous: Double

        init(frequency: Double, phase: Double) {
            self.frequency = frequency
            let step = 2 * .pi * frequency / Double(AudioTrack.sampleRate)
            coefficient = 2 * cos(step)
            current = sin(phase)
            previous = sin(phase - step)
        }

        var value: Double { current }

        mutating func advance() {
            let next = coefficient * current - previous
            previous = current
            current = next
        }
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
        guard let start = digits(parts[0]) else {
            // A start too large for any number is past the end of any file.
            return parts[0].count > 18 && parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) ? .unsatisfiable : .whole
        }
        guard start < size else { return .unsatisfiable }
        if parts[1].isEmpty { return .part(start..<size) }
        guard let end = digits(parts[1]), end >= start else { return .whole }
        return .part(start..<(min(end, size - 1) + 1))
    }
}

import Foundation
import Testing

@testable import ScreenplayDemo

@Suite("The demo's audio: synthesized music as long as its row, any range made on demand")
struct AudioTests {
    @Test("a WAV header for 8-bit mono at 11 025 Hz, the data as long as the track")
    func header() {
        let track = AudioTrack(seed: 7, seconds: 502)
        let header = track.bytes(0..<44)
        #expect(Array(header[0..<4]) == Array("RIFF".utf8) && Array(header[8..<16]) == Array("WAVEfmt ".utf8))
        func uint32(_ at: Int) -> Int { Int(header[at]) | Int(header[at + 1]) << 8 | Int(header[at + 2]) << 16 | Int(header[at + 3]) << 24 }
        #expect(uint32(24) == 11_025, "sample rate")
        #expect(uint32(40) == 502 * 11_025, "data bytes: 8:22 of audio")
        #expect(track.byteCount == 44 + 502 * 11_025)
    }

    @Test("it is music, not silence: the level moves, notes change, and every range is the same bytes whenever asked")
    func music() {
        let track = AudioTrack(seed: 97, seconds: 60)
        let second = track.bytes(44 + 11_025 * 10..<44 + 11_025 * 11)
        let levels = second.map { Double(Int($0) - 128) }
        let rms = (levels.map { $0 * $0 }.reduce(0, +) / Double(levels.count)).squareRoot()
        #expect(rms > 8, "audible: \(rms)")
        #expect(Set(second).count > 40, "many different sample values")
        // Deterministic: a range made twice, or inside a larger one, is the same bytes.
        #expect(track.bytes(5_000..<6_000) == track.bytes(5_000..<6_000))
        #expect(Array(track.bytes(4_000..<8_000)[1_000..<2_000]) == track.bytes(5_000..<6_000))
        // Two tracks differ.
        #expect(AudioTrack(seed: 98, seconds: 60).bytes(44 + 11_025 * 10..<44 + 11_025 * 11) != second)
    }

    @Test(
        "Range headers: one range of any form, the last n bytes, ranges past the end, and what is ignored",
        arguments: [
            ("bytes=0-99", ByteRange.Request.part(0..<100)), ("bytes=100-", .part(100..<1_000)), ("bytes=-10", .part(990..<1_000)),
            ("bytes=990-5000", .part(990..<1_000)), ("bytes=1000-", .unsatisfiable), ("bytes=-0", .unsatisfiable),
            ("bytes=5-1", .whole), ("bytes=0-1,5-6", .whole), ("items=0-1", .whole), ("bytes=x-1", .whole), ("bytes=-", .whole),
            ("bytes= 10 - 19 ", .part(10..<20)), ("bytes=99999999999999999999-", .unsatisfiable), ("bytes=0-99999999999999", .part(0..<1_000)),
        ])
    func ranges(header: String, expected: ByteRange.Request) {
        #expect(ByteRange.parse(header, size: 1_000) == expected)
    }
}

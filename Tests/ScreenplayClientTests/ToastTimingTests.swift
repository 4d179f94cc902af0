import ScreenplayClient
import Testing

@Suite("How long a toast stays")
struct ToastTimingTests {
    @Test(
        "four seconds for a short confirmation, 60 ms more per character past 40, never past ten",
        arguments: [(0, 4_000), (12, 4_000), (40, 4_000), (41, 4_060), (90, 7_000), (140, 10_000), (10_000, 10_000)])
    func duration(characters: Int, milliseconds: Int64) {
        let duration = ToastTiming.duration(for: String(repeating: "é", count: characters))
        #expect(duration == .milliseconds(milliseconds), "\(characters) characters")
    }
}

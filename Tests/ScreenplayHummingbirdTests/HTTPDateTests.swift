import Testing

@testable import ScreenplayHummingbird

@Suite("The Date header of answers written before routing")
struct HTTPDateTests {
    @Test("IMF-fixdate in GMT, with two-digit days and times")
    func format() {
        #expect(HTTPDate.format(1_800_000_000) == "Fri, 15 Jan 2027 08:00:00 GMT")
        #expect(HTTPDate.format(946_684_805) == "Sat, 01 Jan 2000 00:00:05 GMT")
    }
}

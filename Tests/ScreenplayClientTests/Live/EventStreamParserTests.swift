import ScreenplayClient
import Testing

@Suite("Event stream parser")
struct EventStreamParserTests {
    static let stream = "\u{FEFF}retry: 2000\r\nid: a.1\r\nevent: ready\r\ndata: {\"screens\":{}}\r\n\r\n: heartbeat\n\nid: a.2\n\n"
        + "event: screen\nid: a.3\ndata: line one\ndata:line two\n\ndata\n\nevent: x\rdata: cr only\r\r"

    static func parse(_ text: String, chunks: Int) throws -> (events: [StreamEvent], parser: EventStreamParser) {
        var parser = EventStreamParser()
        var events: [StreamEvent] = []
        let bytes = Array(text.utf8)
        let size = max(1, bytes.count / chunks)
        var start = 0
        while start < bytes.count {
            events += try parser.feed(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        return (events, parser)
    }

    @Test("CR, LF and CRLF end lines; comments and id-only messages dispatch nothing; data lines join")
    func lines() throws {
        let (events, parser) = try Self.parse(Self.stream, chunks: 1)
        #expect(
            events == [
                StreamEvent(type: "ready", data: #"{"screens":{}}"#, lastEventID: "a.1"),
                StreamEvent(type: "screen", data: "line one\nline two", lastEventID: "a.3"),
                StreamEvent(type: "message", data: "", lastEventID: "a.3"),
                StreamEvent(type: "x", data: "cr only", lastEventID: "a.3"),
            ])
        #expect(parser.retry == 2000)
        #expect(parser.lastEventID == "a.3")
    }

    @Test("the same events however the bytes are cut, a CRLF split between chunks included")
    func chunking() throws {
        let whole = try Self.parse(Self.stream, chunks: 1).events
        for chunks in [2, 3, 7, 19, Self.stream.utf8.count] {
            #expect(try Self.parse(Self.stream, chunks: chunks).events == whole, "\(chunks) chunks")
        }
    }

    @Test("an id with NUL is ignored, a retry that is not digits is ignored, unknown fields are ignored")
    func ignored() throws {
        var parser = EventStreamParser(lastEventID: "before")
        let events = try parser.feed(Array("id: a\u{0}b\nretry: 12x\nbogus: 1\nevent: e\ndata: d\n\n".utf8))
        #expect(events == [StreamEvent(type: "e", data: "d", lastEventID: "before")])
        #expect(parser.retry == nil)
    }

    @Test("a line or a message's data past the limit is an overflow, not memory without end")
    func overflow() {
        var long = EventStreamParser(maximumLineBytes: 64)
        #expect(throws: EventStreamParser.Overflow(limit: 64)) { try long.feed(Array(repeating: UInt8(ascii: "a"), count: 65)) }
        var many = EventStreamParser(maximumLineBytes: 64)
        #expect(throws: EventStreamParser.Overflow(limit: 64)) {
            for _ in 0..<10 { _ = try many.feed(Array("data: 0123456789\n".utf8)) }
        }
    }

    @Test("hostile bytes (invalid UTF-8, lone CRs, NULs) never crash and never invent an event without a blank line")
    func hostile() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var parser = EventStreamParser(maximumLineBytes: 256)
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in
                [UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ":"), 0, 0xFF, UInt8(ascii: "d")].randomElement(using: &generator)!
            }
            let events = (try? parser.feed(bytes)) ?? []
            let blankLines = bytes.filter { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }.count
            #expect(events.count <= blankLines)
        }
    }
}

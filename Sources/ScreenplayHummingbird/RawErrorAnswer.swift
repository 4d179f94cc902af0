import HTTPTypes
import NIOCore
import ScreenplayServer

/// A whole HTTP/1.1 error answer as bytes, for the handlers that answer below the HTTP codec (a
/// connection refused over its address's cap, a request head that never arrived): the same JSON
/// body, `Content-Type`, `Retry-After` and `Server` as every other error, and `Connection: close`,
/// since the connection ends right after it.
enum RawErrorAnswer {
    /// The bytes of the answer to `error`, dated now.
    static func bytes(for error: ScreenplayError, serverName: String?, date: inout HTTPDate) -> ByteBuffer {
        let answer = ScreenplayService.errorResponse(error)
        var text = "HTTP/1.1 \(answer.head.status.code) \(answer.head.status.reasonPhrase)\r\n"
        var fields = answer.head.headerFields
        fields[.connection] = "close"
        fields[.contentLength] = String(answer.body.count)
        fields[.date] = date.now()
        if let serverName { fields[.server] = serverName }
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        text += "\r\n"
        var buffer = ByteBuffer(string: text)
        buffer.writeBytes(answer.body)
        return buffer
    }
}

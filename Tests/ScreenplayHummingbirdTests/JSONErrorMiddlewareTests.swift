import Foundation
import HTTPTypes
import Hummingbird
import ScreenplayContract
import ScreenplayHummingbird
import ScreenplayServer
import Testing

/// Every error a host's routes or the framework answer is JSON with a code.
@Suite("JSON errors for a host's own routes")
struct JSONErrorMiddlewareTests {
    struct Broken: Error {}

    static func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        router.get("plain") { _, _ -> Response in throw HTTPError(.notFound) }
        router.get("said") { _, _ -> Response in throw HTTPError(.badRequest, message: "no such thing") }
        router.get("own") { _, _ -> Response in throw ScreenplayError.tooManyRequests("slow down", retryAfter: 3) }
        router.get("empty") { _, _ in Response(status: .serviceUnavailable, headers: [.retryAfter: "2"]) }
        router.get("broken") { _, _ -> Response in throw Broken() }
        router.get("fine") { _, _ in "ok" }
        return router
    }

    static func error(_ response: LoopbackResponse) throws -> ErrorBody.Detail {
        try JSONDecoder().decode(ErrorBody.self, from: Data(buffer: response.body)).error
    }

    @Test(
        "the framework's errors, the router's 404, a ScreenplayError, a bodiless error response and any other error: JSON with a code",
        arguments: [
            ("/plain", 404, "notFound"), ("/said", 400, "badRequest"), ("/own", 429, "tooManyRequests"), ("/empty", 503, "unavailable"),
            ("/broken", 500, "internalError"), ("/nowhere", 404, "notFound"),
        ])
    func shapes(path: String, status: Int, code: String) async throws {
        try await withLoopbackServer(Self.makeRouter()) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status.code == status)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let error = try Self.error(response)
                #expect(error.code == code, "\(String(buffer: response.body))")
            }
        }
    }

    @Test("messages and headers survive; a 404 names the path; HEAD gets the head alone; answers with a body pass untouched")
    func details() async throws {
        try await withLoopbackServer(Self.makeRouter()) { client in
            try await client.execute(uri: "/said", method: .get) { response in
                let error = try Self.error(response)
                #expect(error.message == "no such thing")
            }
            try await client.execute(uri: "/own", method: .get) { response in
                #expect(response.headers[.retryAfter] == "3")
            }
            try await client.execute(uri: "/empty", method: .get) { response in
                #expect(response.headers[.retryAfter] == "2")
            }
            try await client.execute(uri: "/nowhere/at/all", method: .get) { response in
                let error = try Self.error(response)
                #expect(error.message.contains("/nowhere/at/all"))
            }
            try await client.execute(uri: "/nowhere", method: .head) { response in
                #expect(response.status == .notFound && response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/fine", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body) == "ok")
            }
        }
    }
}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Synchronization
import Testing

@Suite("The service's encoded-screen cache: its budget, its key, its errors (the cache itself: ByteBudgetCacheTests)")
struct EncodedCacheTests {
    /// A per-user screen of about `size` bytes whose revision the test controls.
    static func service(
        budget: Int, size: Int = 2_000, revision: RevisionBox = RevisionBox("1"), builds: Counter = Counter(), delay: Duration = .zero
    )
        -> ScreenplayService
    {
        var routes = ScreenplayRoutes()
        routes.screen("mine", revision: { _ in revision.value }) { request in
            builds.increment()
            if delay > .zero { try await Task.sleep(for: delay) }
            return Screen(id: "mine", title: "user \(request.user.id) r\(revision.value)") {
                Section("s") { Text(String(repeating: "x", count: size)) }
            }
        }
        return ScreenplayService(routes: routes, identity: CountingIdentities(), configuration: .init(cacheByteBudget: budget))
    }

    static func get(_ service: ScreenplayService, token: String) async -> ScreenplayService.Response {
        await service.respond(to: request(.get, "/api/v4/screens/mine", headers: [.authorization: "Bearer " + token]), body: [])
    }

    @Test("however many users ask, the cached bytes stay within the budget, least recently used out first")
    func budget() async throws {
        let service = Self.service(budget: 40_000)
        for user in 0..<100 {
            let response = await Self.get(service, token: "token-\(user)")
            #expect(response.head.status == .ok)
            let stats = service.cacheStatistics
            #expect(stats.bytes <= 40_000, "after user \(user): \(stats.bytes) bytes")
        }
        let stats = service.cacheStatistics
        #expect(stats.evictions > 50)
        #expect(stats.entries >= 10 && stats.entries <= 20, "\(stats)")
    }

    @Test("concurrent misses for one screen build it once")
    func singleFlight() async throws {
        let builds = Counter()
        let service = Self.service(budget: 1 << 20, builds: builds, delay: .milliseconds(200))
        let token = "token-1"
        let statuses = await withTaskGroup(of: HTTPResponse.Status.self) { group in
            for _ in 0..<20 { group.addTask { await Self.get(service, token: token).head.status } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: .ok, count: 20))
        #expect(builds.count == 1)
        #expect(service.cacheStatistics.sharedBuilds == 19)
    }

    @Test("a failed build is not cached and does not block the next request")
    func failure() async throws {
        let fail = RevisionBox("yes")
        var routes = ScreenplayRoutes()
        routes.screen("flaky", revision: { _ in "1" }) { _ in
            if fail.value == "yes" { throw ScreenplayError.notFound("not yet", path: "flaky") }
            return Screen(id: "flaky", title: "ok") { Section("s") { Text("x") } }
        }
        let service = ScreenplayService(routes: routes, identity: CountingIdentities())
        let path = "/api/v4/screens/flaky"
        let token = "Bearer " + "token-1"
        #expect(await service.respond(to: request(.get, path, headers: [.authorization: token]), body: []).head.status == .notFound)
        fail.value = "no"
        #expect(await service.respond(to: request(.get, path, headers: [.authorization: token]), body: []).head.status == .ok)
    }
}

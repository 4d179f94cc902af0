import Foundation
import HTTPTypes
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import ScreenplayStoreSQLite
import ScreenplayTestSupport
import Testing

@testable import ScreenplayAdmin

/// The sign-in form of `/admin` as a browser uses it: the form's cookie, the post, the cookies
/// the answer sets, from many client addresses.
@Suite("Admin sign-in pages")
struct AdminSignInTests {
    /// A browser's cookie jar, as far as these pages go.
    struct Browser {
        var cookies: [String: String] = [:]

        var header: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

        mutating func keep(_ response: ScreenplayService.Response) {
            for field in response.head.headerFields[values: .setCookie] {
                let pair = field.split(separator: ";")[0].split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                if pair[1].isEmpty || field.contains("Max-Age=0") { cookies[pair[0]] = nil } else { cookies[pair[0]] = pair[1] }
            }
        }
    }

    static func signIn(
        _ site: AdminSite, _ browser: inout Browser, name: String, password: String, address: String
    ) async -> ScreenplayService.Response {
        var get = HTTPRequest(method: .get, scheme: "http", authority: "admin.test", path: "/admin/login")
        if !browser.cookies.isEmpty { get.headerFields[.cookie] = browser.header }
        browser.keep(await site.respond(to: get, body: [], clientAddress: address))
        var post = HTTPRequest(method: .post, scheme: "http", authority: "admin.test", path: "/admin/login")
        post.headerFields[.cookie] = browser.header
        post.headerFields[.contentType] = "application/x-www-form-urlencoded"
        let body = "login=\(browser.cookies[AdminSite.loginCookie] ?? "")&name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))"
        let response = await site.respond(to: post, body: Array(body.utf8), clientAddress: address)
        browser.keep(response)
        return response
    }

    @Test("the device cookie: ada's own browser signs in after 30 failures from 30 addresses locked her name; a new browser waits", arguments: [StoreBackend.sqlite])
    func deviceCookieSignIn(backend: StoreBackend) async throws {
        try await withStore(backend) { store in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations + AdminDirectory.migrations).run(on: store)
            let admins = AdminDirectory(store: store, hasher: .fastForTests)
            let site = AdminSite(admins: admins, layouts: LayoutStore(store: store), experiments: ExperimentStore(store: store), pages: nil)
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            var adas = Browser()
            let first = await Self.signIn(site, &adas, name: "ada", password: "correct horse battery", address: "10.0.0.1")
            #expect(first.head.status == .seeOther)
            let device = try #require(adas.cookies["screenplay_admin_device_ada"], "a successful sign-in keeps a device cookie")
            let setCookie = first.head.headerFields[values: .setCookie].first { $0.hasPrefix("screenplay_admin_device_ada=") } ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/admin/login"), "\(setCookie)")

            for address in 1...30 {
                var attacker = Browser()
                _ = await Self.signIn(site, &attacker, name: "ada", password: "guess number \(address)", address: "198.51.100.\(address)")
            }
            // A browser without the cookie (ada's new phone, or the attacker with the password) waits.
            var fresh = Browser()
            let untrusted = await Self.signIn(site, &fresh, name: "ada", password: "correct horse battery", address: "10.0.0.2")
            #expect(untrusted.head.status == .tooManyRequests)
            #expect(untrusted.head.headerFields[.retryAfter] != nil)
            // Ada's own browser gets in, and is given a fresh device cookie.
            let trusted = await Self.signIn(site, &adas, name: "ada", password: "correct horse battery", address: "10.0.0.1")
            #expect(trusted.head.status == .seeOther, "\(String(decoding: trusted.body, as: UTF8.self).prefix(300))")
            #expect(adas.cookies[AdminSite.sessionCookie] != nil)
            #expect(adas.cookies["screenplay_admin_device_ada"] != device, "each success issues a new device cookie")
        }
    }
}

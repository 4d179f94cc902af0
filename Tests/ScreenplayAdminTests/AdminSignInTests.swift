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

    @Test("a form posted from another site is refused before anything else, sign-in included; the same form from the site goes through")
    func crossSiteForms() async throws {
        try await withStore(.sqlite) { store in
            try await Migrator(LayoutStore.migrations + ExperimentStore.migrations + AdminDirectory.migrations).run(on: store)
            let admins = AdminDirectory(store: store, hasher: .fastForTests)
            let site = AdminSite(admins: admins, layouts: LayoutStore(store: store), experiments: ExperimentStore(store: store), pages: nil)
            _ = try await admins.createAdmin(name: "ada", password: "correct horse battery")
            var browser = Browser()
            #expect(await Self.signIn(site, &browser, name: "ada", password: "correct horse battery", address: "10.0.0.1").head.status == .seeOther)
            let sessionID = try #require(browser.cookies[AdminSite.sessionCookie])
            let session = try #require(try await admins.session(id: sessionID))
            // A valid session and CSRF token, posted by a page of another site.
            func post(_ path: String, _ body: String, _ fields: HTTPFields) async -> ScreenplayService.Response {
                var request = HTTPRequest(method: .post, scheme: "http", authority: "admin.test", path: path)
                request.headerFields[.cookie] = browser.header
                request.headerFields[.contentType] = "application/x-www-form-urlencoded"
                request.headerFields.append(contentsOf: fields)
                return await site.respond(to: request, body: Array(body.utf8), clientAddress: "10.0.0.1")
            }
            let form = "csrf=\(session.csrf)&key=launch&description=x"
            let evil: [HTTPFields] = [
                [.origin: "http://evil.example"], [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
                [.origin: "http://evil.example", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"],
            ]
            for fields in evil {
                let refused = await post("/admin/experiments/new", form, fields)
                #expect(refused.head.status == .forbidden, "\(fields)")
                #expect(String(decoding: refused.body, as: UTF8.self).contains("only from this site"))
                let login = await post("/admin/login", "name=ada&password=correct+horse+battery", fields)
                #expect(login.head.status == .forbidden, "a sign-in from another site (login CSRF): \(fields)")
            }
            let sameSite = await post(
                "/admin/experiments/new", form, [.origin: "http://admin.test", HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(sameSite.head.status != .forbidden, "\(String(decoding: sameSite.body, as: UTF8.self).prefix(300))")
        }
    }
}

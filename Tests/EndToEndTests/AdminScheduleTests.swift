import Foundation
import HTTPTypes
@testable import ScreenplayAdmin
import ScreenplayComposer
import ScreenplayContract
@testable import ScreenplayDemo
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayWeb
import Testing

/// Publishing later over HTTP, as a browser without the script does it: the review's second form
/// schedules the draft as reviewed, the page shows the schedule with what it will change and a
/// cancel button, and the running server's scheduler publishes it when due.
@Suite("Admin: scheduled publishes over HTTP")
struct AdminScheduleTests {
    @Test("scheduled from the review, shown on the page, published by the server's scheduler when due; a bad time is refused beside its field")
    func scheduleShowAndPublish() async throws {
        try await AdminEditorTests.signedIn { root, demo, cookie, post in
            var draft = try #require(try await demo.layouts.published(route: "shop")).template
            draft.sections[1].title = "Deal of the hour"
            try await demo.layouts.saveDraft(draft, by: "ada")
            let digest = try #require(try await demo.layouts.draft(of: "shop")).template.digest
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)
            #expect(review.text.contains("<h2 id=\"later-title\">Or publish it later</h2>"))
            #expect(review.text.contains("type=\"datetime-local\" step=\"60\" required id=\"schedule-at\" name=\"at\""), "\(review.text.suffix(1500))")

            // A time past, or none, or not a time: refused beside the field, nothing scheduled.
            for (at, words) in [("2020-01-01T09:00", "not in the future"), ("", "Choose when to publish"), ("soon", "not a date and time")] {
                let refused = try await post("/admin/pages/shop/schedule", ["confirm": "yes", "expectedDraft": digest, "at": at])
                #expect(refused.status == .unprocessableContent, "\(at)")
                #expect(refused.text.contains("id=\"schedule-at-error\">") && refused.text.contains(words), "\(at): \(refused.text.suffix(1200))")
            }
            #expect(try await demo.layouts.scheduledPublishes().isEmpty)
            // A draft saved since the review is not scheduled unseen.
            let stale = try await post("/admin/pages/shop/schedule", ["confirm": "yes", "expectedDraft": "\"other\"", "at": "2099-01-01T09:00"])
            #expect(stale.status == .conflict)

            let at = Date().addingTimeInterval(3)
            let when = ScheduledPublish.stored(at)
            let scheduled = try await post(
                "/admin/pages/shop/schedule", ["confirm": "yes", "expectedDraft": digest, "at": String(when.dropLast()), "note": "the hour's deal"])
            #expect(scheduled.status == .seeOther, "\(scheduled.text.prefix(600))")
            let pageView = try await raw(.get, root, "/admin/pages/shop?done=scheduled", headers: cookie)
            #expect(pageView.text.contains("<h2 id=\"schedule-title\">Scheduled publish</h2>"))
            #expect(pageView.text.contains("<time datetime=\"\(when)\">"))
            #expect(pageView.text.contains("Section deal heading “Deal of the day” → “Deal of the hour”"), "what it will change")
            #expect(pageView.text.contains("id=\"cancel-schedule\""))

            // The server's scheduler (a service of the running application) publishes it.
            let deadline = ContinuousClock.now + .seconds(20)
            var live = try await demo.layouts.published(route: "shop")
            while live?.revision == 1, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                live = try await demo.layouts.published(route: "shop")
            }
            #expect(live?.revision == 2)
            #expect(live?.template.sections[1].title == "Deal of the hour")
            #expect(live?.publishedBy == "ada")
            #expect(live?.note == "scheduled for \(when): the hour's deal")
            let after = try await raw(.get, root, "/admin/pages/shop", headers: cookie)
            #expect(!after.text.contains("id=\"schedule-title\""), "no schedule shown once published")
            #expect(try await demo.layouts.draft(of: "shop") == nil, "the reviewed draft is cleared")
        }
    }

    @Test("the admin's time zone: chosen once, a name the system does not know refused beside its field; every time shown and every picker read in it")
    func timeZone() async throws {
        try await AdminEditorTests.signedIn { root, demo, cookie, post in
            let page = try await raw(.get, root, "/admin/time-zone", headers: cookie)
            #expect(page.status == .ok)
            #expect(page.text.contains("Times in UTC</a>") && page.text.contains(#"<option value="Europe/Zurich"></option>"#))
            let refused = try await post("/admin/time-zone", ["zone": "Mars/Olympus_Mons"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"id="zone-error">“Mars/Olympus_Mons” is not a time zone this server knows"#))
            #expect(refused.text.contains(#"value="Mars/Olympus_Mons""#), "what was typed is kept")
            #expect(refused.headers[.setCookie] == nil)

            let chosen = try await post("/admin/time-zone", ["zone": "Europe/Zurich"])
            #expect(chosen.status == .seeOther)
            let setCookie = try #require(chosen.headers[values: .setCookie].first { $0.hasPrefix(AdminSite.zoneCookie) })
            #expect(setCookie.hasPrefix("screenplay_admin_zone=Europe/Zurich;") && setCookie.contains("Path=/admin"))
            var zoned = cookie
            zoned[.cookie] = (cookie[.cookie] ?? "") + "; screenplay_admin_zone=Europe/Zurich"

            // A schedule typed as 10:00 in Zurich in January is 09:00 UTC, and is shown as typed.
            var draft = try #require(try await demo.layouts.published(route: "shop")).template
            draft.sections[1].title = "Deal of the winter"
            try await demo.layouts.saveDraft(draft, by: "ada")
            let digest = try #require(try await demo.layouts.draft(of: "shop")).template.digest
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: zoned)
            #expect(review.text.contains("Publish at (Europe/Zurich)") && review.text.contains("Times in Europe/Zurich</a>"))
            let csrf = try #require(review.text.range(of: #"name="csrf" value=""#).map { String(review.text[$0.upperBound...].prefix { $0 != "\"" }) })
            var form = zoned
            form[.contentType] = "application/x-www-form-urlencoded"
            let body = "csrf=\(csrf)&confirm=yes&expectedDraft=\(AdminSite.queryEscape(digest))&at=2099-01-15T10%3A00"
            let scheduled = try await raw(.post, root, "/admin/pages/shop/schedule", headers: form, body: Array(body.utf8))
            #expect(scheduled.status == .seeOther, "\(scheduled.text.prefix(800))")
            let schedule = try #require(try await demo.layouts.scheduledPublishes().first)
            #expect(ScheduledPublish.stored(schedule.at) == "2099-01-15T09:00:00Z")
            let shown = try await raw(.get, root, "/admin/pages/shop", headers: zoned)
            #expect(shown.text.contains(#"<time datetime="2099-01-15T09:00:00Z">2099-01-15 10:00 Europe/Zurich</time>"#))
            // Without the cookie the same page reads in UTC.
            let utc = try await raw(.get, root, "/admin/pages/shop", headers: cookie)
            #expect(utc.text.contains(#"<time datetime="2099-01-15T09:00:00Z">2099-01-15 09:00 UTC</time>"#))
            // A cookie naming no zone is UTC.
            var bogus = cookie
            bogus[.cookie] = (cookie[.cookie] ?? "") + "; screenplay_admin_zone=%3Cscript%3E"
            #expect(try await raw(.get, root, "/admin/pages/shop", headers: bogus).text.contains("2099-01-15 09:00 UTC"))
        }
    }

    @Test("a cancelled schedule publishes nothing; cancelling twice says it was already gone")
    func cancel() async throws {
        try await AdminEditorTests.signedIn { root, demo, cookie, post in
            var draft = try #require(try await demo.layouts.published(route: "shop")).template
            draft.title = "Later"
            try await demo.layouts.saveDraft(draft, by: "ada")
            let digest = try #require(try await demo.layouts.draft(of: "shop")).template.digest
            #expect(try await post("/admin/pages/shop/schedule", ["confirm": "yes", "expectedDraft": digest, "at": "2099-06-01T09:00"]).status == .seeOther)
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)
            #expect(review.text.contains("id=\"already-scheduled\""), "the review says a publish is scheduled")
            let cancelled = try await post("/admin/pages/shop/schedule/cancel", [:])
            #expect(cancelled.headers[.location]?.hasSuffix("?done=unscheduled") == true)
            #expect(try await post("/admin/pages/shop/schedule/cancel", [:]).headers[.location]?.hasSuffix("?done=notScheduled") == true)
            #expect(try await demo.layouts.scheduledPublishes().isEmpty)
            #expect(try await demo.layouts.auditLog(subject: "shop").first?.action == "cancel scheduled publish")
        }
    }

    @Test("an experiment to a decision: where it is used, stop asks and says what changes, results in words with the sample needed, and rolling out the winner makes a draft")
    func decision() async throws {
        try await AdminEditorTests.signedIn { root, demo, cookie, post in
            let key = "shop-free-shipping"
            let page = try await raw(.get, root, "/admin/experiments/\(key)?effect=0.5", headers: cookie)
            #expect(page.text.contains("<h2 id=\"experiment-uses-title\">Where it is used</h2>"))
            #expect(page.text.contains("(live): free-shipping (promoBanner), shown to banner</li>"), "\(page.text.prefix(0))")
            #expect(page.text.contains("<p id=\"verdict\" role=\"status\">"))
            #expect(page.text.contains("id=\"sample-needed\""))
            #expect(page.text.contains("id=\"rollout-banner\""))

            // Stop asks first, in words naming the widget; nothing changes until confirmed.
            let asked = try await post("/admin/experiments/\(key)/stop", [:])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("widgets shown only to a variant are hidden from everyone. Live widgets shown only to a variant: free-shipping on shop (banner)."), "\(asked.text.suffix(1_500))")
            #expect(try await demo.experiments.experiment(key)?.stop == nil)

            // Roll out "banner": the confirmation says what each page's draft will do; then the draft.
            let rollout = try await post("/admin/experiments/\(key)/rollout", ["variant": "banner"])
            #expect(rollout.text.contains("<li><strong>shop</strong> (its live page): shown to everyone: free-shipping</li>"), "\(rollout.text.suffix(1_500))")
            #expect(try await demo.layouts.draft(of: "shop") == nil, "nothing made before confirming")
            let made = try await post("/admin/experiments/\(key)/rollout", ["variant": "banner", "confirm": "yes"])
            #expect(made.headers[.location] == "/admin/pages/shop?done=experimentRolledOut")
            let draft = try #require(try await demo.layouts.draft(of: "shop")).template
            let banner = try #require(draft.instances.first { $0.id == "free-shipping" })
            #expect(banner.conditions.experiment == nil, "shown to everyone")
            #expect(try await demo.experiments.experiment(key)?.isRunning(at: Date()) == true, "still running until stopped")
            // Rolling out the control instead removes the banner (it was shown to no one else).
            _ = try await demo.layouts.discardDraft(of: "shop", by: "ada")
            _ = try await post("/admin/experiments/\(key)/rollout", ["variant": "control", "confirm": "yes"])
            #expect(try #require(try await demo.layouts.draft(of: "shop")).template.instances.contains { $0.id == "free-shipping" } == false)
            #expect(try await post("/admin/experiments/\(key)/rollout", ["variant": "nope", "confirm": "yes"]).status == .unprocessableContent)
        }
    }
}

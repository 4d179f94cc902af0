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

/// The draft editor over HTTP, as a browser without the script uses it: the widget palette (the
/// kinds the page can hold with their examples, the filter, adding a kind with an id of its own,
/// the example's parameters, at the place it was dropped, the new card opened with its first
/// field focused) and the schedule pickers.
@Suite("Admin editor over HTTP")
struct AdminEditorTests {
    @Test("the palette lists each kind with a rendered example, filters by every word, and adds a kind where it was dropped")
    func paletteListsFiltersAndAdds() async throws {
        try await Self.signedIn { root, demo, cookie, post in

            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(editor.status == .ok)
            for kind in ["recordingOffer", "priceTag", "cartButton"] {
                #expect(editor.text.contains("id=\"palette-\(kind)\" data-kind=\"\(kind)\""), "\(kind) in the palette")
                #expect(editor.text.contains("id=\"palette-add-\(kind)\""))
            }
            // This server runs without the promotions service: its kind is not offered.
            #expect(!editor.text.contains("palette-promoBanner"))
            #expect(editor.text.contains("<p id=\"palette-count\" role=\"status\">3 kinds</p>"))
            // The examples, rendered as the web shows them (through each kind's fallback).
            let palette = try #require(editor.text.range(of: "<aside class=\"palette\"").map { String(editor.text[$0.lowerBound...]) })
            #expect(palette.contains("Cello Suite No. 1, today: €9.99"), "the price tag's fallback text")
            #expect(palette.contains("<span class=\"title\">Cello Suite No. 1</span>"), "the offer's list row")
            #expect(palette.contains("Buy the recording · €9.99"))

            // The filter without the script: every word somewhere in a kind's text, any case.
            let filtered = try await raw(.get, root, "/admin/pages/shop/edit?filter=PRICE%20work", headers: cookie)
            #expect(filtered.text.contains("2 of 3 kinds match “PRICE work”"))
            for (kind, shown) in [("priceTag", true), ("cartButton", true), ("recordingOffer", false)] {
                let item = try #require(filtered.text.firstMatch(of: try Regex("<li class=\"palette-item\" id=\"palette-\(kind)\"[^>]*>")))
                #expect(item.output[0].substring!.contains(" hidden") != shown, "\(kind) shown: \(shown)")
            }
            #expect(try await raw(.get, root, "/admin/pages/shop/edit?filter=zzz", headers: cookie).text.contains("0 of 3 kinds match"))

            // Dropped first in "deal": a new id, the example's vertical and parameters, at index 0;
            // back at the new card, open, its first parameter focused.
            let added = try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "priceTag", "section": "deal", "index": "0"])
            #expect(added.status == .seeOther, "\(added.status) \(added.text.prefix(400))")
            let location = try #require(added.headers[.location])
            #expect(location.contains("open=priceTag-1") && location.contains("focus=priceTag-1-p-workID"), "\(location)")
            var draft = try #require(try await demo.layouts.draft(of: "shop")).template
            let deal = try #require(draft.sections.first { $0.id == "deal" })
            #expect(deal.widgets.first?.id == "priceTag-1")
            #expect(deal.widgets.first?.vertical == "pricing")
            #expect(deal.widgets.first?.parameters == ["workID": 1])
            let reopened = try await raw(.get, root, location, headers: cookie)
            #expect(reopened.text.contains("id=\"priceTag-1-p-workID\" name=\"p.workID\" value=\"1\""))
            #expect(reopened.text.contains("<details open><summary>Edit priceTag-1</summary>"))
            #expect(reopened.text.contains("autofocus id=\"priceTag-1-p-workID\""))
            // The section it went to stays chosen in the palette's menus.
            #expect(location.contains("to=deal"))
            #expect(reopened.text.contains("name=\"section\"><option>promotions</option><option selected>deal</option>"))

            // Pressing Add (no place): the next free id, at the end; a position past the end or
            // before the start is clamped.
            #expect(try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "priceTag", "section": "deal"]).status == .seeOther)
            #expect(try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "recordingOffer", "section": "deal", "index": "-7"]).status == .seeOther)
            #expect(try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "cartButton", "section": "deal", "index": "999"]).status == .seeOther)
            draft = try #require(try await demo.layouts.draft(of: "shop")).template
            let ids = try #require(draft.sections.first { $0.id == "deal" }).widgets.map(\.id)
            #expect(ids.first == "recordingOffer-1")
            #expect(Array(ids.suffix(2)) == ["priceTag-2", "cartButton-1"], "\(ids)")

            // A kind the catalog does not know, or a section the page does not have: refused in
            // words, nothing saved.
            let unknown = try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "nope", "section": "deal"])
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.text.contains("error-summary") && unknown.text.contains("nope"), "\(unknown.text.prefix(300))")
            let nowhere = try await post("/admin/pages/shop/edit/add", ["from": "palette", "kind": "priceTag", "section": "attic"])
            #expect(nowhere.status == .unprocessableContent)
            #expect(nowhere.text.contains("<a href=\"#add-section\">new widget: section: choose one of the page&#39;s sections</a>"))
            #expect(nowhere.text.contains("aria-invalid=\"true\" aria-describedby=\"add-section-error\""))
            #expect(try #require(try await demo.layouts.draft(of: "shop")).template == draft)
        }
    }

    @Test("a widget's schedule is picked to the minute in UTC; what a picker or a script sends is read, anything else refused beside the field")
    func schedulePickers() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(editor.text.contains("type=\"datetime-local\" step=\"60\" id=\"deal-price-c_from\""))
            let fields = ["p.workID": "", "c.from": "2026-12-01T09:30", "c.until": "2026-12-08T00:00:00Z"]
            let work = try #require(try await demo.layouts.published(route: "shop")).template.instances.first { $0.id == "deal-price" }?
                .parameters["workID"]?.integerValue
            var form = fields
            form["p.workID"] = String(work ?? 0)
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price", form).status == .seeOther)
            let window = try #require(try await demo.layouts.draft(of: "shop")?.template.instances.first { $0.id == "deal-price" }?.conditions.window)
            #expect(window.start == Date(timeIntervalSince1970: 1_796_117_400))  // 2026-12-01 09:30 UTC
            #expect(window.end == Date(timeIntervalSince1970: 1_796_688_000))  // 2026-12-08 00:00 UTC
            // Shown again as the picker holds it.
            let again = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(again.text.contains("id=\"deal-price-c_from\" name=\"c.from\" value=\"2026-12-01T09:30\""))
            #expect(again.text.contains("<span class=\"chip\">from 2026-12-01 09:30 UTC until 2026-12-08 00:00 UTC</span>"))
            form["c.from"] = "next tuesday"
            let refused = try await post("/admin/pages/shop/edit/widgets/deal-price", form)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("“next tuesday” is not a date and time"))
            #expect(refused.text.contains("value=\"next tuesday\""), "what was typed stays")
        }
    }

    @Test("a card's Move to menu lists every place and moves the widget there in one step; a place that does not exist is refused")
    func moveTo() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            let menu = try #require(editor.text.firstMatch(of: /<select id="moveto-deal-buy" name="place">(.*?)<\/select>/)).output.1
            #expect(menu.contains("<option value=\"0@promotions\">promotions: first</option>"))
            #expect(menu.contains("<option value=\"2@deal\" selected>deal: after deal-price</option>"), "its own place chosen")
            #expect(!menu.contains("after deal-buy"), "positions are counted without the widget")

            let moved = try await post("/admin/pages/shop/edit/widgets/deal-buy/move", ["place": "1@promotions"])
            #expect(moved.status == .seeOther)
            let location = try #require(moved.headers[.location])
            #expect(location.contains("focus=moveto-deal-buy") && location.contains("open=deal-buy"))
            let draft = try #require(try await demo.layouts.draft(of: "shop")).template
            #expect(draft.sections[0].widgets.map(\.id) == ["spring-sale", "deal-buy", "free-shipping"])
            let back = try await raw(.get, root, location, headers: cookie)
            #expect(back.text.contains("<select id=\"moveto-deal-buy\" name=\"place\" autofocus>"))
            // Its disclosure open again (the menu in it takes the focus); the other cards' closed.
            #expect(back.text.contains("<details class=\"move-to\" open><summary id=\"moveto-deal-buy-open\""))
            #expect(back.text.contains("<details class=\"move-to\"><summary id=\"moveto-deal-price-open\""))

            for place in ["x@deal", "1@nowhere", "1", "@"] {
                let refused = try await post("/admin/pages/shop/edit/widgets/deal-buy/move", ["place": place])
                #expect(refused.status == .unprocessableContent, "\(place)")
            }
            #expect(try #require(try await demo.layouts.draft(of: "shop")).template == draft)
        }
    }

    @Test("a recording that does not exist is refused beside its field; one of the work saves and names its performers in the offer")
    func missingRecording() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let work = try #require(live.instances.first { $0.id == "deal-offer" }?.parameters["workID"]?.integerValue)
            var form = ["p.workID": String(work), "p.recordingID": "99999"]
            let refused = try await post("/admin/pages/shop/edit/widgets/deal-offer", form)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("<a href=\"#deal-offer-p-recordingID\">deal-offer: recordingID: no recording 99999"), "\(refused.text.prefix(600))")
            #expect(refused.text.contains("id=\"deal-offer-p-recordingID-error\">no recording 99999"))
            #expect(try await demo.layouts.draft(of: "shop") == nil, "nothing saved")

            let (recording, _) = try #require(try await demo.catalog.recordings(workID: Int64(work)).first)
            form["p.recordingID"] = String(recording.id)
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-offer", form).status == .seeOther)
            let preview = try await raw(.get, root, "/admin/pages/shop/preview?platform=web", headers: cookie)
            #expect(preview.text.contains("\(recording.performers) (\(recording.year)) · "), "the draft's offer names the recording")
        }
    }

    @Test("a deal's copy is typed per locale on its card: saved, shown again, composed in each reader's language; bad content refused beside its input")
    func contentOnTheCard() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let work = try #require(live.instances.first { $0.id == "deal-offer" }?.parameters["workID"]?.integerValue)
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            // A text input per locale, with its limit, and the link's picker over the app's screens.
            #expect(editor.text.contains("<label for=\"deal-offer-k_headline_de\">Headline in German (de)</label>"), "\(editor.text.prefix(0))")
            #expect(editor.text.contains("data-max=\"60\" lang=\"de\" id=\"deal-offer-k_headline_de\" name=\"k.headline.de\""))
            #expect(editor.text.contains("<option value=\"screens/composer/bach\">A composer</option>"))

            // Refused beside each input, what was typed kept: a text over its limit, an image
            // that does not load and one without alt text, a link to no screen of the app.
            var form = [
                "p.workID": String(work), "k.headline.en": String(repeating: "x", count: 61), "k.headline.de": "Angebot der Woche",
                "k.image.url": "/images/work/99999.svg", "k.link": "screens/admin",
            ]
            let refused = try await post("/admin/pages/shop/edit/widgets/deal-offer", form)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("id=\"deal-offer-k_headline_en-error\">Headline: 61 characters; at most 60"), "\(refused.text.prefix(800))")
            #expect(refused.text.contains("id=\"deal-offer-k_image_alt_en-error\">Image&#39;s alt text: required in en"))
            #expect(refused.text.contains("id=\"deal-offer-k_link-error\">Link: &#39;screens/admin&#39; opens no screen of this app"))
            #expect(refused.text.contains("value=\"Angebot der Woche\""), "what was typed stays")
            #expect(try await demo.layouts.draft(of: "shop") == nil, "nothing saved")
            form["k.image.alt.en"] = "The score"
            form["k.headline.en"] = "Deal of the week"
            form["k.link"] = "screens/composer/bach"
            let missing = try await post("/admin/pages/shop/edit/widgets/deal-offer", form)
            #expect(missing.status == .unprocessableContent)
            #expect(missing.text.contains("id=\"deal-offer-k_image_url-error\">&#39;/images/work/99999.svg&#39; does not load"), "\(missing.text.prefix(800))")

            form["k.image.url"] = "/images/work/\(work).svg"
            form["k.body.en"] = "  One price, this week only.  "
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-offer", form).status == .seeOther)
            let saved = try #require(try await demo.layouts.draft(of: "shop")?.template.instances.first { $0.id == "deal-offer" })
            #expect(
                saved.content == [
                    "headline": ["en": "Deal of the week", "de": "Angebot der Woche"], "body": ["en": "One price, this week only."],
                    "image": ["url": .string("/images/work/\(work).svg"), "alt": ["en": "The score"]], "link": "screens/composer/bach",
                ])
            let again = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(again.text.contains("name=\"k.headline.de\" value=\"Angebot der Woche\""))
            #expect(again.text.contains("Headline “Deal of the week” (de, en); Body “One price, this week only.” (en); an image; opens screens/composer/bach"))
            #expect(again.text.contains("<strong data-picture=\"headline\">Deal of the week</strong>"), "the card's picture")

            // Published: each reader reads their language, the body falling back to English.
            _ = try await demo.layouts.publish(route: "shop", by: "ada", note: "copy")
            for (language, headline) in [("de-CH", "Angebot der Woche"), ("en", "Deal of the week"), ("fr", "Deal of the week")] {
                let screen = try await raw(
                    .get, root, "/api/v6/screens/shop", headers: [.acceptLanguage: language, HTTPField.Name("Screenplay-Components")!: "recordingOffer"])
                let json = try JSONDecoder().decode(JSONValue.self, from: Data(screen.body))
                let offer = json["sections"]?.arrayValue?.flatMap { $0["components"]?.arrayValue ?? [] }.first { $0["id"] == "deal-offer" }
                #expect(offer?["headline"]?.stringValue == headline, "\(language)")
                #expect(offer?["body"] == "One price, this week only.")
                #expect(offer?["link"] == "screens/composer/bach")
                #expect(offer?["title"]?.stringValue?.isEmpty == false, "the catalog's own title stays")
            }
            // The web page draws the fallback row: the headline leads, the work follows.
            let page = try await raw(.get, root, "/screens/shop", headers: [.acceptLanguage: "de"])
            #expect(page.text.contains("Angebot der Woche"))
        }
    }

    @Test("versions are chosen from the released ones with the share of requests each reaches; 9 is refused beside its menu; the review says who sees each change")
    func versionsFromFacts() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            // Ten readers: six at v6 on iOS, three at v5 on Android, one at v4 on iOS.
            for (version, platform, language, count) in [(6, "ios", "de-CH", 6), (5, "android", "en", 3), (4, "ios", nil, 1)] as [(Int, String, String?, Int)] {
                for _ in 0..<count {
                    var headers: HTTPFields = [HTTPField.Name("Screenplay-Platform")!: platform]
                    if let language { headers[.acceptLanguage] = language }
                    let screen = try await raw(.get, root, "/api/v\(version)/screens/home", headers: headers)
                    #expect(screen.status == .ok)
                }
            }
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            let menu = try #require(editor.text.firstMatch(of: /<select id="deal-price-c_minVersion" name="c.minVersion">(.*?)<\/select>/)).output.1
            #expect(menu.contains("<option value=\"\" selected>Any: the oldest apps too</option>"))
            #expect(menu.contains("<option value=\"5\">5 and later — 90 % of requests in the last 7 days</option>"), "\(menu)")
            #expect(menu.contains("<option value=\"6\">6 and later — 60 % of requests in the last 7 days</option>"))
            #expect(!menu.contains("value=\"7\""), "only released versions are offered")
            let upTo = try #require(editor.text.firstMatch(of: /<select id="deal-price-c_maxVersion" name="c.maxVersion">(.*?)<\/select>/)).output.1
            #expect(upTo.contains("<option value=\"4\">up to 4 — 10 % of requests in the last 7 days</option>"), "\(upTo)")
            // Languages are offered from those readers used, with their share.
            #expect(editor.text.contains("<datalist id=\"languages-seen\"><option value=\"de\">German — 60 % of requests</option><option value=\"en\">English — 30 % of requests</option></datalist>"))
            #expect(editor.text.contains("list=\"languages-seen\" id=\"deal-price-c_locales\""))
            #expect(editor.text.contains("<span class=\"hint\" id=\"deal-price-c_locales-hint\">Seen in the last 7 days: de 60 %, en 30 %.</span>"))

            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let work = try #require(live.instances.first { $0.id == "deal-price" }?.parameters["workID"]?.integerValue)
            // A version no client sends (a script's 9) is refused beside the menu, kept as chosen.
            let refused = try await post("/admin/pages/shop/edit/widgets/deal-price", ["p.workID": String(work), "c.minVersion": "9"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("id=\"deal-price-c_minVersion-error\">no client sends v9: the released versions are v1 to v6"), "\(refused.text.prefix(900))")
            #expect(refused.text.contains("<option value=\"9\" selected>9: not a released version</option>"))
            #expect(try await demo.layouts.draft(of: "shop") == nil)

            let saved = try await post(
                "/admin/pages/shop/edit/widgets/deal-price", ["p.workID": String(work), "c.minVersion": "5", "c.platforms.android": "yes"])
            #expect(saved.status == .seeOther)
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)
            #expect(review.text.contains("<h2 id=\"review-audience-title\">Who sees what is added or changed</h2>"))
            // Android (3 of 10) × versions 5 and later (9 of 10): about 27 %.
            #expect(
                review.text.contains("<li><strong>deal-price</strong>: only Android; app versions 5 and later — about 27 % of requests in the last 7 days</li>"),
                "\(review.text.prefix(0))")
        }
    }

    @Test("cards and fields name what a parameter points at: the work by title and composer, the recording by performers, the price")
    func referencesAreNamed() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let workID = try #require(live.instances.first { $0.id == "deal-offer" }?.parameters["workID"]?.integerValue)
            let work = try #require(try await demo.catalog.work(id: Int64(workID)))
            let (recording, _) = try #require(try await demo.catalog.recordings(workID: work.id).first)
            #expect(
                try await post("/admin/pages/shop/edit/widgets/deal-offer", ["p.workID": String(workID), "p.recordingID": String(recording.id)])
                    .status == .seeOther)
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            let name = "\(work.title) · \(work.composerName)"
            // Escaped as HTML: titles hold quotes ("Eine kleine Nachtmusik").
            func html(_ text: String) -> String { ScreenplayWeb.HTML.escape(text) }
            #expect(
                editor.text.contains(
                    "<p class=\"summary\">\(html("recordingID \(recording.id) (\(recording.performers) (\(recording.year))); workID \(workID) (\(name))"))</p>"),
                "the offer's card")
            #expect(editor.text.contains("<p class=\"summary\">\(html("workID \(workID) (\(name) · \(PricingVertical.price(of: work.id)))"))</p>"), "the price's card")
            // Beside the field, read with it.
            #expect(editor.text.contains("aria-describedby=\"deal-offer-p-workID-hint\"><span class=\"hint\" id=\"deal-offer-p-workID-hint\">\(html(name))</span>"))

            // A value typed but refused is not named as if it were the stored one.
            let refused = try await post("/admin/pages/shop/edit/widgets/deal-offer", ["p.workID": "99999"])
            #expect(refused.status == .unprocessableContent)
            #expect(!refused.text.contains("id=\"deal-offer-p-workID-hint\""))
            #expect(refused.text.contains("aria-invalid=\"true\" aria-describedby=\"deal-offer-p-workID-error\""))
        }
    }

    @Test("platforms are boxes and the experiment a menu of variants; what the controls do not offer is kept, not lost on a save")
    func conditionsInWords() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let work = try #require(live.instances.first { $0.id == "deal-price" }?.parameters["workID"]?.integerValue)
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(editor.text.contains("<div class=\"boxes\" role=\"group\" aria-labelledby=\"deal-price-c_platforms-legend\">"))
            #expect(editor.text.contains("<input type=\"checkbox\" id=\"deal-price-c_platforms-android\" name=\"c.platforms.android\" value=\"yes\">Android</label>"))
            #expect(editor.text.contains("<option value=\"shop-free-shipping=banner\">shop-free-shipping: banner</option>"))
            #expect(editor.text.contains("<option value=\"\" selected>Everyone (no experiment)</option>"))

            // Two boxes ticked and a variant chosen, as the browser sends them.
            let saved = try await post(
                "/admin/pages/shop/edit/widgets/deal-price",
                ["p.workID": String(work), "c.platforms.android": "yes", "c.platforms.web": "yes", "c.experiment": "shop-free-shipping=banner"])
            #expect(saved.status == .seeOther, "\(saved.text.prefix(400))")
            var widget = try #require(try await demo.layouts.draft(of: "shop")?.template.instances.first { $0.id == "deal-price" })
            #expect(widget.conditions.platforms == [Platform("android"), Platform("web")])
            #expect(widget.conditions.experiment == ExperimentCondition(key: "shop-free-shipping", variants: ["banner"]))
            let reopened = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(reopened.text.contains("name=\"c.platforms.android\" value=\"yes\" checked>Android"))
            #expect(reopened.text.contains("name=\"c.platforms.ios\" value=\"yes\">iOS"), "iOS not ticked")
            #expect(reopened.text.contains("<option value=\"shop-free-shipping=banner\" selected>"))
            #expect(reopened.text.contains("only Android, Web"), "the chip names platforms as the boxes do")

            // A platform no box offers and two variants at once (a script's doing): each shown as a
            // choice of its own, chosen, so saving the card as it stands keeps both.
            #expect(
                try await post(
                    "/admin/pages/shop/edit/widgets/deal-price",
                    ["p.workID": String(work), "c.platforms": "android, tv", "c.experiment": "shop-free-shipping=banner|control"]
                ).status == .seeOther)
            let odd = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(odd.text.contains("name=\"c.platforms.tv\" value=\"yes\" checked>tv</label>"))
            #expect(odd.text.contains("<option value=\"shop-free-shipping=banner|control\" selected>shop-free-shipping: banner, control</option>"))
            let form = Dictionary(
                uniqueKeysWithValues: try odd.text.matches(of: Regex(#"name="(c\.[a-z.]+)" value="yes" checked"#)).compactMap { match in
                    match.output[1].substring.map { (String($0), "yes") }
                })
            #expect(Set(form.keys).isSuperset(of: ["c.platforms.android", "c.platforms.tv"]))
            #expect(
                try await post(
                    "/admin/pages/shop/edit/widgets/deal-price",
                    form.merging(["p.workID": String(work), "c.experiment": "shop-free-shipping=banner|control"]) { $1 }
                ).status == .seeOther)
            widget = try #require(try await demo.layouts.draft(of: "shop")?.template.instances.first { $0.id == "deal-price" })
            #expect(widget.conditions.platforms == [Platform("android"), Platform("tv")])
            #expect(widget.conditions.experiment?.variants == ["banner", "control"])

            // No box ticked: every platform again.
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price", ["p.workID": String(work)]).status == .seeOther)
            widget = try #require(try await demo.layouts.draft(of: "shop")?.template.instances.first { $0.id == "deal-price" })
            #expect(widget.conditions.platforms == nil && widget.conditions.experiment == nil)
        }
    }

    @Test("the publish review says what each setting was and is, and lists what the cards warn about before anyone publishes")
    func reviewShowsValuesAndWarnings() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let live = try #require(try await demo.layouts.published(route: "shop")).template
            let work = try #require(live.instances.first { $0.id == "deal-price" }?.parameters["workID"]?.integerValue)
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price", ["p.workID": "6", "c.platforms": "tvos"]).status == .seeOther)
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)
            #expect(review.status == .ok)
            #expect(review.text.contains("Changed deal-price: workID \(work) → 6, who sees it: platforms every → tvos"), "\(review.text.prefix(2000))")
            #expect(review.text.contains("<h2 id=\"review-warnings-title\">Look at these first (1)</h2>"))
            #expect(review.text.contains("<li>deal-price: &#39;tvos&#39; is no platform this server knows (android, ios, web): no such client will see it</li>"))
            // A draft with nothing to warn about shows no such list.
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price", ["p.workID": "6"]).status == .seeOther)
            #expect(!(try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)).text.contains("id=\"review-warnings\""))
        }
    }

    @Test("an experiment is deleted only once the question is answered; its page offers only what its state allows")
    func experimentActionsAsk() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            #expect(try await post("/admin/experiments/new", ["key": "short", "variants": "control 2\nbig 1"]).status == .seeOther)
            let page = try await raw(.get, root, "/admin/experiments/short", headers: cookie)
            #expect(page.text.contains("id=\"stop-now\">Stop now</button>"), "running from its creation: Stop is offered")
            #expect(!page.text.contains("id=\"start-now\""))
            let list = try await raw(.get, root, "/admin/experiments", headers: cookie)
            #expect(list.text.contains("control 2 (67 %), big 1 (33 %)"))

            // A post without the answer (an old form, a script) is asked the question, not obeyed.
            let asked = try await post("/admin/experiments/short/delete", [:])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("Delete experiment short?") && asked.text.contains("name=\"confirm\" value=\"yes\""))
            #expect(try await demo.experiments.experiment("short") != nil)
            #expect(try await post("/admin/experiments/short/delete", ["confirm": "yes"]).status == .seeOther)
            #expect(try await demo.experiments.experiment("short") == nil)
        }
    }

    @Test("the preview keeps each widget's answer, asks again on request, pins a widget's last answer and unpins it, coming back to the same preview each time")
    func previewPins() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let preview = try await raw(.get, root, "/admin/pages/shop/preview?platform=ios&version=4", headers: cookie)
            #expect(preview.status == .ok)
            #expect(preview.text.contains("id=\"pin-live-deal-price\""))
            #expect(!preview.text.contains("id=\"unpin-all\""))

            let pinned = try await post("/admin/pages/shop/preview/pins", ["widget": "deal-price", "pin": "yes", "query": "?platform=ios&version=4"])
            #expect(pinned.status == .seeOther)
            let location = try #require(pinned.headers[.location])
            #expect(location == "/admin/pages/shop/preview?done=pinned&platform=ios&version=4")
            let shown = try await raw(.get, root, location, headers: cookie)
            #expect(shown.text.contains("id=\"notice\">Pinned: that widget shows this answer"))
            #expect(shown.text.contains("<strong>Pinned answer</strong> (from <time datetime="))
            #expect(shown.text.contains("id=\"unpin-live-deal-price\"") && shown.text.contains("id=\"unpin-all\""))
            #expect(shown.text.contains("1 pinned answer: deal-price;"))
            #expect(shown.text.contains("<option value=\"ios\" selected>iOS</option>"), "the same preview: iOS")
            #expect(!shown.text.contains("done=pinned\" data-etag") && !shown.text.contains("done=pinned&amp;"), "the stream follows the preview, not the notice")

            // A widget that never answered has nothing to pin.
            let nothing = try await post("/admin/pages/shop/preview/pins", ["widget": "no-such-widget", "pin": "yes", "query": ""])
            #expect(nothing.status == .unprocessableContent)
            #expect(nothing.text.contains("has no answer to pin yet"))

            #expect(try await post("/admin/pages/shop/preview/pins", ["pin": "none", "query": "?platform=ios"]).status == .seeOther)
            let unpinned = try await raw(.get, root, "/admin/pages/shop/preview?platform=ios", headers: cookie)
            #expect(!unpinned.text.contains("id=\"unpin-all\"") && !unpinned.text.contains("Pinned answer"))
            #expect(unpinned.text.contains("id=\"pin-live-deal-price\""))

            // Without a pin, each widget keeps the answer it first gave this preview; asked for,
            // fresh answers replace them (and are kept in turn).
            let again = try await raw(.get, root, "/admin/pages/shop/preview?platform=ios", headers: cookie)
            let keptRow = try #require(again.text.range(of: "<tr><td>deal-price</td>").map { String(again.text[$0.lowerBound...].prefix(600)) })
            #expect(keptRow.contains("<td>–</td>") && keptRow.contains("Kept answer (from <time datetime="), "\(keptRow)")
            #expect(again.text.contains("id=\"fresh-answers\""))
            let fresh = try await post("/admin/pages/shop/preview/pins", ["pin": "fresh", "query": "?platform=ios"])
            #expect(fresh.headers[.location] == "/admin/pages/shop/preview?done=fresh&platform=ios")
            let asked = try await raw(.get, root, try #require(fresh.headers[.location]), headers: cookie)
            #expect(asked.text.contains("Asked the providers again"))
            let askedRow = try #require(asked.text.range(of: "<tr><td>deal-price</td>").map { String(asked.text[$0.lowerBound...].prefix(600)) })
            #expect(!askedRow.contains("Kept answer"), "asked now, not kept: \(askedRow)")
        }
    }

    @Test("iOS and Android are drawn in a phone of theirs, light or dark as chosen, with each fallback labelled before it; the web is not framed")
    func devicePreviews() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let android = try await raw(.get, root, "/admin/pages/shop/preview?platform=android&version=4&appearance=dark", headers: cookie)
            #expect(android.status == .ok)
            #expect(android.text.contains(#"<figure class="device device-android" data-appearance="dark" id="device-live">"#))
            #expect(android.text.contains("<figcaption>Live on Android at API version 4, dark</figcaption>"))
            #expect(android.text.contains(#"<option value="dark" selected>Dark</option>"#))
            // The deal's card, which the app draws itself, shows its fallback with a label right before it.
            let label = try #require(android.text.range(of: "Fallback: an app that draws recordingOffer itself shows its own here; shown as a list row"))
            let card = try #require(android.text.range(of: #"data-node="id:deal-offer""#, range: label.upperBound..<android.text.endIndex))
            #expect(!android.text[label.upperBound..<card.lowerBound].contains("data-node=\"id:"), "nothing between the label and its card")
            #expect(android.text.contains(#"[data-node="id:deal-offer"]{outline:2px dotted var(--mark-fallback)"#))
            #expect(android.text.contains(".device-android[data-appearance=dark] .rendered{--sp-primaryText:#e6e0e9"))

            let ios = try await raw(.get, root, "/admin/pages/shop/preview?platform=ios&version=6", headers: cookie)
            #expect(ios.text.contains(#"<figure class="device device-ios" data-appearance="light" id="device-live">"#))
            #expect(ios.text.contains(#"<div class="columns devices">"#))

            // Version 3 sends no component ids: nothing is placed in the screen, and the page says the table names them.
            let old = try await raw(.get, root, "/admin/pages/shop/preview?platform=ios&version=3", headers: cookie)
            #expect(old.text.contains(#"id="live-unplaced">API version 3 sends no component ids"#))
            #expect(!old.text.contains("preview fallback "))
            #expect(!ios.text.contains("-unplaced"))

            let web = try await raw(.get, root, "/admin/pages/shop/preview?platform=web&appearance=dark", headers: cookie)
            #expect(web.status == .ok)
            #expect(!web.text.contains("<figure class=\"device"))
            #expect(web.text.contains(#"<div class="rendered" tabindex="0" role="region" aria-label="Live as rendered">"#))
        }
    }

    @Test("a widget's segments field offers the names in use, says where, and questions a name nothing else uses")
    func segmentsOffered() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            var draft = try #require(try await demo.layouts.published(route: "shop")).template
            draft.sections[1].widgets[0].conditions.segments = ["beta-testers"]
            draft.sections[1].widgets[1].conditions.segments = ["beta-tester"]
            try await demo.layouts.saveDraft(draft, by: "ada")
            let first = draft.sections[1].widgets[0].id, second = draft.sections[1].widgets[1].id
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(editor.text.contains(#"<datalist id="segments-in-use"><option value="beta-tester"></option><option value="beta-testers"></option></datalist>"#))
            #expect(editor.text.contains(#"list="segments-in-use" id="\#(second)-c_segments" name="c.segments" value="beta-tester""#))
            // Each widget is told of the other's name, and that its own is used nowhere else.
            #expect(editor.text.contains("Used by no other widget or experiment: beta-tester; check the spelling. In use: beta-testers (shop: \(first))."))
            #expect(editor.text.contains("Used by no other widget or experiment: beta-testers; check the spelling. In use: beta-tester (shop: \(second))."))
        }
    }

    @Test("the editor's Sections menu links every section's heading (focusable), the palette and adding a section, with each section's widget count")
    func sectionsMenu() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let template = try #require(try await demo.layouts.published(route: "shop")).template
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            let menu = try #require(editor.text.range(of: #"<nav aria-label="Sections" id="sections-menu">"#).map { String(editor.text[$0.lowerBound...].prefix { $0 != "\n" }) })
            for section in template.sections {
                let count = section.widgets.count
                #expect(menu.contains(##"<a href="#heading-\##(section.id)">\##(section.id)"##), "\(section.id)")
                #expect(menu.contains("(\(count) widget\(count == 1 ? "" : "s"))</a>"))
                #expect(editor.text.contains(#"<h2 id="heading-\#(section.id)" tabindex="-1">"#))
            }
            #expect(menu.contains(##"<a href="#palette-title">Add a widget</a>"##) && menu.contains(##"<a href="#add-section-title">Add a section</a>"##))
            #expect(editor.text.contains(#"<h2 id="palette-title" tabindex="-1">"#) && editor.text.contains(#"<h2 id="add-section-title" tabindex="-1">"#))
        }
    }

    @Test("the audit log says what an experiment change did in words, with the definition it replaced folded away")
    func experimentAuditInWords() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let saved = try await post(
                "/admin/experiments/shop-free-shipping", ["variants": "control 1\nbanner 3", "targetSegment": "", "start": "", "stop": ""])
            #expect(saved.status == .seeOther, "\(saved.status) \(saved.text.prefix(300))")
            let audit = try await raw(.get, root, "/admin/audit", headers: cookie)
            let row = try #require(audit.text.firstMatch(of: /<td>change experiment<\/td>.*?<\/tr>/)).output
            #expect(row.contains("weights control 2 → 1, banner 1 → 3<details><summary>The definition before</summary><code>{"), "\(row)")

            // Renaming the variant the shop's live widget shows to is refused beside the box,
            // with the typing kept; nothing is saved.
            let renamed = try await post(
                "/admin/experiments/shop-free-shipping", ["variants": "control 1\nbanners 3", "targetSegment": "", "start": "", "stop": ""])
            #expect(renamed.status == .unprocessableContent, "\(renamed.status)")
            #expect(renamed.text.contains("variant &#39;banner&#39; is shown by widget") || renamed.text.contains("variant 'banner' is shown by widget"),
                    "\(renamed.text.prefix(2000))")
            #expect(renamed.text.contains("banners 3"), "the typing is kept")
            #expect(try await demo.experiments.experiment("shop-free-shipping")?.variants.map(\.name) == ["control", "banner"])
        }
    }

    @Test("two people at once: simultaneous adds all land; a stale widget form, a stale place or a changed draft under a publish review is refused in words")
    func concurrentAndStale() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            // Ten adds at once, each read-change-save: every one lands (a save that lost the race
            // is redone on the newer draft).
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for number in 1...10 {
                    group.addTask {
                        try await post(
                            "/admin/pages/shop/edit/add",
                            ["id": "par\(number)", "kind": "priceTag", "vertical": "pricing", "section": "deal", "parameters": #"{"workID": 1}"#]
                        ).status
                    }
                }
                for try await status in group { #expect(status == .seeOther) }
            }
            var draft = try #require(try await demo.layouts.draft(of: "shop")).template
            #expect(Set(draft.instances.map(\.id)).isSuperset(of: Set((1...10).map { "par\($0)" })), "\(draft.instances.map(\.id))")

            // A widget form opened before someone else saved that widget: refused, typing kept.
            let editor = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            let seen = try #require(editor.text.firstMatch(of: /action="\/admin\/pages\/shop\/edit\/widgets\/par1" class="edit"><input type="hidden" name="csrf" value="[0-9a-f]+"><input type="hidden" name="seen" value="([^"]+)">/)).output.1
            let digest = String(seen).replacingOccurrences(of: "&quot;", with: "\"")
            #expect(try await post("/admin/pages/shop/edit/widgets/par1", ["seen": digest, "p.workID": "2"]).status == .seeOther)
            let stale = try await post("/admin/pages/shop/edit/widgets/par1", ["seen": digest, "p.workID": "3"])
            #expect(stale.status == .conflict)
            #expect(stale.text.contains("changed by someone else since you opened it; it now shows “workID 2”"))
            #expect(stale.text.contains("id=\"par1-p-workID\" name=\"p.workID\" value=\"3\""), "what was typed is kept")
            draft = try #require(try await demo.layouts.draft(of: "shop")).template
            #expect(draft.instances.first { $0.id == "par1" }?.parameters == ["workID": 2])

            // A place chosen on a page that changed since: refused, the page as it is now shown.
            let placeSeen = try #require(editor.text.firstMatch(of: /data-seen="([^"]+)"/)).output.1
            let misplaced = try await post("/admin/pages/shop/edit/widgets/par2/move", ["place": "0@promotions", "seen": String(placeSeen).replacingOccurrences(of: "&quot;", with: "\"")])
            #expect(misplaced.status == .conflict)
            #expect(misplaced.text.contains("The page changed since you loaded it"))

            // A publish review of a draft that changed before Publish: 409, nothing published.
            let review = try await raw(.get, root, "/admin/pages/shop/publish", headers: cookie)
            let reviewed = try #require(review.text.firstMatch(of: /name="expectedDraft" value="([^"]+)"/)).output.1
            #expect(try await post("/admin/pages/shop/edit/widgets/par3/remove", [:]).status == .seeOther)
            let publish = ["confirm": "yes", "expectedLive": "1", "expectedDraft": String(reviewed).replacingOccurrences(of: "&quot;", with: "\"")]
            let refused = try await post("/admin/pages/shop/publish", publish)
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("changed since you read it"))
            #expect(try await demo.layouts.published(route: "shop")?.revision == 1)
            // Without naming the draft it reviewed (an old form), it is shown the review.
            let unnamed = try await post("/admin/pages/shop/publish", ["confirm": "yes", "expectedLive": "1"])
            #expect(unnamed.status == .seeOther && unnamed.headers[.location] == "/admin/pages/shop/publish")
            let tooLong = try await post(
                "/admin/pages/shop/publish", ["confirm": "yes", "expectedLive": "1", "expectedDraft": "x", "note": String(repeating: "n", count: 201)])
            #expect(tooLong.status == .unprocessableContent && tooLong.text.contains("at most 200"))
        }
    }

    @Test("hostile forms: dot ids, unknown platforms, steps and switches that say neither, an oversized form; a button gone disabled hands the focus to its card")
    func hostileForms() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            let dots = try await post(
                "/admin/pages/shop/edit/add", ["id": "..", "kind": "priceTag", "vertical": "pricing", "section": "deal", "parameters": #"{"workID": 1}"#])
            #expect(dots.status == .unprocessableContent)
            #expect(dots.text.contains("dots alone read as a step in a path"))
            let key = try await post("/admin/experiments/new", ["key": "..", "variants": "a 1\nb 1"])
            #expect(key.status == .unprocessableContent && key.text.contains("dots alone"))

            // A platform no client names: saved (platforms are open), with a warning beside the field.
            let work = try #require(try await demo.layouts.published(route: "shop")).template.instances.first { $0.id == "deal-price" }?
                .parameters["workID"]?.integerValue
            #expect(try await post("/admin/pages/shop/edit/widgets/deal-price", ["p.workID": String(work ?? 0), "c.platforms": "iso"]).status == .seeOther)
            let warned = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(warned.text.contains("warning: &#39;iso&#39; is no platform this server knows"))

            // The advanced add pairing a kind with a vertical its example does not name: saved,
            // warned beside that widget's vertical.
            let paired = try await post(
                "/admin/pages/shop/edit/add",
                ["id": "odd-pair", "kind": "priceTag", "vertical": "catalog", "section": "deal", "parameters": #"{"workID": 1}"#])
            #expect(paired.status == .seeOther, "\(paired.status) \(paired.text.prefix(500))")
            let pairedPage = try await raw(.get, root, "/admin/pages/shop/edit", headers: cookie)
            #expect(pairedPage.text.contains("warning: &#39;priceTag&#39; is answered by vertical &#39;pricing&#39;; &#39;catalog&#39; may leave it out"))

            for (path, fields) in [
                ("/admin/pages/shop/edit/widgets/deal-buy/move", ["by": "abc"]), ("/admin/pages/shop/edit/widgets/deal-buy/move", [:]),
                ("/admin/pages/shop/edit/sections/deal/move", ["by": "0"]), ("/admin/pages/shop/widgets/deal-buy/enabled", ["enabled": "TRUE"]),
            ] {
                let response = try await post(path, fields)
                #expect(response.status == .unprocessableContent, "\(path) \(fields)")
            }
            #expect(try await demo.layouts.published(route: "shop")?.revision == 1, "nothing switched")

            let long = try await post("/admin/pages/shop/edit/sections/deal", ["title": String(repeating: "t", count: 201)])
            #expect(long.status == .unprocessableContent && long.text.contains("201 characters; a section title holds at most 200"))
            let huge = try await post("/admin/pages/shop/edit/sections/deal", ["title": String(repeating: "t", count: 20_000)])
            #expect(huge.status == .contentTooLarge)
            #expect(huge.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(huge.text.contains("The form sent more than 16 KB"))

            // Moved up to the very top: its Move up is disabled, so the card holds the focus.
            let moved = try await post("/admin/pages/shop/edit/widgets/free-shipping/move", ["by": "-1"])
            let back = try await raw(.get, root, try #require(moved.headers[.location]), headers: cookie)
            #expect(back.text.contains("data-widget=\"free-shipping\" data-move=\"/admin/pages/shop/edit/widgets/free-shipping/move\" autofocus>"))
            // The preview's screens are pictures of the app: inert, scrollable by keyboard.
            let preview = try await raw(.get, root, "/admin/pages/shop/preview", headers: cookie)
            #expect(preview.text.contains("<div class=\"rendered\" tabindex=\"0\" role=\"region\" aria-label=\"Draft as rendered\"><main inert>"))
        }
    }

    @Test("discarding a draft first shows what it holds and asks; only the confirmation throws it away")
    func discardAsksFirst() async throws {
        try await Self.signedIn { root, demo, cookie, post in
            #expect(try await post("/admin/pages/shop/edit/widgets/free-shipping/remove", [:]).status == .seeOther)
            let asked = try await post("/admin/pages/shop/discard", [:])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("What the draft holds") && asked.text.contains("free-shipping"))
            #expect(try await demo.layouts.draft(of: "shop") != nil, "nothing discarded yet")
            let done = try await post("/admin/pages/shop/discard", ["confirm": "yes"])
            #expect(done.status == .seeOther && done.headers[.location] == "/admin/pages/shop?done=discarded")
            #expect(try await demo.layouts.draft(of: "shop") == nil)
        }
    }

    /// The demo on a loopback port with an admin signed in: its root, the demo, the session
    /// cookie, and a form post carrying the session's CSRF token.
    static func signedIn(
        _ body: (URL, DemoApp, HTTPFields, @escaping @Sendable (String, [String: String]) async throws -> RawResponse) async throws -> Void
    ) async throws {
        let harness = DemoServerHarness()
        defer { harness.removeData() }
        try await harness.withDemo { root, demo in
            _ = try await demo.admins.createAdmin(name: "ada", password: "correct horse battery")
            let session = try await demo.admins.startSession(for: "ada")
            let cookie: HTTPFields = [.cookie: "\(AdminSite.sessionCookie)=\(session.id)"]
            try await body(root, demo, cookie) { path, fields in
                let form = (fields.merging(["csrf": session.csrf]) { given, _ in given }).map { key, value in
                    "\(AdminSite.queryEscape(key))=\(AdminSite.queryEscape(value))"
                }.joined(separator: "&")
                var headers = cookie
                headers[.contentType] = "application/x-www-form-urlencoded"
                return try await raw(.post, root, path, headers: headers, body: Array(form.utf8))
            }
        }
    }

    @Test("only kinds whose vertical this server has are offered; a filter word must appear somewhere in the kind's text")
    func entriesAndMatching() throws {
        let contract = try WidgetContract(
            type: "offer", summary: "A recording on offer.", versioning: .original, fields: [.required("title", .string)],
            parameters: [.required("workID", .integer, summary: "The work.")], fallback: { _ in [] },
            example: WidgetExample(vertical: "catalog", parameters: ["workID": 1], component: ["title": "Tea"]))
        let entry = AdminSite.PaletteEntry(contract: contract, vertical: "catalog")
        #expect(entry.matches(""))
        #expect(entry.matches("Offer"))
        #expect(entry.matches("work  recording"))
        #expect(entry.matches("catalog"))
        #expect(!entry.matches("offer price"))
        #expect(AdminSite.newWidgetID(kind: "offer", in: PageTemplate(route: "r", title: "R", revision: 0, sections: [])) == "offer-1")
        let taken = PageTemplate(
            route: "r", title: "R", revision: 0,
            sections: [.init(id: "s", widgets: [WidgetInstance(id: "offer-1", kind: "offer", vertical: "catalog", parameters: [:])])])
        #expect(AdminSite.newWidgetID(kind: "offer", in: taken) == "offer-2")
    }
}

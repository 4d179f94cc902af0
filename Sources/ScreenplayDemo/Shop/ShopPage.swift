import Foundation
import Logging
import ScreenplayComposer
import ScreenplayContract
import ScreenplayLayoutStore
import ScreenplayServer
import ScreenplayStore
import Synchronization

/// The shop: a page arranged in the layout store rather than in code, from three verticals
/// (catalog and pricing in process, promotions a separate service), plus the two experiments the
/// demo runs. Seeded on first start; from then on it changes only by publishing.
enum ShopPage {
    static let route = "shop"
    static let verticals: Set<String> = ["catalog", "pricing", "promotions"]
    /// Who the seed's revisions and experiments are attributed to in the history and audit log.
    static let seedAuthor = "demo seed"

    /// The home page's experiment: half the users see a shop teaser at the top of home, the other
    /// half a plain link near the bottom. Both reach the shop; the report says who saw which.
    static let homeTeaser = Experiment(key: "home-shop-teaser", variants: [.init("control", weight: 1), .init("teaser", weight: 1)])
    /// The shop's own experiment: a free-shipping banner for a third of users.
    static let shipping = Experiment(key: "shop-free-shipping", variants: [.init("control", weight: 2), .init("banner", weight: 1)])

    /// The first template: a promotion, a deal of the day whose price is shown twice (sent once),
    /// four featured recordings with buy buttons, and the shipping experiment's banner.
    static func template(deal: Int64, featured: [Int64]) -> PageTemplate {
        func parameters(_ work: Int64) -> JSONValue { ["workID": .integer(Int(work))] }
        return PageTemplate(
            route: route, title: "Shop", revision: 0,
            sections: [
                .init(
                    id: "promotions",
                    widgets: [
                        // The banners' words are the layout's (the promotions service says only which run).
                        WidgetInstance(
                            id: "spring-sale", kind: "promoBanner", vertical: "promotions", parameters: ["slot": "top"],
                            content: bannerWords(for: "spring-sale")),
                        WidgetInstance(
                            id: "free-shipping", kind: "promoBanner", vertical: "promotions", parameters: ["slot": "top"],
                            content: bannerWords(for: "free-shipping"),
                            conditions: .init(experiment: .init(shipping.key, is: "banner"))),
                    ]),
                .init(
                    id: "deal", title: "Deal of the day",
                    widgets: [
                        WidgetInstance(id: "deal-offer", kind: "recordingOffer", vertical: "catalog", parameters: parameters(deal)),
                        WidgetInstance(id: "deal-price", kind: "priceTag", vertical: "pricing", parameters: parameters(deal)),
                        WidgetInstance(id: "deal-buy", kind: "cartButton", vertical: "pricing", parameters: parameters(deal)),
                    ]),
                .init(
                    id: "featured", title: "Featured recordings",
                    widgets: featured.flatMap { work in
                        [
                            WidgetInstance(id: "offer-\(work)", kind: "recordingOffer", vertical: "catalog", parameters: parameters(work)),
                            WidgetInstance(id: "buy-\(work)", kind: "cartButton", vertical: "pricing", parameters: parameters(work)),
                        ]
                    }),
            ])
    }

    /// A banner's words: the seeded promotions' in English and German (the service wrote their
    /// English, and spring-sale's German, before the words moved into the layout), and for any
    /// other banner the English the service wrote for it then.
    static func bannerWords(for id: String) -> JSONValue {
        switch id {
        case "spring-sale":
            [
                "headline": ["en": "Spring sale: 20% off every recording", "de": "Frühlingsangebot: 20 % auf alle Aufnahmen"],
                "detail": ["en": "Until Sunday, while stocks last.", "de": "Bis Sonntag, solange der Vorrat reicht."],
            ]
        case "free-shipping":
            [
                "headline": ["en": "Free shipping on your first order", "de": "Versandkostenfrei bei Ihrer ersten Bestellung"],
                "detail": ["en": "No code needed.", "de": "Ohne Gutscheincode."],
            ]
        default: ["headline": ["en": "New this week"], "detail": ["en": "Fresh recordings from our labels."]]
        }
    }

    /// `template` with each banner that has no headline in the default locale (a layout from
    /// before a banner's words moved into it, when the headline was optional content) given the
    /// words readers saw then: a headline or body it lacks whole is added, a text missing only
    /// in English gets the English; whatever the layout wrote stays. `nil` when none lacks one.
    static func givingBannersTheirWords(_ template: PageTemplate) -> PageTemplate? {
        var template = template
        var changed = false
        for section in template.sections.indices {
            for index in template.sections[section].widgets.indices {
                let widget = template.sections[section].widgets[index]
                let headline = widget.content["headline"]?["en"]?.stringValue ?? ""
                guard widget.kind == "promoBanner", headline.isEmpty, var content = widget.content.objectValue else { continue }
                for (name, words) in bannerWords(for: widget.id).objectValue ?? [:] {
                    switch content[name] {
                    case nil: content[name] = words
                    case .object(var texts) where texts["en"]?.stringValue?.isEmpty != false:
                        texts["en"] = words["en"]
                        content[name] = .object(texts)
                    default: continue  // written in English already, or of a shape the checks name
                    }
                }
                template.sections[section].widgets[index].content = .object(content)
                changed = true
            }
        }
        return changed ? template : nil
    }

    /// A data folder from before the banners' words moved into the layout: its banners have no
    /// headline, which the kind now requires, so they would vanish and block every save of the
    /// page. They get the words readers saw: the live page is published again with them, or,
    /// with a draft open, the draft gets them (and the live banners wait for its publish). An
    /// editor's save meanwhile (another replica serves them) wins: the seed's save names what it
    /// replaces and its publish the draft it wrote. Whatever fails is logged, never a failed
    /// start: the page is then as it was, and the admin says what a save lacks.
    static func givingBannersTheirWords(_ live: PublishedRevision, in layouts: LayoutStore, logger: Logger) async {
        do {
            if let draft = try await layouts.draft(of: route) {
                guard let migrated = givingBannersTheirWords(draft.template) else { return }
                _ = try await layouts.saveDraft(migrated, by: seedAuthor, replacing: draft.template)
                logger.notice("the shop's draft gets the words its banners showed; publish it to show them", metadata: ["route": "\(route)"])
            } else if let migrated = givingBannersTheirWords(live.template) {
                _ = try await layouts.saveDraft(migrated, by: seedAuthor, replacing: live.template)
                _ = try await layouts.publish(
                    route: route, by: seedAuthor, expectedLive: live.revision, expectedDraft: migrated.digest,
                    note: "the promotions' words move into the layout")
            }
        } catch {
            logger.warning(
                "the shop's banners could not be given their words; the admin says what the page lacks",
                metadata: ["route": "\(route)", "error": "\(error)"])
        }
    }

    /// Checks a template against the shop's widget kinds and verticals.
    static func validate(_ template: PageTemplate, experiments: ExperimentCatalog? = nil) -> [TemplateProblem] {
        template.validate(catalog: ShopWidgets.catalog, verticals: verticals, experiments: experiments)
    }

    /// Publishes the first shop template and creates the experiments, unless they exist.
    /// Seeds the shop's experiments and first page; on a data folder seeded before, gives its
    /// banners the words they lack (``givingBannersTheirWords(in:logger:)``).
    static func seed(layouts: LayoutStore, experiments: ExperimentStore, catalog: CatalogRepository, logger: Logger) async throws {
        for experiment in [homeTeaser, shipping] where try await experiments.experiment(experiment.key) == nil {
            try await experiments.save(experiment, by: seedAuthor)
        }
        if let live = try await layouts.published(route: route) {
            await givingBannersTheirWords(live, in: layouts, logger: logger)
            return
        }
        var works: [Int64] = []
        for composer in try await catalog.composers().prefix(5) {
            if let work = try await catalog.works(composerID: composer.id).first { works.append(work.id) }
        }
        guard let deal = works.first else { return }
        try await layouts.saveDraft(template(deal: deal, featured: Array(works.dropFirst())), by: seedAuthor)
        _ = try await layouts.publish(route: route, by: seedAuthor, note: "the first shop")
    }
}

/// The home page's side of the teaser experiment: which variant a user sees, recorded as an
/// exposure the first time.
struct HomeTeaser: Sendable {
    let templates: LiveTemplates
    let recorder: ExperimentStore
    /// When reading the experiment or recording an exposure last failed: the variant then
    /// falls back to none, which must not be remembered as the answer.
    private let lastFailure = FailureTime()

    init(templates: LiveTemplates, recorder: ExperimentStore) {
        self.templates = templates
        self.recorder = recorder
    }

    /// The user's variant (`nil`: anonymous, or the experiment is not running); records the
    /// first exposure. A failure shows no teaser (and is noted for ``nextChange(after:)``).
    func variant(for user: UserIdentity) async -> String? {
        guard !user.isAnonymous else { return nil }
        let now = Date()
        do {
            guard let experiment = try await templates.experiments()[ShopPage.homeTeaser.key],
                let variant = experiment.variant(for: String(user.id), segments: [], at: now)
            else { return nil }
            _ = try await recorder.recordFirstExposure(
                Exposure(userID: String(user.id), experiment: experiment.key, variant: variant, at: now))
            return variant
        } catch {
            lastFailure.note(now)
            return nil
        }
    }

    /// When anyone's variant may next change by itself after `since`: the experiment's start or
    /// stop, if one is ahead (`nil`: only an edit of the experiment changes it, which the bus
    /// announces). Throws when a read failed since `since`, so that answer is not remembered.
    func nextChange(after since: Date) async throws -> Date? {
        if let failed = lastFailure.time, failed >= since { throw TeaserUnavailable() }
        guard let experiment = try await templates.experiments()[ShopPage.homeTeaser.key] else { return nil }
        return [experiment.start, experiment.stop].compactMap { $0 }.filter { $0 > since }.min()
    }

    struct TeaserUnavailable: Error {}
}

/// The last time something failed, shared by copies of a value.
final class FailureTime: Sendable {
    private let last = Mutex<Date?>(nil)

    /// The latest failure noted, if any.
    var time: Date? { last.withLock { $0 } }

    /// Notes a failure at `time`.
    func note(_ time: Date) { last.withLock { $0 = max($0 ?? time, time) } }
}

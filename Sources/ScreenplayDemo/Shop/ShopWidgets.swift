import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// The shop page's widget kinds: what the catalog, pricing and promotions verticals answer with.
///
/// Apps that registered these kinds render them natively; everyone else (older apps, the web
/// pages) gets each contract's fallback, built from the same JSON. Prices are a shared fact: the
/// pricing vertical sends each price once as the entity `price/work-ID`, and every widget showing
/// it binds its `price` field there.
enum ShopWidgets {
    /// A recording of a work, linking to the work's screen (catalog vertical).
    static let recordingOffer = declared {
        try WidgetContract(
            type: "recordingOffer", summary: "A recording of a work for sale, linking to the work.",
            versioning: KindVersioning(introduced: .v2, fallback: "a list row with the title and composer, opening the work"),
            fields: [
                .required("title", .string, summary: "The work's title."),
                .required("composer", .string, summary: "Who wrote it."),
                .optional("detail", .string, summary: "Catalogue number and year."),
                .optional("image", .url, summary: "The cover."),
                .required("link", .url, summary: "The work's screen."),
                openField,
                .optional("headline", .string, introduced: .v6, summary: "The deal's headline, written in the layout admin."),
                .optional("body", .string, introduced: .v6, summary: "A line on the deal, written in the layout admin."),
                .optional("imageAlt", .string, introduced: .v6, summary: "What the image shows, when the layout chose one."),
            ],
            parameters: [
                .required("workID", .integer, summary: "The work on offer."),
                .optional("recordingID", .integer, summary: "One recording of the work to offer, named by its performers; empty: the work."),
            ],
            content: [
                ContentField("headline", label: "Headline", kind: .text(maximumLength: 60), summary: "Above the work: \"Deal of the week\"."),
                ContentField("body", label: "Body", kind: .text(maximumLength: 140), summary: "A line on the deal."),
                ContentField("image", label: "Image", kind: .image(altField: "imageAlt"), summary: "Instead of the cover."),
                ContentField("link", label: "Link", kind: .screenLink, summary: "Where a tap goes instead of the work."),
            ],
            references: [WidgetReference(parameter: "workID", names: "work"), WidgetReference(parameter: "recordingID", names: "recording")],
            fallback: { json in
                guard let title = json["title"]?.stringValue, let link = json["link"]?.stringValue else { return [] }
                // A deal's headline leads and the work follows; its body replaces the catalogue line.
                let headline = json["headline"]?.stringValue
                let about = [json["composer"]?.stringValue, json["body"]?.stringValue ?? json["detail"]?.stringValue].compactMap { $0 }
                return [
                    .listRow(
                        .init(
                            title: headline ?? title,
                            subtitle: ((headline == nil ? [] : [title]) + about).joined(separator: " · "),
                            image: json["image"]?.stringValue.map {
                                RemoteImage(url: $0, size: .init(width: 96, height: 96), alt: json["imageAlt"]?.stringValue)
                            },
                            action: openAction(json, link: link)))
                ]
            },
            sharing: .everyone,
            example: WidgetExample(
                vertical: "catalog", parameters: ["workID": 1],
                component: [
                    "title": "Cello Suite No. 1", "composer": "Johann Sebastian Bach", "detail": "BWV 1007 · 1720",
                    "image": "/images/composer/bach-low.svg", "link": "screens/work/1",
                ]))
    }

    /// A price with a label (pricing vertical).
    static let priceTag = declared {
        try WidgetContract(
            type: "priceTag", summary: "A price, with what it is for.",
            versioning: KindVersioning(introduced: .v2, fallback: "a text: the label and the price"),
            fields: [
                .required("label", .string),
                WidgetField.required("price", .string, summary: "Display text, usually bound to `price/work-ID`.").bindable(),
            ],
            parameters: [.required("workID", .integer, summary: "The work whose price it shows.")],
            references: [WidgetReference(parameter: "workID", names: "work")],
            fallback: { json in
                guard let label = json["label"]?.stringValue, let price = json["price"]?.stringValue else { return [] }
                return [.text(.init("\(label): \(price)", weight: .semibold))]
            },
            sharing: .everyone,
            example: WidgetExample(
                vertical: "pricing", parameters: ["workID": 1], component: ["label": "Cello Suite No. 1, today", "price": "€9.99"]))
    }

    /// A buy button showing the price (pricing vertical).
    static let cartButton = declared {
        try WidgetContract(
            type: "cartButton", summary: "Buy a recording, with its price on the button.",
            versioning: KindVersioning(introduced: .v2, fallback: "a button with the title and the price, opening the work"),
            fields: [.required("title", .string), WidgetField.required("price", .string).bindable(), .required("link", .url), openField],
            parameters: [.required("workID", .integer, summary: "The work whose price it shows.")],
            references: [WidgetReference(parameter: "workID", names: "work")],
            fallback: { json in
                guard let title = json["title"]?.stringValue, let price = json["price"]?.stringValue, let link = json["link"]?.stringValue
                else { return [] }
                return [.button(.init(title: "\(title) · \(price)", action: openAction(json, link: link)))]
            },
            sharing: .everyone,
            example: WidgetExample(
                vertical: "pricing", parameters: ["workID": 1],
                component: ["title": "Buy the recording", "price": "€9.99", "link": "screens/work/1"]))
    }

    /// A promotion across the page (promotions vertical, a separate service).
    static let promoBanner = declared {
        try WidgetContract(
            type: "promoBanner", summary: "A promotion: a headline, a line of detail, a link.",
            versioning: KindVersioning(introduced: .v1, fallback: "a vertical stack: the headline in bold, the detail below"),
            fields: [
                .required("headline", .string, summary: "Written in the admin, per locale (the promotions service supplies no words)."),
                .optional("detail", .string), .optional("link", .url),
                .optional("linkTitle", .string, introduced: .v6, summary: "The words of the link's button."),
                .optional("image", .url, introduced: .v6, summary: "A picture above the headline."),
                .optional("imageAlt", .string, introduced: .v6, summary: "What the picture shows."),
                .optional("tone", .string, introduced: .v6, summary: "The headline's colour token (accent, positive, negative…)."),
            ],
            parameters: [.optional("slot", .string, summary: "Where on the page: top, bottom.")],
            content: [
                // Required: the promotions service says only which promotions run, never their words.
                ContentField("headline", label: "Headline", kind: .text(maximumLength: 60), isRequired: true, summary: "The promotion in a few words."),
                ContentField("detail", label: "Body", kind: .text(maximumLength: 140), summary: "A line of detail under the headline."),
                ContentField("image", label: "Image", kind: .image(altField: "imageAlt"), summary: "A picture above the headline."),
                ContentField("link", label: "Link", kind: .screenLink, summary: "The screen its button opens."),
                ContentField("linkTitle", label: "Link text", kind: .text(maximumLength: 30), summary: "The button's words (\"See the offer\")."),
                ContentField("tone", label: "Colour", kind: .colorToken, summary: "The headline's colour."),
            ],
            fallback: { json in
                guard let headline = json["headline"]?.stringValue else { return [] }
                var lines: [Component] = []
                if let image = json["image"]?.stringValue {
                    lines.append(.image(.init(RemoteImage(url: image, size: .init(width: 320, height: 120), alt: json["imageAlt"]?.stringValue ?? ""))))
                }
                let tone = json["tone"]?.stringValue.flatMap { ColorToken(rawValue: $0) }
                lines.append(.text(.init(headline, size: 18, weight: .bold, color: tone.map { .token($0) })))
                if let detail = json["detail"]?.stringValue { lines.append(.text(.init(detail, color: .token(.secondaryText)))) }
                if let link = json["link"]?.stringValue {
                    lines.append(.button(.init(title: json["linkTitle"]?.stringValue ?? headline, action: .navigate(.init(url: link)))))
                }
                return [.verticalStack(.init(alignment: .leading, spacing: 4, children: lines))]
            },
            sharing: .everyone,
            example: WidgetExample(
                vertical: "promotions", parameters: ["slot": "top"],
                component: ["headline": "Spring sale: 20% off every recording", "detail": "Until Sunday, while stocks last."]))
    }

    /// The offers' `open` field (v5): the command that opens the work and counts the click
    /// (``ShopClicks``). An app that renders the kind sends it on a tap and goes where the answer
    /// navigates; an app built before the field follows `link`.
    static let openField = WidgetField.optional(
        "open", .object, introduced: .v5,
        summary: "The command a tap sends (`url`, a `commands/` link, and `payload`), answered with a navigation to the work; "
            + "apps that do not read it follow `link`.")

    /// What a tap on an offer does where the kind's fallback is shown: the widget's `open`
    /// command when it carries a usable one (a `commands/` URL the link policy accepts, an object
    /// payload or none), else a navigation to `link`.
    static func openAction(_ json: JSONValue, link: String) -> Action {
        guard let open = json["open"], let url = open["url"]?.stringValue, url.hasPrefix("commands/"),
            (try? LinkPolicy.endpoint.check(url)) != nil
        else { return .navigate(.init(url: link)) }
        let payload = open["payload"]
        guard payload == nil || payload?.objectValue != nil else { return .navigate(.init(url: link)) }
        return .command(.init(url: url, payload: payload))
    }

    /// Every kind, as the composer knows them.
    static let catalog = declared { try WidgetCatalog([recordingOffer, priceTag, cartButton, promoBanner], content: contentRules) }

    /// What the shop's content is written in and may link to: English first, then German; the
    /// demo's screens. Images are checked by the app (``catalog(images:)``), which knows its media.
    static let contentRules = ContentRules(
        locales: ["en", "de"],
        screens: [
            .init("home", title: "Home"), .init("shop", title: "The shop"), .init("search", title: "Search"),
            .init("library", title: "Your library"), .init("favorites", title: "Favorites"), .init("cities", title: "Cities"),
            .init("work/:id", title: "A work", example: "screens/work/1"),
            .init("composer/:slug", title: "A composer", example: "screens/composer/bach"),
        ])

    /// The catalog with images checked by `images` (why a URL does not load, or `nil`).
    static func catalogCheckingImages(with images: @escaping @Sendable (String) async -> String?) -> WidgetCatalog {
        var catalog = self.catalog
        catalog.content.imageCheck = images
        return catalog
    }

    /// A contract or catalog written in this file: a mistake in one is a programming error,
    /// caught by the first test that touches the shop.
    static func declared<Value>(_ make: () throws -> Value) -> Value {
        do {
            return try make()
        } catch {
            preconditionFailure("the shop's widget declarations are wrong: \(error)")
        }
    }

    /// The entity holding a work's price.
    static func priceEntity(_ workID: Int64) -> String { "price/work-\(workID)" }

    /// `{"entity": "price/work-ID", "field": "price"}`: a binding of the `price` field.
    static func priceBinding(_ workID: Int64) -> JSONValue {
        ["price": ["entity": .string(priceEntity(workID)), "field": "price"]]
    }
}

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
            ],
            parameters: [
                .required("workID", .integer, summary: "The work on offer."),
                .optional("recordingID", .integer, summary: "One recording of the work to offer, named by its performers; empty: the work."),
            ],
            references: [WidgetReference(parameter: "workID", names: "work"), WidgetReference(parameter: "recordingID", names: "recording")],
            fallback: { json in
                guard let title = json["title"]?.stringValue, let link = json["link"]?.stringValue else { return [] }
                return [
                    .listRow(
                        .init(
                            title: title,
                            subtitle: [json["composer"]?.stringValue, json["detail"]?.stringValue].compactMap { $0 }.joined(
                                separator: " · "),
                            image: json["image"]?.stringValue.map { RemoteImage(url: $0, size: .init(width: 96, height: 96), alt: nil) },
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
            fields: [.required("headline", .string), .optional("detail", .string), .optional("link", .url)],
            parameters: [.optional("slot", .string, summary: "Where on the page: top, bottom.")],
            fallback: { json in
                guard let headline = json["headline"]?.stringValue else { return [] }
                var lines: [Component] = [.text(.init(headline, size: 18, weight: .bold))]
                if let detail = json["detail"]?.stringValue { lines.append(.text(.init(detail, color: .token(.secondaryText)))) }
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
    static let catalog = declared { try WidgetCatalog([recordingOffer, priceTag, cartButton, promoBanner]) }

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

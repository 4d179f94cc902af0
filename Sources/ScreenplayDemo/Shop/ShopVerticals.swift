import ScreenplayComposer
import ScreenplayContract
import ScreenplayServer

/// The catalog vertical, in process: a recording offer per instance, from the demo's catalog.
/// It owns the works and their recordings, so it answers whether those a template names exist.
struct CatalogVertical: WidgetProvider, WidgetReferenceChecking, WidgetReferenceNaming {
    let catalog: CatalogRepository

    func missingReferences(_ names: String, among values: Set<JSONValue>) async throws -> Set<JSONValue> {
        names == "recording"
            ? try await CatalogRepository.missing(among: values) { try await catalog.missingRecordings(among: $0) }
            : try await CatalogRepository.missingWorks(among: values, in: catalog)
    }

    /// Works by title and composer, recordings by performers and year.
    func referenceNames(_ names: String, for values: Set<JSONValue>) async throws -> [JSONValue: String] {
        names == "recording"
            ? try await CatalogRepository.named(values) { try await catalog.recordingNames(ids: $0) }
            : try await CatalogRepository.named(values) { try await catalog.workNames(ids: $0) }
    }

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        var fragments: [String: WidgetFragment] = [:]
        for instance in request.instances where instance.kind == ShopWidgets.recordingOffer.type {
            // An unknown work is left unanswered: the composer omits that widget and logs it.
            guard let id = instance.parameters["workID"]?.integerValue, let work = try await catalog.work(id: Int64(id)) else { continue }
            // A chosen recording of the work names its performers; one of another work is not
            // this work's offer, so the widget is left unanswered.
            var detail = DemoLinks.workDetails(work)
            if let recordingID = instance.parameters["recordingID"]?.integerValue {
                guard let recording = try await catalog.recording(id: Int64(recordingID)), recording.workId == work.id else { continue }
                detail = ["\(recording.performers) (\(recording.year))"] + detail
            }
            var json: [String: JSONValue] = [
                "type": "recordingOffer", "title": .string(work.title), "composer": .string(work.composerName),
                "detail": .string(detail.joined(separator: " · ")), "link": .string(DemoLinks.work(work.id)),
                "open": ShopClicks.openCommand(workID: work.id, widget: ShopWidgets.recordingOffer.type),
                // Counted once seen (v6 reports): the experiments' "offers seen" metric.
                "report": ["visible": .string("shop/offer:\(work.id)")],
            ]
            json["image"] = .string(DemoLinks.thumbnail(kind: "composer", slug: work.composerSlug, alt: work.composerName).url)
            fragments[instance.id] = .json(.object(json))
        }
        return WidgetResponse(fragments: fragments)
    }
}

/// The pricing vertical, in process: price tags and buy buttons, each price sent once as an
/// entity that every widget showing it binds to.
struct PricingVertical: WidgetProvider, WidgetReferenceChecking, WidgetReferenceNaming {
    let catalog: CatalogRepository

    /// Prices exist for every work in the catalog, and only those.
    func missingReferences(_ names: String, among values: Set<JSONValue>) async throws -> Set<JSONValue> {
        try await CatalogRepository.missingWorks(among: values, in: catalog)
    }

    /// The works it prices, by title and composer, with today's price.
    func referenceNames(_ names: String, for values: Set<JSONValue>) async throws -> [JSONValue: String] {
        try await CatalogRepository.named(values) { ids in
            try await catalog.workNames(ids: ids).reduce(into: [:]) { named, work in named[work.key] = "\(work.value) · \(Self.price(of: work.key))" }
        }
    }

    /// A work's price: stable, so pages and tests agree.
    static func price(of workID: Int64) -> String { "€\(8 + workID % 12).99" }

    func fragments(for request: WidgetRequest) async throws -> WidgetResponse {
        var fragments: [String: WidgetFragment] = [:]
        var entities: Entities = [:]
        for instance in request.instances {
            guard let id = instance.parameters["workID"]?.integerValue, let work = try await catalog.work(id: Int64(id)) else { continue }
            entities[ShopWidgets.priceEntity(work.id)] = ["price": .string(Self.price(of: work.id))]
            switch instance.kind {
            case ShopWidgets.priceTag.type:
                fragments[instance.id] = .json(
                    ["type": "priceTag", "label": .string("\(work.title), today"), "bind": ShopWidgets.priceBinding(work.id)])
            case ShopWidgets.cartButton.type:
                fragments[instance.id] = .json(
                    [
                        "type": "cartButton", "title": "Buy the recording", "link": .string(DemoLinks.work(work.id)),
                        "open": ShopClicks.openCommand(workID: work.id, widget: ShopWidgets.cartButton.type),
                        "bind": ShopWidgets.priceBinding(work.id),
                    ])
            default:
                continue
            }
        }
        return WidgetResponse(fragments: fragments, entities: entities)
    }
}

extension CatalogRepository {
    /// Of `values` (parameters naming works), those that name none: not an integer, or no such work.
    static func missingWorks(among values: Set<JSONValue>, in catalog: CatalogRepository) async throws -> Set<JSONValue> {
        try await missing(among: values) { try await catalog.missingWorks(among: $0) }
    }

    /// The names `lookup` gives the integer ones of `values` (parameters naming rows by id).
    static func named(_ values: Set<JSONValue>, lookup: (Set<Int64>) async throws -> [Int64: String]) async throws -> [JSONValue: String] {
        let names = try await lookup(Set(values.compactMap { $0.integerValue.map(Int64.init) }))
        return values.reduce(into: [:]) { named, value in named[value] = value.integerValue.flatMap { names[Int64($0)] } }
    }

    /// Of `values` (parameters naming rows by id), those that name none: not an integer, or an id
    /// `lookup` says is missing.
    static func missing(among values: Set<JSONValue>, lookup: (Set<Int64>) async throws -> Set<Int64>) async throws -> Set<JSONValue> {
        let missing = try await lookup(Set(values.compactMap { $0.integerValue.map(Int64.init) }))
        return values.filter { value in value.integerValue.map { missing.contains(Int64($0)) } ?? true }
    }
}

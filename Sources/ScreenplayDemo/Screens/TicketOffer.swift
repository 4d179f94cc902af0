import ScreenplayContract
import ScreenplayServer

/// An app-defined component kind: a concert ticket offer. Only apps that registered a renderer
/// for it (and speak v2 or later) receive it; everyone else gets a plain button to the same link.
enum TicketOffer {
    static let kind = CustomComponentKind(
        type: "ticketOffer",
        versioning: KindVersioning(introduced: .v2, fallback: "a `button` that opens the offer's link"),
        fallback: { json in
            guard let title = json["title"]?.stringValue, let url = json["url"]?.stringValue, (try? LinkPolicy.external.check(url)) != nil
            else {
                return []
            }
            let price = json["price"]?.stringValue.map { " · " + $0 } ?? ""
            return [.button(.init(title: "Tickets: \(title)\(price)", style: .plain, action: .openURL(.init(url: url))))]
        })

    static func offer(city: String) -> Component {
        .custom(
            "ticketOffer",
            fields: [
                "title": .string("Concerts in \(city)"), "price": "from €25",
                "url": .string("https://tickets.example/\(city.lowercased())"),
            ])
    }
}

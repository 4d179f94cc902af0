import ScreenplayContract
import ScreenplayServer

/// A one-off screen built only from layout primitives: concert attendance in three cities, a
/// card each with a name, an image and seven day-bars whose height and color follow the number.
///
/// No app knows this screen; it ships from the server alone.
enum CityStatistics {
    static let header = ScreenHeader(title: "Concert cities", subtitle: "Attendance this week")

    struct City {
        let name: String
        let summary: String
        /// Attendance per weekday, 100...1000.
        let days: [(weekday: String, attendance: Int)]
    }

    static let cities: [City] = ["Vienna", "Leipzig", "Salzburg"].map { name in
        City(
            name: name, summary: "\(name): \(weekdays.count) evenings, \(seatsLabel(for: name)) seats a night.",
            days: weekdays.enumerated().map { index, day in (day, attendance(city: name, day: index)) })
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// Deterministic per city and day, so the screen (and its ETag) is stable.
    static func attendance(city: String, day: Int) -> Int {
        var hash: UInt64 = 1469598103934665603
        for byte in (city + "#" + String(day)).utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        return 100 + Int(hash % 901)
    }

    static func seatsLabel(for city: String) -> String {
        String(attendance(city: city, day: 99) * 2)
    }

    static func screen() -> Screen {
        // Attendance is counted as the week goes (v5): revalidated every minute while shown, a 304
        // when nothing moved.
        Screen(id: "cities", title: "Concert cities", header: header, live: .interval(60)) {
            Section("cities") {
                for city in cities {
                    cityCard(city)
                    TicketOffer.offer(city: city.name)
                }
            }
        }
    }

    /// The card: name and image on the left; the seven bars, then the summary, on the right.
    static func cityCard(_ city: City) -> Component {
        HStack(alignment: .top, spacing: 12, background: .token(.surface), padding: 12) {
            VStack(alignment: .leading, spacing: 6) {
                Text(city.name, size: 18, weight: .semibold).accessibility(headingLevel: 3)
                Image("/images/city/\(city.name.lowercased()).svg", width: 100, height: 100, alt: "View of \(city.name)")
            }
            VStack(alignment: .leading, spacing: 6) {
                Text("Concert attendance", size: 15, weight: .medium)
                // Seven bars say little to a screen reader; the chart is read as one sentence.
                HStack(alignment: .bottom, spacing: 4) {
                    for day in city.days { dayBar(day.weekday, day.attendance) }
                }
                .accessibility(
                    label: "Concert attendance in \(city.name): "
                        + city.days.map { "\($0.weekday) \($0.attendance)" }.joined(separator: ", "))
                Text(city.summary, size: 14, color: .token(.secondaryText))
            }
        }.component
    }

    static func dayBar(_ weekday: String, _ attendance: Int) -> Component {
        let share = Double(attendance) / 1000
        let red = Int(255 * share)
        return VStack(alignment: .center, spacing: 2) {
            Text(String(attendance), size: 11)
            Rectangle(width: 20, height: (60 * share).rounded(), color: .rgb(red, 255 - red, 0), cornerRadius: 2)
            Text(weekday, size: 12, color: .token(.secondaryText))
        }.component
    }
}

import ScreenplayContract
import ScreenplayServer
import ScreenplayTestSupport
import Testing

@Suite("Screen DSL")
struct ScreenBuilderTests {
    struct Day {
        let name: String
        let cases: Int
    }

    /// The article's city-statistics card, in the DSL: name and image, then seven bars whose
    /// height and color follow the number.
    static func cityCard(name: String, image: String, days: [Day]) -> Component {
        HStack(spacing: 8, background: .token(.surface)) {
            VStack {
                Text(name)
                Image(image, width: 100, height: 100)
            }
            VStack {
                Text("Statistics", size: 15)
                HStack(alignment: .bottom) {
                    for day in days {
                        VStack {
                            Text(String(day.cases), size: 14)
                            Rectangle(
                                width: 20, height: 60 * Double(day.cases) / 1000,
                                color: .rgb(255 * day.cases / 1000, 255 - 255 * day.cases / 1000, 0))
                            Text(day.name, size: 16)
                        }
                    }
                }
            }
        }.component
    }

    @Test("the city card nests stacks and sizes bars by the number")
    func cityCard() throws {
        let days = [Day(name: "Mon", cases: 1000), Day(name: "Tue", cases: 500), Day(name: "Wed", cases: 100)]
        let card = Self.cityCard(name: "Vienna", image: "/images/city/vienna.svg", days: days)
        guard case .horizontalStack(let outer) = card.content else {
            Issue.record("expected a horizontal stack")
            return
        }
        #expect(outer.children.count == 2)
        guard case .verticalStack(let right) = outer.children[1].content, case .horizontalStack(let bars) = right.children[1].content else {
            Issue.record("unexpected shape \(outer.children)")
            return
        }
        #expect(bars.alignment == .bottom)
        #expect(bars.children.count == 3)
        let rectangles = bars.children.compactMap { bar -> Component.Rectangle? in
            guard case .verticalStack(let column) = bar.content, case .rectangle(let rectangle) = column.children[1].content else {
                return nil
            }
            return rectangle
        }
        #expect(rectangles.map(\.height) == [60, 30, 6])
        #expect(rectangles.first?.color == .rgb(255, 0, 0))
        #expect(rectangles.last?.color == .rgb(25, 230, 0))
    }

    @Test("if, if-let, for and helper arrays all contribute components in order")
    func controlFlow() {
        let subtitle: String? = "Op. 27"
        let showExtra = false
        let screen = Screen(id: "s", title: "S") {
            Section("a", header: "A") {
                Text("first")
                if let subtitle { Text(subtitle) }
                if showExtra { Text("hidden") } else { Text("shown") }
                for index in 1...2 { Text("row \(index)") }
                Self.helper()
            }
            if showExtra { Section("never") { Text("x") } }
        }
        #expect(screen.sections.map(\.id) == ["a"])
        #expect(screen.sections[0].header?.title == "A")
        let texts = screen.sections[0].components.compactMap { component -> String? in
            if case .text(let text) = component.content { return text.text }
            return nil
        }
        #expect(texts == ["first", "Op. 27", "shown", "row 1", "row 2", "helper 1", "helper 2"])
    }

    @ComponentBuilder
    static func helper() -> [Component] {
        Text("helper 1")
        Text("helper 2")
    }

    @Test("action helpers build navigate and command actions")
    func actions() {
        #expect(Action.navigate(to: "screens/x") == .navigate(.init(url: "screens/x")))
        #expect(
            Action.command("commands/y", payload: ["id": 3]) == .command(.init(url: "commands/y", payload: .object(["id": .integer(3)]))))
    }
}

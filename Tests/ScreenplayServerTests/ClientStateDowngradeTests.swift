import ScreenplayContract
import ScreenplayServer
import Testing

/// v6 state for clients of v5 and older: every binding evaluated with the initial state, no
/// `state`, no `compute`, no local action; what cannot be done without state goes.
@Suite("Downgrade of client state (v6)")
struct ClientStateDowngradeTests {
    static func screen() throws -> Screen {
        Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(
                    id: "main",
                    components: [
                        Component.text(.init("Biography")).id("bio").computing(.visible, "expanded"),
                        Component.button(.init(title: "More", action: .set(.init(variable: "expanded", value: "!expanded")))).id("more")
                            .computing(.text, "expanded ? 'Less' : 'More'"),
                        Component.button(
                            .init(
                                title: "Save",
                                action: .sequence(.init([.set(.init(variable: "saved", value: "true")), .command(.init(url: "commands/save"))]))
                        )).id("save").computing(.text, "saved ? 'Saved' : 'Save now'"),
                        Component.listRow(.init(title: "Row", action: .set(.init(variable: "saved", value: "false")))).id("row"),
                        Component.textField(.init(label: "Filter", storageKey: "filter")),
                        Component.textField(.init(label: "Search", storageKey: "filter", submit: .command(.init(url: "commands/search")))).id("search"),
                        Component.verticalStack(
                            .init(children: [
                                Component.button(.init(title: "Inner", action: .set(.init(variable: "saved", value: "true")))),
                                Component.text(.init("x")).id("count").computing(.text, "formatNumber(1234.5, 1)"),
                            ])),
                    ])
            ],
            toolbar: [
                MenuItem(title: "Expand", action: .set(.init(variable: "expanded", value: "true"))),
                MenuItem(title: "Share", action: .share(.init(title: "S", url: "https://example.com/s"))),
            ],
            state: [
                "expanded": try StateVariable(.bool, initial: .bool(false)), "saved": try StateVariable(.bool, initial: .bool(false)),
                "filter": try StateVariable(.string, initial: .string("")),
            ])
    }

    @Test("v5 gets the fresh screen's values and what it can do: a sequence becomes its command, a set alone goes")
    func v5() throws {
        let downgraded = Downgrade(to: .v5).screen(try Self.screen())
        #expect(downgraded.state.isEmpty)
        #expect(downgraded.allComponents.allSatisfy { $0.attributes.compute.isEmpty })
        let components = downgraded.sections[0].components
        // `bio` is hidden (expanded is false); `more` only set state, so it goes; the row stays without its action.
        // A field that only feeds the state goes; one that submits stays.
        #expect(components.map(\.id) == ["save", "row", "search", nil])
        #expect(components[0] == Component.button(.init(title: "Save now", action: .command(.init(url: "commands/save")))).id("save"))
        #expect(components[1] == Component.listRow(.init(title: "Row")).id("row"))
        guard case .verticalStack(let stack) = components[3].content else {
            Issue.record("the stack stays")
            return
        }
        #expect(stack.children == [Component.text(.init("1,234.5")).id("count")])
        #expect(downgraded.toolbar?.map(\.title) == ["Share"])
        // Nothing a v5 client cannot decode remains, and the encoder writes no v6 member.
        let text = String(decoding: try ScreenplayEncoder(apiVersion: .v5).encode(downgraded), as: UTF8.self)
        for member in ["\"state\"", "\"compute\"", "\"set\"", "\"sequence\""] { #expect(!text.contains(member), "\(member) in \(text)") }
    }

    @Test("v6 gets the screen as written")
    func v6() throws {
        let screen = try Self.screen()
        #expect(Downgrade(to: .v6).screen(screen) == screen)
    }

    @Test("a command result's effects: local ones go for v5, a sequence becomes its first remote step")
    func effects() {
        let result = CommandResult(
            .done(.init(message: "Saved")),
            updates: .init(effects: [
                .set(.init(variable: "saved", value: "true")),
                .sequence(.init([.set(.init(variable: "a", value: "1")), .openURL(.init(url: "https://example.com"))])),
            ]))
        #expect(Downgrade(to: .v5).result(result).updates.effects == [.openURL(.init(url: "https://example.com"))])
        #expect(Downgrade(to: .v6).result(result).updates.effects == result.updates.effects)
    }
}

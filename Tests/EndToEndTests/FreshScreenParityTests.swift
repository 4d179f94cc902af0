import Foundation
import ScreenplayClient
import ScreenplayContract
import ScreenplayServer
import Testing

/// "Old apps see what a fresh screen shows": a v6 client that resolves a screen with state draws
/// the same tree as a v5 client drawing the server's downgrade of it, action for action aside (a
/// sequence is its command there), through the real encoder and decoder of each version. Every
/// component has an id, as the server's screens do (a positional key would move when a hidden
/// sibling is left out).
@Suite("Old apps see what a fresh v6 screen shows")
struct FreshScreenParityTests {
    static func screen() throws -> Screen {
        Screen(
            id: "work/1", title: "Requiem",
            sections: [
                ScreenSection(
                    id: "main",
                    header: .init(title: "Movements"),
                    components: [
                        Component.text(.init("Biography")).id("bio").computing(.visible, "expanded"),
                        Component.text(.init("Shown")).id("teaser").computing(.visible, "!expanded")
                            .computing(.text, "'Tracks: ' + formatNumber(count, 0)").computing(.style, "count > 2 ? 'accent' : 'secondaryText'"),
                        Component.button(
                            .init(
                                title: "Save", style: .secondary,
                                action: .sequence(.init([.set(.init(variable: "saved", value: "true")), .command(.init(url: "commands/save"))]))
                        )).id("save").computing(.text, "saved ? 'Saved' : 'Save'").computing(.style, "saved ? 'plain' : 'primary'"),
                        Component.trackRow(.init(title: "I. Introitus", duration: 412)).id("t1")
                            .computing(.text, "player.trackID == 't1' ? '▶ I. Introitus' : 'I. Introitus'"),
                        Component.horizontalStack(
                            .init(children: [
                                Component.text(.init("at")).id("resume").computing(.text, "'Resume at ' + formatDuration(resumeAt)"),
                                Component.text(.init("never shown")).id("late").computing(.visible, "resumeAt > 0"),
                            ])
                        ).id("times"),
                        // Rows from a template (v6): a v5 client gets the rows the server made.
                        Component.rows(
                            .init(
                                items: "works",
                                template: [
                                    "type": "listRow", "title": "${item.title}", "subtitle": "No. ${index + 1}",
                                    "recordingCount": ["$value": "item.recordings"],
                                    "compute": ["visible": "item.year > 1780", "text": "expanded ? item.title : upper(item.title)"],
                                ])
                        ).id("works"),
                    ])
            ],
            state: [
                "expanded": try StateVariable(.bool, initial: .bool(false)),
                "saved": try StateVariable(.bool, initial: .bool(false)),
                "count": try StateVariable(.int, initial: .int(1_204)),
                "resumeAt": try StateVariable(.number, initial: .number(0), scope: .app),
                "works": try StateVariable(
                    .array(.record(["title": .string, "year": .int, "recordings": .int])),
                    initial: .array([
                        .record(["title": .string("Requiem"), "year": .int(1791), "recordings": .int(3)]),
                        .record(["title": .string("Mitridate"), "year": .int(1770), "recordings": .int(1)]),
                        .record(["title": .string("Don Giovanni"), "year": .int(1787), "recordings": .int(2)]),
                    ])),
            ])
    }

    /// The tree a client of `version` draws from the server's answer for it.
    static func tree(_ screen: Screen, at version: APIVersion) throws -> ViewNode {
        let sent = Downgrade(to: version).screen(screen)
        let data = try ScreenplayEncoder(apiVersion: version).encode(sent)
        let received = try ScreenplayDecoder(mode: .strict, apiVersion: version).decode(Screen.self, from: data).value
        return withoutActions(ViewTreeResolver().resolve(received).root)
    }

    static func withoutActions(_ node: ViewNode) -> ViewNode {
        var node = node
        node.action = nil
        node.children = node.children.map(withoutActions)
        return node
    }

    @Test("the v6 tree resolved from the initial state equals the v5 tree of the server's downgrade")
    func parity() throws {
        let screen = try Self.screen()
        let fresh = try Self.tree(screen, at: .v6)
        let old = try Self.tree(screen, at: .v5)
        #expect(fresh == old)
        // And the bindings did something: the texts are computed, the hidden ones are gone.
        func texts(_ node: ViewNode) -> [String] { (node.text.map { [$0] } ?? []) + node.children.flatMap(texts) }
        #expect(texts(old).contains("Tracks: 1,204") && texts(old).contains("Resume at 0:00"))
        #expect(!texts(old).contains("Biography") && !texts(old).contains("never shown"))
        #expect(texts(old).suffix(2) == ["REQUIEM", "DON GIOVANNI"], "the rows, made and bound: Mitridate (1770) is hidden")
    }
}

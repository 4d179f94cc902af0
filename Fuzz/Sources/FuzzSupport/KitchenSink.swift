import ScreenplayContract

/// A screen with every component kind, every action kind, a header, menus, storage, entities,
/// bindings, accessibility and two app-defined kinds, with each string taken from a numbered slot.
///
/// The HTML harness fills the slots with fuzz input; with no input it is a valid, demo-like
/// screen (the seed corpora are generated from it too).
public struct KitchenSink {
    /// What a slot holds; decides its default and whether the HTML harness may swap markup
    /// characters in it for look-alikes (the differential oracle).
    public enum Role: Sendable { case text, endpoint, resource, external, key, pattern, storedValue, path }

    /// The slots, in order: role and default.
    public static let slots: [(name: String, role: Role, value: String)] = [
        ("screen.title", .text, "Wolfgang Amadeus Mozart"), ("header.title", .text, "Mozart"),
        ("header.subtitle", .text, "1756–1791 · Austrian"), ("header.image", .resource, "/images/composer/mozart.svg"),
        ("header.lowRes", .resource, "/images/composer/mozart-low.svg"), ("header.alt", .text, "Portrait of Mozart"),
        ("section.id", .text, "works"), ("section.title", .text, "Popular works"), ("section.subtitle", .text, "Most played"),
        ("navigate.url", .endpoint, "screens/work/12"), ("paragraph.1", .text, "Mozart was born in Salzburg."),
        ("paragraph.2", .text, "He wrote over 600 works."), ("detail.title", .text, "Symphony No. 40"),
        ("detail.subtitle", .text, "K. 550"), ("command.url", .endpoint, "commands/favorites/add"), ("command.payload", .text, "work-12"),
        ("row.title", .text, "Requiem"), ("row.composer", .text, "Mozart"), ("track.title", .text, "I. Allegro molto"),
        ("track.subtitle", .text, "Wiener Philharmoniker"), ("track.stream", .resource, "/media/audio/track/17.wav"),
        ("carousel.title", .text, "Haydn"), ("carousel.image", .resource, "/images/composer/haydn-low.svg"), ("text", .text, "1,204"),
        ("image.url", .resource, "/images/city/vienna.svg"), ("image.alt", .text, "Vienna"), ("button.title", .text, "Play all"),
        ("openURL.url", .external, "https://en.wikipedia.org/wiki/Mozart"), ("share.title", .text, "Mozart on Screenplay"),
        ("share.url", .external, "https://example.com/composer/mozart"), ("favorite.label", .text, "Baroque Essentials"),
        ("card.title", .text, "Late Night Piano"), ("field.label", .text, "Search"), ("field.hint", .text, "Composer or work"),
        ("field.storageKey", .key, "query"), ("field.pattern", .pattern, "^.{2,}$"), ("field.message", .text, "Type at least two characters"),
        ("storage.value", .storedValue, "mo"), ("accessibility.label", .text, "Attendance chart"),
        ("accessibility.hint", .text, "Opens the city"), ("component.id", .key, "chart"), ("menu.title", .text, "Share"),
        ("menu.icon", .text, "heart"), ("custom.name", .text, "purchase"), ("page.path", .path, "/screens/composer/mozart"),
        ("page.notice", .text, "Added to favorites"), ("prompt.title", .text, "New playlist"), ("prompt.message", .text, "Give it a name"),
        ("prompt.field", .key, "name"), ("prompt.placeholder", .text, "Name"), ("prompt.initial", .text, "Road trip"),
        ("prompt.submit", .text, "Create"), ("choice.title", .text, "Add to playlist"), ("choice.option", .text, "Road trip"),
        ("choice.subtitle", .text, "12 works"), ("error.title", .text, "Could not do that"), ("error.message", .text, "Try again"),
        ("mapPin.label", .text, "Vienna"), ("ticketOffer.title", .text, "Don Giovanni, 8 pm"), ("entity.title", .text, "Baroque Essentials"),
    ]

    /// Slot values by index.
    public var values: [String]

    /// The defaults.
    public init() { values = Self.slots.map(\.value) }

    /// A slot's value by name.
    public subscript(_ name: String) -> String {
        values[Self.index[name]!]
    }

    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: slots.enumerated().map { ($0.element.name, $0.offset) })

    /// The screen, every string from a slot.
    public var screen: Screen {
        let s = self
        let play = Action.play(
            .init(
                metadataURL: s["navigate.url"],
                firstTrack: .init(id: "17", title: s["track.title"], subtitle: s["track.subtitle"], durationSeconds: 461, streamURL: s["track.stream"])))
        let navigate = Action.navigate(.init(url: s["navigate.url"], header: ScreenHeader(title: s["header.title"]), presentation: .push))
        let command = Action.command(.init(url: s["command.url"], payload: ["workId": .string(s["command.payload"]), "n": 12]))
        let image = RemoteImage(url: s["image.url"], lowResURL: s["header.lowRes"], size: .init(width: 100, height: 80), alt: s["image.alt"])
        let accessibility = Accessibility(label: s["accessibility.label"], hint: s["accessibility.hint"], headingLevel: 3)
        var chart = Component.horizontalStack(
            .init(
                alignment: .bottom, spacing: 4, background: .token(.surface), padding: 12,
                children: [
                    .verticalStack(
                        .init(
                            alignment: .center, spacing: 2, background: .rgba(red: 10, green: 20, blue: 30, alpha: 128), padding: 1.5,
                            children: [
                                .text(.init(s["text"], size: 11, weight: .semibold, color: .token(.secondaryText))),
                                .rectangle(.init(width: 20, height: 42.5, color: .rgb(200, 55, 0), cornerRadius: 2)),
                                .spacer(.init(length: 8)), .spacer(.init()),
                            ])),
                    .image(.init(image, action: navigate)),
                ]))
        chart.attributes = ComponentAttributes(id: s["component.id"], accessibility: accessibility)
        var bound = Component.favoriteButton(
            .init(
                isFavorite: false, label: s["favorite.label"], add: .init(url: s["command.url"], payload: ["playlistId": 1]),
                remove: .init(url: "commands/favorites/remove", payload: ["playlistId": 1])))
        bound.attributes.bindings = ["isFavorite": EntityReference(entity: "playlist/1", field: "favorite")]
        // v6: a shuffled play, a reorderable list of rows with ids, a row with its "…" menu.
        guard case .play(let inOrder) = play else { preconditionFailure("a play") }
        var shuffledPlay = inOrder
        shuffledPlay.shuffle = true
        let reorderable = Component.reorderableList(
            .init(
                label: s["section.title"], move: .init(url: s["command.url"], payload: ["playlistId": 1]),
                children: [
                    Component.listRow(.init(title: s["row.title"], subtitle: s["detail.subtitle"], action: navigate)).id("work-1"),
                    Component.listRow(.init(title: s["detail.title"], action: navigate)).id("work-2"),
                ]))
        let withMenu = Component.listRow(.init(title: s["row.title"], action: navigate))
            .menu([MenuItem(title: s["menu.title"], icon: s["menu.icon"], action: command), MenuItem(title: s["share.title"], action: navigate)])
        var boundTitle = Component.listRow(.init(title: s["row.title"], action: navigate))
        boundTitle.attributes.bindings = ["title": EntityReference(entity: "playlist/1", field: "title")]
        let components: [Component] = [
            .pageHeader(ScreenHeader(title: s["header.title"], subtitle: s["header.subtitle"], image: image)),
            .sectionHeader(.init(title: s["section.title"], subtitle: s["section.subtitle"], action: navigate)),
            .paragraphs(.init([s["paragraph.1"], s["paragraph.2"]])),
            .detailButton(.init(title: s["detail.title"], subtitle: s["detail.subtitle"], image: image, action: navigate)),
            .listRow(
                .init(title: s["row.title"], subtitle: s["detail.subtitle"], image: image, composer: s["row.composer"], recordingCount: 2, action: command)),
            .trackRow(.init(title: s["track.title"], subtitle: s["track.subtitle"], duration: 461, action: play)),
            .carousel(
                .init(
                    itemStyle: .portrait,
                    items: [
                        .init(
                            title: s["carousel.title"], subtitle: s["detail.subtitle"],
                            image: RemoteImage(url: s["carousel.image"], alt: s["header.alt"]), action: navigate)
                    ])),
            chart,
            .button(.init(title: s["button.title"], style: .primary, action: play)),
            .button(.init(title: s["button.title"], style: .secondary, action: .play(shuffledPlay))),
            reorderable, withMenu,
            .button(.init(title: s["share.title"], style: .plain, action: .share(.init(title: s["share.title"], url: s["share.url"])))),
            .button(.init(title: s["button.title"], style: .secondary, action: .openURL(.init(url: s["openURL.url"])))),
            .button(.init(title: s["custom.name"], action: .custom(.init(name: s["custom.name"], payload: ["sku": "a"])))),
            bound, boundTitle,
            .grid(.init(columns: 2, cards: [.init(title: s["card.title"], subtitle: s["detail.subtitle"], image: image, action: navigate)])),
            .textField(
                .init(
                    label: s["field.label"], hint: s["field.hint"], storageKey: s["field.storageKey"], keyboard: .search, maxLength: 40,
                    validation: .init(pattern: s["field.pattern"], message: s["field.message"]), submit: command, suggestions: s["navigate.url"])),
            .custom("ticketOffer", fields: ["title": .string(s["ticketOffer.title"]), "price": "€5"]),
            .custom("mapPin", fields: ["label": .string(s["mapPin.label"])]),
        ]
        return Screen(
            id: "composer/mozart", title: s["screen.title"],
            header: ScreenHeader(title: s["header.title"], subtitle: s["header.subtitle"], image: image),
            sections: [
                ScreenSection(
                    id: s["section.id"], header: .init(title: s["section.title"], subtitle: s["section.subtitle"], action: navigate),
                    components: components)
            ],
            toolbar: [MenuItem(title: s["menu.title"], icon: s["menu.icon"], action: .share(.init(title: s["share.title"], url: s["share.url"])))],
            menu: [MenuItem(title: s["menu.title"], icon: "heart.fill", action: command)],
            storage: [s["field.storageKey"]: s["storage.value"]],
            entities: ["playlist/1": ["favorite": true, "title": .string(s["entity.title"])]])
    }

    /// A prompt (what a command answers when it needs text).
    public var prompt: CommandResult.Prompt {
        .init(
            title: self["prompt.title"], message: self["prompt.message"],
            field: .init(name: self["prompt.field"], placeholder: self["prompt.placeholder"], initialValue: self["prompt.initial"], maxLength: 100),
            submitTitle: self["prompt.submit"], submit: .init(url: self["command.url"], payload: ["source": .string(self["command.payload"])]))
    }

    /// A choice (what a command answers when the user must pick).
    public var choice: CommandResult.Choice {
        .init(
            title: self["choice.title"], message: self["prompt.message"],
            options: [
                .init(title: self["choice.option"], subtitle: self["choice.subtitle"], command: .init(url: self["command.url"], payload: ["id": 3])),
                .init(title: self["choice.title"], command: .init(url: "commands/playlists/new")),
            ])
    }
}

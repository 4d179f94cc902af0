import Foundation
import ScreenplayClient
import ScreenplayContract
import Testing

/// Every display decision the client core makes, kind by kind, option by option.
@Suite("View tree resolution")
struct ViewTreeResolverTests {
    static func nodes(
        _ components: [Component], context: ResolutionContext = ResolutionContext()
    ) -> (nodes: [ViewNode], issues: [ResolutionIssue]) {
        let screen = Screen(id: "s", title: "S", sections: [ScreenSection(id: "main", components: components)])
        let resolved = ViewTreeResolver(context: context).resolve(screen)
        let section = resolved.root.children.first { $0.role == .section }
        return (section?.children ?? [], resolved.issues)
    }

    static func node(_ component: Component, context: ResolutionContext = ResolutionContext()) throws -> ViewNode {
        try #require(nodes([component], context: context).nodes.first)
    }

    static let play = Action.play(.init(metadataURL: "queues/1", firstTrack: .init(id: "7", title: "Allegro", streamURL: "streams/7.m4a")))

    @Test("a carousel or grid is named by its section's title; one with no title, or its own label, keeps it")
    func listsNamedBySection() throws {
        let carousel = Component.carousel(.init(itemStyle: .square, items: [.init(title: "A")]))
        let screen = Screen(
            id: "s", title: "S",
            sections: [
                ScreenSection(id: "top", header: .init(title: "Top composers"), components: [carousel, .text(.init("t"))]),
                ScreenSection(id: "plain", components: [carousel]),
                ScreenSection(id: "own", header: .init(title: "Section"), components: [carousel.accessibility(label: "Own")]),
            ])
        let sections = ViewTreeResolver().resolve(screen).root.children.filter { $0.role == .section }
        #expect(sections[0].children.first { $0.role == .carousel }?.accessibility.label == "Top composers")
        #expect(sections[0].children.first { $0.role == .text }?.accessibility.label == nil)
        #expect(sections[1].children.first { $0.role == .carousel }?.accessibility.label == nil)
        #expect(sections[2].children.first { $0.role == .carousel }?.accessibility.label == "Own")
    }

    @Test("a favorite toggle carries its other face, and its binding when bound")
    func toggleFaces() throws {
        let favorite = Component.FavoriteButton(
            isFavorite: true, label: "Night", add: .init(url: "commands/add"), remove: .init(url: "commands/remove"))
        let node = try Self.node(favorite.component.bind("isFavorite", to: "playlist/3", "favorite"))
        // The entity is missing: the component's own value holds (on), and the problem is logged.
        #expect(node.toggle?.isOn == true)
        #expect(node.text == "Remove from favorites" && node.action?.action == .command(.init(url: "commands/remove")))
        #expect(
            node.toggle?.flipped
                == NodeToggle.Face(
                    text: "Add to favorites", icon: "heart", label: "Add to favorites: Night", action: .command(.init(url: "commands/add"))))
        #expect(node.toggle?.binding == "playlist/3.favorite")
        let unbound = try Self.node(favorite.component)
        #expect(unbound.toggle?.binding == nil)
    }

    @Suite("Text decided once")
    struct Texts {
        @Test(
            "list rows: composer and recording count as details, singular, plural and none",
            arguments: [(0, "No recordings"), (1, "1 recording"), (2, "2 recordings")])
        func recordings(count: Int, text: String) throws {
            let node = try ViewTreeResolverTests.node(
                .listRow(.init(title: "Requiem", subtitle: "K. 626", composer: "Mozart", recordingCount: count)))
            #expect(node.role == .row)
            #expect(node.details == ["Mozart", text])
            #expect(node.accessibility.label == "Requiem, K. 626, Mozart, \(text)")
        }

        @Test("track rows: m:ss or h:mm:ss, a spoken duration, and a play button that says what it plays")
        func tracks() throws {
            let node = try ViewTreeResolverTests.node(
                .trackRow(.init(title: "I. Allegro", subtitle: "Böhm", duration: 3723, action: ViewTreeResolverTests.play)))
            #expect(node.details == ["1:02:03"])
            #expect(node.accessibility.label == "I. Allegro, Böhm, 1 hour 2 minutes 3 seconds")
            let play = try #require(node.children.first)
            #expect(play.role == .button && play.text == "Play" && play.icon == "play.fill")
            #expect(play.accessibility.label == "Play I. Allegro")
            #expect(play.accessibility.hint == "Starts playback")
            #expect(try ViewTreeResolverTests.node(.trackRow(.init(title: "t", duration: 461))).details == ["7:41"])
        }

        @Test(
            "the favorite toggle offers the opposite of its state, carries that command and is selected when on", arguments: [true, false])
        func favorite(isFavorite: Bool) throws {
            let add = Action.Command(url: "commands/favorites/add", payload: ["playlistId": 1])
            let remove = Action.Command(url: "commands/favorites/remove", payload: ["playlistId": 1])
            let node = try ViewTreeResolverTests.node(
                .favoriteButton(.init(isFavorite: isFavorite, label: "Road trip", add: add, remove: remove)))
            #expect(node.role == .toggle)
            #expect(node.text == (isFavorite ? "Remove from favorites" : "Add to favorites"))
            #expect(node.action?.action == .command(isFavorite ? remove : add))
            #expect(node.accessibility.traits.contains(.selected) == isFavorite)
            #expect(node.icon == (isFavorite ? "heart.fill" : "heart"))
            #expect(node.accessibility.label == "\(node.text!): Road trip")
        }
    }

    @Suite("Styles decided once")
    struct Styles {
        @Test("stacks carry axis, alignment, spacing, padding and background")
        func stacks() throws {
            let vertical = try ViewTreeResolverTests.node(
                .verticalStack(
                    .init(alignment: .leading, spacing: 4, background: .token(.surface), padding: 12, children: [.spacer(.init())])))
            #expect(vertical.style.axis == .vertical && vertical.style.alignment == .leading)
            #expect(vertical.style.spacing == 4 && vertical.style.padding == 12 && vertical.style.background == .surface)
            #expect(vertical.children.map(\.role) == [.spacer])
            let horizontal = try ViewTreeResolverTests.node(.horizontalStack(.init(alignment: .bottom, children: [])))
            #expect(horizontal.style.axis == .horizontal && horizontal.style.alignment == .bottom)
        }

        @Test("text: size, weight and color; an unknown token is the text color unless the app registered it")
        func text() throws {
            let node = try ViewTreeResolverTests.node(.text(.init("42", size: 11, weight: .semibold, color: .token(.negative))))
            #expect(node.style.font == NodeFont(.body, size: 11, weight: .semibold))
            #expect(node.style.foreground == .negative)
            let brand = Component.text(.init("b", color: .token(ColorToken(rawValue: "brandPurple")!)))
            #expect(try ViewTreeResolverTests.node(brand).style.foreground == .primaryText)
            #expect(
                try ViewTreeResolverTests.node(brand, context: ResolutionContext(appColorTokens: ["brandPurple"])).style.foreground
                    == .appToken("brandPurple"))
            let hex = try ViewTreeResolverTests.node(.text(.init("h", color: .rgb(255, 0, 0))))
            #expect(hex.style.foreground == .rgba(red: 255, green: 0, blue: 0, alpha: 255))
        }

        @Test("rectangles, spacers, grids, carousels and buttons carry their layout in semantic terms")
        func layout() throws {
            let rectangle = try ViewTreeResolverTests.node(
                .rectangle(.init(width: 20, height: 58, color: .token(.accent), cornerRadius: 2)))
            #expect(
                rectangle.style.width == 20 && rectangle.style.height == 58 && rectangle.style.background == .accent
                    && rectangle.style.cornerRadius == 2)
            #expect(rectangle.accessibility.isHidden)
            #expect(try ViewTreeResolverTests.node(.spacer(.init())).style.isFlexible)
            #expect(try ViewTreeResolverTests.node(.spacer(.init(length: 8))).style.height == 8)
            let grid = try ViewTreeResolverTests.node(.grid(.init(columns: 3, cards: [.init(title: "A"), .init(title: "B")])))
            #expect(grid.role == .grid && grid.style.columns == 3 && grid.children.map(\.role) == [.tile, .tile])
            let carousel = try ViewTreeResolverTests.node(.carousel(.init(itemStyle: .portrait, items: [.init(title: "A")])))
            #expect(
                carousel.role == .carousel && carousel.style.tileShape == .portrait && carousel.children.first?.style.tileShape == .portrait
            )
            let button = try ViewTreeResolverTests.node(
                .button(.init(title: "Go", style: .primary, action: .command(.init(url: "commands/go")))))
            #expect(button.role == .button && button.style.emphasis == .primary)
        }
    }

    @Suite("Actions, images and accessibility")
    struct Actions {
        @Test("what goes somewhere is a link, what acts in place a button")
        func roles() throws {
            #expect(try ViewTreeResolverTests.node(.button(.init(title: "a", action: .navigate(.init(url: "screens/a"))))).role == .link)
            #expect(
                try ViewTreeResolverTests.node(.button(.init(title: "a", action: .openURL(.init(url: "https://example.com"))))).role
                    == .link)
            #expect(
                try ViewTreeResolverTests.node(.button(.init(title: "a", action: .share(.init(title: "s", url: "https://e.com"))))).role
                    == .button)
            let row = try ViewTreeResolverTests.node(
                .detailButton(.init(title: "Mozart", action: .navigate(.init(url: "screens/m", header: .init(title: "W. A. Mozart"))))))
            #expect(row.accessibility.traits == [.link])
            #expect(row.accessibility.hint == "Opens W. A. Mozart")
        }

        @Test(
            "unknown actions, and local ones the app does not handle, are disabled; a blocking command disables all; busy follows the node")
        func enabledAndBusy() throws {
            let unknown = try ViewTreeResolverTests.node(.button(.init(title: "x", action: .unknown(type: "teleport", json: [:]))))
            #expect(unknown.action?.isEnabled == false && unknown.accessibility.traits.contains(.disabled))
            let buy = Component.button(.init(title: "Buy", action: .custom(.init(name: "purchase"))))
            #expect(try ViewTreeResolverTests.node(buy, context: ResolutionContext(localActions: ["share"])).action?.isEnabled == false)
            #expect(try ViewTreeResolverTests.node(buy, context: ResolutionContext(localActions: ["purchase"])).action?.isEnabled == true)
            let borrowed = Component.button(.init(title: "Retry", action: .custom(.init(name: ViewTreeResolver.retryActionName))))
            #expect(try ViewTreeResolverTests.node(borrowed).action?.isEnabled == false, "a server cannot send the client's own retry")
            let go = Component.button(.init(title: "Go", action: .command(.init(url: "commands/go"))))
            #expect(try ViewTreeResolverTests.node(go, context: ResolutionContext(isBlocked: true)).action?.isEnabled == false)
            let id = try ViewTreeResolverTests.node(go).id
            let busy = try ViewTreeResolverTests.node(go, context: ResolutionContext(busyNodes: [id]))
            #expect(busy.action?.isBusy == true && busy.accessibility.traits.contains(.updatesFrequently))
        }

        @Test("images: alt text is the label; decoration without alt or action is hidden; placeholders pass through")
        func images() throws {
            let described = try ViewTreeResolverTests.node(.image(.init(RemoteImage(url: "a.svg", lowResURL: "a-low.svg", alt: "A cat"))))
            #expect(described.accessibility.label == "A cat" && !described.accessibility.isHidden)
            #expect(described.image == NodeImage(url: "a.svg", placeholderURL: "a-low.svg", alt: "A cat"))
            #expect(try ViewTreeResolverTests.node(.image(.init(RemoteImage(url: "a.svg")))).accessibility.isHidden)
        }

        @Test(
            "low-res first: a cached full image shows at once with nothing to swap; a cached low-res one shows first and the full one swaps in; nothing cached shows the empty box",
            arguments: [
                (["a.svg", "a-low.svg"], "a.svg", nil), (["a-low.svg"], "a-low.svg", "a.svg"), ([], nil, "a.svg"),
            ] as [([String], String?, String?)])
        func lowResolutionFirst(cached: [String], first: String?, swap: String?) throws {
            let component = Component.image(.init(RemoteImage(url: "a.svg", lowResURL: "a-low.svg", alt: "A cat")))
            let known = Set(cached)
            let image = try #require(try ViewTreeResolverTests.node(component, context: ResolutionContext(imageCache: { known.contains($0) })).image)
            #expect(image.showFirst == first && image.swapIn == swap)
            // Without a cache to ask: the low-res image loads first, then the full one.
            let unknown = try #require(try ViewTreeResolverTests.node(component).image)
            #expect(unknown.showFirst == "a-low.svg" && unknown.swapIn == "a.svg")
            // No low-res image and nothing cached: the box, then the image.
            let plain = try #require(
                try ViewTreeResolverTests.node(.image(.init(RemoteImage(url: "b.svg"))), context: ResolutionContext(imageCache: { _ in false })).image)
            #expect(plain.showFirst == nil && plain.swapIn == "b.svg")
        }

        @Test("headings: the screen's title is level 1, section titles and body headers level 2")
        func headings() throws {
            let screen = Screen(
                id: "s", title: "T", header: .init(title: "Mozart"),
                sections: [ScreenSection(id: "a", header: .init(title: "Works"), components: [.pageHeader(.init(title: "Inner"))])])
            let nodes = ViewTreeResolver().resolve(screen).root.allNodes
            #expect(
                nodes.filter { $0.accessibility.traits.contains(.header) }.map { "\($0.text!) \($0.accessibility.headingLevel!)" } == [
                    "Mozart 1", "Works 2", "Inner 2",
                ])
        }
    }

    @Suite("Identity")
    struct Identity {
        @Test("ids follow what a component is, not where: inserting a row above another keeps the other's id")
        func stableIDs() throws {
            let mozart = Component.listRow(.init(title: "Mozart", action: .navigate(.init(url: "screens/composer/mozart"))))
            let bach = Component.listRow(.init(title: "Bach", action: .navigate(.init(url: "screens/composer/bach"))))
            let before = ViewTreeResolverTests.nodes([mozart]).nodes.map(\.id)
            let after = ViewTreeResolverTests.nodes([bach, mozart]).nodes.map(\.id)
            #expect(before == ["section:main/listRow:screens/composer/mozart"])
            #expect(after.last == before.first)
        }

        @Test("a key that already ends like a suffix cannot collide with a generated one")
        func suffixLookalike() {
            let ids = ViewTreeResolverTests.nodes([.listRow(.init(title: "A")), .listRow(.init(title: "A")), .listRow(.init(title: "A~2"))])
                .nodes.map(\.id)
            #expect(Set(ids).count == 3)
        }

        @Test("an image that acts but has no alt text is still named, after where it leads, and the gap is logged")
        func unnamedImageLink() throws {
            let (nodes, issues) = ViewTreeResolverTests.nodes([
                .image(.init(RemoteImage(url: "a.svg"), action: .navigate(.init(url: "screens/a", header: .init(title: "Vienna")))))
            ])
            let node = try #require(nodes.first)
            #expect(node.accessibility.label == "Vienna" && !node.accessibility.isHidden)
            #expect(issues.count == 1)
        }

        @Test("two components with the same identity in one parent get distinct ids, in document order")
        func duplicates() throws {
            let row = Component.listRow(.init(title: "Same"))
            let ids = ViewTreeResolverTests.nodes([row, row, row]).nodes.map(\.id.rawValue)
            #expect(ids == ["section:main/listRow:Same", "section:main/listRow:Same~2", "section:main/listRow:Same~3"])
            let all = ViewTreeResolver().resolve(
                Screen(
                    id: "d", title: "D",
                    sections: [
                        ScreenSection(id: "a", components: [row, row]), ScreenSection(id: "a", components: [row]),
                    ])
            ).root.allNodes.map(\.id)
            #expect(Set(all).count == all.count)
            #expect(all.contains("section:a~2/listRow:Same"))
        }
    }

    @Suite("App-defined kinds")
    struct Custom {
        struct Offer: Decodable, Sendable {
            let title: String
            let price: Int
        }

        static let offer = Component.unknown(.init(type: "ticketOffer", json: ["type": "ticketOffer", "title": "Gala", "price": 40]))

        @Test("a registered model resolves into ordinary nodes every renderer draws")
        func model() throws {
            var registry = ComponentRegistry()
            registry.register("ticketOffer", as: Offer.self) { offer, id in
                [ViewNode(id: id, role: .row, text: offer.title, details: ["€\(offer.price)"])]
            }
            let (nodes, issues) = ViewTreeResolverTests.nodes([Self.offer], context: ResolutionContext(registry: registry))
            #expect(issues.isEmpty)
            #expect(nodes.map(\.text) == ["Gala"] && nodes.first?.details == ["€40"])
        }

        @Test("a registered custom node carries its JSON to the renderers' registries")
        func customNode() throws {
            var registry = ComponentRegistry()
            registry.registerCustomNode("ticketOffer") { $0["title"]?.stringValue }
            let node = try ViewTreeResolverTests.node(Self.offer, context: ResolutionContext(registry: registry))
            #expect(node.role == .custom && node.customKind == "ticketOffer" && node.customData?["price"] == 40)
            #expect(node.accessibility.label == "Gala")
        }

        @Test("unknown kinds, and registered ones whose JSON does not fit the model, resolve to nothing and are logged")
        func unknown() throws {
            let (nodes, issues) = ViewTreeResolverTests.nodes([Self.offer, .spacer(.init())])
            #expect(nodes.map(\.role) == [.spacer])
            #expect(issues.map(\.message) == ["unknown component kind 'ticketOffer'; nothing shown"])
            var registry = ComponentRegistry()
            registry.register("ticketOffer", as: Offer.self) { _, id in [ViewNode(id: id, role: .text)] }
            let broken = Component.unknown(.init(type: "ticketOffer", json: ["type": "ticketOffer", "title": "Gala", "price": "free"]))
            let result = ViewTreeResolverTests.nodes([broken], context: ResolutionContext(registry: registry))
            #expect(result.nodes.isEmpty)
            #expect(result.issues.first?.message.hasPrefix("'ticketOffer' could not be resolved") == true)
        }
    }

    @Suite("Screen states and what is presented")
    struct States {
        @Test("loading shows the carried header and progress; failed shows the error and an enabled retry")
        func states() throws {
            let header = ScreenHeader(title: "Mozart")
            let loading = ViewTreeResolver().resolve(.loading(header: header)).root
            #expect(loading.children.map(\.role) == [.header, .progress])
            let failed = ViewTreeResolver().resolve(.failed(header: header, error: ClientError(kind: .transport, message: "offline"))).root
            #expect(failed.children.map(\.role) == [.header, .message])
            let retry = try #require(failed.children.last?.children.first)
            #expect(retry.action?.action == .custom(.init(name: ViewTreeResolver.retryActionName)) && retry.action?.isEnabled == true)
        }

        @Test("a prompt is a text field and a submit button; a choice one button per option")
        func presented() throws {
            let prompt = CommandResult.Prompt(
                title: "New playlist", field: .init(name: "name", placeholder: "Playlist name", initialValue: "Mix"), submitTitle: "Create",
                submit: .init(url: "commands/playlists/create"))
            let promptNode = ViewTreeResolver().resolve(ScreenNavigator.Presented.prompt(prompt))
            #expect(promptNode.children.map(\.role) == [.textField, .button])
            #expect(promptNode.children.first?.id == "presented/field:name" && promptNode.children.first?.text == "Mix")
            let choice = CommandResult.Choice(
                title: "Add to playlist",
                options: [.init(title: "A", command: .init(url: "commands/a")), .init(title: "B", command: .init(url: "commands/b"))])
            let choiceNode = ViewTreeResolver().resolve(ScreenNavigator.Presented.choice(choice))
            #expect(choiceNode.children.map(\.text) == ["A", "B"] && choiceNode.children.allSatisfy { $0.role == .button })
        }
    }
}

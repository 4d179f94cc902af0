import Foundation
import ScreenplayContract
@testable import ScreenplayWeb
import Testing

@Suite("Screen pages")
struct ScreenPageTests {
    @Suite("Document")
    struct Document {
        @Test("The page is an English HTML document titled after the screen")
        func document() {
            let html = Fixture.bare(HTMLRenderer().page(for: Fixture.screen([], title: "Mozart"), currentPath: "/screens/composer/mozart"))
            #expect(html.hasPrefix("<!doctype html>"))
            #expect(html.contains(#"<html lang="en">"#))
            #expect(html.contains("<title>Mozart · Screenplay</title>"))
            #expect(html.contains("<h1>Mozart</h1>"))
            #expect(html.contains(#"<meta charset="utf-8">"#))
            #expect(html.contains(#"<main id="main" tabindex="-1" data-page="screen">"#))
            #expect(html.hasSuffix("</body></html>"))
            // No script unless the site serves one (WebSite sets it).
            #expect(!html.contains("<script"))
        }

        @Test("The page tells its script where commands go and how long their answer may take, as the server has them")
        func commandSettings() {
            var renderer = HTMLRenderer()
            renderer.links = WebLinks(commandPath: "/shop/do")
            let html = renderer.page(for: Fixture.screen([]), currentPath: "/")
            #expect(html.contains(#"data-command-path="/shop/do""#))
            #expect(html.contains(#"data-command-ms="\#(CommandTiming.optimisticTimeoutMilliseconds)""#))
            #expect(CommandTiming.optimisticTimeoutMilliseconds == 10_000, "the client core's default, in milliseconds")
        }

        @Test("Every page has the site's shell: a skip link, the navigation with the current page marked, the search box")
        func shell() throws {
            let shell = WebShell(
                siteName: "Classical", navigation: [.init("Home", path: "/"), .init("Library", path: "/screens/library")],
                search: .init(path: "/screens/search", parameter: "q", placeholder: "Find"), scriptPath: "/web/site.js?v=1")
            let renderer = HTMLRenderer(shell: shell)
            let home = renderer.page(for: Fixture.screen([]), currentPath: "/")
            let library = renderer.page(for: Fixture.screen([], title: "Night <Music>"), currentPath: "/screens/library/4?x=1")
            #expect(home.contains(##"<a class="skip-link" href="#main">Skip to content</a>"##))
            #expect(home.contains(#"<li><a href="/" aria-current="page">Home</a></li><li><a href="/screens/library">Library</a></li>"#))
            #expect(library.contains(#"<li><a href="/">Home</a></li><li><a href="/screens/library" aria-current="page">Library</a></li>"#))
            #expect(library.contains("<title>Night &lt;Music&gt; · Classical</title>"))
            #expect(
                home.contains(
                    #"<form class="site-search" role="search" method="get" action="/screens/search"><label for="site-search" class="visually-hidden">Search</label><input id="site-search" type="search" name="q" placeholder="Find" autocomplete="off">"#
                ))
            #expect(home.contains(#"<script type="module" src="/web/site.js?v=1"></script>"#))
            // With a suggestions page, the box names it and the module that offers its rows.
            var suggesting = shell
            suggesting.search?.suggestions = "/screens/search/suggestions"
            let suggestions = try #require(WebScript.suggest?.versionedPath)
            #expect(
                HTMLRenderer(shell: suggesting).page(for: Fixture.screen([]), currentPath: "/").contains(
                    #"autocomplete="off" data-suggest="\#(suggestions)" data-suggest-from="/screens/search/suggestions">"#))
            // The player, the live region and the loading state are in every page, outside <main>.
            let main = try #require(home.range(of: "</main>"))
            #expect(home[main.upperBound...].contains(#"<section id="sp-player" class="player" aria-label="Now playing" hidden>"#))
            #expect(home[main.upperBound...].contains(#"<div id="sp-announcer" class="visually-hidden" role="status" aria-live="polite"></div>"#))
            #expect(home[main.upperBound...].contains(#"<template id="sp-loading">"#))
        }

        @Test("The site's own 404 page: its look and a way on")
        func notFound() {
            let html = HTMLRenderer().notFoundPage(path: "/nowhere<script>")
            #expect(html.contains("<h1>Page not found</h1>"))
            #expect(html.contains("Nothing is at /nowhere&lt;script&gt;."))
            #expect(html.contains(#"data-page="error""#))
        }

        @Test("The notice is announced as a status, a toast shown for as long as the client core says")
        func notice() {
            let html = Fixture.bare(HTMLRenderer().page(for: Fixture.screen([]), currentPath: "/", notice: WebNotice("Added <b>Requiem</b>")))
            #expect(
                html.contains(
                    #"<p class="notice" role="status" data-notice="confirmation" style="--sp-toast:4000ms">Added &lt;b&gt;Requiem&lt;/b&gt;</p>"#))
            let long = String(repeating: "x", count: 90)
            #expect(Fixture.bare(HTMLRenderer().page(for: Fixture.screen([]), currentPath: "/", notice: WebNotice(long))).contains("--sp-toast:7000ms"))
            let failure = HTMLRenderer().page(for: Fixture.screen([]), currentPath: "/", notice: WebNotice("No <luck>", isError: true))
            #expect(failure.contains(#"<p class="error" role="alert" data-notice="error">No &lt;luck&gt;</p>"#))
            #expect(!Fixture.bare(HTMLRenderer().page(for: Fixture.screen([]), currentPath: "/")).contains(#"<p class="notice""#))
        }

        @Test("A screen header replaces the plain title heading")
        func header() {
            let screen = Screen(
                id: "m", title: "Mozart",
                header: ScreenHeader(
                    title: "W. A. Mozart", subtitle: "1756–1791",
                    image: RemoteImage(url: "images/m.jpg", lowResURL: "images/m-small.jpg", alt: "Portrait of Mozart")),
                sections: [])
            let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/x"))
            #expect(
                html.contains(
                    #"<header class="hero"><img src="/images/m.jpg" alt="Portrait of Mozart" loading="lazy" style="background-image:url('/images/m-small.jpg');background-size:cover"><div class="hero-text"><h1>W. A. Mozart</h1><p class="subtitle">1756–1791</p></div></header>"#
                ))
            #expect(!html.contains("<h1>Mozart</h1>"))
            #expect(html.contains("<title>Mozart · Screenplay</title>"))
        }

        @Test("Sections get escaped ids and their header as a heading")
        func sections() {
            let screen = Screen(
                id: "s", title: "T",
                sections: [
                    ScreenSection(
                        id: #"works"><script>"#,
                        header: .init(title: "Works", subtitle: "All of them", action: .navigate(.init(url: "screens/works"))),
                        components: [])
                ])
            let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/"))
            #expect(
                html.contains(
                    #"<section id="section-works&quot;&gt;&lt;script&gt;"><div class="heading"><h2><a href="/screens/works">Works</a></h2><p class="subtitle">All of them</p></div></section>"#
                ))
        }
    }

    @Suite("Escaping")
    struct Escaping {
        static let hostile = #"<script>alert("x")</script>'"#
        static let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;"

        @Test("Titles, subtitles, paragraphs and labels never become markup")
        func everyTextEscaped() {
            let h = Self.hostile
            let screen = Screen(
                id: "x", title: h, header: ScreenHeader(title: h, subtitle: h, image: RemoteImage(url: "images/a.png", alt: h)),
                sections: [
                    ScreenSection(
                        id: h, header: .init(title: h, subtitle: h),
                        components: [
                            .pageHeader(.init(title: h, subtitle: h)),
                            .paragraphs(.init([h, h])),
                            .detailButton(.init(title: h, subtitle: h, action: .navigate(.init(url: "screens/a")))),
                            .listRow(.init(title: h, subtitle: h, composer: h)),
                            .trackRow(
                                .init(
                                    title: h, subtitle: h, duration: 61,
                                    action: .command(.init(url: "commands/play", payload: ["t": .string(h)])))),
                            .carousel(.init(itemStyle: .square, items: [.init(title: h, subtitle: h)])),
                            .text(.init(h)),
                            .button(.init(title: h, action: .navigate(.init(url: "screens/b")))),
                        ])
                ],
                menu: [MenuItem(title: h, action: .command(.init(url: "commands/x")))])
            let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/screens/x", notice: WebNotice(h)))
            #expect(!html.contains("<script"))
            #expect(!html.contains(#"alert("x")"#))
            #expect(Fixture.count(of: Self.escaped, in: html) >= 20)
        }

        @Test("A hostile current path stays inside the hidden field")
        func hostileBack() {
            let html = Fixture.page(
                [.button(.init(title: "Go", action: .command(.init(url: "commands/go"))))], currentPath: #"/x"><script>alert(1)</script>"#)
            #expect(!html.contains("<script"))
            #expect(html.contains(#"<input type="hidden" name="back" value="/x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">"#))
        }
    }

    @Suite("Links")
    struct Links {
        @Test("Navigate actions become links under /screens, and screens/home becomes /")
        func navigate() {
            let html = Fixture.page([
                .detailButton(.init(title: "Mozart", action: .navigate(.init(url: "screens/composer/mozart")))),
                .button(.init(title: "Home", style: .plain, action: .navigate(.init(url: "screens/home")))),
                .listRow(.init(title: "Abs", action: .navigate(.init(url: "https://example.com/x?a=1&b=2")))),
            ])
            #expect(
                html.contains(
                    #"<div class="row"><a href="/screens/composer/mozart"><span class="text-block"><span class="title">Mozart</span></span></a></div>"#
                ))
            #expect(html.contains(#"<a class="action plain" href="/"><span class="label">Home</span></a>"#))
            #expect(html.contains(#"<a href="https://example.com/x?a=1&amp;b=2">"#))
        }

        @Test("A javascript: navigate built in code renders no link at all")
        func javascriptNavigate() {
            let evil = Action.navigate(.init(url: "javascript:alert(document.cookie)"))
            let html = Fixture.page([
                .detailButton(.init(title: "Row", action: evil)),
                .button(.init(title: "Button", action: evil)),
                .sectionHeader(.init(title: "Header", action: evil)),
                .carousel(.init(itemStyle: .wide, items: [.init(title: "Item", action: evil)])),
                .image(.init(RemoteImage(url: "images/a.png"), action: evil)),
            ])
            #expect(!html.lowercased().contains("javascript"))
            #expect(html.contains(#"<span class="title">Row</span>"#))
            #expect(!html.contains(">Button<"))
            #expect(html.contains("<h2>Header</h2>"))
            #expect(html.contains(#"<li><span class="title">Item</span></li>"#))
        }

        @Test(
            "Other refused URLs render no link either",
            arguments: ["//evil.example", "data:text/html,x", "file:///etc/passwd", "java\nscript:x"])
        func refusedURLs(url: String) {
            let html = Fixture.page([
                .button(.init(title: "Open", action: .openURL(.init(url: url)))),
                .button(.init(title: "Share", action: .share(.init(title: "s", url: url)))),
                .listRow(.init(title: "Row", action: .navigate(.init(url: url)))),
                .image(.init(RemoteImage(url: url, alt: "pic"))),
            ])
            #expect(!html.contains("href=\"\(url)"))
            #expect(!html.contains("src="))
            #expect(!html.contains(">Open<"))
            #expect(!html.contains(">Share<"))
        }

        @Test(
            "Backslash URLs that browsers read as another host render no link")
        func backslashHost() {
            let html = Fixture.page([.listRow(.init(title: "Row", action: .navigate(.init(url: #"/\evil.example"#))))])
            #expect(!html.contains("evil.example"))
        }

        @Test("openURL links open without an opener; mailto passes through")
        func openURL() {
            let html = Fixture.page([.button(.init(title: "Mail", action: .openURL(.init(url: "mailto:hi@example.com"))))])
            #expect(html.contains(#"<a class="action" href="mailto:hi@example.com" rel="noopener"><span class="label">Mail</span></a>"#))
        }

        @Test("Play links to the first track's stream, as a button to the listener, with what now playing names")
        func play() {
            let play = Action.play(.init(metadataURL: "queues/1", firstTrack: .init(id: "1", title: "Allegro", streamURL: "streams/1.m4a")))
            let html = Fixture.page([.trackRow(.init(title: "I. Allegro", duration: 461, action: play))])
            #expect(
                html.contains(
                    #"<div class="row"><span class="text-block"><span class="title">I. Allegro</span></span><span class="accessory">7:41</span><a class="action plain play" role="button" href="/streams/1.m4a" data-play="1" data-track-title="Allegro" data-track-src="/streams/1.m4a" data-queue="/queues/1" aria-label="Play I. Allegro"><span aria-hidden="true">▶</span> <span class="label">Play</span></a></div>"#
                ))
            // The work, the composer and the picture (v6); a picture the link policy refuses is left out.
            let named = Action.play(
                .init(
                    metadataURL: "queues/1",
                    firstTrack: .init(
                        id: "1", title: "Allegro", streamURL: "streams/1.m4a", work: "Sonata <No. 8>", composer: "Beethoven",
                        artwork: RemoteImage(url: "/images/b.svg", lowResURL: "/images/b-low.svg"))))
            let page = Fixture.page([.trackRow(.init(title: "I. Allegro", duration: 461, action: named))])
            #expect(
                page.contains(
                    #"data-track-work="Sonata &lt;No. 8&gt;" data-track-composer="Beethoven" data-track-art="/images/b.svg" data-track-thumb="/images/b-low.svg""#))
            let hostile = Action.play(
                .init(
                    metadataURL: "queues/1",
                    firstTrack: .init(id: "1", title: "Allegro", streamURL: "streams/1.m4a", artwork: RemoteImage(url: "javascript:alert(1)"))))
            #expect(!Fixture.page([.trackRow(.init(title: "I. Allegro", duration: 461, action: hostile))]).contains("data-track-art"))
        }

        @Test("A navigate link carries its destination's header for the script to show at once")
        func carriedHeader() {
            let header = ScreenHeader(
                title: "Mozart <W.>", subtitle: "1756–1791", image: RemoteImage(url: "/i/m.svg", lowResURL: "/i/m-low.svg", alt: "Portrait"))
            let html = Fixture.page([.listRow(.init(title: "Mozart", action: .navigate(.init(url: "screens/composer/mozart", header: header))))])
            #expect(
                html.contains(
                    #"<a href="/screens/composer/mozart" data-header-title="Mozart &lt;W.&gt;" data-header-subtitle="1756–1791" data-header-image="/i/m-low.svg" data-header-alt="Portrait" data-header-full="/i/m.svg">"#
                ))
        }

        @Test("A share is a disclosure with the link to copy, not a link that reloads the page")
        func share() {
            let html = Fixture.page([.button(.init(title: "Share", action: .share(.init(title: "Requiem", url: "/screens/work/3"))))])
            #expect(
                html.contains(
                    #"<details class="share" data-share-url="/screens/work/3" data-share-title="Requiem" data-share-copied="Link copied"><summary class="action"><span class="label">Share</span></summary>"#
                ))
            #expect(html.contains(#"<input type="text" readonly value="/screens/work/3" data-share-field>"#))
            #expect(!html.contains(#"<a class="action" href="/screens/work/3""#))
        }

        @Test("Custom and unknown actions, which a browser cannot carry out, render as disabled buttons, as the tree decided")
        func customActions() {
            let html = Fixture.page([
                .button(.init(title: "Buy", action: .custom(.init(name: "purchase")))),
                .button(.init(title: "Beam", action: .unknown(type: "teleport", json: ["type": "teleport"]))),
            ])
            #expect(html.contains(#"<button type="button" class="action" disabled><span class="label">Buy</span></button>"#))
            #expect(html.contains(#"<button type="button" class="action" disabled><span class="label">Beam</span></button>"#))
            #expect(!html.contains("purchase") && !html.contains("teleport"))
        }
    }

    @Suite("Node keys")
    struct NodeKeys {
        @Test("Every node's element carries its id, escaped, so a refreshed page is morphed node by node")
        func keys() {
            let html = HTMLRenderer().page(
                for: Fixture.screen([
                    .listRow(.init(title: "A\"b", action: .navigate(.init(url: "screens/a")))), .text(.init("t")),
                ]), currentPath: "/")
            #expect(html.contains(#"<section id="section-main" data-node="section:main">"#))
            #expect(html.contains(#"<div class="row" data-node="section:main/listRow:screens/a">"#))
            #expect(html.contains(#"<span class="text" data-node="section:main/text:t">t</span>"#))
            #expect(html.contains(#"<header class="hero" data-node="header">"#))
        }

        @Test("A favorite toggle carries its other face and its binding, for an optimistic flip")
        func toggle() {
            let toggle = Component.FavoriteButton(
                isFavorite: false, label: "Night <Music>", add: .init(url: "commands/favorites/add", payload: ["id": 3]),
                remove: .init(url: "commands/favorites/remove", payload: ["id": 3])
            ).component.bind("isFavorite", to: "playlist/3", "favorite")
            let screen = Screen(
                id: "p", title: "P", sections: [ScreenSection(id: "s", components: [toggle])],
                entities: ["playlist/3": ["favorite": .bool(true)]])
            let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/p"))
            // The entity says it is a favorite: the form posts remove, and its other face is add
            // (on the form for the script, and on the label, which the stylesheet measures).
            #expect(
                html.contains(
                    #"<form method="post" action="/web/command" class="inline" data-toggle="on" data-flip-text="Add to favorites" data-flip-icon="♡" data-flip-label="Add to favorites: Night &lt;Music&gt;" data-flip-url="commands/favorites/add" data-flip-payload="{&quot;id&quot;:3}" data-binding="playlist/3.favorite"><input type="hidden" name="url" value="commands/favorites/remove">"#
                ))
            #expect(
                html.contains(
                    #"<button type="submit" class="action favorite" aria-label="Remove from favorites: Night &lt;Music&gt;" aria-pressed="true"><span aria-hidden="true">♥</span> <span class="label" data-other="Add to favorites">Remove from favorites</span></button>"#
                ))
        }
    }

    @Suite("Commands")
    struct Commands {
        @Test("Menu commands are POST forms to /web/command with url, escaped payload and back")
        func menuForm() {
            let screen = Screen(
                id: "w", title: "Work", sections: [],
                toolbar: [MenuItem(title: "Share", action: .share(.init(title: "Work", url: "https://example.com/w")))],
                menu: [
                    MenuItem(
                        title: "Add to favorites", icon: "heart",
                        action: .command(.init(url: "commands/favorites/add", payload: ["workId": 3, "name": "K<626>"])))
                ])
            let html = Fixture.bare(HTMLRenderer().page(for: screen, currentPath: "/screens/work/3"))
            let form =
                #"<form method="post" action="/web/command" class="inline"><input type="hidden" name="url" value="commands/favorites/add"><input type="hidden" name="payload" value="{&quot;name&quot;:&quot;K&lt;626&gt;&quot;,&quot;workId&quot;:3}"><input type="hidden" name="back" value="/screens/work/3"><button type="submit" class="action"><span aria-hidden="true">♡</span> <span class="label">Add to favorites</span></button></form>"#
            #expect(
                html.contains(
                    #"<nav class="menu" aria-label="Actions"><details class="share" data-share-url="https://example.com/w" data-share-title="Work" data-share-copied="Link copied"><summary class="action"><span class="label">Share</span></summary><div class="share-panel"><label>Link to copy <input type="text" readonly value="https://example.com/w" data-share-field></label></div></details>"#
                        + form + "</nav>"))
        }

        @Test("A command without a payload posts an empty object")
        func emptyPayload() {
            let html = Fixture.page(
                [.button(.init(title: "Go", style: .primary, action: .command(.init(url: "commands/go"))))], currentPath: "/")
            #expect(html.contains(#"<input type="hidden" name="payload" value="{}">"#))
            #expect(html.contains(#"<button type="submit" class="action primary"><span class="label">Go</span></button>"#))
        }

        @Test("A row whose action is a command becomes a submit button wrapping the row")
        func rowCommand() {
            let html = Fixture.page([
                .listRow(.init(title: "Requiem", recordingCount: 2, action: .command(.init(url: "commands/open", payload: ["id": 1]))))
            ])
            #expect(
                html.contains(
                    #"<div class="row"><form method="post" action="/web/command"><input type="hidden" name="url" value="commands/open">"#))
            #expect(
                html.contains(
                    #"<button type="submit" class="row-button"><span class="text-block"><span class="title">Requiem</span></span><span class="accessory">2 recordings</span></button></form></div>"#
                ))
        }

        @Test("A custom command path is used in every form")
        func customCommandPath() {
            let renderer = HTMLRenderer(links: WebLinks(commandPath: "/app/post"))
            let html = renderer.page(
                for: Fixture.screen([.button(.init(title: "Go", action: .command(.init(url: "commands/go"))))]), currentPath: "/")
            #expect(html.contains(#"action="/app/post""#))
            #expect(!html.contains("/web/command"))
        }
    }

    @Suite("Components")
    struct Components {
        let renderer = HTMLRenderer()

        @Test("Unknown components render nothing")
        func unknown() {
            let component = Component.unknown(.init(type: "grid", json: ["type": "grid", "title": "SECRET"]))
            #expect(Fixture.bare(renderer.component(component, back: "/")).isEmpty)
            #expect(!Fixture.page([component]).contains("SECRET"))
        }

        @Test("A rectangle renders its size, hex color and radius")
        func rectangle() {
            #expect(
                Fixture.bare(renderer.component(.rectangle(.init(width: 120, height: 8.5, color: .rgb(30, 144, 255), cornerRadius: 2)), back: "/"))
                    == #"<div class="rectangle" role="presentation" style="width:120px;height:8.5px;background:#1E90FF;border-radius:2px"></div>"#
            )
        }

        @Test("A translucent color renders as rgba()")
        func translucent() {
            let html = Fixture.bare(renderer.component(
                .rectangle(.init(width: 1, height: 1, color: .rgba(red: 255, green: 0, blue: 0, alpha: 51))), back: "/"))
            #expect(html.contains("background:rgba(255,0,0,0.2)"))
        }

        @Test("Text tokens become CSS variables; size and weight map to CSS")
        func text() {
            #expect(
                Fixture.bare(renderer.component(.text(.init("42", size: 17, weight: .semibold, color: .token(.accent))), back: "/"))
                    == #"<span class="text" style="font-size:17px;font-weight:600;color:var(--sp-accent)">42</span>"#)
            #expect(Fixture.bare(renderer.component(.text(.init("plain")), back: "/")) == #"<span class="text">plain</span>"#)
            // The view tree decides: a token the site registered keeps its variable, an unknown one is the text color.
            let brand = Component.text(.init("brand", color: .token(ColorToken(rawValue: "brandPurple")!)))
            #expect(HTMLRenderer(appColorTokens: ["brandPurple"]).component(brand, back: "/").contains("color:var(--sp-brandPurple)"))
            #expect(Fixture.bare(renderer.component(brand, back: "/")).contains("color:var(--sp-primaryText)"))
        }

        @Test("Every standard token has a CSS variable in the stylesheet", arguments: ColorToken.standard)
        func stylesheetDefinesTokens(token: ColorToken) {
            #expect(Fixture.page([]).contains("--sp-\(token.rawValue):"))
        }

        @Test("Images carry alt text, size and a lazy-loading hint")
        func image() {
            #expect(
                Fixture.bare(renderer.component(
                    .image(.init(RemoteImage(url: "images/a.png", size: .init(width: 40, height: 30.5), alt: #"A "portrait""#))), back: "/"))
                    == #"<div class="image"><img src="/images/a.png" alt="A &quot;portrait&quot;" loading="lazy" width="40" height="30.5"></div>"#)
            #expect(
                Fixture.bare(renderer.component(.image(.init(RemoteImage(url: "https://cdn.example/b.png"))), back: "/"))
                    == #"<div class="image"><img src="https://cdn.example/b.png" alt="" loading="lazy"></div>"#)
        }

        @Test("Stacks become flex boxes with their alignment, gap, background and padding")
        func stacks() {
            let vertical = Fixture.bare(renderer.component(
                .verticalStack(
                    .init(alignment: .trailing, spacing: 8, background: .token(.surface), padding: 4, children: [.text(.init("a"))])),
                back: "/"))
            #expect(
                vertical
                    == #"<div class="stack" style="display:flex;flex-direction:column;align-items:flex-end;gap:8px;background:var(--sp-surface);padding:4px"><span class="text">a</span></div>"#
            )
            let horizontal = Fixture.bare(renderer.component(
                .horizontalStack(.init(alignment: .bottom, children: [.spacer(.init(length: 10)), .spacer(.init())])), back: "/"))
            #expect(
                horizontal
                    == #"<div class="stack horizontal" style="display:flex;flex-direction:row;align-items:flex-end"><div class="spacer" style="flex:0 0 10px"></div><div class="spacer" style="flex:1"></div></div>"#
            )
        }

        @Test("A carousel is a focusable list of its items, in order, with its style as a class, and scroll buttons the script shows")
        func carousel() {
            let html = Fixture.bare(renderer.component(
                .carousel(
                    .init(
                        itemStyle: .portrait,
                        items: [
                            .init(
                                title: "Bach", image: RemoteImage(url: "images/bach.jpg", alt: "Bach"),
                                action: .navigate(.init(url: "screens/composer/bach"))),
                            .init(title: "Handel", subtitle: "1685"),
                        ])), back: "/"))
            #expect(
                html
                    == #"<div class="carousel-frame"><button type="button" class="carousel-scroll" data-scroll="-1" aria-label="Scroll back" hidden>‹</button><ul class="carousel portrait" tabindex="0" aria-label="Scrolling list"><li><a href="/screens/composer/bach"><img src="/images/bach.jpg" alt="Bach" loading="lazy"><span class="title">Bach</span></a></li><li><span class="title">Handel</span><span class="subtitle">1685</span></li></ul><button type="button" class="carousel-scroll" data-scroll="1" aria-label="Scroll forward" hidden>›</button></div>"#
            )
        }

        @Test("List rows show their accessories, with singular and plural recordings")
        func listRowAccessories() {
            #expect(
                Fixture.bare(renderer.component(.listRow(.init(title: "A", composer: "Bach", recordingCount: 1)), back: "/")).contains(
                    #"<span class="accessory">Bach</span><span class="accessory">1 recording</span>"#))
            #expect(
                Fixture.bare(renderer.component(.listRow(.init(title: "A", recordingCount: 0)), back: "/")).contains(
                    #"<span class="accessory">No recordings</span>"#))
        }

        @Test("A page header inside the body is a second-level heading")
        func pageHeaderComponent() {
            #expect(
                Fixture.bare(renderer.component(.pageHeader(.init(title: "Requiem")), back: "/")) == #"<header class="hero"><div class="hero-text"><h2>Requiem</h2></div></header>"#)
        }

        @Test("Paragraphs are one <p> each")
        func paragraphs() {
            #expect(
                Fixture.bare(renderer.component(.paragraphs(.init(["One.", "Two."])), back: "/"))
                    == #"<div class="paragraphs"><p>One.</p><p>Two.</p></div>"#)
        }

        @Test("Huge and fractional numbers render without crashing or rounding")
        func numbers() {
            let html = Fixture.bare(renderer.component(.spacer(.init(length: 1e12)), back: "/"))
            #expect(html == #"<div class="spacer" style="flex:0 0 1000000000000.0px"></div>"#)
            #expect(Fixture.bare(renderer.component(.spacer(.init(length: 0.5)), back: "/")).contains("flex:0 0 0.5px"))
        }
    }
}

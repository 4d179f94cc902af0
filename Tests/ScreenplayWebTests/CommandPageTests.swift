import Foundation
import ScreenplayContract
import ScreenplayWeb
import Testing

@Suite("Command pages")
struct CommandPageTests {
    @Suite("Prompt")
    struct PromptPage {
        static let prompt = CommandResult.Prompt(
            title: "New playlist", message: "Give it a <name>",
            field: .init(name: "playlistName", placeholder: "Name", initialValue: #"My "list""#, maxLength: 40),
            submitTitle: "Create", submit: .init(url: "commands/playlists/create", payload: ["source": "menu"]))

        @Test("The form posts the submit command with url, payload and back")
        func hiddenCommandFields() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.prompt, back: "/screens/home"))
            #expect(
                html.contains(
                    #"<form method="post" action="/web/command" class="prompt"><input type="hidden" name="url" value="commands/playlists/create"><input type="hidden" name="payload" value="{&quot;source&quot;:&quot;menu&quot;}"><input type="hidden" name="back" value="/screens/home">"#
                ))
        }

        @Test("The field name travels as a hidden `field`; the text as `value`, its limit shown and counted, never cut")
        func textInput() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.prompt, back: "/screens/home"))
            #expect(html.contains(#"<input type="hidden" name="field" value="playlistName">"#))
            #expect(
                html.contains(
                    #"<label for="prompt-value">Name</label><input id="prompt-value" name="value" type="text" required autofocus value="My &quot;list&quot;" placeholder="Name" aria-describedby="prompt-value-limit" data-limit="40" data-limit-counter="{count} of 40 characters" data-limit-over="{over} characters too many: the limit is 40" data-check="/web/fields.js?v="#
                ))
            // The counter is the fields module's, which only a page with such a field loads.
            #expect(html.contains(#""><p class="field-limit" id="prompt-value-limit" aria-live="polite">Up to 40 characters</p>"#))
            #expect(!html.contains("prompt-value-required"), "no requirement, no message")
            // A browser cuts a paste at maxlength without a word; the server says why instead.
            #expect(!html.contains("maxlength"))
            #expect(html.contains(#"<button type="submit" class="action primary">Create</button>"#))
        }

        @Test("A required field (v6) carries its message for the script, an empty live region for it, and names the fields module")
        func required() throws {
            var prompt = Self.prompt
            prompt.field.maxLength = nil
            prompt.field.requiredMessage = "Name the <playlist>"
            let html = Fixture.bare(HTMLRenderer().page(for: prompt, back: "/"))
            #expect(html.contains(#"aria-describedby="prompt-value-required" data-required="Name the &lt;playlist&gt;" data-check="/web/fields.js?v="#))
            #expect(html.contains(#"<p class="field-error" id="prompt-value-required" aria-live="polite"></p>"#))
            // Blank is refused by the browser too, and by the server after it.
            #expect(html.contains(#"type="text" required autofocus"#))
        }

        @Test("A refused text comes back in the field, with the reason beside it, in the kept dialog")
        func refused() {
            let html = Fixture.bare(
                HTMLRenderer().page(for: Self.prompt, back: "/", dialog: "abc", value: "x <too> long", error: "Too long: 41 characters"))
            #expect(html.contains(#"<input type="hidden" name="dialog" value="abc">"#))
            #expect(html.contains(#"value="x &lt;too&gt; long""#))
            #expect(html.contains(#"aria-describedby="prompt-value-limit prompt-value-error""#))
            #expect(html.contains(#"aria-invalid="true""#))
            #expect(html.contains(#"<p class="field-error" id="prompt-value-error" role="alert">Too long: 41 characters</p>"#))
            #expect(html.contains(#"data-page="dialog""#))
        }

        @Test("Title, message and cancel link are on the page")
        func surroundings() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.prompt, back: "/screens/home"))
            #expect(html.contains("<title>New playlist · Screenplay</title>"))
            #expect(html.contains(#"<h1 id="dialog-title">New playlist</h1><p>Give it a &lt;name&gt;</p>"#))
            #expect(html.contains(#"<a class="action" href="/screens/home" data-dialog-close>Cancel</a>"#))
        }

        @Test("Without a placeholder the label is the title and there is no limit")
        func minimalField() {
            let prompt = CommandResult.Prompt(
                title: "Rename", field: .init(name: "name"), submitTitle: "Save", submit: .init(url: "commands/rename"))
            let html = Fixture.bare(HTMLRenderer().page(for: prompt, back: "/"))
            #expect(
                html.contains(
                    #"<label for="prompt-value">Rename</label><input id="prompt-value" name="value" type="text" required autofocus></div>"#
                ))
            #expect(!html.contains("data-limit"))
            #expect(html.contains(#"<input type="hidden" name="payload" value="{}">"#))
        }

        @Test("An off-site back path is not used for the cancel link")
        func offSiteCancel() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.prompt, back: "https://evil.example"))
            #expect(html.contains(#"<a class="action" href="/" data-dialog-close>Cancel</a>"#))
        }
    }

    @Suite("Choice")
    struct ChoicePage {
        static let choice = CommandResult.Choice(
            title: "Add to playlist", message: "Pick one",
            options: [
                .init(title: "Road trip", subtitle: "12 tracks", command: .init(url: "commands/playlists/add", payload: ["playlist": 1])),
                .init(title: "Focus", command: .init(url: "commands/playlists/add", payload: ["playlist": 2])),
                .init(title: "New…", command: .init(url: "commands/playlists/new")),
            ])

        @Test("One form per option, each posting its own command")
        func oneFormPerOption() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.choice, back: "/screens/work/3"))
            #expect(Fixture.count(of: "<form ", in: html) == 3)
            #expect(Fixture.count(of: #"<form method="post" action="/web/command">"#, in: html) == 3)
            #expect(Fixture.count(of: #"<input type="hidden" name="back" value="/screens/work/3">"#, in: html) == 3)
            #expect(
                html.contains(
                    #"<input type="hidden" name="payload" value="{&quot;playlist&quot;:1}"><input type="hidden" name="back" value="/screens/work/3"><button type="submit" class="choice"><span class="title">Road trip</span><span class="subtitle">12 tracks</span></button>"#
                ))
            #expect(
                html.contains(
                    #"<input type="hidden" name="payload" value="{&quot;playlist&quot;:2}"><input type="hidden" name="back" value="/screens/work/3"><button type="submit" class="choice"><span class="title">Focus</span></button>"#
                ))
            #expect(
                html.contains(
                    #"<input type="hidden" name="url" value="commands/playlists/new"><input type="hidden" name="payload" value="{}">"#))
        }

        @Test("Options keep their order")
        func order() throws {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.choice, back: "/"))
            let positions = try ["Road trip", "Focus", "New…"].map { try #require(html.range(of: ">\($0)")?.lowerBound) }
            #expect(positions == positions.sorted())
        }

        @Test("Title, message and cancel link")
        func surroundings() {
            let html = Fixture.bare(HTMLRenderer().page(for: Self.choice, back: "//evil.example"))
            #expect(html.contains(#"<h1 id="dialog-title">Add to playlist</h1><p>Pick one</p><ul class="choices">"#))
            #expect(html.contains(#"<a class="action" href="/" data-dialog-close>Cancel</a>"#))
        }
    }

    @Suite("Error page")
    struct ErrorPage {
        @Test("The message is an alert and the back link is kept local")
        func alert() {
            let html = HTMLRenderer().errorPage(title: "Oops", message: "No <playlist>", back: "/screens/a")
            #expect(
                html.contains(
                    #"<h1>Oops</h1><p class="error" role="alert">No &lt;playlist&gt;</p><p><a href="/screens/a">Back</a></p>"#
                ))
            let offSite = HTMLRenderer().errorPage(title: "Oops", message: "x", back: "//evil.example")
            #expect(offSite.contains(#"<p><a href="/">Back</a></p>"#))
            #expect(!HTMLRenderer().errorPage(title: "Oops", message: "x", back: nil).contains(">Back<"))
        }
    }
}

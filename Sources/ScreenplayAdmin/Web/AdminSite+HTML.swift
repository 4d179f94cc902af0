import Foundation
import HTTPTypes
import ScreenplayComposer
import ScreenplayServer
import ScreenplayWeb

/// The pages' frame and the small HTTP answers every page shares: the style sheet, the page
/// around a body (navigation, notice, security headers), redirects and refusals.
extension AdminSite {
    static let style = """
        :root{color-scheme:light dark}
        body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1d1d1f;background:#fff}
        @media (prefers-color-scheme:dark){body{color:#e8e8ed;background:#161618}th,td{border-color:#3a3a3c}.notice{background:#1e3a24}
        .error,.warning{color:#ff8a80}a{color:#8ab4ff}}
        @media (max-width:48rem){table{display:block;overflow-x:auto}}
        table{border-collapse:collapse;width:100%;margin:1rem 0}caption{text-align:left;font-weight:600;padding:.25rem 0}
        th,td{border-bottom:1px solid #ddd;padding:.35rem .5rem;text-align:left;vertical-align:top}tr.off td{color:#888}
        form{display:inline}form.login{display:grid;gap:.5rem;max-width:20rem}button{font:inherit;padding:.25rem .6rem}
        .error,.warning{color:#a40000;font-weight:600}.notice{background:#e8f4ea;padding:.5rem}header{display:flex;gap:1rem;align-items:baseline}
        header nav{margin-left:auto}fieldset{margin:1rem 0}form.edit{display:grid;grid-template-columns:minmax(10rem,18rem) 1fr;gap:.3rem .6rem;align-items:center}
        form.edit .error,form.edit .hint{grid-column:2}.boxes{display:flex;flex-wrap:wrap;gap:.2rem 1rem;align-items:center}.boxes .hint{flex-basis:100%}.hint{color:#555;font-size:.92em}.columns{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.rendered{border:1px solid #ccc;padding:.5rem;max-height:40rem;overflow:auto}
        @media (max-width:48rem){.columns{grid-template-columns:1fr}}
        ul.changes{padding-left:0;list-style:none}li.change{padding:.2rem .5rem;margin:.15rem 0;border-left:4px solid #888}
        li.added{border-color:#1a7f37;background:#e9f6ec}li.removed{border-color:#b3261e;background:#fbeaea}
        li.moved{border-color:#0b57d0;background:#e8f0fe}li.changed{border-color:#8a5a00;background:#fdf3e1}
        @media (prefers-color-scheme:dark){li.added{background:#15311d}li.removed{background:#3b1717}li.moved{background:#152544}li.changed{background:#3a2b0c}}
        a.button{display:inline-block;padding:.3rem .7rem;border:1px solid currentColor;border-radius:.3rem;text-decoration:none}
        form.confirm{display:grid;gap:.5rem;max-width:32rem;margin:1rem 0}.actions{display:flex;gap:1rem;align-items:center}
        td.detail{max-width:40rem;overflow-wrap:anywhere}form.pick{display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:.5rem 0}
        article.card{border:1px solid #ccc;border-radius:.4rem;padding:.5rem .75rem;margin:.6rem 0}article.card.off{border-style:dashed}
        article.card h3{margin:0;font-size:1.05rem}article.card .kind{font-weight:400;color:#555}article.card .summary{margin:.2rem 0}
        .chips{display:flex;flex-wrap:wrap;gap:.3rem;margin:.2rem 0}.chip{border:1px solid #888;border-radius:1rem;padding:0 .55rem;font-size:.9em}
        details summary{cursor:pointer;margin:.3rem 0}article.card[draggable=true]{cursor:grab}article.card.dragging{opacity:.5}
        article.card.drop-before{box-shadow:0 -4px 0 #0b57d0}.cards{min-height:1.5rem}.cards.drop-end{box-shadow:0 4px 0 #0b57d0}
        a.skip{position:absolute;left:.5rem;top:-3rem;background:#fff;color:#0b57d0;padding:.4rem .7rem;border:2px solid #0b57d0;z-index:10}a.skip:focus{top:.5rem}
        main:focus{outline:none}@media (prefers-color-scheme:dark){a.skip{background:#161618;color:#8ab4ff;border-color:#8ab4ff}}
        .visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
        @media (prefers-color-scheme:dark){article.card{border-color:#48484a}article.card .kind,.hint{color:#b0b0b5}}
        form.edit input,form.edit textarea,form.edit select{min-width:0;max-width:100%;box-sizing:border-box}
        @media (max-width:48rem){form.edit{grid-template-columns:1fr}form.edit .error,form.edit .hint{grid-column:1}select{max-width:100%}}
        :focus-visible{outline:3px solid #0b57d0;outline-offset:2px}article.card:focus,.notice:focus{outline:3px solid #0b57d0;outline-offset:2px}
        @media (prefers-color-scheme:dark){:focus-visible,article.card:focus,.notice:focus{outline-color:#8ab4ff}}
        .review-warnings{border-left:4px solid #8a5a00;padding:.25rem 1rem;margin:1rem 0;background:#fdf3e1}.review-warnings h2{margin:.25rem 0;font-size:1.1rem}
        @media (prefers-color-scheme:dark){.review-warnings{background:#3a2b0c}}
        form.edit fieldset.content{grid-column:1/-1;margin:.5rem 0;padding:.3rem .6rem}fieldset.content-field{display:grid;grid-template-columns:minmax(10rem,18rem) 1fr;gap:.3rem .6rem;align-items:center;margin:.4rem 0}
        fieldset.content-field>p.hint{grid-column:1/-1;margin:0}fieldset.content-field .error,fieldset.content-field .hint{grid-column:2}.count.over{color:#a40000;font-weight:600}
        @media (max-width:48rem){fieldset.content-field{grid-template-columns:1fr}fieldset.content-field .error,fieldset.content-field .hint{grid-column:1}}
        .content-picture{border:1px dashed #888;border-radius:.4rem;padding:.5rem;margin:.4rem 0;max-width:26rem;overflow-wrap:anywhere}
        .content-picture .picture{display:grid;gap:.2rem}.content-picture img{max-width:100%;max-height:8rem;object-fit:contain;justify-self:start}
        .content-picture figcaption{font-size:.85em;color:#555;margin-top:.3rem}.content-picture .link{color:#0b57d0}
        .tone-accent{color:#0b57d0}.tone-positive{color:#1a7f37}.tone-negative{color:#b3261e}.tone-secondaryText{color:#555}
        @media (prefers-color-scheme:dark){.content-picture figcaption{color:#b0b0b5}.content-picture .link,.tone-accent{color:#8ab4ff}.tone-positive{color:#7ee2a8}
        .tone-negative{color:#ff8a80}.tone-secondaryText{color:#b0b0b5}.count.over{color:#ff8a80}}
        .error-summary{border:3px solid #a40000;padding:.5rem 1rem;margin:1rem 0}.error-summary h2{margin:.25rem 0;color:#a40000}
        .error-summary a{color:#a40000;font-weight:600}.error-summary:focus{outline:3px solid #0b57d0;outline-offset:2px}
        @media (prefers-color-scheme:dark){.error-summary{border-color:#ff8a80}.error-summary h2,.error-summary a{color:#ff8a80}
        .error,.warning{color:#ff8a80}.notice{background:#1e3a24}}
        """

    static func page(
        title: String, session: AdminDirectory.Session? = nil, prefix: String = "/admin", notice: String? = nil, focusNotice: Bool = false, body: String,
        status: HTTPResponse.Status = .ok, extraStyle: String = "", mainAttributes: String = ""
    ) -> ScreenplayService.Response {
        let navigation =
            session.map { session in
                """
                <nav><a href="\(prefix)">Pages</a> · <a href="\(prefix)/experiments">Experiments</a> · <a href="\(prefix)/audit">Audit log</a> · \
                <a href="\(prefix)/time-zone" id="time-zone-link">Times in \(HTML.escape(AdminTime.zoneName))</a> · \(HTML.escape(session.admin)) \
                <form method="post" action="\(prefix)/logout"><input type="hidden" name="csrf" value="\(session.csrf)">\
                <button type="submit" id="sign-out">Sign out</button></form></nav>
                """
            } ?? ""
        // Focused when what it says is where the reader's attention belongs (nothing else to hold it).
        let focus = focusNotice ? " tabindex=\"-1\" autofocus" : ""
        let banner = notice.map { "<p class=\"notice\" role=\"status\" id=\"notice\"\(focus)>\(HTML.escape(String($0.prefix(300))))</p>" } ?? ""
        // Signed-in pages carry the admin's script (the editor in place, a preview live);
        // everything works without it.
        let scriptTag = session == nil ? "" : AdminScript.tags(prefix: prefix)
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
            <title>\(HTML.escape(title)) · Screenplay admin</title><style>\(style)\(extraStyle)</style>\(scriptTag)</head>
            <body><a class="skip" href="#main">Skip to the content</a><header><strong>Screenplay admin</strong>\(navigation)</header><main id="main" tabindex="-1"\(mainAttributes)><h1>\(HTML.escape(title))</h1>\(banner)\(body)</main></body></html>
            """
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "text/html; charset=utf-8"
        head.headerFields[.cacheControl] = "no-store"
        head.headerFields[ScreenplayService.contentTypeOptions] = "nosniff"
        head.headerFields[HTTPField.Name("Content-Security-Policy")!] =
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
            + (scriptTag.isEmpty ? "" : "; script-src 'self'; connect-src 'self'")
        head.headerFields[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return ScreenplayService.Response(head: head, body: Array(html.utf8))
    }

    static func redirect(to location: String) -> ScreenplayService.Response {
        var head = HTTPResponse(status: .seeOther)
        head.headerFields[.location] = location
        head.headerFields[.cacheControl] = "no-store"
        return ScreenplayService.Response(head: head, body: [])
    }

    static func methodNotAllowed(_ allowed: String) -> ScreenplayService.Response {
        var response = page(title: "Not allowed", body: "<p>This address answers \(allowed).</p>", status: .methodNotAllowed)
        response.head.headerFields[.allow] = allowed
        return response
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func pathEscape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? text
    }

    static func milliseconds(_ duration: Duration) -> String { duration.formattedMilliseconds }
}

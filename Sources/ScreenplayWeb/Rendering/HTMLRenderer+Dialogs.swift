import ScreenplayContract

/// Prompts and choices, the command results that ask the user something. Each is a page of its
/// own at a `GET` URL (``WebSite`` keeps them), so Back never meets a form resubmission; the
/// script shows the same markup in a `<dialog>` over the page that asked.
extension HTMLRenderer {
    /// A prompt's form: its text posts to the prompt's submit command. A refused text comes back
    /// with `value` (what was typed, kept) and `error` (why, beside the field).
    func dialogContent(for prompt: CommandResult.Prompt, back: String, dialog: String?, value: String?, error: String?) -> String {
        var body = "<h1 id=\"dialog-title\">\(HTML.escape(prompt.title))</h1>"
        if let message = prompt.message { body += "<p>\(HTML.escape(message))</p>" }
        body += "<form method=\"post\" action=\"\(HTML.escape(links.commandPath))\" class=\"prompt\">"
        body += hiddenFields(command: prompt.submit, back: back) + dialogField(dialog)
        body += "<input type=\"hidden\" name=\"field\" value=\"\(HTML.escape(prompt.field.name))\">"
        body += "<div class=\"field\"><label for=\"prompt-value\">\(HTML.escape(prompt.field.placeholder ?? prompt.title))</label>"
        body += "<input id=\"prompt-value\" name=\"value\" type=\"text\" required autofocus"
        let initial = value ?? prompt.field.initialValue
        if let initial { body += " value=\"\(HTML.escape(initial))\"" }
        if let placeholder = prompt.field.placeholder { body += " placeholder=\"\(HTML.escape(placeholder))\"" }
        var described: [String] = []
        if prompt.field.maxLength != nil { described.append("prompt-value-limit") }
        if prompt.field.requiredMessage != nil { described.append("prompt-value-required") }
        if error != nil { described.append("prompt-value-error") }
        if !described.isEmpty { body += " aria-describedby=\"\(described.joined(separator: " "))\"" }
        if error != nil { body += " aria-invalid=\"true\"" }
        if let maxLength = prompt.field.maxLength { body += limitAttributes(maxLength) }
        if let required = prompt.field.requiredMessage {
            body += " data-required=\"\(HTML.escape(required))\""
            if prompt.field.maxLength == nil { body += checkAttribute }
        }
        body += ">"
        if let maxLength = prompt.field.maxLength { body += limitHint(maxLength, id: "prompt-value-limit") }
        // Filled by the script as the user types (a live region, empty until then).
        if prompt.field.requiredMessage != nil { body += "<p class=\"field-error\" id=\"prompt-value-required\" aria-live=\"polite\"></p>" }
        if let error { body += "<p class=\"field-error\" id=\"prompt-value-error\" role=\"alert\">\(HTML.escape(error))</p>" }
        body += "</div><div class=\"dialog-actions\"><button type=\"submit\" class=\"action primary\">\(HTML.escape(prompt.submitTitle))</button>"
        body += cancelButton(back) + "</div></form>"
        return body
    }

    /// A choice's options, each a form posting its follow-up command.
    func dialogContent(for choice: CommandResult.Choice, back: String, dialog: String?, error: String?) -> String {
        var body = "<h1 id=\"dialog-title\">\(HTML.escape(choice.title))</h1>"
        if let message = choice.message { body += "<p>\(HTML.escape(message))</p>" }
        if let error { body += "<p class=\"error\" role=\"alert\">\(HTML.escape(error))</p>" }
        body += "<ul class=\"choices\">"
        for option in choice.options {
            body += "<li><form method=\"post\" action=\"\(HTML.escape(links.commandPath))\">"
            body += hiddenFields(command: option.command, back: back) + dialogField(dialog)
            body += "<button type=\"submit\" class=\"choice\"><span class=\"title\">\(HTML.escape(option.title))</span>"
            if let subtitle = option.subtitle { body += "<span class=\"subtitle\">\(HTML.escape(subtitle))</span>" }
            body += "</button></form></li>"
        }
        body += "</ul><div class=\"dialog-actions\">" + cancelButton(back) + "</div>"
        return body
    }

    /// The hidden field that names the kept dialog a form belongs to, so a refusal comes back to it.
    func dialogField(_ dialog: String?) -> String {
        dialog.map { "<input type=\"hidden\" name=\"dialog\" value=\"\(HTML.escape($0))\">" } ?? ""
    }

    /// Cancel: back to the page that asked (the script closes the dialog instead).
    func cancelButton(_ back: String) -> String {
        "<a class=\"action\" href=\"\(HTML.escape(WebForm.safeBackPath(back)))\" data-dialog-close>Cancel</a>"
    }

    /// What an input with a length limit carries: the limit and the counter's words, for the
    /// script to count as the user types. No `maxlength`: a browser cuts a paste at it silently,
    /// and the server says why it refuses a longer text instead, with the text kept.
    func limitAttributes(_ maxLength: Int) -> String {
        " data-limit=\"\(maxLength)\" data-limit-counter=\"{count} of \(maxLength) characters\" data-limit-over=\"{over} characters too many: the limit is \(maxLength)\""
            + checkAttribute
    }

    /// The module that checks a field as the user types (`fields.js`), named on the field so that
    /// only pages and dialogs with one load it.
    var checkAttribute: String {
        WebScript.fields.map { " data-check=\"\(HTML.escape($0.versionedPath))\"" } ?? ""
    }

    /// The limit in words under the field; the script keeps it counting. `id` is an id token
    /// (see `HTML.identifier`), written as it is.
    func limitHint(_ maxLength: Int, id: String) -> String {
        "<p class=\"field-limit\" id=\"\(id)\" aria-live=\"polite\">Up to \(maxLength) characters</p>"
    }
}

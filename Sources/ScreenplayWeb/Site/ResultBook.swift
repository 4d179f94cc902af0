import ScreenplayContract

/// The command results that ask the user something (a prompt, a choice) or replace the page (a
/// screen), kept so each has a `GET` URL (`/web/results/<id>`): a form post always answers with a
/// redirect, and Back or a reload never meets "Confirm Form Resubmission".
///
/// Each entry belongs to the browser that posted the form (by a digest of its session token), so
/// an id that leaks shows nothing to anyone else. A refused answer to a prompt comes back to its
/// entry with what was typed and why, so nothing typed is lost. In memory, bounded, oldest
/// forgotten first: a lost entry costs the user a step back, never data.
struct ResultBook: Sendable {
    /// What a result page shows.
    enum Result: Sendable {
        case prompt(CommandResult.Prompt)
        case choice(CommandResult.Choice)
        case screen(Screen)
    }

    /// One kept result.
    struct Entry: Sendable {
        let result: Result
        /// Where its forms return, and where Cancel goes.
        let back: String
        /// Whose it is.
        let owner: Int
        /// What was typed into the prompt when the server refused it.
        var value: String?
        /// Why the last answer was refused.
        var error: String?
        /// Whether it was answered: going back to it (without JavaScript, Back reaches it) says
        /// so instead of offering the form again, so one step is not taken twice by accident.
        var isAnswered = false
    }

    private let book = IssuedBook<Entry>(capacity: 2_048)

    /// Keeps `result` for the browser holding `token`; returns its id.
    func keep(_ result: Result, back: String, token: String?) -> String {
        book.issue(Entry(result: result, back: back, owner: SessionDigest.of(token)))
    }

    /// The entry `id`, if it is the browser's own.
    func entry(_ id: String, token: String?) -> Entry? {
        book.value(id).flatMap { $0.owner == SessionDigest.of(token) ? $0 : nil }
    }

    /// Records a refused answer on the entry: the text typed (prompts) and the reason.
    func refuse(_ id: String, token: String?, value: String?, error: String) -> Bool {
        book.update(id) { entry in
            guard entry.owner == SessionDigest.of(token) else { return false }
            entry.value = value.map { String($0.prefix(10_000)) }
            entry.error = error
            return true
        }
    }

    /// Marks the entry answered (the command it asked for ran).
    func answered(_ id: String, token: String?) {
        _ = book.update(id) { entry in
            guard entry.owner == SessionDigest.of(token) else { return false }
            entry.isAnswered = true
            return true
        }
    }

}

import Foundation
import HTTPTypes
import ScreenplayContract
import ScreenplayServer

extension WebSite {
    /// A command form post, answered with a redirect whatever happens (post/redirect/get):
    /// - done: back to the page, with its message as a banner shown once;
    /// - navigate: to the destination;
    /// - a prompt, a choice or a screen: to a page keeping it (``ResultBook``);
    /// - refused (a bad form, a 4xx, an error result): back to where the form was, with the reason
    ///   as a banner, or beside the field with what was typed when the form was a kept prompt.
    /// Only what is not a user's step is a page of its own: a body over the limit (413) or a
    /// cross-site post (403), both refused by the route's `policy` before anything else; a sender
    /// over its budget (429, the policy's admission); a stale session (401).
    func command(request: HTTPRequest, body: [UInt8], policy: RequestPolicy, clientAddress: String? = nil) async -> Response {
        if let refusal = policy.refusal(of: request, bodySize: body.count, cookie: ScreenplayService.tokenCookie) {
            let message = refusal.status == .forbidden ? "commands are accepted only from this site's own pages" : refusal.message
            return html(
                renderer.errorPage(title: refusal.status == .contentTooLarge ? "Too large" : "Refused", message: message, back: "/"),
                status: refusal.status, cookie: nil)
        }
        let fields = WebForm.fields(of: body)
        // A command a reader may send without becoming a user (opening an offer) leaves a browser
        // without a session as it was: no identity, no cookie. Any other makes one (an unknown or
        // malformed command too: it is refused below, as before).
        let commandURL = fields["url"] ?? ""
        let commandPath = commandURL.hasPrefix("commands/") ? String(commandURL.dropFirst("commands/".count)) : nil
        let createsIdentity = commandPath.flatMap(service.commandIdentity(path:)) != .anonymous
        // A cookie that is not a usable token counts as none, for the limits too: junk cookies
        // must not each get a fresh command budget while the post mints an identity.
        var admitted = request.headerFields
        if Self.sessionToken(admitted) == nil { admitted[.cookie] = nil }
        do {
            // The policy's budget: the service's command budget, spent as an app's command is.
            if policy.admission == .commands {
                try service.admitCommand(from: admitted, clientAddress: clientAddress, createsIdentity: createsIdentity)
            }
        } catch {
            var refused = html(
                renderer.errorPage(title: "Too many requests", message: error.message, back: "/"), status: error.status, cookie: nil)
            refused.head.headerFields[.retryAfter] = error.retryAfter.map(String.init)
            return refused
        }
        // The first command from a browser creates its identity (reading needs none); a cookie
        // naming nobody (revoked, or from a reset server) is refused, never silently replaced.
        let resolved: ResolvedIdentity
        do {
            resolved = try await service.resolveIdentity(token: Self.sessionToken(request.headerFields), creating: createsIdentity)
        } catch let error as ScreenplayError where Self.tokenRefusals.contains(error.code) {
            return html(
                renderer.errorPage(
                    title: "Session expired",
                    message: "This browser's Screenplay session is no longer valid; open the page again and retry.", back: "/"),
                status: .unauthorized, cookie: Self.expiredCookie)
        } catch {
            // Anything else (a busy database) says nothing about the cookie: keep it.
            return html(
                renderer.errorPage(title: "Something went wrong", message: "Please try again in a moment.", back: "/"),
                status: .serviceUnavailable, cookie: nil)
        }
        let cookie = resolved.issuedToken.map(Self.sessionCookie)
        // Whose kept results these are: the cookie's token, or the one this post hands out (none
        // for a command run anonymously: its notices are anyone's without a session).
        let token = Self.sessionToken(request.headerFields) ?? resolved.issuedToken
        let origin = FormOrigin(back: WebForm.safeBackPath(fields["back"] ?? "/"), dialog: fields["dialog"], value: fields["value"])
        // An answered prompt or choice posted again (an old page, a replayed form) runs nothing.
        if let dialog = origin.dialog, results.entry(dialog, token: token)?.isAnswered == true {
            return redirect(to: Self.resultsPath + dialog, cookie: cookie)
        }
        let form: WebForm
        do {
            form = try WebForm(urlEncoded: body)
        } catch {
            return refused(origin, because: error.description, token: token, cookie: cookie)
        }
        let result: CommandResult
        let revision: Int64?
        do {
            (result, revision) = try await RevisionWatermark.recordingWrites(of: resolved.user) { () async throws(ScreenplayError) in
                try await service.perform(command: form.commandPath, payload: form.payload, apiVersion: .latest, user: resolved.user)
            }
        } catch {
            return refused(origin, because: error.message, token: token, cookie: cookie)
        }
        var response = answer(result, origin: origin, token: token, cookie: cookie)
        // Read-your-writes: the pages after this one are answered from no older data, whichever
        // replica answers them.
        if let revision {
            response.head.headerFields.append(HTTPField(name: .setCookie, value: Self.revisionCookie(revision)))
        }
        return response
    }

    /// The cookie that carries the revision a browser's last write produced (see
    /// ``RevisionWatermark``): read back as the floor of the pages it asks for next.
    static func revisionCookie(_ revision: Int64) -> String {
        "\(revisionCookieName)=\(revision); Path=/; HttpOnly; SameSite=Lax; Max-Age=86400"
    }

    static let revisionCookieName = "screenplay_revision"

    /// Clears ``revisionCookie(_:)``: set whenever the session's token is handed out or cleared.
    static let revisionGoneCookie = "\(revisionCookieName)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"

    /// The floor a browser's ``revisionCookie(_:)`` asks for, if it carries one.
    static func revisionFloor(_ request: HTTPRequest) -> Int64? {
        ScreenplayService.cookie(named: revisionCookieName, in: request.headerFields).flatMap(RevisionWatermark.floor(from:))
    }

    /// Where a form was posted from: the page to return to, and the kept result it belongs to
    /// (with the text typed into it), if any.
    struct FormOrigin {
        let back: String
        let dialog: String?
        let value: String?
    }

    /// The redirect for a command's answer.
    func answer(_ result: CommandResult, origin: FormOrigin, token: String?, cookie: String?) -> Response {
        switch result.outcome {
        case .error, .unknown: break
        default: if let dialog = origin.dialog { results.answered(dialog, token: token) }
        }
        switch result.outcome {
        case .done(let done):
            let notice = done.message.map { notices.issue(WebNotice($0), token: token) }
            return redirect(to: Self.location(origin.back, notice: notice), cookie: cookie)
        case .navigate(let navigate):
            return redirect(to: renderer.links.href(navigate.url) ?? origin.back, cookie: cookie)
        case .screen(let screen):
            return redirect(to: Self.resultsPath + results.keep(.screen(screen), back: origin.back, token: token), cookie: cookie)
        case .prompt(let prompt):
            return redirect(to: Self.resultsPath + results.keep(.prompt(prompt), back: origin.back, token: token), cookie: cookie)
        case .choice(let choice):
            return redirect(to: Self.resultsPath + results.keep(.choice(choice), back: origin.back, token: token), cookie: cookie)
        case .error(let failure):
            return refused(origin, because: failure.message, token: token, cookie: cookie)
        case .unknown(let type, _):
            return refused(origin, because: "the server answered with '\(type)', which this site cannot show", token: token, cookie: cookie)
        }
    }

    /// Back to where the form was, saying why it was refused: beside the field of a kept prompt
    /// (with the text typed kept), else as a banner on the page.
    func refused(_ origin: FormOrigin, because message: String, token: String?, cookie: String?) -> Response {
        if let dialog = origin.dialog, results.refuse(dialog, token: token, value: origin.value, error: message) {
            return redirect(to: Self.resultsPath + dialog, cookie: cookie)
        }
        return redirect(to: Self.location(origin.back, notice: notices.issue(WebNotice(message, isError: true), token: token)), cookie: cookie)
    }
}

extension WebSite {
    /// Where a form's answer sends the browser: the page it came from (a local path), any notice
    /// it carried replaced by `notice` (the only query parameter taken out; the others, and the
    /// fragment, kept), percent-encoded so the `Location` is a valid URL. What comes out is
    /// always a local path: anything else becomes `/`.
    static func location(_ back: String, notice: String?) -> String {
        let fragmentStart = back.firstIndex(of: "#") ?? back.endIndex
        let fragment = back[fragmentStart...]
        let beforeFragment = back[..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let path = queryStart.map { beforeFragment[..<$0] } ?? beforeFragment
        var pairs = queryStart.map { beforeFragment[beforeFragment.index(after: $0)...].split(separator: "&").map(String.init) } ?? []
        pairs.removeAll { $0 == "notice" || $0.hasPrefix("notice=") }
        if let notice { pairs.append("notice=" + notice) }
        let location = Self.encoded(String(path), keeping: "/") + (pairs.isEmpty ? "" : "?" + pairs.map { Self.encoded($0, keeping: "=") }.joined(separator: "&"))
            + (fragment.isEmpty ? "" : "#" + Self.encoded(String(fragment.dropFirst()), keeping: ""))
        return WebForm.safeBackPath(location)
    }

    /// `text` with every byte outside the unreserved set, `%` escapes already there, and `keeping`
    /// percent-encoded.
    static func encoded(_ text: String, keeping: String) -> String {
        var result = ""
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count && bytes[index + 1].isHexDigit && bytes[index + 2].isHexDigit
            if isEscape || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~!$'()*+,;:@".utf8.contains(byte) || keeping.utf8.contains(byte)
            {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            index += 1
        }
        return result
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: Swift.max(0, width - count)) + self }
}

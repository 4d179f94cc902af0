import Foundation
import HTTPTypes
import ScreenplayServer
import ScreenplayWeb

/// The one time zone the admin reads and writes times in, `/admin/time-zone`: chosen once, kept
/// in a cookie of this browser, and used by every page (revision times, schedules, the audit log)
/// and every date picker (a widget's window, an experiment's start and stop, a scheduled
/// publish), so no page mixes clocks. UTC until chosen.
extension AdminSite {
    func timeZonePage(_ session: AdminDirectory.Session, notice: String?, value: String? = nil, error: String? = nil) -> ScreenplayService.Response {
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted().map { "<option value=\"\(HTML.escape($0))\"></option>" }.joined()
        let body = """
            <p>Every time in the admin is shown in this zone, and every date picker is read in it. \
            It is now \(HTML.escape(AdminTime.words(Date()))).</p>
            <form method="post" action="\(prefix)/time-zone" class="edit" id="time-zone-form">\(Self.csrfField(session))
            \(Self.field(name: "zone", label: "Time zone (a name such as Europe/Zurich, or UTC)", value: value ?? AdminTime.zoneName, error: error, id: "zone", extra: "list=\"zones\" autocomplete=\"off\" required"))
            <datalist id="zones"><option value="UTC"></option>\(zones)</datalist>
            <button type="submit" id="save-time-zone">Use this zone</button></form>
            """
        return Self.page(
            title: "Time zone", session: session, prefix: prefix, notice: notice, body: body, status: error == nil ? .ok : .unprocessableContent)
    }

    /// Keeps the zone chosen in the cookie (a year), or refuses a name the system does not know,
    /// beside the field, keeping what was typed.
    func setTimeZone(form: [String: String], session: AdminDirectory.Session) -> ScreenplayService.Response {
        let typed = form["zone"] ?? ""
        guard AdminTime.known(typed) != nil else {
            return timeZonePage(
                session, notice: nil, value: typed,
                error: "“\(typed.prefix(60))” is not a time zone this server knows: choose one of the list (Europe/Zurich, America/New_York, UTC)")
        }
        var response = Self.redirect(to: prefix + "/time-zone?done=zone")
        // The name as typed (checked above): UTC stays UTC where the platform would say GMT.
        let value = typed.trimmingCharacters(in: .whitespaces).addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/_-+"))) ?? "UTC"
        response.head.headerFields.append(
            HTTPField(name: .setCookie, value: "\(Self.zoneCookie)=\(value); Path=\(prefix); SameSite=Strict; Max-Age=31536000"))
        return response
    }
}

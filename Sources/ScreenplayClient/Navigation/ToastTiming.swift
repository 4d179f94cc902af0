/// How long a command's confirmation (``NavigationStateMachine/Presented/message(_:)``, a toast)
/// stays on screen, the same for every renderer: long enough to read at an unhurried pace, short
/// enough that it does not cover what is under it for long. It never takes the place of content:
/// a renderer draws it over the screen, in a live region, so nothing moves when it comes or goes.
public enum ToastTiming {
    /// The shortest time on screen: a two-word confirmation.
    public static let minimum: Duration = .seconds(4)
    /// The longest: past this a message belongs on a screen, not in a toast.
    public static let maximum: Duration = .seconds(10)
    /// Time added per character past the first 40 (about 17 characters a second, a slow reader's pace).
    public static let perCharacter: Duration = .milliseconds(60)

    /// How long `message` is shown: ``minimum``, plus ``perCharacter`` for each character past
    /// 40, at most ``maximum``.
    public static func duration(for message: String) -> Duration {
        let extra = max(0, message.count - 40)
        return min(maximum, minimum + perCharacter * extra)
    }
}

/// How long a client shows a command's expected outcome before the server's answer must arrive.
///
/// One value for every renderer (the client core's navigator, the web pages' script), so a tap
/// is undone after the same wait wherever it was made.
public enum CommandTiming {
    /// An optimistic outcome (a heart flipped at once) not confirmed within this is undone and
    /// reported as failed.
    public static let optimisticTimeout: Duration = .seconds(10)

    /// ``optimisticTimeout`` in whole milliseconds (what a browser's timers take).
    public static var optimisticTimeoutMilliseconds: Int {
        Int(optimisticTimeout.components.seconds * 1_000 + optimisticTimeout.components.attoseconds / 1_000_000_000_000_000)
    }
}

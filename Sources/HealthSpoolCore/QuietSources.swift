/// The sources that went quiet (`SourceFreshness.isQuiet`), as the person reads them: one plain
/// line each on the home page, in `status` and in the desktop notification (issue 43).
public enum QuietSources {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    /// The quiet ones of `all` at `now`, longest quiet first.
    public static func quiet(_ all: [SourceFreshness], now: Int64) -> [SourceFreshness] {
        all.filter { $0.isQuiet(now: now) }.sorted { ($0.arrivedMillis, $0.source, $0.type) < ($1.arrivedMillis, $1.source, $1.type) }
    }

    /// "Your Apple Watch has sent no heart rate since Tuesday 10 March": the source's name
    /// ("Your" before it unless it names its owner), the type in words, the local day of its
    /// newest sample in `zone`.
    public static func line(_ f: SourceFreshness, zone: ZoneRules) -> String {
        let who = f.source.contains("'s ") || f.source.contains("\u{2019}s ") || f.source.lowercased().hasPrefix("my ")
            ? f.source : "Your \(f.source)"
        let day = LocalDay.date(of: f.newestMillis, in: zone)
        return "\(who) has sent no \(typeWords(f.type)) since \(weekdays[day.weekday]) \(day.day) \(months[day.month - 1])"
    }

    /// A type's registry name in words, lower case ("heart rate"); the name itself when unknown.
    public static func typeWords(_ type: String) -> String {
        guard let t = DataType.lookup(type) else { return type }
        let s = t.summary
        guard let first = s.first else { return type }
        // "Heart rate" → "heart rate", but an initialism ("VO2 max") stays as written.
        let second = s.dropFirst().first
        return second.map { $0.isUppercase } == true ? s : first.lowercased() + s.dropFirst()
    }
}

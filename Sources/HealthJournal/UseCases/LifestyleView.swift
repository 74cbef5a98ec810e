import HealthSpoolCore

/// What the web's lifestyle page shows: the factors offered to log (the usual ones and the
/// person's own), and the entries of the last days, newest day first, each day's newest first;
/// days without an entry left out.
public struct LifestyleView: Sendable {
    public var factors: [String]
    /// Days back from today (0: today) and that day's entries.
    public var days: [(back: Int, day: CivilDate, entries: [LifestyleEntry])]
}

extension HealthJournal {
    /// The factors, and the entries (deleted ones left out) of the `days` days up to today.
    public func lifestyleView(days: Int) throws -> LifestyleView {
        let today = today
        var list: [(back: Int, day: CivilDate, entries: [LifestyleEntry])] = []
        for back in 0..<days {
            let day = CivilDate(daysSinceEpoch: today.daysSinceEpoch - Int64(back))
            let entries = try lifestyle(on: day).filter { !$0.deleted }.sorted { $0.at.millis > $1.at.millis }
            if !entries.isEmpty { list.append((back, day, entries)) }
        }
        return LifestyleView(factors: try factorLists().lifestyle, days: list)
    }
}

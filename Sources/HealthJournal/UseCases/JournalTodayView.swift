import HealthSpoolCore

/// What the web's journal page shows of today, read on one store connection: the day's symptom
/// entries and scores so far, and the goals that apply today (measured ones ticked by the data).
public struct JournalTodayView: Sendable {
    public var day: JournalDay
    public var goals: [GoalStatus]
    /// How numbers are written (the user's locale).
    public var style: NumberStyle
}

extension HealthJournal {
    /// Today's journal as of `now`.
    public func todayView(now: Timestamp) throws -> JournalTodayView {
        let today = try day(nil, now: now)
        let entries = asOf(now)
        return JournalTodayView(day: try entries.day(today), goals: try goals(on: today, now: now).filter(\.applies),
                                style: style)
    }
}

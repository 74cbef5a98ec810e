import HealthSpoolCore

/// What the web's goals page shows, read on one store connection: every goal's state today
/// (measured ones ticked by the data), and today (a new goal's first day).
public struct GoalsView: Sendable {
    public var goals: [GoalStatus]
    public var today: CivilDate
    /// How numbers are written (the user's locale).
    public var style: NumberStyle
}

extension HealthJournal {
    /// The goals as of `now`, numbers written in `style`.
    public func goalsView(now: Timestamp, style: NumberStyle) throws -> GoalsView {
        let today = try day(nil, now: now)
        return GoalsView(goals: try goals(on: today, now: now), today: today, style: style)
    }
}

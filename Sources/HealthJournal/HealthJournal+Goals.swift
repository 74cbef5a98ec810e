import HealthSpoolCore
import HealthSpoolStore

/// A goal's state on one local day.
public struct GoalStatus: Sendable {
    public var goal: Goal
    public var day: CivilDate
    /// Whether it applies that day (a repeating goal on a day its rule skips does not).
    public var applies: Bool
    /// How it was checked off that day (a one-off task: on any day), nil when it was not.
    public var done: GoalCheck?
    /// A measured goal's day total (sum of the day's samples of its type), nil otherwise.
    public var total: Double?
}

extension HealthJournal {
    /// Adds a task or goal (R16): one-off when `rule` is nil; measured when `type` and
    /// `target` are given ("10,000 steps a day": `stepCount`, 10000).
    public func addGoal(name: String, rule: RecurrenceRule?, start: CivilDate?, type: String?, target: Double?, now: Timestamp) throws -> Goal {
        let title = name.trimmingSpaces
        guard !title.isEmpty else { throw JournalError.invalid(field: "name", value: name, expected: "a name (\"Walk 10,000 steps\")") }
        if (type == nil) != (target == nil) {
            throw JournalError.invalid(field: "goal", value: title, expected: "--type and --target together (--type stepCount --target 10000)")
        }
        if let type, DataType.lookup(type) == nil {
            throw JournalError.invalid(field: "type", value: type, expected: "a sample type from: healthspool types")
        }
        if let target, !(target.isFinite && target > 0) {
            throw JournalError.invalid(field: "target", value: String(target), expected: "a positive number")
        }
        var rule = rule
        let first = start ?? WallClock.localDay(of: now, zone: zone)
        if rule?.frequency == .monthly, rule?.monthDay == nil { rule?.monthDay = first.day }
        return try journal.addGoal(Goal(name: title, rule: rule, start: first, type: type.flatMap { DataType.lookup($0)?.name }, target: target), now: now)
    }

    /// Checks a goal off by hand for `day`.
    public func completeGoal(_ id: Int64, day: CivilDate, now: Timestamp) throws -> Goal {
        try checkGoalOff(id, day: day, now: now).goal
    }

    /// Removes a goal.
    public func removeGoal(_ id: Int64) throws {
        guard try journal.removeGoal(id: id) else { throw JournalError.notFound(kind: "goal", key: String(id)) }
    }

    /// Every goal's state on `day`. A measured goal that applies is evaluated from the day's
    /// samples and, once met, checked off by itself (recorded as `data`).
    public func goals(on day: CivilDate, now: Timestamp) throws -> [GoalStatus] {
        let checks = try journal.goalChecks()
        var out: [GoalStatus] = []
        for g in try journal.goals() {
            let applies = g.applies(on: day)
            let mine = checks[g.id] ?? [:]
            // A one-off task, once done, is done; a repeating one is done per day.
            var done = g.rule == nil ? mine.values.first : mine[day.description]
            var total: Double?
            if applies, let type = g.type {
                let sum = try dayTotal(type: type, on: day)
                total = sum
                if done == nil, g.isMet(byTotal: sum) {
                    try journal.checkGoal(id: g.id, day: day, how: .data, at: now)
                    done = .data
                }
            }
            out.append(GoalStatus(goal: g, day: day, applies: applies, done: done, total: total))
        }
        return out
    }

    /// The sum of the values of `type`'s samples that start on the local `day`.
    ///
    /// Deliberately simple: overlapping samples from several sources (phone and watch) are
    /// all counted. The day-totals rollup (source priority, proportional split at the day's
    /// edges; SPEC "Day and calendar views") will replace this sum.
    public func dayTotal(type: String, on day: CivilDate) throws -> Double {
        let (from, to) = WallClock.bounds(of: day, zone: zone)
        return try store.samples(type: type, fromMillis: from, toMillis: to)
            .filter { $0.sample.start.millis >= from }
            .reduce(0) { $0 + $1.sample.value }
    }
}

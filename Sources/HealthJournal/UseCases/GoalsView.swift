import HealthSpoolCore

/// What the web's goals page and `healthspool goal list` show, read on one store connection:
/// every goal's state on a day (the page: today; measured ones ticked by the data), and today
/// (a new goal's first day). The command prints `text` or `json`; the page lists the same goals.
public struct GoalsView: Sendable {
    public var goals: [GoalStatus]
    public var today: CivilDate
    /// How numbers are written (the user's locale).
    public var style: NumberStyle

    /// The terminal form: a line a goal, `[x]` done, `[ ]` not yet, `[-]` not due that day,
    /// with its id and name; a measured goal's day total against its target, numbers written
    /// as the page writes the target ("7,400/10,000"); a hint when there is none.
    public var text: String {
        if goals.isEmpty { return "no goals; add one with: healthspool goal add \"Walk\" --every day" }
        return goals.map { s in
            let mark = s.done != nil ? "[x]" : s.applies ? "[ ]" : "[-]"
            var line = "\(mark) \(s.goal.id)  \(s.goal.name)"
            if let total = s.total, let target = s.goal.target {
                line += "  \(style.number(total, digits: 1))/\(style.number(target, digits: 1))"
            }
            if s.done == .data { line += "  (from your data)" }
            return line
        }.joined(separator: "\n")
    }

    /// The goals as `--json` lists them: each one's fields and its state on the day.
    public var json: JSONValue {
        .array(goals.map { s in
            var o = JournalRows.json(s.goal).objectValue ?? []
            o += [("date", .string(s.day.description)), ("applies", .bool(s.applies)), ("done", .bool(s.done != nil)),
                  ("doneBy", s.done.map { .string($0.rawValue) } ?? .null), ("total", s.total.map(JSONValue.number) ?? .null)]
            return .object(o)
        })
    }
}

extension HealthJournal {
    /// The goals on `date` (nil: today) as of `now`, numbers written in `style`.
    public func goalsView(now: Timestamp, style: NumberStyle, on date: CivilDate? = nil) throws -> GoalsView {
        let today = try day(nil, now: now)
        return GoalsView(goals: try goals(on: date ?? today, now: now), today: today, style: style)
    }
}

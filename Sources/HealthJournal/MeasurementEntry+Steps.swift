import HealthSpoolCore

extension MeasurementEntry {
    /// A steps count typed into the measurements page: `value-steps` (a whole number, no
    /// separators) walked from `since` (HH:MM today, in `zone`) until `now`; or the problems,
    /// in words, next to their field.
    public static func parseSteps(fields: [String: String], now: Timestamp, zone: ZoneRules) -> Outcome {
        var problems: [Problem] = []
        let (count, problem) = stepCount(fields)
        if let problem { problems.append(problem) }
        let sinceText = (fields["since"] ?? "").trimmingSpaces
        var from: Timestamp?
        if let t = TimeOfDay(parsing: sinceText) {
            let start = WallClock.at(WallClock.localDay(of: now, zone: zone), t.seconds, zone: zone)
            if start.millis < now.millis { from = start } else {
                problems.append(Problem(field: "since", message: "Choose a time before now, for example 08:00."))
            }
        } else {
            problems.append(Problem(field: "since", message: "Type the time you started counting as hours and minutes, for example 08:00."))
        }
        guard problems.isEmpty, let count, let from else { return .problems(problems) }
        return .measurement(.steps(count, from: from, to: now))
    }

    /// The count typed into `value-steps` (a whole number, no separators), or the problem in words.
    public static func stepCount(_ fields: [String: String]) -> (count: Double?, problem: Problem?) {
        let text = (fields["value-steps"] ?? "").trimmingSpaces
        if text.isEmpty {
            return (nil, Problem(field: "value-steps", message: "Type how many steps you walked, for example 4200."))
        } else if !text.allSatisfy({ $0.isASCII && $0.isNumber }) || text.count > 7 {
            return (nil, Problem(field: "value-steps", message: "Type only the whole number, without dots or spaces, for example 4200."))
        } else if let n = Double(text), MeasurementLimits.steps.contains(n) {
            return (n, nil)
        }
        return (nil, Problem(field: "value-steps", message: "Type a number from 1 to 100000, for example 4200. Check the count and type it again."))
    }
}

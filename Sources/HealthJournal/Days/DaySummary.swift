import HealthSpoolCore

/// One local day as the day view shows it: merged totals, sleep, heart rate, and the journal's
/// doses and notes of that day.
public struct DaySummary: Sendable {
    public var date: CivilDate
    /// The day's instants `[start, end)` in milliseconds (23 or 25 hours on DST days).
    public var start: Int64
    public var end: Int64
    /// Merged totals of the cumulative types that have data, by type (`stepCount`: count,
    /// distances: km, energy: kcal).
    public var totals: [String: Double]
    public var sleep: SleepFigure?
    /// Heart rate, with the day's curve (points of 15 minutes).
    public var heartRate: HeartRateFigure?
    public var doses: [(dose: Dose, medication: String)]
    public var notes: [Note]
    /// The measurements typed in that day, earliest first.
    public var measurements: [MeasurementReading] = []
    /// Types with samples starting that day, with how many.
    public var counts: [String: Int]

    public var hasData: Bool { !counts.isEmpty || sleep != nil }

    /// The JSON form (`healthspool day --json`, and the web's day view).
    public var json: JSONValue {
        func local(_ ms: Int64) -> JSONValue { .string(Timestamp(millis: ms, utcOffsetSeconds: offset(ms)).iso8601Local) }
        var members: [(String, JSONValue)] = [
            ("date", .string(date.description)), ("start", local(start)), ("end", local(end)),
            ("hours", .number(Double(end - start) / 3_600_000)),
            ("totals", .object(totals.keys.sorted().map { ($0, .number(Self.rounded(totals[$0]!))) })),
        ]
        if let s = sleep {
            var stages: [(String, JSONValue)] = []
            for st in SleepStage.allCases { if let m = s.stages[st] { stages.append((st.rawValue, .number(Self.rounded(m)))) } }
            members.append(("sleep", .object([
                ("asleepMinutes", .number(Self.rounded(s.asleepMinutes))), ("inBedMinutes", .number(Self.rounded(s.inBedMinutes))),
                ("start", local(s.start)), ("end", local(s.end)), ("stages", .object(stages)),
            ])))
        } else {
            members.append(("sleep", .null))
        }
        if let hr = heartRate {
            members.append(("heartRate", .object([
                ("min", .number(hr.min)), ("average", .number(Self.rounded(hr.average))),
                ("weightedAverage", .number(Self.rounded(hr.weightedAverage))), ("max", .number(hr.max)),
                ("count", .number(Double(hr.count))),
                ("curve", .array(hr.curve.map { p in
                    .object([("time", local(p.time)), ("min", .number(p.min)), ("average", .number(Self.rounded(p.average))), ("max", .number(p.max))])
                })),
            ])))
        } else {
            members.append(("heartRate", .null))
        }
        members.append(("doses", .array(doses.map { d in
            .object([("id", .number(Double(d.dose.id))), ("medication", .string(d.medication)), ("takenAt", .string(d.dose.takenAt.iso8601Local))])
        })))
        members.append(("notes", .array(notes.map { n in
            .object([("id", .number(Double(n.id))), ("category", .string(n.category)), ("text", .string(n.text)), ("created", .string(n.created.iso8601Local))])
        })))
        members.append(("measurements", .array(measurements.map(\.json))))
        members.append(("counts", .object(counts.keys.sorted().map { ($0, .number(Double(counts[$0]!))) })))
        return .object(members)
    }

    /// The zone offset used for local times; set by `HealthDays`.
    var zone: ZoneRules = .utc
    func offset(_ ms: Int64) -> Int32 { zone.offset(atUTCMillis: ms) }

    static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

/// One day of the month calendar.
public struct CalendarDay: Sendable {
    public var date: CivilDate
    public var hasData: Bool
    public var steps: Double?
    public var sleepMinutes: Double?
    public var isToday: Bool
    /// The watch's heart-rate notifications (high, low, irregular rhythm) that day.
    public var heartRateNotifications = 0
    /// Cycle-tracking entries that day.
    public var cycleEntries = 0

    /// The day as `healthspool calendar --json` lists it.
    public var json: JSONValue {
        .object([("date", .string(date.description)), ("hasData", .bool(hasData)), ("today", .bool(isToday)),
                 ("steps", steps.map { .number($0.rounded()) } ?? .null),
                 ("sleepMinutes", sleepMinutes.map { .number($0.rounded()) } ?? .null),
                 ("heartRateNotifications", .number(Double(heartRateNotifications))), ("cycleEntries", .number(Double(cycleEntries)))])
    }
}

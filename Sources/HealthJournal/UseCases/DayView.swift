import HealthSpoolCore
import HealthSpoolStore

/// What the web's day view (`/day/YYYY-MM-DD`) and `healthspool day` show of one day, read on one
/// store connection: the figures (`DaySummary`), the journal's entries and scores, the month
/// around it with each day's symptom score, and the location log's count when it is on. The
/// command prints `text` or `json`; the page (`DayPage`) lays out the same figures.
public struct DayView: Sendable {
    /// One day of the month calendar and its symptom score.
    public struct MonthDay: Sendable {
        public var day: CalendarDay
        public var score: Int
    }

    /// The location log of the day: how many positions, the first and last at (UTC ms).
    public struct Positions: Sendable {
        public var count: Int
        public var first: Int64
        public var last: Int64
    }

    public var date: CivilDate
    public var today: CivilDate
    public var summary: DaySummary
    public var journal: JournalDay
    public var month: [MonthDay]
    /// Nil when the location log is off; a zero count when it is on and recorded nothing.
    public var positions: Positions?
    public var zone: ZoneRules
    public var style: NumberStyle
    /// The day's workout routes and ECGs.
    public var recordings: DayRecordings
    /// The day's heart-rate notifications and cycle entries.
    public var events = DayEvents(notifications: [], cycle: [])

    /// The terminal form (`healthspool day`): a row a figure, then the doses, measurements and
    /// notes, numbers written as the page writes them (`DayText.render`).
    public var text: String {
        let lines = recordings.text(style: style) + events.notifications.map { "\($0.start.iso8601Local.dropFirst(11).prefix(5)) \($0.sentence)" }
            + events.cycle.map(\.sentence)
        return DayText.render(summary, zone: zone, style: style) + (lines.isEmpty ? "" : "\n" + lines.joined(separator: "\n"))
    }

    /// The day as `healthspool day --json` gives it: the figures with the heart-rate curve.
    public var json: JSONValue {
        guard case var .object(members) = summary.json else { return summary.json }
        members.append(contentsOf: recordings.json)
        members.append(("heartRateNotifications", .array(events.notifications.map { n in
            .object([("start", .string(n.start.iso8601Local)), ("kind", .string(n.kind)), ("text", .string(n.sentence))])
        })))
        members.append(("cycleTracking", .array(events.cycle.map { .object([("start", .string($0.start.iso8601Local)), ("text", .string($0.sentence))]) })))
        return .object(members)
    }
}

extension HealthDays {
    /// The day view of `date`, as of `now`.
    public func view(_ date: CivilDate, now: Timestamp) throws -> DayView {
        let today = try self.date(nil, now: now)
        let summary = try day(date)
        let entries = journal.asOf(now)
        let calendar = try month(year: date.year, month: date.month, now: now)
        let scores = try entries.symptomScores(from: calendar.first!.date, to: calendar.last!.date)
        var positions: DayView.Positions?
        if journal.settings.locationEnabled {
            let fixes = try store.daySamples(type: "location", from: summary.start, to: summary.end).filter { $0.start >= summary.start }
            positions = DayView.Positions(count: fixes.count, first: fixes.first?.start ?? 0, last: fixes.last?.start ?? 0)
        }
        return DayView(date: date, today: today, summary: summary, journal: try entries.day(date),
                       month: calendar.map { DayView.MonthDay(day: $0, score: scores[$0.date] ?? 0) }, positions: positions,
                       zone: zone, style: journal.style,
                       recordings: try DayRecordings.read(store, from: summary.start, to: summary.end),
                       events: try DayEvents.read(store, from: summary.start, to: summary.end))
    }
}

import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolStore

/// The day view and the month calendar (`healthspool day`, `healthspool calendar`, and the web
/// interface's screens): figures read from the daily rollups, each moment counted once
/// (docs/formats.md, "Day totals"). Works on the store whether or not the daemon runs.
///
/// Not thread-safe (it owns a store connection): make one per request or per thread.
public final class HealthDays {
    public let journal: HealthJournal
    public var zone: ZoneRules { journal.zone }
    var store: SampleStore { journal.store }

    /// The day views on `store`, a connection already open (one borrowed from a `StorePool`),
    /// in `zone`, with `configuration`'s settings. Rollups computed for another zone or source
    /// priority are rebuilt first.
    public convenience init(store: SampleStore, zone: ZoneRules, configuration: Configuration) {
        self.init(journal: HealthJournal(store: store, zone: zone, configuration: configuration))
    }

    /// The day views on `journal`'s store and zone (`JournalRunner`'s).
    public init(journal: HealthJournal) {
        self.journal = journal
        store.rollupPolicy = RollupPolicy(zone: journal.zone, priority: journal.settings.sourcePriority)
    }

    /// Rebuilds the rollups if they were computed under another policy; true when it did.
    @discardableResult
    public func ensureRollups() throws -> Bool { try store.ensureRollups() }

    /// Recomputes every rollup from the samples (`healthspool day --rebuild`).
    public func rebuildRollups() throws { try store.rebuildRollups() }

    /// The local date `text` (`YYYY-MM-DD`), or today.
    public func date(_ text: String?, now: Timestamp) throws -> CivilDate { try journal.day(text, now: now) }

    /// The day view of `date`.
    public func day(_ date: CivilDate) throws -> DaySummary {
        try ensureRollups()
        let (from, to) = WallClock.bounds(of: date, zone: zone)
        let key = date.daysSinceEpoch
        var totals: [String: Double] = [:], counts: [String: Int] = [:]
        var sleep: SleepFigure?
        for r in try store.rollups(fromDay: key, toDay: key) {
            if r.figure == DayRollup.sleep { sleep = r.sleepFigure; continue }
            if r.count > 0 { counts[r.figure] = r.count }
            if DayMerge.cumulativeTypes.contains(r.figure) { totals[r.figure] = r.value }
        }
        // The curve needs the readings themselves: one index range of the day.
        let heart = DayMerge.heartRate(try store.daySamples(type: "heartRate", from: from, to: to), from: from, to: to)
        let doses = try journal.doses(on: date).map { (dose: $0.0, medication: $0.1?.name ?? "medication \($0.0.medicationID)") }
        let notes = try journal.notes(category: nil).filter { $0.created.millis >= from && $0.created.millis < to }
        var summary = DaySummary(date: date, start: from, end: to, totals: totals, sleep: sleep, heartRate: heart,
                                 doses: doses, notes: notes, counts: counts)
        summary.measurements = try journal.readings(fromMillis: from, toMillis: to).reversed()
        summary.zone = zone
        return summary
    }

    /// The month calendar of `year`-`month`: one entry per day, today marked.
    public func month(year: Int, month: Int, now: Timestamp) throws -> [CalendarDay] {
        try ensureRollups()
        let first = CivilDate(year: year, month: month, day: 1)
        let firstKey = first.daysSinceEpoch, lastKey = firstKey + Int64(first.daysInMonth) - 1
        var days: [Int64: CalendarDay] = [:]
        let today = WallClock.localDay(of: now, zone: zone)
        for key in firstKey...lastKey {
            let d = CivilDate(daysSinceEpoch: key)
            days[key] = CalendarDay(date: d, hasData: false, steps: nil, sleepMinutes: nil, isToday: d == today)
        }
        for r in try store.rollups(fromDay: firstKey, toDay: lastKey) {
            days[r.day]?.hasData = true
            if r.figure == "stepCount" { days[r.day]?.steps = r.value }
            if r.figure == DayRollup.sleep { days[r.day]?.sleepMinutes = r.value }
        }
        // Heart-rate notifications and cycle entries on their local days (a day either side read:
        // the zone's offset moves a day's bounds).
        let from = (firstKey - 1) * 86_400_000, to = (lastKey + 2) * 86_400_000
        for n in try store.recordings(type: "heartRateNotification", from: from, to: to) {
            days[WallClock.localDay(of: n.start, zone: zone).daysSinceEpoch]?.heartRateNotifications += 1
        }
        for c in try store.recordings(type: "cycleTracking", from: from, to: to) {
            days[WallClock.localDay(of: c.start, zone: zone).daysSinceEpoch]?.cycleEntries += 1
        }
        return (firstKey...lastKey).map { days[$0]! }
    }

    /// `YYYY-MM` (or today's month) as (year, month).
    public func month(_ text: String?, now: Timestamp) throws -> (Int, Int) {
        guard let text else {
            let d = WallClock.localDay(of: now, zone: zone)
            return (d.year, d.month)
        }
        let parts = text.trimmingSpaces.split(separator: "-")
        guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m), (1...9999).contains(y) else {
            throw JournalError.invalid(field: "month", value: text, expected: "YYYY-MM")
        }
        return (y, m)
    }
}

import HealthSpoolCore
import HealthSpoolStore

/// Makes the doctor's summary of a period (`VisitReport`) from the store: symptoms and their
/// scores, factors, medications with adherence, measurements, steps and sleep, notes. Reads
/// only: the report is never queued for the gateway.
///
/// Not thread-safe (it works on a store connection): one per request or command.
public final class VisitReports {
    public let journal: HealthJournal
    var zone: ZoneRules { journal.zone }
    var store: SampleStore { journal.store }

    /// The reports on `journal`'s store and zone (`JournalRunner.reports()`, the web's).
    public init(journal: HealthJournal) {
        self.journal = journal
        journal.store.rollupPolicy = RollupPolicy(zone: journal.zone, priority: journal.settings.sourcePriority)
    }

    /// The default period: the 30 days that end today.
    public func defaultPeriod(now: Timestamp) -> (from: CivilDate, to: CivilDate) {
        let today = WallClock.localDay(of: now, zone: zone)
        return (CivilDate(daysSinceEpoch: today.daysSinceEpoch - 29), today)
    }

    /// The period `from`–`to` as typed (`YYYY-MM-DD`; `to` defaults to today, `from` to 29 days
    /// before `to`); refused when `from` is after `to` or the period is longer than ten years.
    public func period(from: String?, to: String?, now: Timestamp) throws -> (from: CivilDate, to: CivilDate) {
        let end = try journal.day(to, now: now)
        let start = try from.map { try journal.day($0, now: now) } ?? CivilDate(daysSinceEpoch: end.daysSinceEpoch - 29)
        guard start <= end else {
            throw JournalError.invalid(field: "period", value: "\(start) to \(end)", expected: "a --from date on or before the --to date")
        }
        guard end.daysSinceEpoch - start.daysSinceEpoch < 3660 else {
            throw JournalError.invalid(field: "period", value: "\(start) to \(end)", expected: "at most ten years")
        }
        return (start, end)
    }

    /// The date of the latest note in `category` (any case), for "since the last appointment";
    /// nil when the category has no note.
    public func lastNoteDay(category: String) throws -> CivilDate? {
        guard let latest = try journal.notes(category: category).map(\.created).max() else { return nil }
        return journal.local(latest).localDate
    }

    /// The report of `from`–`to` (both included) made at `now`; the notes of `questions` (a
    /// category, any case) come first.
    public func report(from: CivilDate, to: CivilDate, now: Timestamp, questions: String? = nil) throws -> VisitReport {
        var r = VisitReport(from: from, to: to, made: journal.local(now))
        r.name = journal.settings.reportName.flatMap { $0.trimmingSpaces.isEmpty ? nil : $0.trimmingSpaces }
        let (start, _) = WallClock.bounds(of: from, zone: zone)
        let (_, end) = WallClock.bounds(of: to, zone: zone)
        let symptomStore = JournalStore(store)
        let entries = try symptomStore.symptomEntries(from: from, to: to)
        r.symptoms = Self.symptomFigures(entries, days: r.days)
        r.symptomEntries = entries.filter { !$0.deleted }
        r.glucoseUnit = journal.settings.glucoseUnit
        r.factors = Self.factorFigures(entries, lifestyle: try symptomStore.lifestyleEntries(from: from, to: to), days: r.days)
        r.medications = try medicationFigures(start: start, end: end, now: now)
        r.measurements = try measurementFigures(from: from, to: to)
        r.activity = try activityFigures(days: r.days)
        r.notes = try noteGroups(start: start, end: end, questions: questions)
        r.ecgs = try DayRecordings.read(store, from: start, to: end, stripSeconds: 6, routes: false).ecgs
        r.healthRecords = try HealthRecords.read(store)
        r.heartRateNotifications = try DayEvents.read(store, from: start, to: end).notifications
        return r
    }

    // MARK: Medications

    func medicationFigures(start: Int64, end: Int64, now: Timestamp) throws -> [MedicationFigures] {
        let meds = try journal.medications()
        guard !meds.isEmpty else { return [] }
        let doses = try journal.journal.doses(fromMillis: start, toMillis: end)
        let reminders = try journal.reminders()
        // Due times up to the period's end or now, whichever is first.
        let through = Timestamp(millis: min(end - 1, now.millis))
        return meds.map { m in
            let taken = doses.filter { $0.medicationID == m.id }.map { journal.local($0.takenAt) }
            let linked = reminders.filter { $0.medicationID == m.id }
            var adherence: AdherenceCount?
            var weeks: [WeekAdherence] = []
            if !linked.isEmpty {
                var due: [Timestamp] = []
                for rem in linked {
                    due += ReminderSchedule.occurrences(of: rem, after: rem.dueAfter(Timestamp(millis: start - 1)), through: through, zone: zone)
                }
                let matched = Adherence.match(due: due, taken: taken, through: through)
                adherence = Adherence.count(matched)
                weeks = Adherence.byWeek(matched).map { WeekAdherence(week: $0.week, count: $0.count) }
            }
            return MedicationFigures(name: m.name, dose: m.dose, directions: m.directions, prescriber: m.prescriber,
                                     taken: taken.count, id: m.id, adherence: adherence, weeks: weeks)
        }
    }

    // MARK: Notes

    func noteGroups(start: Int64, end: Int64, questions: String?) throws -> [NoteGroup] {
        let notes = try journal.notes(category: nil).filter { $0.created.millis >= start && $0.created.millis < end }
        var groups: [String: NoteGroup] = [:]
        var order: [String] = []
        for n in notes.sorted(by: { $0.created < $1.created }) {
            let key = n.category.lowercased()
            if groups[key] == nil {
                order.append(key)
                groups[key] = NoteGroup(category: n.category, questions: key == questions?.lowercased(), notes: [])
            }
            groups[key]!.notes.append(ReportNote(created: journal.local(n.created), text: n.text, hasAudio: n.audioFile != nil))
        }
        return order.sorted { a, b in
            let qa = groups[a]!.questions, qb = groups[b]!.questions
            return qa != qb ? qa : a < b
        }.map { groups[$0]! }
    }
}

import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolStore

/// Makes the home page's view of today (`HomeView`) from the same use cases as the day view,
/// the journal and the status: `HealthDays` for the figures, `HealthJournal` for the
/// symptoms and scores, `HealthJournal` for reminders, doses, measurements and goals.
///
/// Not thread-safe (it uses a store connection): one per request.
public struct HomeToday {
    public let configuration: Configuration
    public let style: NumberStyle
    let store: SampleStore
    let zone: ZoneRules
    /// The daemon's status when it runs in this process (else its status file is read).
    var liveStatus: LiveStatus?

    /// Today on `store` (a connection already open: the web borrows one), in `zone`, with
    /// `configuration`'s settings and places (the status shown beside it).
    public init(store: SampleStore, zone: ZoneRules, configuration: Configuration) {
        self.configuration = configuration
        self.store = store
        self.zone = zone
        style = NumberStyle(environment: configuration.environment)
    }

    /// Today as of `now`.
    public func view(now: Timestamp) throws -> HomeView {
        let days = HealthDays(store: store, zone: zone, configuration: configuration)
        let journal = days.journal
        let zone = days.zone
        let today = WallClock.localDay(of: now, zone: zone)
        let summary = try days.day(today)
        // The symptoms on the same connection: reading today writes nothing (today's scores
        // are computed, not stored).
        let entryCases = journal.asOf(now)
        let entries = try entryCases.day(today)
        let status = try StatusReport(configuration: configuration, now: now, queuedCountLimit: 1, store: store, liveStatus: liveStatus).json

        var figures = Self.dayFigures(summary, style: style)
        let glances = try dayGlances(today: today)
        for i in figures.indices { figures[i].glance = glances[figures[i].id] }
        let measured = try journal.measurements(now: now)
        for (kind, reading) in measured.latest where kind != .heartRate {
            guard let r = reading else { continue }
            let ago = today.daysSinceEpoch - r.date.daysSinceEpoch
            figures.append(.init(id: Self.figureIDs[kind] ?? kind.rawValue, title: kind.title, text: r.text + (r.other.map { " (\($0))" } ?? ""),
                                 when: ago == 0 ? "at " + r.time : ago == 1 ? "yesterday" : r.date.description,
                                 glance: measured.glance(of: kind, style: style)))
        }
        var home = HomeView(
            date: today, symptomChoices: (try? entryCases.suggestedSymptoms()) ?? HealthJournal.commonSymptoms, doses: try dosesDue(journal, today: today),
            symptoms: entries.symptoms.filter { !$0.deleted }.sorted { $0.at.millis < $1.at.millis }.map {
                .init(time: PartOfDay.shown(LocalDay.timestamp($0.at.millis, in: zone), part: $0.timeOfDay, meant: $0.partMeant), symptom: $0.symptom,
                      severity: $0.severity)
            },
            scores: entries.scores.filter { $0.scope == .symptom && $0.entries > 0 }.sorted { $0.score != $1.score ? $0.score > $1.score : $0.name < $1.name },
            figures: figures, goals: try journal.goals(on: today, now: now).filter(\.applies),
            attention: HomeView.attention(status: status, today: today, zone: zone), style: style)
        home.quiet = QuietSources.quiet(try store.freshness(), now: now.millis).map { QuietSources.line($0, zone: zone) }
        return home
    }

    static let figureIDs: [MeasurementKind: String] = [.bloodPressure: "blood-pressure", .oxygen: "oxygen", .glucose: "glucose", .weight: "weight"]

    /// Steps, sleep and heart rate of the day, as the day view shows them.
    static func dayFigures(_ s: DaySummary, style: NumberStyle) -> [HomeView.Figure] {
        var out: [HomeView.Figure] = []
        out.append(.init(id: "steps", title: "Steps", text: s.totals["stepCount"].map(style.count) ?? "none yet"))
        out.append(.init(id: "sleep", title: "Sleep last night", text: s.sleep.map { DayText.minutes($0.asleepMinutes) + " asleep" } ?? "none recorded"))
        if let hr = s.heartRate {
            out.append(.init(id: "heart-rate", title: "Heart rate",
                             text: "\(style.count(hr.min))–\(style.count(hr.max)) bpm, average \(style.count(hr.weightedAverage)) bpm"))
        } else {
            out.append(.init(id: "heart-rate", title: "Heart rate", text: "none yet"))
        }
        return out
    }

    /// The doses medication reminders ask for today, in time order, each taken when a dose of its
    /// medication was logged today (the day's doses matched to the day's times in order). Times
    /// before a reminder was made are not due.
    func dosesDue(_ journal: HealthJournal, today: CivilDate) throws -> [HomeView.DoseDue] {
        let zone = journal.zone
        let (from, to) = WallClock.bounds(of: today, zone: zone)
        let meds = Dictionary(uniqueKeysWithValues: try journal.medications().map { ($0.id, $0) })
        var due: [(at: Timestamp, reminder: Reminder, med: Medication)] = []
        for r in try journal.reminders() {
            guard let id = r.medicationID, let m = meds[id] else { continue }
            let times = ReminderSchedule.occurrences(of: r, after: r.dueAfter(Timestamp(millis: from - 1, utcOffsetSeconds: 0)),
                                                     through: Timestamp(millis: to - 1, utcOffsetSeconds: 0), zone: zone, limit: 48)
            due += times.map { ($0, r, m) }
        }
        due.sort { $0.at.millis < $1.at.millis }
        var taken: [Int64: Int] = [:]
        for (d, _) in try journal.doses(on: today) { taken[d.medicationID, default: 0] += 1 }
        var out: [HomeView.DoseDue] = []
        for d in due {
            let left = taken[d.med.id] ?? 0
            if left > 0 { taken[d.med.id] = left - 1 }
            out.append(.init(reminderID: d.reminder.id, medicationID: d.med.id, medication: d.med.name + (d.med.dose.isEmpty ? "" : " " + d.med.dose),
                             time: String(LocalDay.timestamp(d.at.millis, in: zone).iso8601Local.dropFirst(11).prefix(5)), taken: left > 0))
        }
        return out
    }
}

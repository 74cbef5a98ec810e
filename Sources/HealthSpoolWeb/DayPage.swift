import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon

/// The day view (`/day/YYYY-MM-DD`, `day.mustache`): the date strip and the month calendar bound
/// to the same date, then the day's steps, distance, sleep, heart rate with its curve, the
/// measurements, the journal's doses, notes, symptoms and scores, and the location log when it
/// is on. Made from `DayView` (`HealthDays.view`), the figures as `healthspool day` shows them.
struct DayPage: Sendable {
    /// One figure: its label, the value as written, and a machine-readable copy for the page.
    struct Figure: Sendable {
        let label: String
        let id: String?
        let data: Hidden?
        let text: String
    }

    struct Figures: Sendable {
        let figures: [Figure]
    }

    struct Stage: Sendable {
        let name: String
        let time: String
    }

    struct Sleep: Sendable {
        let figures: [Figure]
        let stages: [Stage]
        let hasStages: Bool
    }

    struct Heart: Sendable {
        let figures: [Figure]
        /// The curve (`heart-curve.mustache`).
        let curve: HeartCurve
        let readings: String
    }

    let strip: DayStrip.Strip
    let activity: Figures
    let sleep: Sleep?
    let heart: Heart?
    let readings: [ReadingRow]
    let hasReadings: Bool
    let journalEmpty: Bool
    let doses: DoseList?
    let symptoms: EntryList?
    let scores: [String]
    let hasScores: Bool
    let lifestyle: EntryList?
    let notes: EntryList?
    let location: String?
    let calendar: DayStrip.Calendar
    /// The day's workout routes and ECGs; nil when there are none.
    let recordings: DayRecordingCards?
    /// Heart-rate notifications and cycle entries (`day-events.mustache`), nil when none.
    let events: DayEventCards?

    init(_ view: DayView) {
        let (summary, date, style) = (view.summary, view.date, view.style)
        let back = "/day/\(date)"
        func clock(_ ms: Int64) -> String {
            String(Timestamp(millis: ms, utcOffsetSeconds: view.zone.offset(atUTCMillis: ms)).iso8601Local.dropFirst(11).prefix(5))
        }
        strip = DayStrip.stripModel(selected: date, today: view.today)

        let steps = summary.totals["stepCount"], km = summary.totals["distanceWalkingRunning"]
        var activity = [
            Figure(label: "Steps", id: "steps", data: Hidden(name: "data-value", value: steps.map { String(Int($0.rounded())) } ?? ""),
                   text: steps.map(style.count) ?? "none recorded"),
            Figure(label: "Distance walked and run", id: "distance", data: Hidden(name: "data-value", value: km.map { String(DaySummary.roundedKm($0)) } ?? ""),
                   text: km.map { style.fixed($0, digits: 2) + " km" } ?? "none recorded"),
        ]
        let others: [(String, String, (Double) -> String)] = [
            ("flightsClimbed", "Floors climbed", style.count), ("distanceCycling", "Distance cycled", { style.fixed($0, digits: 2) + " km" }),
            ("activeEnergyBurned", "Active energy", { style.count($0) + " kcal" }),
        ]
        for (type, label, text) in others {
            if let v = summary.totals[type] { activity.append(Figure(label: label, id: type, data: nil, text: text(v))) }
        }
        self.activity = Figures(figures: activity)

        sleep = summary.sleep.map { s in
            let stages = SleepStage.allCases.compactMap { st in s.stages[st].map { Stage(name: DayText.stageName(st), time: Self.duration($0)) } }
            return Sleep(figures: [
                Figure(label: "Asleep", id: "asleep", data: Hidden(name: "data-minutes", value: String(Int(s.asleepMinutes.rounded()))),
                       text: Self.duration(s.asleepMinutes)),
                Figure(label: "In bed", id: "in-bed", data: Hidden(name: "data-minutes", value: String(Int(s.inBedMinutes.rounded()))),
                       text: Self.duration(s.inBedMinutes)),
                Figure(label: "From – to", id: nil, data: nil, text: "\(clock(s.start)) – \(clock(s.end))"),
            ], stages: stages, hasStages: !stages.isEmpty)
        }
        heart = summary.heartRate.map { hr in
            Heart(figures: [
                Figure(label: "Lowest", id: "hr-min", data: Hidden(name: "data-value", value: String(Int(hr.min))), text: "\(style.count(hr.min)) bpm"),
                Figure(label: "Average over time", id: "hr-avg", data: Hidden(name: "data-value", value: String(Int(hr.weightedAverage.rounded()))),
                       text: "\(style.count(hr.weightedAverage)) bpm"),
                Figure(label: "Highest", id: "hr-max", data: Hidden(name: "data-value", value: String(Int(hr.max))), text: "\(style.count(hr.max)) bpm"),
            ], curve: HeartCurve(hr, dayStart: summary.start, dayEnd: summary.end), readings: style.count(Double(hr.count)))
        }
        readings = summary.measurements.map { ReadingRow($0, back: back) }
        hasReadings = !readings.isEmpty

        let entries = view.journal
        let symptoms = entries.symptoms.filter { !$0.deleted }
        journalEmpty = summary.doses.isEmpty && summary.notes.isEmpty && symptoms.isEmpty && entries.lifestyle.isEmpty
        doses = summary.doses.isEmpty ? nil : DoseList(summary.doses.map { ($0.dose, $0.medication) }, back: back)
        self.symptoms = symptoms.isEmpty ? nil : EntryList.symptoms(symptoms, id: "symptoms", back: back)
        scores = symptoms.isEmpty ? [] : entries.scores.filter { $0.scope == .category && $0.score > 0 }.map {
            "\(Format.groupName($0.name)): \($0.score) (\($0.entries) \($0.entries == 1 ? "entry" : "entries"))"
        }
        hasScores = !scores.isEmpty
        lifestyle = entries.lifestyle.isEmpty ? nil : EntryList.lifestyle(entries.lifestyle, back: back)
        notes = summary.notes.isEmpty ? nil : EntryList.notes(summary.notes, id: "day-notes", back: back, clock: clock)
        location = view.positions.map { f in
            f.count == 0 ? "No position recorded on this day."
                : "\(f.count) positions recorded, the first at \(clock(f.first)), the last at \(clock(f.last))."
        }
        calendar = DayStrip.calendarModel(view.month, selected: date)
        recordings = DayRecordingCards(view.recordings, style: style, clock: clock)
        events = DayEventCards(view.events, clock: clock)
    }

    static func render(_ ctx: Configuration, store: LentStore, date: CivilDate, query: Form, csrf: FormKeys) throws -> String {
        let page = DayPage(try store.days(zone: ctx.currentZone()).view(date, now: DaemonClock.now()))
        return WebTemplates.render(PageFrame(title: DayStrip.long(date), path: "/day", keys: csrf, notice: Notice(query, back: "/day"),
                                             extraStyles: [WebAssets.path("days.css")], extraScripts: [WebAssets.path("days.js")], page: page), .day)
    }

    /// 450 → "7 h 30 min".
    static func duration(_ minutes: Double) -> String {
        let m = Int(minutes.rounded())
        return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
    }
}

extension DaySummary {
    /// Kilometres as the page writes them (two decimals).
    static func roundedKm(_ v: Double) -> Double { (v * 100).rounded() / 100 }
}

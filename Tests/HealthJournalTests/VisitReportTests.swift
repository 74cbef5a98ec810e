@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Testing

/// The doctor's summary made from a real store with a hand-made week of journal (UTC): every
/// figure exact, the same in the JSON, user text escaped in the HTML.
@Suite struct VisitReportTests {
    static let now = Timestamp(millis: 1_773_144_000_000, utcOffsetSeconds: 0)   // 2026-03-10T12:00Z
    static let from = CivilDate(parsing: "2026-03-02")!, to = CivilDate(parsing: "2026-03-08")!

    static func t(_ text: String) -> Timestamp { WallClock.parse(text, now: now, zone: ZoneRules.utc)! }

    /// The week's journal, then the report of 2026-03-02 to 2026-03-08.
    static func report(questions: String? = "questions") throws -> VisitReport {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        return try JournalRunner.run(configuration: context, now: now, announce: { _ in }) { r in
            func log(_ s: String, _ sev: Severity, _ at: String, _ cat: String, aggravated: [String] = [], relieved: [String] = []) throws {
                try r.entries.logSymptom(SymptomLog(symptom: s, severity: sev, at: t(at), category: cat, relievedBy: relieved, aggravatedBy: aggravated))
            }
            try log("headache", .severe, "2026-03-03 08:00", "Head", aggravated: ["screens"], relieved: ["rest"])
            try log("headache", .moderate, "2026-03-03 19:00", "Head", aggravated: ["screens"])
            try log("migraine", .debilitating, "2026-03-05 14:00", "Head")
            try log("nausea <b>", .mild, "2026-03-04 22:00", "Stomach", aggravated: ["coffee"])
            try log("headache", .mild, "2026-03-09 08:00", "Head")   // after the period
            for (factor, at) in [("caffeine", "2026-03-03 07:00"), ("caffeine", "2026-03-06 07:00"), ("exercise", "2026-03-04 18:00")] {
                try r.entries.logLifestyle(LifestyleLog(factor: factor, at: t(at)))
            }
            let j = try r.records()
            _ = try j.addMedication(Medication(name: "ibuprofen", dose: "400 mg", prescriber: "Dr Weiss", directions: "with food"), now: now)
            _ = try j.addMedication(Medication(name: "vitamin D"), now: now)
            _ = try j.addReminder(name: "Take ibuprofen", kind: nil, times: [TimeOfDay(parsing: "08:00")!, TimeOfDay(parsing: "20:00")!],
                                  rule: RecurrenceRule(.daily), start: from, medication: "ibuprofen", now: t("2026-03-01 12:00"))
            // A week twice a day: Wednesday evening missed, Friday morning at 10:30 (late), the rest within 20 minutes.
            for day in 2...8 {
                for time in ["08:00", "20:00"] where !(day == 4 && time == "20:00") {
                    let at = day == 6 && time == "08:00" ? "10:30" : time == "08:00" ? "08:15" : "19:50"
                    _ = try j.takeDose("ibuprofen", at: t("2026-03-0\(day) \(at)"))
                }
            }
            _ = try j.takeDose("vitamin D", at: t("2026-03-03 09:00"))
            _ = try j.takeDose("vitamin D", at: t("2026-03-11 09:00"))   // after the period
            _ = try j.measure(.bloodPressure(systolic: 128, diastolic: 82), at: t("2026-03-03 08:00"), now: now)
            _ = try j.measure(.bloodPressure(systolic: 135, diastolic: 85), at: t("2026-03-04 08:00"), now: now)
            _ = try j.measure(.heartRate(72), at: t("2026-03-03 09:00"), now: now)
            _ = try j.measure(.steps(5000, from: t("2026-03-03 10:00"), to: t("2026-03-03 11:00")), at: now, now: now)
            _ = try j.measure(.steps(7000, from: t("2026-03-04 10:00"), to: t("2026-03-04 11:00")), at: now, now: now)
            _ = try j.addNote(text: "Echo normal", category: "cardiology", audio: nil, now: t("2026-03-04 10:00"))
            _ = try j.addNote(text: "Is 400 mg <right>?", category: "questions", audio: nil, now: t("2026-03-05 10:00"))
            _ = try j.addNote(text: "Later", category: "questions", audio: nil, now: t("2026-03-09 10:00"))
            return try r.reports().report(from: from, to: to, now: now, questions: questions)
        }
    }

    @Test func symptomsPerCategoryAndSymptom() throws {
        let r = try Self.report()
        #expect(r.symptoms.map(\.category.name) == ["Head", "Stomach"])
        let head = r.symptoms[0]
        #expect(head.category == ScoreFigures(
            name: "Head", entries: 3, days: 2, total: 9, highest: 5,
            worstDays: [DayScore(day: CivilDate(parsing: "2026-03-03")!, score: 5), DayScore(day: CivilDate(parsing: "2026-03-05")!, score: 4)],
            daily: [0, 5, 0, 4, 0, 0, 0],
            parts: [PartCount(part: .morning, count: 1), PartCount(part: .afternoon, count: 1), PartCount(part: .evening, count: 1)]))
        #expect(head.symptoms.map { [$0.name, "\($0.entries)", "\($0.days)", "\($0.total)", "\($0.highest)"] }
                == [["headache", "2", "1", "5", "5"], ["migraine", "1", "1", "4", "4"]])
        #expect(r.symptoms[1].symptoms.map(\.daily) == [[0, 0, 1, 0, 0, 0, 0]])
        #expect(r.symptoms[1].category.parts == [PartCount(part: .night, count: 1)])
    }

    @Test func factorsAndTheHighestScoreDays() throws {
        let f = try #require(try Self.report().factors)
        #expect(f.aggravating == [NameCount(name: "screens", count: 2), NameCount(name: "coffee", count: 1)])
        #expect(f.relieving == [NameCount(name: "rest", count: 1)])
        // Three days with entries (5, 1, 4): the top quarter is the one day of 5.
        #expect(f.highDays == 1 && f.otherDays == 6)
        #expect(f.lifestyle == [LifestyleComparison(factor: "caffeine", highDays: 1, otherDays: 1),
                                LifestyleComparison(factor: "exercise", highDays: 0, otherDays: 1)])
    }

    @Test func medicationsWithAdherence() throws {
        let r = try Self.report()
        #expect(r.medications.map(\.name) == ["ibuprofen", "vitamin D"])
        let ibu = r.medications[0]
        #expect([ibu.dose, ibu.directions, ibu.prescriber] == ["400 mg", "with food", "Dr Weiss"])
        #expect(ibu.taken == 13)
        #expect(ibu.adherence == AdherenceCount(onTime: 12, late: 1, missed: 1))
        #expect(ibu.weeks == [WeekAdherence(week: Self.from, count: AdherenceCount(onTime: 12, late: 1, missed: 1))])
        #expect(r.medications[1].taken == 1 && r.medications[1].adherence == nil)
    }

    @Test func measurementsActivityAndNotes() throws {
        let r = try Self.report()
        #expect(r.measurements.map(\.kind) == ["bloodPressure", "heartRate"])
        #expect(r.measurements[0].readings.map { Reading(at: $0.at, value: $0.value, second: $0.second) }
                == [Reading(at: Self.t("2026-03-03 08:00"), value: 128, second: 82), Reading(at: Self.t("2026-03-04 08:00"), value: 135, second: 85)])
        // Each reading keeps its samples' ids (the FHIR file's resource ids).
        #expect(r.measurements[0].readings.allSatisfy { $0.id != nil && $0.secondID != nil && $0.id != $0.secondID })
        #expect(r.measurements[1].readings.map(\.value) == [72])
        let a = try #require(r.activity)
        #expect(a.days.map(\.steps) == [nil, 5000, 7000, nil, nil, nil, nil])
        #expect(a.meanSteps == 6000 && a.meanAsleepMinutes == nil)
        #expect(r.notes.map(\.category) == ["questions", "cardiology"])
        #expect(r.notes[0].questions && r.notes[0].notes.map(\.text) == ["Is 400 mg <right>?"])
    }

    /// The sections hold text as typed (plain values: the web's templates escape it, ReportGoldenTests).
    @Test func theSectionsHoldTheTextAsTypedAndTheJSONHasTheSameFigures() throws {
        let r = try Self.report()
        let s = ReportSections(r)
        #expect(s.symptoms?.groups.map(\.name) == ["Head", "Stomach"])
        #expect(s.symptoms?.groups[1].rows.map(\.label) == ["nausea <b>"])
        #expect(s.symptoms?.groups[0].rows.map(\.label) == ["headache", "migraine", "(Head)"] && s.symptoms?.groups[0].rows[2].isTotal == true)
        #expect(s.notes?.groups.first?.notes.map(\.text) == ["Is 400 mg <right>?"])
        #expect(s.medications?.rows.first?.adherence?.onTime == 12 && s.medications?.rows.last?.adherence == nil)
        var w = JSONWriter()
        w.value(r.json)
        let json = try JSONParser.parse(w.text)
        let adherence = json["medications"]?.arrayValue?.first?["adherence"]
        #expect(adherence?["onTime"]?.doubleValue == 12 && adherence?["late"]?.doubleValue == 1 && adherence?["missed"]?.doubleValue == 1)
        #expect(json["symptoms"]?.arrayValue?.first?["category"]?["total"]?.doubleValue == 9)
    }

    /// `report.name` heads the summary, on its first page and in every printed page's header,
    /// where it is written as CSS escapes: nothing of it can end the string or the style element.
    @Test func theNameFromTheSettingsHeadsEveryPageAndCannotBreakOutOfTheStyleSheet() throws {
        var r = try Self.report()
        #expect(ReportSections(r).forName == nil, "no name set: none shown")
        r.name = "Ada \"</style><script>x</script> Łukasiewicz"
        #expect(ReportSections(r).forName == r.name)
        let header = ReportPrintHeader.css(r)
        #expect(header.hasPrefix("@page{@top-left{content:\"Ada \\22 \\3c \\2f style\\3e \\3c script\\3e x\\3c \\2f script\\3e  Łukasiewicz \\2014  Health summary 2 Mar 2026 to 8 Mar 2026\";"),
                "\(header)")
        var w = JSONWriter()
        w.value(r.json)
        #expect(try JSONParser.parse(w.text)["name"]?.stringValue == r.name)
    }

    @Test func pastSixtyReadingsEachDaysRangeAndSleepFromTheRollups() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let r = try JournalRunner.run(configuration: context, now: Self.now, announce: { _ in }) { r in
            let j = try r.records()
            // 61 readings: 31 on 03-03 (60…90), 30 on 03-04 (100…129).
            for i in 0..<31 { _ = try j.measure(.heartRate(Double(60 + i)), at: Self.t("2026-03-03 08:00").adding(millis: Int64(i) * 60_000), now: Self.now) }
            for i in 0..<30 { _ = try j.measure(.heartRate(Double(100 + i)), at: Self.t("2026-03-04 08:00").adding(millis: Int64(i) * 60_000), now: Self.now) }
            // A night 23:00–06:30 asleep inside 22:30–07:00 in bed: it ends on 03-03.
            let watch = SampleSource(name: "Watch")
            _ = try r.entries.store.insert([
                Sample(type: "sleepAnalysis", value: 0, unit: "min", start: Self.t("2026-03-02 23:00"), end: Self.t("2026-03-03 06:30"),
                       source: watch, metadata: ["sleepStage": "asleepCore"]),
                Sample(type: "sleepAnalysis", value: 0, unit: "min", start: Self.t("2026-03-02 22:30"), end: Self.t("2026-03-03 07:00"),
                       source: watch, metadata: ["sleepStage": "inBed"]),
            ], now: Self.now)
            return try r.reports().report(from: Self.from, to: Self.to, now: Self.now)
        }
        let hr = try #require(r.measurements.first)
        #expect(hr.kind == "heartRate" && hr.count == 61 && hr.readings.isEmpty)
        #expect(hr.daily == [DailyRange(day: CivilDate(parsing: "2026-03-03")!, count: 31, low: 60, mean: 75, high: 90),
                             DailyRange(day: CivilDate(parsing: "2026-03-04")!, count: 30, low: 100, mean: 114.5, high: 129)])
        let a = try #require(r.activity)
        #expect(a.days[1].asleepMinutes == 450 && a.days[1].inBedMinutes == 510)
        #expect(a.meanAsleepMinutes == 450 && a.meanSteps == nil)
        #expect(ReportSections(r).activity?.rows.first?.asleep == "7 h 30 min")
    }

    @Test func anEmptyPeriodHasNoSection() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let r = try JournalRunner.run(configuration: context, now: Self.now, announce: { _ in }) { try $0.reports().report(from: Self.from, to: Self.to, now: Self.now) }
        #expect(r.isEmpty)
        let s = ReportSections(r)
        #expect(s.isEmpty && s.symptoms == nil && s.medications == nil && s.measurements == nil && s.activity == nil)
    }
}

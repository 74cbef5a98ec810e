import Foundation
@testable import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolLinux
import Testing
@testable import HealthSpoolWeb

/// The doctor's summary, byte for byte: the file `healthspool report --out` writes and the web's
/// `/report` page, for an empty period, a month of journal (every section the journal fills),
/// and the month with ECGs, providers' records, heart notifications and a long period (steps and
/// sleep by week). The expected files are in `Golden/` beside this file; they were written
/// before the summary's sections became templates, so a change in the markup fails here
/// (HEALTHSPOOL_UPDATE_GOLDEN=1 writes them again, for a change meant).
@Suite struct ReportGoldenTests {
    static let now = Timestamp(millis: 1_773_144_000_000, utcOffsetSeconds: 0)   // 2026-03-10T12:00Z
    static let from = CivilDate(parsing: "2026-02-08")!, to = CivilDate(parsing: "2026-03-09")!

    static func t(_ text: String) -> Timestamp { WallClock.parse(text, now: now, zone: ZoneRules.utc)! }

    /// A fresh home in a temporary directory (UTC), its journal filled by `fill`, and the report
    /// of `from`…`to` with its web view.
    static func report(fill: (JournalRunner) throws -> Void) throws -> (VisitReport, ReportView) {
        var template = Array("/tmp/healthspool-golden-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = try? FileSystem.removeTree(dir) }
        let context = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC"])
        return try JournalRunner.run(configuration: context, now: now, announce: { _ in }) { r in
            try fill(r)
            let reports = try r.reports()
            let report = try reports.report(from: from, to: to, now: now, questions: "questions")
            let view = try reports.view(.dates(from: from.description, to: to.description), questions: "questions", now: now)
            return (report, view)
        }
    }

    /// A month: symptoms in two groups and none, factors, two medications with reminders (one
    /// missed, one late), blood pressure and a weight read one by one, heart rate past sixty
    /// readings (each day's range), steps, and notes with the questions first.
    static func month(_ r: JournalRunner) throws {
        let severities: [Severity] = [.mild, .moderate, .severe, .debilitating]
        for day in 0..<30 where day % 3 != 1 {
            let d = CivilDate(daysSinceEpoch: from.daysSinceEpoch + Int64(day))
            _ = try r.entries.logSymptom(SymptomLog(symptom: day % 2 == 0 ? "headache" : "aura & <glare>", severity: severities[day % 4],
                                                    at: t("\(d) 0\(day % 9 + 1):30"), category: "Head",
                                                    relievedBy: day % 5 == 0 ? ["rest"] : [], aggravatedBy: day % 4 == 0 ? ["screens", "noise"] : []))
            if day % 5 == 2 {
                _ = try r.entries.logSymptom(SymptomLog(symptom: "nausea", severity: .mild, at: t("\(d) 21:00"), category: "Stomach \"upper\""))
            }
            if day % 7 == 3 { _ = try r.entries.logSymptom(SymptomLog(symptom: "tired", severity: .moderate, at: t("\(d) 15:00"))) }
            if day % 4 == 1 { _ = try r.entries.logLifestyle(LifestyleLog(factor: "caffeine", at: t("\(d) 07:00"))) }
            if day % 6 == 0 { _ = try r.entries.logLifestyle(LifestyleLog(factor: "late night", at: t("\(d) 23:00"))) }
        }
        let j = try r.records()
        _ = try j.addMedication(Medication(name: "ibuprofen", dose: "400 mg", prescriber: "Dr Weiss & Co", directions: "with food <after>"), now: now)
        _ = try j.addMedication(Medication(name: "vitamin D"), now: now)
        _ = try j.addMedication(Medication(name: "metoprolol", dose: "50 mg"), now: now)
        _ = try j.addReminder(name: "Take ibuprofen", kind: nil, times: [TimeOfDay(parsing: "08:00")!, TimeOfDay(parsing: "20:00")!],
                              rule: RecurrenceRule(.daily), start: from, medication: "ibuprofen", now: t("2026-02-01 12:00"))
        _ = try j.addReminder(name: "Metoprolol", kind: nil, times: [TimeOfDay(parsing: "09:00")!],
                              rule: RecurrenceRule(.daily), start: from, medication: "metoprolol", now: t("2026-02-01 12:00"))
        for day in 0..<30 {
            let d = CivilDate(daysSinceEpoch: from.daysSinceEpoch + Int64(day))
            if day % 6 != 4 { _ = try j.takeDose("ibuprofen", at: t("\(d) \(day % 9 == 0 ? "10:30" : "08:10")")) }
            if day % 5 != 0 { _ = try j.takeDose("ibuprofen", at: t("\(d) 19:55")) }
            if day % 3 != 0 { _ = try j.takeDose("metoprolol", at: t("\(d) 09:05")) }
            if day % 10 == 0 { _ = try j.takeDose("vitamin D", at: t("\(d) 12:00")) }
            if day % 4 == 0 {
                _ = try j.measure(.bloodPressure(systolic: Double(120 + day), diastolic: Double(78 + day % 7)), at: t("\(d) 08:00"), now: now)
            }
            if day % 10 == 3 { _ = try j.measure(.bodyMass(72.4 + Double(day) / 10, unit: "kg"), at: t("\(d) 07:00"), now: now) }
            if day % 9 == 2 {
                for i in 0..<25 { _ = try j.measure(.heartRate(Double(58 + (i * 7) % 40)), at: t("\(d) 10:00").adding(millis: Int64(i) * 600_000), now: now) }
            }
            if day % 2 == 0 {
                _ = try j.measure(.steps(Double(3000 + day * 417), from: t("\(d) 10:00"), to: t("\(d) 11:00")), at: now, now: now)
            }
        }
        _ = try j.addNote(text: "Echo normal", category: "cardiology", audio: nil, now: t("2026-02-20 10:00"))
        _ = try j.addNote(text: "Is 400 mg <right>?", category: "questions", audio: nil, now: t("2026-03-05 10:00"))
        _ = try j.addNote(text: "Ask about \"sleep\" & screens", category: "questions", audio: nil, now: t("2026-03-06 10:00"))
    }

    /// The month's report with what only an import brings: ECGs (normal, atrial fibrillation, a
    /// result the app does not know), the providers' records, heart-rate notifications; and a
    /// copy of it over 70 days with sleep, so steps and sleep are shown by week.
    static func records(_ report: VisitReport) -> VisitReport {
        var r = report
        // A quote and a bracket with a combining accent after them: escaped all the same.
        r.name = "Ann \"\u{301}Jo\" <Smith> Łukasiewicz"
        let microvolts: [Double] = (0..<1536).map { (i: Int) -> Double in i % 128 < 6 ? 1200.0 : Double((i * 37) % 200) - 100.0 }
        let strip = ECGStrip(microvolts: microvolts, sampleRateHz: 512, rowSeconds: 1)
        func ecg(_ at: String, _ c: ECGClassification, _ text: String, hr: Double?, symptoms: String?, lead: String?) -> DayRecordings.ECG {
            DayRecordings.ECG(start: t(at), classification: c, classificationText: text, averageHeartRate: hr, symptoms: symptoms, lead: lead,
                              sampleRateHz: 512, voltageCount: 1536, strip: strip)
        }
        r.ecgs = [
            ecg("2026-02-12 09:00", .sinusRhythm, "Sinus Rhythm", hr: 64, symptoms: nil, lead: "Lead I"),
            ecg("2026-02-20 22:15", .atrialFibrillation, "Atrial Fibrillation", hr: 112.4, symptoms: "Rapid, pounding <heartbeat>", lead: nil),
            ecg("2026-03-01 07:45", .unrecognized, "Vorhof & <x>", hr: nil, symptoms: nil, lead: nil),
        ]
        func item(_ name: String, _ at: String, _ status: String?, _ type: String) -> HealthRecords.Item {
            HealthRecords.Item(name: name, date: t(at), status: status, provider: "City <\u{301}Clinic>", resourceType: type)
        }
        r.healthRecords.conditions = [item("Essential hypertension", "2019-05-02 00:00", "active", "Condition"),
                                      item("Migraine & aura", "2021-01-10 00:00", nil, "Condition")]
        r.healthRecords.allergies = [item("Penicillin", "2010-07-01 00:00", "confirmed", "AllergyIntolerance")]
        r.healthRecords.immunizations = [item("Influenza", "2025-10-15 00:00", "completed", "Immunization")]
        r.heartRateNotifications = [
            DayEvents.Notification(start: t("2026-02-14 03:12"), kind: "high", rate: 131, threshold: "120"),
            DayEvents.Notification(start: t("2026-02-27 23:50"), kind: "irregular", rate: nil, threshold: nil),
        ]
        return r
    }

    /// 70 days (past two months: steps and sleep by week), blood pressure by day ranges.
    static func long(_ report: VisitReport) -> VisitReport {
        var r = report
        r.from = CivilDate(daysSinceEpoch: to.daysSinceEpoch - 69)
        var days: [ActivityDay] = []
        for (i, d) in r.days.enumerated() {
            let steps: Double? = i % 5 == 4 ? nil : Double(4000 + i * 131)
            let asleep: Double? = i % 3 == 2 ? nil : Double(380 + i % 60)
            let inBed: Double? = i % 3 == 2 ? nil : Double(430 + i % 45)
            days.append(ActivityDay(day: d, steps: steps, asleepMinutes: asleep, inBedMinutes: inBed))
        }
        r.activity = ActivityFigures(days: days, meanSteps: 8321.6, meanAsleepMinutes: 409.4, meanInBedMinutes: 451.7)
        let first = r.from.daysSinceEpoch
        var daily: [DailyRange] = []
        for i in stride(from: 0, to: 70, by: 2) {
            let second = DailyRange.Range3(low: 75, mean: 81.33, high: 88 + Double(i % 3))
            daily.append(DailyRange(day: CivilDate(daysSinceEpoch: first + Int64(i)), count: 4, low: 118 + Double(i % 5),
                                    mean: 124.25 + Double(i % 7), high: 139.5, second: second))
        }
        r.measurements.append(MeasurementFigures(kind: "bloodPressure", title: "Blood pressure", unit: "mmHg", count: 140, readings: [], daily: daily))
        r.symptoms = r.symptoms.map { c in
            var c = c
            c.category.daily = r.days.indices.map { $0 % 4 }
            for i in c.symptoms.indices { c.symptoms[i].daily = r.days.indices.map { $0 % 3 } }
            return c
        }
        return r
    }

    /// The web page as `ReportPage.render` writes it, with set tokens for its forms.
    static func page(_ view: ReportView) -> String {
        let page = ReportPage(view, days: nil, since: nil)
        return WebTemplates.render(frame(page), .report)
    }

    static func frame(_ page: ReportPage) -> PageFrame {
        PageFrame(title: "Health summary", path: "/report", keys: FormKeys(csrf: "CSRF", issue: { "ONCE" }), notice: nil,
                  extraStyles: ["/static/report.css", "/report/page.css?from=\(page.from)&to=\(page.to)"],
                  extraScripts: [WebAssets.path("report.js")], page: page)
    }

    /// The file `healthspool report --out` writes.
    static func file(_ r: VisitReport) -> String { ReportFile.html(r) }

    static func check(_ actual: String, _ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
        if ProcessInfo.processInfo.environment["HEALTHSPOOL_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        guard actual != expected else { return }
        let a = Array(actual.utf8), e = Array(expected.utf8)
        let at = zip(a, e).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, e.count)
        let around = { (b: [UInt8]) in String(decoding: b[max(0, at - 120)..<min(b.count, at + 120)], as: UTF8.self) }
        Issue.record("\(name) differs at byte \(at) (\(a.count) bytes, expected \(e.count)):\n  got: \(around(a))\n want: \(around(e))")
    }

    @Test func anEmptyPeriod() throws {
        let (report, view) = try Self.report { _ in }
        #expect(report.isEmpty)
        try Self.check(Self.file(report), "report-empty.html")
        try Self.check(Self.page(view), "report-empty-page.html")
    }

    @Test func aMonthOfJournal() throws {
        let (report, view) = try Self.report(fill: Self.month)
        #expect(!report.symptoms.isEmpty && !report.medications.isEmpty && report.factors != nil && report.activity != nil)
        #expect(report.measurements.contains { !$0.daily.isEmpty } && report.measurements.contains { !$0.readings.isEmpty })
        try Self.check(Self.file(report), "report-month.html")
        try Self.check(Self.page(view), "report-month-page.html")
    }

    @Test func recordsECGsNotificationsAndALongPeriod() throws {
        let (report, view) = try Self.report(fill: Self.month)
        let records = Self.records(report)
        try Self.check(Self.file(records), "report-records.html")
        var recordsView = view
        recordsView.report = records
        try Self.check(Self.page(recordsView), "report-records-page.html")
        try Self.check(Self.file(Self.long(records)), "report-long.html")
        // The quote and the bracket before a combining mark are escaped (one Unicode scalar at a time).
        #expect(Self.file(records).contains("<strong>For:</strong> Ann &quot;\u{301}Jo&quot; &lt;Smith&gt; Łukasiewicz"))
        #expect(Self.file(records).contains("City &lt;\u{301}Clinic&gt;"))
    }

    /// What was typed cannot end the style element or bring a script; the file links to nothing.
    @Test func theFileEscapesTheNameAndHasNoScriptNorLink() throws {
        var (report, _) = try Self.report(fill: Self.month)
        report.name = "Ada \"</style><script>x</script> Łukasiewicz"
        let html = Self.file(report)
        #expect(html.contains("<strong>For:</strong> Ada &quot;&lt;/style&gt;&lt;script&gt;x&lt;/script&gt; Łukasiewicz"))
        #expect(html.components(separatedBy: "</style>").count == 2, "one style element, ended once")
        #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))
        #expect(html.contains("aura &amp; &lt;glare&gt;") && !html.contains("<glare>"))
    }
}

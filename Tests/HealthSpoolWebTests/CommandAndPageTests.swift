import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Testing
@testable import HealthSpoolWeb
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's text and `--json` come from the same view models as the pages (issue 28): on a
/// journal written by hand in a temporary home, each command's text (what it prints: the view's
/// `text`) and the page rendered from the same view show the same figures, written the same way
/// (German here, so a thousands separator is visible).
@Suite struct CommandAndPageTests {
    static let now = Timestamp(millis: 1_767_261_600_000, utcOffsetSeconds: 0)   // 2026-01-01T10:00Z, a Thursday
    static let today = CivilDate(year: 2026, month: 1, day: 1)

    static func at(_ hoursBefore: Int64) -> Timestamp { Timestamp(millis: now.millis - hoursBefore * 3_600_000, utcOffsetSeconds: 0) }

    /// Runs `body` as a journal command runs (`JournalRunner.run`, as `withJournal` does) on a
    /// fresh home in UTC with a German locale.
    static func journal<T>(_ body: (JournalRunner) throws -> T) throws -> T {
        var template = Array("/tmp/healthspool-cliview-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = try? FileSystem.removeTree(dir) }
        let configuration = try Configuration(environment: ["HOME": dir, "XDG_RUNTIME_DIR": dir + "/run", "TZ": "UTC", "LANG": "de_DE.UTF-8"])
        return try JournalRunner.run(configuration: configuration, now: now, body)
    }

    /// A page model rendered in its template inside the page frame, as the routes render it.
    static func page(_ model: Any, _ template: WebTemplate) -> String {
        WebTemplates.render(PageFrame(title: "Test", path: "/", keys: FormKeys(csrf: "csrf", issue: { "once" }), page: model), template)
    }

    @Test func theDayCommandAndTheDayPageShowTheSameFiguresFromOneView() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.measure(.steps(12_345, from: Self.at(4), to: Self.at(2)), at: Self.at(2), now: Self.now)
            _ = try j.measure(.heartRate(72), at: Self.at(3), now: Self.now)
            _ = try j.measure(.bloodPressure(systolic: 128, diastolic: 82), at: Self.at(1), now: Self.now)
            _ = try j.addMedication(Medication(name: "Ibuprofen", dose: "400 mg"), now: Self.now)
            _ = try j.takeDose("Ibuprofen", at: Self.at(2))
            return try r.days().view(Self.today, now: Self.now)
        }
        let text = view.text, html = Self.page(DayPage(view), .day)
        #expect(view.summary.totals["stepCount"] == 12_345)
        #expect(text.contains("\nSteps         12.345\n"), "\(text)")
        #expect(html.contains("id=\"steps\" data-value=\"12345\">12.345</span>"))
        #expect(text.contains("\nHeart rate    72 / 72 / 72 bpm"), "\(text)")
        #expect(html.contains("id=\"hr-avg\" data-value=\"72\">72 bpm</span>"))
        #expect(text.contains("09:00 Blood pressure 128/82 mmHg"), "\(text)")
        #expect(html.contains("<span class=\"time\">09:00</span> <span class=\"kind\">Blood pressure</span> <strong>128/82 mmHg</strong>"))
        let dose = try #require(view.summary.doses.first)
        #expect(text.contains("08:00 " + dose.medication), "\(text)")
        #expect(html.contains("<strong>08:00 \(dose.medication)</strong>"))
        #expect(view.json.objectValue?.first { $0.0 == "date" }?.1 == .string("2026-01-01"))
    }

    @Test func remindListAndTheRemindersPageSayEachRuleInTheSameWords() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.addMedication(Medication(name: "Ibuprofen", dose: "400 mg"), now: Self.now)
            _ = try j.addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily, interval: 2),
                                  start: Self.today, medication: "Ibuprofen", now: Self.now)
            return try j.remindersView(now: Self.now)
        }
        let row = try #require(view.rows.first)
        let html = Self.page(ReminderForms.ListPage(view, typed: nil), .reminders)
        #expect(view.text == "\(row.reminder.id)  Pills  [medication]  \(row.words) (\(row.reminder.rule))  next 2026-01-03 08:00", "\(view.text)")
        #expect(html.contains(row.words), "\(row.words)")
        #expect(view.json.arrayValue?.first?.objectValue?.first { $0.0 == "repeat" }?.1 == .string(row.words))
    }

    @Test func goalListAndTheGoalsPageWriteTheTargetTheSameWay() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.addGoal(name: "Walk", rule: RecurrenceRule(.daily), start: Self.today, type: "stepCount", target: 10_000, now: Self.now)
            _ = try j.measure(.steps(7_400, from: Self.at(4), to: Self.at(2)), at: Self.at(2), now: Self.now)
            return try j.goalsView(now: Self.now, style: j.style)
        }
        let html = Self.page(GoalForms.ListPage(view, typed: nil), .goalsPage)
        #expect(view.text == "[ ] 1  Walk  7.400/10.000", "\(view.text)")
        #expect(html.contains("10.000 steps a day, from your data"))
        #expect(html.contains("Not done yet today"))
    }

    @Test func medListAndTheMedicationsPageListTheSameMedications() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.addMedication(Medication(name: "Ibuprofen", otherNames: ["Advil"], dose: "400 mg", directions: "with food"), now: Self.now)
            return try j.medicationsView(now: Self.now)
        }
        let html = Self.page(MedicationsPage(view), .meds)
        #expect(view.text == "1  Ibuprofen (Advil)  400 mg  — with food", "\(view.text)")
        #expect(html.contains("<strong>Ibuprofen</strong><br><span class=\"rule\">400 mg · also called Advil · with food</span>"))
        #expect(view.json.arrayValue?.count == 1)
    }

    @Test func noteListAndTheNotesPageListTheSameNotesNewestFirst() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.addNote(text: "Ask about the evening dose", category: "cardiology", audio: nil, now: Self.at(2))
            _ = try j.addNote(text: "Knee better", category: nil, audio: nil, now: Self.at(1))
            return try j.notesView(category: nil)
        }
        let html = Self.page(NotePages(view), .notes)
        let lines = view.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasSuffix("Knee better") && lines[1].hasSuffix("[cardiology]  Ask about the evening dose"), "\(view.text)")
        let knee = try #require(html.range(of: "Knee better")), evening = try #require(html.range(of: "Ask about the evening dose"))
        #expect(knee.lowerBound < evening.lowerBound)
        // The same time: written out on the page, as a date and time in the terminal's list.
        #expect(html.contains("Thursday 1 January 2026, 08:00 · cardiology") && lines[1].contains("2026-01-01 08:00"))
    }

    @Test func measureListAndTheMeasurementsPageShowTheSameReadingsWrittenTheSameWay() throws {
        let view = try Self.journal { r in
            let j = try r.records()
            _ = try j.measure(.bloodPressure(systolic: 128, diastolic: 82), at: Self.at(1), now: Self.now)
            _ = try j.measure(.bodyMass(72.6, unit: "kg"), at: Self.at(2), now: Self.now)
            return try j.measurements(now: Self.now)
        }
        let html = Self.page(MeasurePage(view, charts: nil, glucoseUnit: view.glucoseUnit), .measure)
        #expect(view.text.contains("\n  09:00  Blood pressure 128/82 mmHg\n  08:00  Weight 72,6 kg"), "\(view.text)")
        #expect(html.contains("<span class=\"time\">09:00</span> <span class=\"kind\">Blood pressure</span> <strong>128/82 mmHg</strong>"))
        #expect(html.contains("<span class=\"time\">08:00</span> <span class=\"kind\">Weight</span> <strong>72,6 kg</strong>"))
    }
}

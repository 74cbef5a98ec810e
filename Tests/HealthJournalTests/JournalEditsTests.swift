@testable import HealthJournal
import HealthSpoolCore
import HealthSpoolLinux
import Testing

/// Reminders and medications changed in place (the web's Change, `remind edit`, `med edit`),
/// the reminder list's words and next ring, and the steps form's reading.
@Suite struct JournalEditsTests {
    static let now = JournalRunnerTests.now   // 2026-01-01T10:00Z (TZ=UTC)

    @Test func aChangedReminderKeepsItsIdAndWhenItLastRangAndIsSaidInWords() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        _ = try journal.addMedication(Medication(name: "Vitamin D"), now: Self.now)
        let r = try journal.addReminder(name: "Pills", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily),
                                        start: nil, medication: nil, now: Self.now)
        try journal.recordFired([r.id], at: Self.now)
        let changed = try journal.editReminder(r.id, name: "Vitamin D", times: [TimeOfDay(hour: 8, minute: 0)!],
                                               rule: RecurrenceRule(.daily, interval: 2), start: nil, medication: "vitamin d", now: Self.now)
        #expect(changed.id == r.id && changed.kind == .medication && changed.medicationID != nil)
        #expect(changed.start == CivilDate(year: 2026, month: 1, day: 1))
        let (stored, fired) = try journal.reminderFirings()
        #expect(stored.map(\.rule) == [RecurrenceRule(.daily, interval: 2)] && fired[r.id] == Self.now)
        let rows = try journal.reminderRows(now: Self.now)
        #expect(rows.map(\.words) == ["Every other day at 08:00"])
        // Started today (an occurrence) after its 08:00: next is the day after tomorrow.
        #expect(rows.map(\.nextWords) == ["Saturday 08:00"])
        #expect(rows.map(\.medication) == ["Vitamin D"])
        #expect(throws: JournalError.self) {
            try journal.editReminder(99, name: "x", times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily), start: nil,
                                     medication: nil, now: Self.now)
        }
    }

    @Test func aChangedMedicationKeepsItsIdAndRefusesAnotherOnesName() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let ibu = try journal.addMedication(Medication(name: "Ibuprofen", dose: "400 mg"), now: Self.now)
        _ = try journal.addMedication(Medication(name: "Paracetamol"), now: Self.now)
        _ = try journal.takeDose("ibuprofen", at: Self.now)
        let m = try journal.editMedication(ibu.id, Medication(name: "Ibuprofen", otherNames: ["Advil"], dose: " 200 mg "))
        #expect(m.id == ibu.id && m.dose == "200 mg" && m.otherNames == ["Advil"])
        #expect(try journal.medication("advil").id == ibu.id)
        #expect(try journal.doses(on: nil).count == 1)
        #expect(throws: JournalError.self) { try journal.editMedication(ibu.id, Medication(name: "paracetamol")) }
    }

    @Test func stepsTypedInAreAWholeCountSinceATimeToday() {
        let zone = ZoneRules.utc
        guard case .measurement(.steps(let n, let from, let to)) = MeasurementEntry.parseSteps(
            fields: ["value-steps": "4200", "since": "08:00"], now: Self.now, zone: zone) else {
            Issue.record("not read")
            return
        }
        #expect(n == 4200 && from.iso8601Local == "2026-01-01T08:00:00.000Z" && to == Self.now)
        func problems(_ fields: [String: String]) -> [String: String] {
            guard case .problems(let list) = MeasurementEntry.parseSteps(fields: fields, now: Self.now, zone: zone) else { return [:] }
            return Dictionary(list.map { ($0.field, $0.message) }) { a, _ in a }
        }
        #expect(problems(["value-steps": "4,200", "since": "08:00"]) == ["value-steps": "Type only the whole number, without dots or spaces, for example 4200."])
        #expect(problems(["value-steps": "4200", "since": "11:00"]) == ["since": "Choose a time before now, for example 08:00."])
        #expect(problems(["value-steps": "0", "since": "8"])["since"] == "Type the time you started counting as hours and minutes, for example 08:00.")
    }
}

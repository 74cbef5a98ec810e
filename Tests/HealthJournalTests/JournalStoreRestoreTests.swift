import Testing
import HealthSpoolCore
@testable import HealthJournal
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// What the web's Undo puts back of records that are not samples: a removed medication with its
/// doses and its reminders' links, a removed goal with the days it was done, under their ids.
@Suite struct JournalStoreRestoreTests {
    static func journal() throws -> JournalStore {
        var template = Array("/tmp/healthspool-store-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return JournalStore(try SampleStore(path: dir + "/store.db"))
    }

    static let now = Timestamp(seconds: 1_767_261_600)

    @Test func aRemovedMedicationComesBackWithItsDosesAndItsRemindersLinks() throws {
        let j = try Self.journal()
        let m = try #require(try j.addMedication(Medication(name: "Ibuprofen", otherNames: ["Advil"], dose: "400 mg"), now: Self.now))
        let other = try #require(try j.addMedication(Medication(name: "Paracetamol"), now: Self.now))
        let r = try j.addReminder(Reminder(id: 0, name: "Pills", kind: .medication, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily),
                                           start: CivilDate(year: 2026, month: 1, day: 1), medicationID: m.id, created: Self.now))
        let doses = [try j.addDose(Dose(medicationID: m.id, takenAt: Self.now, reminderID: r.id)),
                     try j.addDose(Dose(medicationID: m.id, takenAt: Timestamp(seconds: 1_767_265_200)))]
        let kept = try j.addDose(Dose(medicationID: other.id, takenAt: Self.now))

        let removed = try #require(try j.removeMedicationKeeping(id: m.id))
        #expect(removed.medication == m && removed.doses == doses && removed.reminderIDs == [r.id])
        #expect(try j.medications() == [other] && j.doses() == [kept])
        #expect(try j.reminders().first?.reminder.medicationID == nil)

        #expect(try j.restoreMedication(removed))
        #expect(try j.medications() == [m, other])
        #expect(try j.doses() == [doses[0], kept, doses[1]])
        #expect(try j.reminders().first?.reminder.medicationID == m.id)
        #expect(try !j.restoreMedication(removed))   // it is there: nothing doubled
        #expect(try j.doses().count == 3)
    }

    @Test func aRemovedGoalComesBackWithTheDaysItWasDoneAndAHandCheckCanBeTakenBack() throws {
        let j = try Self.journal()
        let g = try j.addGoal(Goal(name: "Walk", rule: RecurrenceRule(.daily), start: CivilDate(year: 2026, month: 1, day: 1)), now: Self.now)
        let day1 = CivilDate(year: 2026, month: 1, day: 1), day2 = CivilDate(year: 2026, month: 1, day: 2)
        #expect(try j.checkGoal(id: g.id, day: day1, how: .data, at: Self.now))
        #expect(try j.checkGoal(id: g.id, day: day2, how: .hand, at: Self.now))
        #expect(try !j.checkGoal(id: g.id, day: day2, how: .hand, at: Self.now))   // checked already

        let removed = try #require(try j.removeGoalKeeping(id: g.id))
        #expect(try j.goals().isEmpty && j.goalChecks().isEmpty)
        #expect(try j.restoreGoal(removed))
        #expect(try j.goals() == [g])
        #expect(try j.goalChecks()[g.id] == ["2026-01-01": .data, "2026-01-02": .hand])

        #expect(try !j.uncheckGoal(id: g.id, day: day1))   // done by the data, not by hand
        #expect(try j.uncheckGoal(id: g.id, day: day2))
        #expect(try j.goalChecks()[g.id] == ["2026-01-01": .data])
    }
}

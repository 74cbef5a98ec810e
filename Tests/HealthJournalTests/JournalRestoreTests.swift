@testable import HealthJournal
import Testing
import HealthSpoolCore
import HealthSpoolLinux
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Undo in the journal: a deleted entry comes back whole under its id, and the gateway gets the
/// tombstone and then the entry again (each a new version of the same record, queued past the
/// sync mark). Real SQLite in a temporary directory.
@Suite struct JournalRestoreTests {
    let store: SampleStore
    let zone = ZoneRules.fixed(name: "UTC+1", offset: 3600)
    let day = CivilDate(year: 2026, month: 11, day: 20)

    init() throws {
        var template = Array("/tmp/healthspool-restore-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
    }

    func journal() -> HealthJournal {
        let now = LocalDay.timestamp(day, hour: 21, minute: 0, in: zone)
        return HealthJournal(store: store, zone: zone, settings: Settings(), clock: { now })
    }

    func at(_ h: Int) -> Timestamp { LocalDay.timestamp(day, hour: h, minute: 0, in: zone) }

    /// Marks everything queued of `type` as delivered (what a successful sync does).
    func deliver(_ type: String) throws {
        let batch = try store.queuedBatch(type: type, limit: 100)
        try store.recordDelivery(type: type, rowIDs: batch.rowIDs, at: at(20))
    }

    @Test func aRestoredSymptomKeepsItsIDAndContentAndIsSentAfterItsTombstone() throws {
        let j = journal()
        let js = JournalStore(store)
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "headache", severity: .moderate, when: .evening, at: at(19),
                                                  relievedBy: ["rest"], note: "after the walk"))
        try deliver(JournalType.symptomEntry)
        let deleted = try j.deleteSymptom(e.id.description)
        // The gateway's next batch: the tombstone.
        let tombstones = try store.queuedBatch(type: JournalType.symptomEntry, limit: 10)
        #expect(tombstones.ids == [e.id] && tombstones.tombstones == [true] && tombstones.versions == [2])
        try deliver(JournalType.symptomEntry)
        #expect(try j.symptoms(on: day).isEmpty)

        let back = try j.restoreSymptom(e)
        #expect(back.id == e.id && !back.deleted && back.version == 3)
        let listed = try j.symptoms(on: day)
        #expect(listed.count == 1)
        #expect(listed[0].id == e.id && listed[0].severity == .moderate && listed[0].note == "after the walk" && listed[0].relievedBy == ["rest"])
        // And the next batch: the entry again, after the tombstone, as version 3.
        let again = try store.queuedBatch(type: JournalType.symptomEntry, limit: 10)
        #expect(again.ids == [e.id] && again.tombstones == [false] && again.versions == [3])
        #expect(deleted.version == 2)
        #expect(try js.queuedRecords(type: JournalType.symptomEntry).map(\.deleted) == [false])
        // The day's score counts it again.
        #expect(try j.symptomScores(from: day, to: day)[day] == 2)
    }

    @Test func anUndoneEditPutsTheOldContentBackUnderANewVersion() throws {
        let j = journal()
        let (e, _) = try j.logSymptom(SymptomLog(symptom: "dizziness", severity: .mild, at: at(9)))
        var changes = SymptomChanges()
        changes.severity = .severe
        changes.at = at(11)
        try j.editSymptom(e.id.description, changes)
        let back = try j.restoreSymptom(e)
        #expect(back.severity == .mild && back.at == at(9) && back.version == 3)
        // One queue row for the entry: its latest version.
        let queued = try JournalStore(store).queuedRecords(type: JournalType.symptomEntry)
        #expect(queued.count == 1 && queued[0].version == 3 && !queued[0].deleted)
    }

    @Test func aLifestyleEntryIsEditedDeletedAndRestoredUnderTheSameID() throws {
        let j = journal()
        let e = try j.logLifestyle(LifestyleLog(factor: "caffeine", measure: .amount(2, unit: "cups"), at: at(8)))
        try deliver(JournalType.lifestyleEntry)
        var changes = LifestyleChanges()
        changes.measure = .some(.amount(3, unit: "cups"))
        changes.note = "strong"
        let edited = try j.editLifestyle(String(e.id.description.prefix(8)), changes)
        #expect(edited.id == e.id && edited.version == 2 && edited.measure == .amount(3, unit: "cups") && edited.note == "strong")
        try deliver(JournalType.lifestyleEntry)
        try j.deleteLifestyle(e.id.description)
        #expect(try j.lifestyle(on: day).isEmpty)
        #expect(try store.queuedBatch(type: JournalType.lifestyleEntry, limit: 10).tombstones == [true])
        try deliver(JournalType.lifestyleEntry)
        let back = try j.restoreLifestyle(edited)
        #expect(back.id == e.id && back.version == 4)
        #expect(try j.lifestyle(on: day).map(\.measure) == [.amount(3, unit: "cups")])
        let batch = try store.queuedBatch(type: JournalType.lifestyleEntry, limit: 10)
        #expect(batch.ids == [e.id] && batch.tombstones == [false] && batch.versions == [4])
    }

    @Test func aDeletedMeasurementIsATombstoneAndComesBackWithItsSamples() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let now = JournalRunnerTests.now
        let (samples, _) = try journal.measure(.bloodPressure(systolic: 128, diastolic: 82), at: now, now: now)
        let key = HealthJournal.key(of: samples)
        let store = try SampleStore.connect(to: context)
        for t in ["bloodPressureSystolic", "bloodPressureDiastolic"] {
            let b = try store.queuedBatch(type: t, limit: 10)
            try store.recordDelivery(type: t, rowIDs: b.rowIDs, at: now)
        }
        let gone = try journal.deleteMeasurement(key)
        #expect(gone.text == "128/82 mmHg" && gone.parts.count == 2)
        #expect(try journal.measurements(now: now).days.isEmpty)
        let tomb = try store.queuedBatch(type: "bloodPressureSystolic", limit: 10)
        #expect(tomb.ids == [samples[0].id] && tomb.tombstones == [true] && tomb.versions == [2])
        #expect(try store.queuedBatch(type: "bloodPressureDiastolic", limit: 10).tombstones == [true])
        try store.recordDelivery(type: "bloodPressureSystolic", rowIDs: tomb.rowIDs, at: now)

        try journal.restoreMeasurement(key)
        #expect(try journal.measurements(now: now).days.first?.readings.map(\.text) == ["128/82 mmHg"])
        let again = try store.queuedBatch(type: "bloodPressureSystolic", limit: 10)
        #expect(again.ids == [samples[0].id] && again.tombstones == [false] && again.versions == [3])
    }

    @Test func aChangedMeasurementReplacesTheOldReadingAtTheSameTime() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let now = JournalRunnerTests.now
        let (samples, _) = try journal.measure(.heartRate(27), at: now, now: now)
        let (old, newKey) = try journal.editMeasurement(HealthJournal.key(of: samples), to: .heartRate(72), now: now)
        #expect(old.text == "27 bpm")
        let readings = try journal.measurements(now: now).days.flatMap(\.readings)
        #expect(readings.map(\.text) == ["72 bpm"] && readings[0].key == newKey && readings[0].at.millis == now.millis)
        // The day's heart-rate figures leave the deleted reading out.
        let store = try SampleStore.connect(to: context)
        #expect(try store.samples(type: "heartRate", fromMillis: now.millis - 1000, toMillis: now.millis + 1000).map(\.sample.value) == [72])
    }

    @Test func aBloodPressureWithOnlyItsTopNumberChangedKeepsItsBottomNumberPaired() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let now = JournalRunnerTests.now
        let (samples, _) = try journal.measure(.bloodPressure(systolic: 182, diastolic: 82), at: now, now: now)
        let (_, newKey) = try journal.editMeasurement(HealthJournal.key(of: samples), to: .bloodPressure(systolic: 128, diastolic: 82), now: now)
        #expect(try journal.measurement(newKey).text == "128/82 mmHg")
        #expect(try journal.measurements(now: now).days.flatMap(\.readings).map(\.text) == ["128/82 mmHg"])
        // And back (the web's Undo): the new reading deleted, the old one restored, paired again.
        try journal.deleteMeasurement(newKey)
        let old = try journal.restoreMeasurement(HealthJournal.key(of: samples))
        #expect(old.text == "182/82 mmHg")
        #expect(try journal.measurements(now: now).days.flatMap(\.readings).map(\.text) == ["182/82 mmHg"])
    }

    @Test func aRemovedDoseReminderAndNoteComeBackWithTheirIDs() throws {
        let (context, dir) = try JournalRunnerTests.context()
        defer { _ = try? FileSystem.removeTree(dir) }
        let journal = try HealthJournal(store: try .connect(to: context), zone: context.zone, configuration: context)
        let now = JournalRunnerTests.now
        let med = try journal.addMedication(Medication(name: "Ibuprofen", dose: "400 mg"), now: now)
        let (dose, _) = try journal.takeDose(String(med.id), at: now)
        try journal.removeDose(id: dose.id)
        #expect(try journal.doses(on: nil).isEmpty)
        try journal.restoreDose(dose)
        #expect(try journal.doses(on: nil).map(\.0) == [dose])

        let r = try journal.addReminder(name: "Take ibuprofen", kind: nil, times: [TimeOfDay(hour: 8, minute: 0)!], rule: RecurrenceRule(.daily),
                                        start: nil, medication: "Ibuprofen", now: now)
        try journal.recordFired([r.id], at: now)
        let fired = try journal.lastFired(reminder: r.id)
        _ = try journal.removeReminder(r.id)
        try journal.restoreReminder(r, lastFired: fired)
        #expect(try journal.reminders() == [r])
        #expect(try journal.lastFired(reminder: r.id)?.millis == now.millis)

        let n = try journal.addNote(text: "Ask about the dose", category: "cardiology", audio: nil, now: now)
        try journal.editNote(n.id, text: "Ask about the evening dose", category: nil)
        #expect(try journal.note(n.id).text == "Ask about the evening dose")
        let removed = try journal.removeNoteKeepingAudio(n.id)
        #expect(try journal.notes(category: nil).isEmpty)
        try journal.restoreNote(removed)
        #expect(try journal.notes(category: nil).map(\.id) == [n.id])
    }
}

import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolStore

/// What undoes one change to the journal (the web's Undo button): the inverse of a save or a
/// delete, kept by whoever offered it and carried out through the same use cases as the CLI.
/// A deleted entry comes back whole under its id; a symptom, lifestyle entry or measurement is
/// then sent to the gateway again, after its tombstone.
public enum JournalUndo: Sendable {
    /// Undoes logging a symptom.
    case deleteSymptom(SampleID)
    /// Undoes an edit or a delete: the entry as it was.
    case restoreSymptom(SymptomEntry)
    case deleteLifestyle(SampleID)
    case restoreLifestyle(LifestyleEntry)
    /// Undoes "Taken".
    case removeDose(Int64)
    /// Undoes a dose's removal.
    case restoreDose(Dose)
    /// Undoes a change of a dose's time.
    case retimeDose(id: Int64, takenAt: Timestamp)
    case restoreReminder(Reminder, lastFired: Timestamp?)
    /// Undoes adding a reminder.
    case removeReminder(Int64)
    /// Undoes a change of a reminder: the reminder as it was.
    case reviseReminder(Reminder)
    /// Undoes adding a medication (it has no doses yet).
    case removeMedication(Int64)
    /// Undoes a change of a medication: the medication as it was.
    case reviseMedication(Medication)
    /// Undoes a medication's removal: it comes back with its doses and its reminders' links.
    case restoreMedication(RemovedMedication)
    /// Undoes adding a goal.
    case removeGoal(Int64)
    /// Undoes a goal's removal: it comes back with the days it was checked off.
    case restoreGoal(RemovedGoal)
    /// Undoes "Mark done": the goal's check by hand on that day taken back.
    case uncheckGoal(Goal, day: CivilDate)
    case removeNote(Int64)
    /// Undoes a note's removal (its recording kept aside comes back too).
    case restoreNote(Note)
    /// Undoes an edit of a note: its text and category as they were.
    case reviseNote(Note)
    /// Undoes saving a measurement (its key, `MeasurementReading.key`).
    case deleteMeasurement(String)
    case restoreMeasurement(String)
    /// Undoes changing a measurement: the new reading deleted, the old one back.
    case revertMeasurement(new: String, old: String)

    /// Carries the undo out on `configuration`'s store; returns what to tell the user ("Put back: …").
    public func apply(configuration: Configuration, now: Timestamp = RealTimeClock.now()) throws -> String {
        try JournalRunner.run(configuration: configuration, now: now) { r in try apply(r) }
    }

    /// `apply(configuration:now:)` on `store`, a connection already open (one a `StorePool` lends).
    /// What it puts in line goes to `announce`.
    package func apply(on store: SampleStore, configuration: Configuration, now: Timestamp,
                       announce: @escaping ([String]) -> Void) throws -> String {
        try JournalRunner.run(on: store, configuration: configuration, now: now, announce: announce) { r in try apply(r) }
    }

    private func apply(_ r: JournalRunner) throws -> String {
        switch self {
        case .deleteSymptom(let id):
            let e = try r.entries.deleteSymptom(id.description)
            return "Undone: \(e.symptom) is no longer logged."
        case .restoreSymptom(let e):
            let back = try r.entries.restoreSymptom(e)
            return "Undone: \(back.symptom), \(back.severity), is back as it was."
        case .deleteLifestyle(let id):
            let e = try r.entries.deleteLifestyle(id.description)
            return "Undone: \(e.factor) is no longer logged."
        case .restoreLifestyle(let e):
            let back = try r.entries.restoreLifestyle(e)
            return "Undone: \(back.factor) is back as it was."
        case .removeDose(let id):
            try r.records().removeDose(id: id)
            return "Undone: the dose is no longer logged."
        case .restoreDose(let d):
            try r.records().restoreDose(d)
            return "Undone: the dose is back."
        case .retimeDose(let id, let takenAt):
            try r.records().editDose(id: id, takenAt: takenAt, now: r.now)
            return "Undone: the dose has its old time again."
        case .restoreReminder(let reminder, let lastFired):
            try r.records().restoreReminder(reminder, lastFired: lastFired)
            return "Undone: the reminder \(reminder.name) is back."
        case .removeReminder(let id):
            let reminder = try r.records().removeReminder(id)
            return "Undone: the reminder \(reminder.name) is removed."
        case .reviseReminder(let reminder):
            try r.records().reviseReminder(reminder)
            return "Undone: the reminder \(reminder.name) is back as it was."
        case .removeMedication(let id):
            let m = try r.records().removeMedication(String(id))
            return "Undone: \(m.name) is removed."
        case .reviseMedication(let m):
            try r.records().editMedication(m.id, m)
            return "Undone: \(m.name) is back as it was."
        case .restoreMedication(let removed):
            try r.records().restoreMedication(removed)
            let n = removed.doses.count
            return "Undone: \(removed.medication.name) is back" + (n == 0 ? "." : n == 1 ? ", with its logged dose." : ", with its \(n) logged doses.")
        case .removeGoal(let id):
            try r.records().removeGoal(id)
            return "Undone: the goal is removed."
        case .restoreGoal(let removed):
            try r.records().restoreGoal(removed)
            return "Undone: the goal \(removed.goal.name) is back."
        case .uncheckGoal(let goal, let day):
            try r.records().uncheckGoal(goal.id, day: day)
            return "Undone: \(goal.name) is not marked done."
        case .removeNote(let id):
            _ = try r.records().removeNoteKeepingAudio(id)
            return "Undone: the note is no longer kept."
        case .restoreNote(let n):
            try r.records().restoreNote(n)
            return "Undone: the note is back."
        case .reviseNote(let n):
            try r.records().editNote(n.id, text: n.text, category: n.category)
            return "Undone: the note reads as it did."
        case .deleteMeasurement(let key):
            let m = try r.records().deleteMeasurement(key)
            return "Undone: \(m.kind.title.lowercased()) \(m.text) is no longer kept."
        case .restoreMeasurement(let key):
            let m = try r.records().restoreMeasurement(key)
            return "Undone: \(m.kind.title.lowercased()) \(m.text) is back."
        case .revertMeasurement(let new, let old):
            let journal = try r.records()
            try journal.deleteMeasurement(new)
            let m = try journal.restoreMeasurement(old)
            return "Undone: \(m.kind.title.lowercased()) is \(m.text) again."
        }
    }
}

import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore

/// What the web's Undo puts back: a removed dose, reminder, note, medication or goal, under the
/// id it had, a changed reminder as it was, a goal's check taken back, and the edits of notes
/// (doses: `editDose`; medications: `editMedication`).
extension HealthJournal {
    /// The logged dose with this id.
    public func dose(id: Int64) throws -> Dose {
        guard let d = try journal.dose(id: id) else { throw JournalError.notFound(kind: "dose", key: String(id)) }
        return d
    }

    /// Puts a removed dose back, with its id.
    public func restoreDose(_ d: Dose) throws {
        guard try journal.restoreDose(d) else { throw JournalError.duplicate(kind: "dose", key: String(d.id)) }
    }

    /// When the reminder with this id last rang (nil: never).
    public func lastFired(reminder id: Int64) throws -> Timestamp? {
        try journal.reminders().first { $0.reminder.id == id }?.lastFired
    }

    /// Puts a removed reminder back, with its id and the instant it last rang.
    public func restoreReminder(_ r: Reminder, lastFired: Timestamp?) throws {
        guard try journal.restoreReminder(r, lastFired: lastFired) else { throw JournalError.duplicate(kind: "reminder", key: String(r.id)) }
    }

    /// The note with this id.
    public func note(_ id: Int64) throws -> Note {
        guard let n = try journal.notes().first(where: { $0.id == id }) else { throw JournalError.notFound(kind: "note", key: String(id)) }
        return n
    }

    /// Changes a note's text and category (R17); a note without a recording keeps some text.
    @discardableResult
    public func editNote(_ id: Int64, text: String, category: String?) throws -> Note {
        var n = try note(id)
        let cat = (category ?? n.category).trimmingSpaces
        guard !cat.isEmpty, cat.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
            throw JournalError.invalid(field: "category", value: category ?? "", expected: "a category name (cardiology)")
        }
        guard !text.trimmingSpaces.isEmpty || n.audioFile != nil else {
            throw JournalError.invalid(field: "note", value: text, expected: "some text")
        }
        guard try journal.editNote(id: id, text: text, category: cat) else { throw JournalError.notFound(kind: "note", key: String(id)) }
        n.text = text
        n.category = cat
        return n
    }

    /// Removes a note whose removal can be undone: its recording is kept aside
    /// (`<file>.removed`) for `restoreNote` instead of deleted.
    public func removeNoteKeepingAudio(_ id: Int64) throws -> Note {
        guard let note = try journal.removeNote(id: id) else { throw JournalError.notFound(kind: "note", key: String(id)) }
        if let path = audioPath(note), FileSystem.exists(path) { try FileSystem.move(path, to: path + ".removed") }
        return note
    }

    /// Puts a removed note back, with its id and its recording (kept aside by `removeNoteKeepingAudio`).
    public func restoreNote(_ n: Note) throws {
        if let path = audioPath(n), FileSystem.exists(path + ".removed") { try FileSystem.move(path + ".removed", to: path) }
        guard try journal.restoreNote(n) else { throw JournalError.duplicate(kind: "note", key: String(n.id)) }
    }

    /// Puts a changed reminder back as `r` was (its kind and medication too); when it last
    /// rang is kept, so it rings nothing that already rang.
    public func reviseReminder(_ r: Reminder) throws {
        guard try journal.updateReminder(r) else { throw JournalError.notFound(kind: "reminder", key: String(r.id)) }
    }

    /// Removes a medication (its doses too; its reminders stay, unlinked) and returns all of it
    /// for `restoreMedication`.
    public func removeMedicationKeeping(_ key: String) throws -> RemovedMedication {
        let m = try medication(key)
        guard let removed = try journal.removeMedicationKeeping(id: m.id) else { throw JournalError.notFound(kind: "medication", key: key) }
        return removed
    }

    /// Puts a removed medication back whole: its id, its logged doses under their ids, and its
    /// links to the reminders it had (those still there and not linked to another since).
    public func restoreMedication(_ r: RemovedMedication) throws {
        for existing in try journal.medications() {
            for n in [r.medication.name] + r.medication.otherNames where existing.isNamed(n) {
                throw JournalError.duplicate(kind: "medication", key: n)
            }
        }
        guard try journal.restoreMedication(r) else { throw JournalError.duplicate(kind: "medication", key: String(r.medication.id)) }
    }

    /// Removes a goal and returns it with the days it was checked off, for `restoreGoal`.
    public func removeGoalKeeping(_ id: Int64) throws -> RemovedGoal {
        guard let removed = try journal.removeGoalKeeping(id: id) else { throw JournalError.notFound(kind: "goal", key: String(id)) }
        return removed
    }

    /// Puts a removed goal back with its id and the days it was checked off.
    public func restoreGoal(_ r: RemovedGoal) throws {
        guard try journal.restoreGoal(r) else { throw JournalError.duplicate(kind: "goal", key: String(r.goal.id)) }
    }

    /// Checks a goal off by hand for `day`; `checked` is false when it was checked off that
    /// day already (nothing changed, nothing to undo).
    public func checkGoalOff(_ id: Int64, day: CivilDate, now: Timestamp) throws -> (goal: Goal, checked: Bool) {
        guard let g = try journal.goals().first(where: { $0.id == id }) else { throw JournalError.notFound(kind: "goal", key: String(id)) }
        return (g, try journal.checkGoal(id: id, day: day, how: .hand, at: now))
    }

    /// Takes back a goal's check by hand on `day` (the undo of "Mark done").
    public func uncheckGoal(_ id: Int64, day: CivilDate) throws {
        guard try journal.uncheckGoal(id: id, day: day) else { throw JournalError.notFound(kind: "goal check", key: "\(id) on \(day)") }
    }
}

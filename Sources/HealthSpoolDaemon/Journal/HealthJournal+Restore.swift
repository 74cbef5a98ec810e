import HealthSpoolCore
import HealthSpoolLinux

/// What the web's Undo puts back: a removed dose, reminder or note, under the id it had, and
/// the edits of notes (doses: `editDose`).
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
}

import HealthSpoolCore
import HealthSpoolLinux

extension HealthJournal {
    /// Adds a note (R17–R19) in `category`, copying `audio` (a recording) beside the store as
    /// `<state dir>/notes/<id>.<ext>`, mode 0600. A failed copy adds nothing.
    public func addNote(text: String, category: String?, audio: String?, now: Timestamp) throws -> Note {
        let cat = (category ?? Note.defaultCategory).trimmingSpaces
        guard !cat.isEmpty, cat.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else {
            throw JournalError.invalid(field: "category", value: category ?? "", expected: "a category name (cardiology)")
        }
        guard !text.trimmingSpaces.isEmpty || audio != nil else {
            throw JournalError.invalid(field: "note", value: text, expected: "some text or --audio FILE")
        }
        var ext: String?
        if let audio {
            let e = String(FileSystem.baseName(audio).split(separator: ".").last ?? "").lowercased()
            guard Note.audioExtensions.contains(e), FileSystem.regularFile(audio) != nil else {
                throw JournalError.invalid(field: "audio", value: audio,
                                           expected: "a readable audio file (\(Note.audioExtensions.sorted().joined(separator: ", ")))")
            }
            ext = e
        }
        var note = try journal.addNote(Note(category: cat, text: text, created: local(now)))
        guard let audio, let ext else { return note }
        let name = "\(note.id).\(ext)"
        do {
            try FileSystem.makeDirectory(notesDirectory, mode: 0o700)
            try FileSystem.copyFile(audio, to: notesDirectory + "/" + name, mode: 0o600)
            try journal.setNoteAudio(id: note.id, file: name)
        } catch {
            _ = try? journal.removeNote(id: note.id)
            try? FileSystem.remove(notesDirectory + "/" + name)
            throw error
        }
        note.audioFile = name
        return note
    }

    /// Notes, newest first, of one category or all.
    public func notes(category: String?) throws -> [Note] { try journal.notes(category: category) }

    /// The categories in use, with their note counts.
    public func noteCategories() throws -> [(String, Int)] { try journal.noteCategories() }

    /// The full path of a note's audio file.
    public func audioPath(_ note: Note) -> String? { note.audioFile.map { notesDirectory + "/" + $0 } }

    /// Removes a note and its audio file.
    public func removeNote(_ id: Int64) throws -> Note {
        guard let note = try journal.removeNote(id: id) else { throw JournalError.notFound(kind: "note", key: String(id)) }
        if let path = audioPath(note) { try FileSystem.remove(path) }
        return note
    }
}

import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a note in the browser (`HealthJournal.editNote`, `note edit` in the
/// CLI), each with Undo; a deleted note's recording is kept aside so Undo brings it back too.
/// The page (`/notes/ID/edit`, `note-edit.mustache`) shows the note as `HealthJournal.note` reads it.
struct NoteEdits: Sendable {
    /// The note form's fields (`note-edit.mustache`).
    struct Fields: Decodable, Sendable {
        var id: String?
        var text: String?
        var category: String?
    }

    let id: Int64
    /// When it was written, local time.
    let written: String
    let categoryField: Field
    let text: String
    let hasRecording: Bool

    init(_ n: Note) {
        id = n.id
        written = Format.spoken(n.created)
        var focus = Field.Focus()
        categoryField = Field(label: "Category", name: "category", value: n.category, focus: &focus)
        text = n.text
        hasRecording = n.audioFile != nil
    }

    static func page(store: LentStore, id: String, query: Form, keys: FormKeys) throws -> String {
        let journal = try store.records()
        guard let noteID = Int64(id), let n = try? journal.note(noteID) else {
            return EntryGone.render(title: "Change a note", path: "/notes", keys: keys,
                                    gone: "This note cannot be changed: it was deleted, or the address is not right.", back: "/notes",
                                    backLabel: "Back to the notes")
        }
        return WebTemplates.render(PageFrame(title: "Change a note", path: "/notes", keys: keys, notice: Notice(query, back: "/notes"),
                                             page: NoteEdits(n)), .noteEdit)
    }

    static func save(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let id = Int64(form.id ?? "") ?? -1
        do {
            let journal = try store.records()
            let old = try journal.note(id)
            let n = try journal.editNote(id, text: form.text ?? old.text, category: form.category)
            guard n != old else { return (Page.redirect("/notes", ok: "Nothing was changed."), nil) }
            return (Page.redirect("/notes", ok: "Note changed."), .reviseNote(old))
        } catch {
            return (Page.redirect("/notes/\(id)/edit", error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    static func delete(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        do {
            let n = try store.records().removeNoteKeepingAudio(Int64(form.id ?? "") ?? -1)
            return (Page.redirect("/notes", ok: "Note deleted."), .restoreNote(n))
        } catch { return (Page.redirect("/notes", error: "Not deleted: \(WebJournal.message(error))"), nil) }
    }
}

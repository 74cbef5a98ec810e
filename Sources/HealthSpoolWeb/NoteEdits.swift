import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a note in the browser (`HealthJournal.editNote`, `note edit` in the
/// CLI), each with Undo; a deleted note's recording is kept aside so Undo brings it back too.
enum NoteEdits {
    static func page(_ ctx: DaemonContext, id: String, query: Form, keys: FormKeys) throws -> String {
        let journal = try HealthJournal(context: ctx)
        guard let noteID = Int64(id), let n = try? journal.note(noteID) else {
            var p = Page(title: "Change a note", path: "/notes", csrf: keys)
            p.raw("<p class=\"notice error\" role=\"alert\">This note cannot be changed: it was deleted, or the address is not right.</p>")
            p.raw("<p><a class=\"button\" href=\"/notes\">Back to the notes</a></p>")
            return p.document()
        }
        var p = Page(title: "Change a note", path: "/notes", csrf: keys)
        p.notice(query)
        p.raw("<p>Written \(Page.escape(Format.local(n.created))).</p>")
        p.form("/notes/edit") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(n.id)\">")
            p.field("Category", name: "category", value: n.category, extra: "required autocomplete=\"off\"")
            p.raw("<div class=\"field\"><label for=\"f-text\">Note</label><textarea id=\"f-text\" name=\"text\" rows=\"5\">"); p.text(n.text); p.raw("</textarea></div>")
            p.raw("<p class=\"row\"><button type=\"submit\" id=\"save-changes\">Save changes</button>")
            p.raw("<a class=\"button secondary\" href=\"/notes\">Back without changing</a></p>")
        }
        p.form("/notes/delete", cssClass: "card edit-delete") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(n.id)\">")
            p.raw("<p>Not needed any more? Delete it\(n.audioFile != nil ? " with its recording" : ""). You can undo that.</p>")
            p.raw("<button type=\"submit\" class=\"secondary\" id=\"delete-entry\">Delete this note</button>")
        }
        return p.document()
    }

    static func save(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let id = Int64(form["id"] ?? "") ?? -1
        do {
            let journal = try HealthJournal(context: ctx)
            let old = try journal.note(id)
            let n = try journal.editNote(id, text: form["text"] ?? old.text, category: form["category"])
            guard n != old else { return (Page.redirect("/notes", ok: "Nothing was changed."), nil) }
            return (Page.redirect("/notes", ok: "Note changed."), .reviseNote(old))
        } catch {
            return (Page.redirect("/notes/\(id)/edit", error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    static func delete(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        do {
            let n = try HealthJournal(context: ctx).removeNoteKeepingAudio(Int64(form["id"] ?? "") ?? -1)
            return (Page.redirect("/notes", ok: "Note deleted."), .restoreNote(n))
        } catch { return (Page.redirect("/notes", error: "Not deleted: \(WebJournal.message(error))"), nil) }
    }
}

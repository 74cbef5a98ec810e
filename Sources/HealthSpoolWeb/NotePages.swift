import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
#if canImport(Glibc)
import Glibc
#endif

/// Notes with categories and a voice recording made in the browser (MediaRecorder, in the
/// app's script). A recording is uploaded as the request body with the CSRF token in a header,
/// stored through `HealthJournal.addNote` (a 0600 file beside the store) and played back from
/// `/notes/ID/audio`, which needs the session like every page.
enum NotePages {
    /// The largest recording accepted (about half an hour of Opus speech).
    static let maxAudioBytes = 32 << 20

    static func render(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        var p = Page(title: "Notes", path: "/notes", csrf: csrf)
        p.notice(query)
        let journal = try HealthJournal(context: ctx)
        let categories = try journal.noteCategories()
        let chosen = query["category"].flatMap { $0.isEmpty ? nil : $0 }

        p.raw("<section class=\"card\" aria-labelledby=\"new-h\"><h2 id=\"new-h\">Write or record a note</h2>")
        p.raw("<form method=\"post\" action=\"/notes/add\" id=\"note-form\"><input type=\"hidden\" name=\"csrf\" value=\"\(p.csrf)\">\(p.onceField)")
        p.raw("<datalist id=\"note-categories\">")
        for (c, _) in categories { p.raw("<option value=\"\(Page.escape(c))\"></option>") }
        p.raw("</datalist>")
        p.field("Category", name: "category", value: chosen ?? Note.defaultCategory, extra: "list=\"note-categories\" autocomplete=\"off\"",
                hint: "For example: cardiology, or the name of a doctor.")
        p.raw("<div class=\"field\"><label for=\"f-text\">Note</label><textarea id=\"f-text\" name=\"text\" rows=\"4\"></textarea></div>")
        p.raw("<fieldset id=\"recorder\" hidden><legend>Voice recording (optional)</legend>")
        p.raw("<div class=\"row\"><button type=\"button\" id=\"rec-start\" class=\"secondary\">Start recording</button>")
        p.raw("<button type=\"button\" id=\"rec-stop\" class=\"secondary\" disabled>Stop recording</button></div>")
        p.raw("<p id=\"rec-status\" role=\"status\" aria-live=\"polite\">No recording.</p>")
        p.raw("<audio id=\"rec-preview\" controls hidden></audio></fieldset>")
        p.raw("<button type=\"submit\" id=\"note-save\">Save note</button></form></section>")

        p.raw("<section class=\"card\" aria-labelledby=\"list-h\"><h2 id=\"list-h\">Your notes</h2>")
        if !categories.isEmpty {
            p.raw("<nav aria-label=\"Note categories\"><ul class=\"choices small\">")
            p.raw("<li><a class=\"choice\" href=\"/notes\"\(chosen == nil ? " aria-current=\"page\"" : "")>All</a></li>")
            for (c, n) in categories {
                let current = chosen?.lowercased() == c.lowercased() ? " aria-current=\"page\"" : ""
                p.raw("<li><a class=\"choice\" href=\"/notes?category=\(Page.percentEncode(c))\"\(current)>"); p.text("\(c) (\(n))"); p.raw("</a></li>")
            }
            p.raw("</ul></nav>")
        }
        let notes = try journal.notes(category: chosen)
        if notes.isEmpty { p.raw("<p>No notes yet.</p>") } else {
            p.raw("<ul class=\"notes\" id=\"notes\">")
            for n in notes {
                p.raw("<li class=\"note\" data-note=\"\(n.id)\"><p class=\"meta\">"); p.text("\(Format.local(n.created)) · \(n.category)"); p.raw("</p>")
                if !n.text.isEmpty { p.raw("<p>"); p.text(n.text); p.raw("</p>") }
                if n.audioFile != nil {
                    p.raw("<audio controls preload=\"metadata\" src=\"/notes/\(n.id)/audio\" aria-label=\"Recording of the note from \(Page.escape(Format.local(n.created)))\"></audio>")
                }
                Edits.buttons(&p, edit: "/notes/\(n.id)/edit", delete: "/notes/delete", fields: [("id", String(n.id))],
                              what: "the note of \(Format.local(n.created))", back: "/notes")
                p.raw("</li>")
            }
            p.raw("</ul>")
        }
        p.raw("</section>")
        return p.document()
    }

    /// A note without a recording (the form posted without the script).
    static func add(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        do {
            let n = try HealthJournal(context: ctx).addNote(text: form["text"] ?? "", category: form["category"], audio: nil, now: DaemonClock.now())
            return (Page.redirect("/notes", ok: "Note saved in \(n.category)."), .removeNote(n.id))
        } catch { return (Page.redirect("/notes", error: WebJournal.notSaved(error)), nil) }
    }

    /// A note with a recording: the body is the audio, category and text are in the query.
    /// The bytes go to a 0600 temporary file in the state directory, which `addNote` copies
    /// beside the store; the temporary file is removed either way. Answers with the page to
    /// go to (JSON), since the script, not the browser, follows it.
    /// `offer` keeps the Undo of the new note and returns its token (`UndoLog`).
    static func addWithAudio(_ ctx: DaemonContext, query: Form, contentType: String, audio: [UInt8],
                             offer: (JournalUndo) -> String? = { _ in nil }) throws -> Response {
        let ext: String
        switch contentType.split(separator: ";").first.map({ String($0).trimmingSpaces.lowercased() }) ?? "" {
        case "audio/webm", "video/webm": ext = "webm"
        case "audio/ogg": ext = "ogg"
        case "audio/mp4", "audio/x-m4a": ext = "m4a"
        case "audio/mpeg": ext = "mp3"
        case "audio/wav", "audio/x-wav", "audio/wave": ext = "wav"
        default:
            return json(.unsupportedMediaType, ["error": "The recording's type '\(contentType)' is not one this journal keeps (webm, ogg, m4a, mp3, wav)."])
        }
        guard !audio.isEmpty else { return json(.badRequest, ["error": "The recording is empty. Record again, then save."]) }
        let temp = ctx.stateDir + "/note-upload.\(getpid()).\(RandomBytes.token().prefix(8)).\(ext)"
        do {
            try FileSystem.makeDirectory(ctx.stateDir, mode: 0o700)
            try FileSystem.writeAtomically(temp, audio, mode: 0o600)
            defer { try? FileSystem.remove(temp) }
            let n = try HealthJournal(context: ctx).addNote(text: query["text"] ?? "", category: query["category"], audio: temp, now: DaemonClock.now())
            let undo = offer(.removeNote(n.id)).map { "&undo=" + $0 } ?? ""
            return json(.ok, ["location": "/notes?ok=" + Page.percentEncode("Note with recording saved in \(n.category).") + undo])
        } catch {
            return json(.badRequest, ["error": WebJournal.notSaved(error)])
        }
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        var w = JSONWriter()
        w.sortedObject(object)
        return Page.respond(status, w.text, type: "application/json")
    }

    /// A note's recording, with its audio type, for the session's `<audio>` player.
    static func audio(_ ctx: DaemonContext, id: String) throws -> Response {
        let journal = try HealthJournal(context: ctx)
        guard let id = Int64(id), let note = try journal.notes(category: nil).first(where: { $0.id == id }),
              let path = journal.audioPath(note) else {
            return Page.plain(status: .notFound, title: "No recording", text: "This note has no recording.", back: ("/notes", "Back to the notes"))
        }
        let bytes = try FileSystem.read(path, limit: maxAudioBytes)
        let ext = String(path.split(separator: ".").last ?? "")
        let type = ["webm": "audio/webm", "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/ogg", "m4a": "audio/mp4",
                    "aac": "audio/aac", "mp3": "audio/mpeg", "wav": "audio/wav", "flac": "audio/flac"][ext] ?? "application/octet-stream"
        var r = Response(status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        r.headers[.cacheControl] = "private, no-store"
        return r
    }
}

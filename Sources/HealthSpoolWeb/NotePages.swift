import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux
import Hummingbird
#if canImport(Glibc)
import Glibc
#endif

/// Notes with categories and a voice recording made in the browser (MediaRecorder, in the
/// app's script): the page (`/notes`, `notes.mustache`) from `NotesView`. A recording is
/// uploaded as the request body with the CSRF token in a header, stored through
/// `HealthJournal.addNote` (a 0600 file beside the store) and played back from
/// `/notes/ID/audio`, which needs the session like every page.
struct NotePages: Sendable {
    /// The note form's fields (posted without the script: no recording).
    struct Fields: Decodable, Sendable {
        var text: String?
        var category: String?
    }

    /// A category link: its notes only.
    struct Category: Sendable {
        let name: String
        let href: String
        /// "cardiology (3)".
        let label: String
        let current: Bool
    }

    /// A note's recording player.
    struct Recording: Sendable {
        let src: String
        let label: String
    }

    struct Row: Sendable {
        let id: Int64
        /// "2026-11-26 09:12 · cardiology".
        let meta: String
        /// The note's text, nil when it has none (a recording only).
        let written: String?
        let recording: Recording?
        let actions: EntryActions
    }

    let categoryField: Field
    let categories: [Category]
    let hasCategories: Bool
    let allChosen: Bool
    let notes: [Row]
    let hasNotes: Bool
    /// "Show older notes", when the list stops before the oldest.
    let more: More?

    /// The link to the same list with `pageSize` more notes, landing on the first of them.
    struct More {
        let href: String
        let shownText: String
    }

    /// How many notes the list shows at first, and adds each time "Show older notes" is chosen:
    /// a year of notes (a hundred and more) would make a page of about 90 KB that takes 25 ms.
    static let pageSize = 30

    /// The largest recording accepted (about half an hour of Opus speech).
    static let maxAudioBytes = 32 << 20

    /// The newest `shown` notes of `view` (at least `pageSize`).
    init(_ view: NotesView, shown: Int = pageSize) {
        var focus = Field.Focus()
        categoryField = Field(label: "Category", name: "category", value: view.chosen ?? Note.defaultCategory, required: false, list: "note-categories",
                              hint: "For example: cardiology, or the name of a doctor.", focus: &focus)
        categories = view.categories.map { c, n in
            Category(name: c, href: "/notes?category=" + Page.percentEncode(c), label: "\(c) (\(n))", current: view.chosen?.lowercased() == c.lowercased())
        }
        hasCategories = !categories.isEmpty
        allChosen = view.chosen == nil
        let shown = max(Self.pageSize, shown)
        notes = view.notes.prefix(shown).map { n in
            let when = Format.spoken(n.created)
            return Row(id: n.id, meta: "\(when) · \(n.category)", written: n.text.isEmpty ? nil : n.text,
                       recording: n.audioFile == nil ? nil : Recording(src: "/notes/\(n.id)/audio", label: "Recording of the note from \(when)"),
                       actions: EntryActions(edit: "/notes/\(n.id)/edit", delete: "/notes/delete", fields: [Hidden(name: "id", value: String(n.id))],
                                             subject: "the note of \(when)", back: "/notes"))
        }
        hasNotes = !notes.isEmpty
        if view.notes.count > shown {
            let category = view.chosen.map { "&category=" + Page.percentEncode($0) } ?? ""
            more = More(href: "/notes?shown=\(shown + Self.pageSize)\(category)#note-\(view.notes[shown].id)",
                        shownText: "The newest \(shown) of \(view.notes.count) notes are shown.")
        } else {
            more = nil
        }
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = NotePages(try store.records().notesView(category: query["category"]), shown: query["shown"].flatMap { Int($0) } ?? pageSize)
        return WebTemplates.render(PageFrame(title: "Notes", path: "/notes", keys: csrf, notice: Notice(query, back: "/notes"), page: page), .notes)
    }

    /// A note without a recording (the form posted without the script).
    static func add(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        do {
            let n = try store.records().addNote(text: form.text ?? "", category: form.category, audio: nil, now: DaemonClock.now())
            return (Page.redirect("/notes", ok: "Note saved in \(n.category)."), .removeNote(n.id))
        } catch { return (Page.redirect("/notes", error: WebJournal.notSaved(error)), nil) }
    }

    /// A note with a recording: the body is the audio, category and text are in the query.
    /// The bytes go to a 0600 temporary file in the state directory, which `addNote` copies
    /// beside the store; the temporary file is removed either way. Answers with the page to
    /// go to (JSON), since the script, not the browser, follows it.
    /// `offer` keeps the Undo of the new note and returns its token (`SessionMemory.offer`); `address`
    /// holds the page's message for the session (`SessionMemory.address`).
    static func addWithAudio(_ ctx: Configuration, store: LentStore, query: Form, contentType: String, audio: [UInt8],
                             offer: (JournalUndo) -> String? = { _ in nil }, address: (String) -> String = { $0 }) throws -> Response {
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
            let n = try store.records().addNote(text: query["text"] ?? "", category: query["category"], audio: temp, now: DaemonClock.now())
            let undo = offer(.removeNote(n.id)).map { "&undo=" + $0 } ?? ""
            return json(.ok, ["location": address("/notes?ok=" + Page.percentEncode("Note with recording saved in \(n.category).") + undo)])
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
    static func audio(store: LentStore, id: String) throws -> Response {
        let journal = try store.records()
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

import ArgumentParser
import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note", abstract: "Notes in your own categories, with an optional audio recording.",
        discussion: "Audio files are copied beside the store (<state dir>/notes/, mode 0600) and removed with their note and by purge.",
        subcommands: [NoteAdd.self, NoteEdit.self, NoteList.self, NoteCategories.self, NoteRemove.self])
}

struct NoteAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a note (appointment: symptoms, medication effects, questions and answers, plan).")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The note's text.") var text = ""
    @Option(help: "The category (cardiology; default general).") var category: String?
    @Option(help: "An audio recording to keep with it (m4a, mp3, ogg, opus, wav, webm, aac, flac).", completion: .file(extensions: ["m4a", "mp3", "ogg", "oga", "opus", "wav", "webm", "aac", "flac"])) var audio: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let out = try withJournal(common) { r in
            let j = try r.records()
            let n = try j.addNote(text: text, category: category, audio: audio, now: r.now)
            return json ? JournalRows.json(n, j) : .string("added note \(n.id) in \(n.category)\(n.audioFile == nil ? "" : " with audio")")
        }
        if case .string(let s) = out { print(s) } else { printJSON(out) }
    }
}

struct NoteList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List notes, newest first.")
    @OptionGroup var common: CommonOptions
    @Option(help: "Only this category.") var category: String?
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        // The notes page's view, of the category asked for.
        let view = try withJournal(common) { r in try r.records().notesView(category: category) }
        if json { printJSON(view.json) } else { print(view.text) }
    }
}

struct NoteCategories: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "categories", abstract: "List note categories and their counts.")
    @OptionGroup var common: CommonOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let cats = try withJournal(common) { try $0.records().noteCategories() }
        if json { printJSON(.array(cats.map { .object([("category", .string($0.0)), ("notes", .number(Double($0.1)))]) })); return }
        for (c, n) in cats { print("\(c)  \(n)") }
    }
}

struct NoteRemove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a note and its audio file.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The note's id.") var id: Int64

    func run() throws {
        let n = try withJournal(common) { try $0.records().removeNote(id) }
        print("removed note \(n.id)\(n.audioFile == nil ? "" : " and its audio")")
    }
}

struct NoteEdit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a note's text or category.")
    @OptionGroup var common: CommonOptions
    @Argument(help: "The note's id.") var id: Int64
    @Option(help: "The new text.") var text: String?
    @Option(help: "The new category.") var category: String?

    func validate() throws {
        if text == nil && category == nil { throw ValidationError("give --text, --category or both") }
    }

    func run() throws {
        let n = try withJournal(common) { r in
            let journal = try r.records()
            return try journal.editNote(id, text: text ?? journal.note(id).text, category: category)
        }
        print("changed note \(n.id) (\(n.category))")
    }
}

import HealthSpoolCore

/// What the web's notes page and `healthspool note list` show, read on one store connection:
/// the categories with how many notes each has, the category chosen (nil: all), and the notes of
/// that category, newest first. The command prints `text` or `json`; the page lists the same notes.
public struct NotesView: Sendable {
    public var categories: [(name: String, count: Int)]
    public var chosen: String?
    public var notes: [Note]
    /// The folder the recordings are kept in (`HealthJournal.notesDirectory`).
    public var notesDirectory: String

    /// The path of a note's recording, nil when it has none.
    public func audioPath(_ note: Note) -> String? { note.audioFile.map { notesDirectory + "/" + $0 } }

    /// The terminal form: a line a note with its id, when it was written, its category, its text
    /// and the path of its recording; "no notes" when there is none.
    public var text: String {
        if notes.isEmpty { return "no notes" }
        return notes.map { n in
            "\(n.id)  \(n.created.shortLocal)  [\(n.category)]  \(n.text)\(audioPath(n).map { "  (audio: \($0))" } ?? "")"
        }.joined(separator: "\n")
    }

    /// The notes as `--json` lists them, each with the path of its recording.
    public var json: JSONValue { .array(notes.map { JournalRows.json($0, audio: audioPath($0)) }) }
}

extension HealthJournal {
    /// The notes of `category` (nil or empty: all) and every category.
    public func notesView(category: String?) throws -> NotesView {
        let chosen = category.flatMap { $0.isEmpty ? nil : $0 }
        return NotesView(categories: try noteCategories().map { ($0.0, $0.1) }, chosen: chosen, notes: try notes(category: chosen),
                         notesDirectory: notesDirectory)
    }
}

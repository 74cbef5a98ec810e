import HealthSpoolCore

/// What the web's notes page shows, read on one store connection: the categories with how many
/// notes each has, the category chosen (nil: all), and the notes of that category, newest first.
public struct NotesView: Sendable {
    public var categories: [(name: String, count: Int)]
    public var chosen: String?
    public var notes: [Note]
}

extension HealthJournal {
    /// The notes of `category` (nil or empty: all) and every category.
    public func notesView(category: String?) throws -> NotesView {
        let chosen = category.flatMap { $0.isEmpty ? nil : $0 }
        return NotesView(categories: try noteCategories().map { ($0.0, $0.1) }, chosen: chosen, notes: try notes(category: chosen))
    }
}

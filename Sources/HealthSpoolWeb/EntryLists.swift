import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// A hidden form field.
struct Hidden: Sendable {
    let name: String
    let value: String
}

/// Journal entries, each with Change and Delete (`entries.mustache`, `entry-actions.mustache`).
struct EntryList: Sendable {
    struct Row: Sendable {
        /// The entry's id for `data-entry` (nil: no attribute).
        let entry: String?
        let what: String
        /// The edit page's address (nil: no Change).
        let edit: String?
        /// Where Delete posts, and its fields.
        let delete: String
        let fields: [Hidden]
        /// What the buttons name for a screen reader ("Headache at 08:10").
        let subject: String
    }

    let id: String
    /// Where a delete lands.
    let back: String
    let rows: [Row]

    static func symptoms(_ entries: [SymptomEntry], id: String, back: String) -> EntryList {
        EntryList(id: id, back: back, rows: entries.map { e in
            let time = e.shownTime
            var what = "\(time) \(e.symptom): \(e.severity)"
            if !e.relievedBy.isEmpty { what += "; better with \(e.relievedBy.joined(separator: ", "))" }
            if !e.aggravatedBy.isEmpty { what += "; worse with \(e.aggravatedBy.joined(separator: ", "))" }
            if let n = e.note { what += " – \(n)" }
            return Row(entry: e.id.description, what: what, edit: "/symptoms/\(e.id)/edit?back=\(Page.percentEncode(back))",
                       delete: "/symptoms/delete", fields: [Hidden(name: "id", value: e.id.description)], subject: "\(e.symptom) \(e.shownPhrase)")
        })
    }

    static func lifestyle(_ entries: [LifestyleEntry], back: String) -> EntryList {
        EntryList(id: "lifestyle", back: back, rows: entries.map { e in
            let time = e.shownTime
            let what = "\(time) \(e.factor)" + (e.measure.map { " – \($0)" } ?? "") + (e.note.map { ": " + $0 } ?? "")
            return Row(entry: e.id.description, what: what, edit: "/lifestyle/\(e.id)/edit?back=\(Page.percentEncode(back))",
                       delete: "/lifestyle/delete", fields: [Hidden(name: "id", value: e.id.description)], subject: "\(e.factor) at \(time)")
        })
    }

    /// Notes with their local clock time (`clock`: UTC ms to "HH:MM").
    static func notes(_ notes: [Note], id: String, back: String, clock: (Int64) -> String) -> EntryList {
        EntryList(id: id, back: back, rows: notes.map { n in
            let time = clock(n.created.millis)
            return Row(entry: nil, what: "\(time) \(n.text)", edit: "/notes/\(n.id)/edit", delete: "/notes/delete",
                       fields: [Hidden(name: "id", value: String(n.id))], subject: "the note of \(time)")
        })
    }
}

/// Doses taken, each with its time to change and Delete (`dose-list.mustache`).
struct DoseList: Sendable {
    struct Row: Sendable {
        let id: Int64
        let time: String
        let name: String
    }

    let back: String
    let rows: [Row]

    init(_ doses: [(Dose, String)], back: String) {
        self.back = back
        rows = doses.map { Row(id: $0.0.id, time: String(Format.local($0.0.takenAt).suffix(5)), name: $0.1) }
    }
}

/// One measurement (`reading.mustache`); with `back`, Change and Delete landing there.
struct ReadingRow: Sendable {
    let key: String
    let time: String
    let kind: String
    let text: String
    let other: String?
    let editable: Bool
    let edit: String?
    let delete = "/measure/delete"
    let fields: [Hidden]
    let subject: String
    let back: String

    init(_ r: MeasurementReading, back: String?) {
        key = r.key
        time = r.time
        kind = r.kind.title
        text = r.text
        other = r.other
        editable = back != nil
        edit = back.map { "/measure/\(Page.percentEncode(r.key))/edit?back=\(Page.percentEncode($0))" }
        fields = [Hidden(name: "key", value: r.key)]
        subject = "\(r.kind.title) \(r.text) at \(r.time)"
        self.back = back ?? ""
    }
}

import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Changing and deleting a symptom entry in the browser, through the CLI's use cases
/// (`HealthJournal.editSymptom`, `deleteSymptom`, on the journal the borrowed connection lends:
/// `LentStore.records()`, `journal()`): how bad it was, when, the part of the day, the group,
/// what helped or made it worse, the note. Each lands back with an Undo.
enum SymptomEdits {
    /// The symptom entries' routes: the change page, the change saved, the entry deleted.
    static func routes(_ web: WebRoutes) -> RouteCollection<WebContext> {
        let routes = RouteCollection(context: WebContext.self)
        routes.get("/symptoms/:id/edit") { r, c in
            let id = c.parameters.get("id") ?? ""
            return try await web.page(r, c) { _, store, q, keys in try page(store: store, id: id, query: q, keys: keys) }
        }
        routes.post("/symptoms/edit") { r, c in try await web.undoable(r, c, save) }
        routes.post("/symptoms/delete") { r, c in try await web.undoable(r, c, delete) }
        return routes
    }

    /// The page that changes one entry (`symptom-edit.mustache`).
    struct EditPage: Sendable {
        struct SeverityChoice: Sendable {
            let value: String
            let word: String
            let explain: String
            let checked: Bool
        }

        struct PartChoice: Sendable {
            let value: String
            let label: String
            let selected: Bool
        }

        /// The form, nil when the entry is not there.
        struct Entry: Sendable {
            let entryID: String
            let severities: [SeverityChoice]
            let dateField: Field
            let timeField: Field
            let parts: [PartChoice]
            let lists: [SymptomLogPage.Suggested]
            let note: String
        }

        /// Where the forms land, and the Back links go.
        let back: String
        let missing: String?
        let entry: Entry?

        init(_ view: SymptomEditView, back: String) {
            self.back = back
            guard let e = view.entry else {
                missing = "This entry cannot be changed: it was deleted, or the address is not right."
                entry = nil
                return
            }
            missing = nil
            let local = e.at.iso8601Local
            var focus = Field.Focus()
            let dateField = Field(label: "Date", name: "date", value: String(local.prefix(10)), required: false, autocompleteOff: false, focus: &focus)
            let timeField = Field(label: "Time", name: "time", value: String(local.dropFirst(11).prefix(5)), required: false, autocompleteOff: false,
                                  focus: &focus)
            let choices = view.choices
            let lists = [("categories", choices.categories, "Group (category)", "category", e.category, nil),
                         ("relieving", choices.relieving, "What made it better", "relieved", e.relievedBy.joined(separator: ", "), "Separate with commas."),
                         ("aggravating", choices.aggravating, "What made it worse", "aggravated", e.aggravatedBy.joined(separator: ", "),
                          "Separate with commas.")].map { (id: String, values: [String], label: String, name: String, value: String, hint: String?) in
                SymptomLogPage.Suggested(listID: id, values: values,
                                         field: Field(label: label, name: name, value: value, required: false, list: id, hint: hint, focus: &focus))
            }
            entry = Entry(entryID: e.id.description,
                          severities: SymptomPages.severityWords.map { SeverityChoice(value: $0.0.description, word: $0.1, explain: $0.2, checked: $0.0 == e.severity) },
                          dateField: dateField, timeField: timeField,
                          parts: PartOfDay.allCases.map { PartChoice(value: $0.rawValue, label: $0.rawValue.capitalized, selected: $0 == e.timeOfDay) },
                          lists: lists, note: e.note ?? "")
        }
    }

    /// The edit page of one entry.
    static func page(store: LentStore, id: String, query: Form, keys: FormKeys) throws -> String {
        let view = try store.journal().symptomEditView(id)
        let title = view.entry.map { "Change: \($0.symptom)" } ?? "Change a symptom"
        return WebTemplates.render(PageFrame(title: title, path: "/journal", keys: keys, notice: Notice(query, back: "/journal"),
                                             page: EditPage(view, back: Page.back(query, else: "/journal"))), .symptomEdit)
    }

    /// A symptom form's fields (the edit page's, and the delete button's `id` and `back`); all
    /// optional, as a field left out is one not changed.
    struct Fields: Decodable, Sendable {
        var id: String?
        var back: String?
        var severity: String?
        var date: String?
        var time: String?
        var when: String?
        var category: String?
        var relieved: String?
        var aggravated: String?
        var note: String?
    }

    /// Saves the changed fields; lands on `back` with Undo (the entry as it was).
    static func save(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/journal")
        let id = form.id ?? ""
        do {
            let journal = try store.records()
            let old = try journal.symptomEntry(id)
            var changes = SymptomChanges()
            if let s = form.severity.flatMap(Severity.init(parsing:)), s != old.severity { changes.severity = s }
            changes.at = try journal.time(date: form.date, time: form.time, was: old.at)
            if let w = form.when.flatMap(PartOfDay.init(rawValue:)), w != old.timeOfDay { changes.when = w }
            if let c = form.category?.trimmingSpaces, !c.isEmpty, c != old.category { changes.category = c }
            func list(_ text: String?) -> [String]? {
                text.map { $0.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty } }
            }
            if let l = list(form.relieved), l != old.relievedBy { changes.relievedBy = l }
            if let l = list(form.aggravated), l != old.aggravatedBy { changes.aggravatedBy = l }
            if let n = form.note, n.trimmingSpaces != (old.note ?? "") { changes.note = n.trimmingSpaces }
            let e = try journal.editSymptom(id, changes)
            guard e != old else { return (Page.redirect(back, ok: "Nothing was changed."), nil) }
            return (Page.redirect(back, ok: "Changed: \(e.symptom), \(e.severity), \(e.shownPhrase)."), JournalUndo.restoreSymptom(old))
        } catch {
            let edit = "/symptoms/\(Page.percentEncode(id))/edit?back=\(Page.percentEncode(back))"
            return (Page.redirect(edit, error: "Not changed: \(WebJournal.message(error))"), nil)
        }
    }

    /// Deletes the entry; lands on `back` with Undo (the entry back, same id).
    static func delete(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let back = Page.back(form.back, else: "/journal")
        do {
            let journal = store.journal()
            let old = try journal.symptomEntry(form.id ?? "")
            let e = try journal.deleteSymptom(old.id.description)
            return (Page.redirect(back, ok: "Deleted: \(e.symptom), \(e.severity), \(e.shownPhrase)."), JournalUndo.restoreSymptom(old))
        } catch {
            return (Page.redirect(back, error: "Not deleted: \(WebJournal.message(error))"), nil)
        }
    }
}

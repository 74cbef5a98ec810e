import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Medications changed and removed in the browser: the list on /meds with Change and Remove,
/// and the change form. The same use cases as `healthspool med edit` and `med remove`
/// (`HealthJournal.editMedication`, `removeMedication`); doses and reminders stay linked to a
/// changed medication.
enum MedicationForms {
    /// What the form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var name = "", dose = "", otherNames = "", directions = "", prescriber = "", times = ""
        var problems = Problems()

        init(_ m: Medication) {
            name = m.name
            dose = m.dose
            otherNames = m.otherNames.joined(separator: ", ")
            directions = m.directions
            prescriber = m.prescriber
            times = m.times.map(\.description).joined(separator: ", ")
        }

        init(_ form: Fields) {
            name = form.name ?? ""
            dose = form.dose ?? ""
            otherNames = form.otherNames ?? ""
            directions = form.directions ?? ""
            prescriber = form.prescriber ?? ""
            times = form.times ?? ""
        }
    }

    /// The change form's fields: the medication (`id`) and its text fields as typed (the times
    /// as one text, "08:00, 20:00": a typo is said next to the field). All optional: a field
    /// left out is read as empty.
    struct Fields: Decodable, Sendable {
        var id: String?
        var name: String?
        var dose: String?
        var otherNames: String?
        var directions: String?
        var prescriber: String?
        var times: String?

        private enum CodingKeys: String, CodingKey {
            case id, name, dose, otherNames = "other_names", directions, prescriber, times
        }
    }

    /// The page that changes one medication (`med-edit.mustache`); without a form, it says the
    /// medication is not there any more.
    struct EditPage: Sendable {
        struct FormView: Sendable {
            let medicationID: Int64
            let fields: [Field]
        }

        let refused: String?
        let form: FormView?

        init(id: Int64?, typed: Typed?) {
            refused = typed?.problems.isEmpty == false ? "The medication was not changed." : nil
            form = id.flatMap { id in typed.map { FormView(medicationID: id, fields: Self.fields($0)) } }
        }

        static func fields(_ typed: Typed) -> [Field] {
            var focus = Field.Focus()
            let p = typed.problems
            return [
                Field(label: "Name", name: "name", value: typed.name, error: p["name"], focus: &focus),
                Field(label: "Dose (optional)", name: "dose", value: typed.dose, required: false, hint: "For example: 400 mg", focus: &focus),
                Field(label: "Other names (optional)", name: "other_names", value: typed.otherNames, required: false,
                      hint: "Brand names, separated by commas: Advil, Nurofen", error: p["other_names"], focus: &focus),
                Field(label: "How to take it (optional)", name: "directions", value: typed.directions, required: false, hint: "For example: with food",
                      focus: &focus),
                Field(label: "Times of day (optional)", name: "times", value: typed.times, required: false, short: true,
                      hint: "For example 08:00, 20:00. Reminders ring at their own times.", error: p["times"], focus: &focus),
                Field(label: "Prescribed by (optional)", name: "prescriber", value: typed.prescriber, required: false, focus: &focus),
            ]
        }
    }

    static func editPage(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let found = try Int64(query["id"] ?? "").flatMap { id in try store.records().medications().first { $0.id == id } }
        return editDocument(id: found?.id, typed: found.map(Typed.init), csrf: csrf)
    }

    static func editDocument(id: Int64?, typed: Typed?, csrf: FormKeys) -> String {
        WebTemplates.render(PageFrame(title: "Change a medication", path: "/meds", keys: csrf, page: EditPage(id: id, typed: typed)), .medEdit)
    }

    /// Changes the medication, or shows the form again with what was typed and what to change
    /// (422); Undo puts it back as it was.
    static func edit(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try store.records()
        guard let id = Int64(form.id ?? ""), let old = try journal.medications().first(where: { $0.id == id }) else {
            return (Page.redirect("/meds", error: "This medication is not there any more."), nil)
        }
        var typed = Typed(form)
        let name = typed.name.trimmingSpaces
        if name.isEmpty { typed.problems["name"] = "Type the medication’s name, for example Ibuprofen." }
        if name.contains(",") { typed.problems["name"] = "Type one name without commas; put other names in Other names." }
        let others = typed.otherNames.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        var times: [TimeOfDay] = []
        if !typed.times.trimmingSpaces.isEmpty {
            if let t = try? TimeOfDay.list(parsing: typed.times) { times = t } else {
                typed.problems["times"] = "Type times as hours and minutes, for example 08:00, 20:00."
            }
        }
        let meds = try journal.medications()
        for other in meds where other.id != id {
            if let taken = ([name] + others).first(where: { other.isNamed($0) }) {
                typed.problems[taken == name ? "name" : "other_names"] = "\(other.name) already has the name \(taken). Choose another."
            }
        }
        guard typed.problems.isEmpty else { return (Page.respond(.init(code: 422), editDocument(id: id, typed: typed, csrf: keys)), nil) }
        do {
            let m = try journal.editMedication(id, Medication(name: name, otherNames: others, dose: typed.dose, prescriber: typed.prescriber,
                                                              directions: typed.directions, times: times))
            return (Page.redirect("/meds", ok: "Changed: \(m.name)."), m == old ? nil : .reviseMedication(old))
        } catch { return (Page.redirect("/meds", error: WebJournal.message(error)), nil) }
    }

    /// Removes the medication and its logged doses; Undo puts all of it back.
    static func remove(_ ctx: Configuration, _ store: LentStore, _ form: EntryFields) throws -> (Response, JournalUndo?) {
        do {
            let removed = try store.records().removeMedicationKeeping(form.id ?? "")
            return (Page.redirect("/meds", ok: "Removed: \(removed.medication.name) and its logged doses."), .restoreMedication(removed))
        } catch { return (Page.redirect("/meds", error: WebJournal.message(error)), nil) }
    }
}

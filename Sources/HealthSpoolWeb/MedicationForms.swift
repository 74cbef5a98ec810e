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

        init(form: Form) {
            name = form["name"] ?? ""
            dose = form["dose"] ?? ""
            otherNames = form["other_names"] ?? ""
            directions = form["directions"] ?? ""
            prescriber = form["prescriber"] ?? ""
            times = form["times"] ?? ""
        }
    }

    static func editPage(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let journal = try HealthJournal(context: ctx)
        guard let id = Int64(query["id"] ?? ""), let m = try journal.medications().first(where: { $0.id == id }) else {
            var p = Page(title: "Change a medication", path: "/meds", csrf: csrf)
            p.raw("<p>This medication is not there any more.</p><p><a class=\"button\" href=\"/meds\">Back to medications</a></p>")
            return p.document()
        }
        return editDocument(id: m.id, typed: Typed(m), csrf: csrf)
    }

    static func editDocument(id: Int64, typed: Typed, csrf: FormKeys) -> String {
        var p = Page(title: "Change a medication", path: "/meds", csrf: csrf)
        if !typed.problems.isEmpty {
            p.raw("<p class=\"notice error\" role=\"alert\">The medication was not changed. See the message next to what needs changing.</p>")
        }
        p.form("/meds/edit", cssClass: "card") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(id)\">")
            p.field("Name", name: "name", value: typed.name, extra: "required autocomplete=\"off\"", error: typed.problems["name"])
            p.field("Dose (optional)", name: "dose", value: typed.dose, extra: "autocomplete=\"off\"", hint: "For example: 400 mg")
            p.field("Other names (optional)", name: "other_names", value: typed.otherNames, extra: "autocomplete=\"off\"",
                    hint: "Brand names, separated by commas: Advil, Nurofen", error: typed.problems["other_names"])
            p.field("How to take it (optional)", name: "directions", value: typed.directions, extra: "autocomplete=\"off\"", hint: "For example: with food")
            p.field("Times of day (optional)", name: "times", value: typed.times, extra: "autocomplete=\"off\" class=\"short\"",
                    hint: "For example 08:00, 20:00. Reminders ring at their own times.", error: typed.problems["times"])
            p.field("Prescribed by (optional)", name: "prescriber", value: typed.prescriber, extra: "autocomplete=\"off\"")
            p.raw("<button type=\"submit\">Save changes</button>")
        }
        p.raw("<p><a class=\"button secondary\" href=\"/meds\">Back without changing</a></p>")
        return p.document()
    }

    static func edit(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> Response {
        let journal = try HealthJournal(context: ctx)
        guard let id = Int64(form["id"] ?? ""), try journal.medications().contains(where: { $0.id == id }) else {
            return Page.redirect("/meds", error: "This medication is not there any more.")
        }
        var typed = Typed(form: form)
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
        guard typed.problems.isEmpty else { return Page.respond(.init(code: 422), editDocument(id: id, typed: typed, csrf: keys)) }
        do {
            let m = try journal.editMedication(id, Medication(name: name, otherNames: others, dose: typed.dose, prescriber: typed.prescriber,
                                                              directions: typed.directions, times: times))
            return Page.redirect("/meds", ok: "Changed: \(m.name).")
        } catch { return Page.redirect("/meds", error: WebJournal.message(error)) }
    }

    static func remove(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let m = try HealthJournal(context: ctx).removeMedication(form["id"] ?? "")
            return Page.redirect("/meds", ok: "Removed: \(m.name) and its logged doses.")
        } catch { return Page.redirect("/meds", error: WebJournal.message(error)) }
    }
}

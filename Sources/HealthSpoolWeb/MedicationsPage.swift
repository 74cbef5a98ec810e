import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The medications page (`/meds`, `meds.mustache`) from `MedicationsView`
/// (`HealthJournal.medicationsView`): "Taken now" in one action, today's doses with their time
/// to change, the medications with Change and Remove (`MedicationForms`), and adding one.
struct MedicationsPage: Sendable {
    struct Med: Sendable {
        let id: Int64
        let name: String
        /// The dose ("400 mg"), nil when none is set.
        let strength: String?
        /// "400 mg · also called Advil · with food · at 08:00 · from Dr Kim", nil when empty.
        let details: String?
    }

    let meds: [Med]
    let hasMeds: Bool
    let doses: DoseList?
    let nameField: Field
    let doseField: Field

    init(_ view: MedicationsView) {
        meds = view.medications.map { m in
            let details = [m.dose, m.otherNames.isEmpty ? "" : "also called " + m.otherNames.joined(separator: ", "), m.directions,
                           m.times.isEmpty ? "" : "at " + m.times.map(\.description).joined(separator: ", "),
                           m.prescriber.isEmpty ? "" : "from " + m.prescriber].filter { !$0.isEmpty }
            return Med(id: m.id, name: m.name, strength: m.dose.isEmpty ? nil : m.dose, details: details.isEmpty ? nil : details.joined(separator: " · "))
        }
        hasMeds = !meds.isEmpty
        doses = view.dosesToday.isEmpty ? nil : DoseList(view.dosesToday.map { ($0.dose, $0.medication?.name ?? "?") }, back: "/meds")
        var focus = Field.Focus()
        nameField = Field(label: "Name", name: "name", value: "", focus: &focus)
        doseField = Field(label: "Dose (optional)", name: "dose", value: "", required: false, autocompleteOff: false, hint: "For example: 400 mg",
                          focus: &focus)
    }

    static func render(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let page = MedicationsPage(try store.records().medicationsView(now: DaemonClock.now()))
        return WebTemplates.render(PageFrame(title: "Medications", path: "/meds", keys: csrf, notice: Notice(query, back: "/meds"), page: page), .meds)
    }
}

import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The second step of logging a symptom (`/symptoms/log`, `symptom-log.mustache`): the time is
/// now and the part of the day follows from it; group, factors and a note wait behind "Add
/// details", each with the journal's suggestions (`SymptomLogChoices`).
struct SymptomLogPage: Sendable {
    struct Option: Sendable {
        let value: String
        let label: String
    }

    /// A text field with its list of suggestions.
    struct Suggested: Sendable {
        let listID: String
        let values: [String]
        let field: Field
    }

    struct SeverityButton: Sendable {
        let value: String
        let weight: Int
        let word: String
        let explain: String
    }

    /// Nil: no symptom was chosen.
    let symptom: String?
    /// "09:15".
    let clock: String
    let part: String
    let parts: [Option]
    let lists: [Suggested]
    let severities: [SeverityButton]

    init(symptom: String?, choices: SymptomLogChoices?, now: Timestamp) {
        self.symptom = symptom
        let local = Format.local(now)
        clock = String(local.suffix(5))
        part = PartOfDay(hour: Int(local.dropFirst(11).prefix(2)) ?? 12).rawValue
        parts = PartOfDay.allCases.map { Option(value: $0.rawValue, label: $0.rawValue.capitalized) }
        var focus = Field.Focus()
        lists = [("categories", choices?.categories ?? [], "Group (category)", "category", "For example: heart. Leave empty to keep it where it is."),
                 ("relieving", choices?.relieving ?? [], "What made it better", "relieved", "For example: rest, tea. Separate with commas."),
                 ("aggravating", choices?.aggravating ?? [], "What made it worse", "aggravated", "For example: stairs. Separate with commas.")].map {
            id, values, label, name, hint in
            Suggested(listID: id, values: values,
                      field: Field(label: label, name: name, value: "", required: false, list: id, hint: hint, focus: &focus))
        }
        severities = SymptomPages.severityWords.map { SeverityButton(value: $0.0.description, weight: $0.0.weight, word: $0.1, explain: $0.2) }
    }
}

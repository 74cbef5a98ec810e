import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Logging a symptom in the browser in two or three actions from the start page: a symptom
/// button (or type another), a severity button, done. The time is now and the part of the
/// day follows from it; category, factors and a note wait behind "Add details".
enum SymptomPages {
    static let severityWords: [(Severity, String, String)] = [
        (.mild, "Mild", "I notice it"), (.moderate, "Moderate", "It bothers me"),
        (.severe, "Severe", "It stops me doing some things"), (.debilitating, "Debilitating", "I cannot do my usual things"),
    ]

    /// Second step (`symptom-log.mustache`): how bad it is (each a button that saves),
    /// optional details above.
    static func logPage(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        let symptom = (query["symptom"] ?? "").trimmingSpaces
        let page = symptom.isEmpty ? SymptomLogPage(symptom: nil, choices: nil, now: DaemonClock.now())
            : SymptomLogPage(symptom: symptom, choices: try store.journal().logChoices(), now: DaemonClock.now())
        return WebTemplates.render(PageFrame(title: symptom.isEmpty ? "Log a symptom" : "Log: \(symptom)", path: "/symptoms/log", keys: csrf,
                                             notice: Notice(query, back: "/symptoms/log"), page: page), .symptomLog)
    }

    /// The log form's fields (`symptom-log.mustache`).
    struct Fields: Decodable, Sendable {
        var symptom: String?
        var severity: String?
        var when: String?
        var category: String?
        var relieved: String?
        var aggravated: String?
        var note: String?
    }

    /// Saves the entry; lands on the journal page with the day's scores, and Undo.
    static func log(_ ctx: Configuration, _ store: LentStore, _ form: Fields) throws -> (Response, JournalUndo?) {
        let symptom = form.symptom ?? ""
        guard let severity = Severity(parsing: form.severity ?? "") else {
            return (Page.redirect("/", error: "Choose how bad it is: Mild, Moderate, Severe or Debilitating."), nil)
        }
        func list(_ text: String?) -> [String] {
            (text ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        func optional(_ text: String?) -> String? { text.map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 } }
        do {
            let log = SymptomLog(symptom: symptom, severity: severity, when: optional(form.when).flatMap(PartOfDay.init(rawValue:)),
                                 category: optional(form.category), relievedBy: list(form.relieved), aggravatedBy: list(form.aggravated),
                                 note: optional(form.note))
            let (e, _) = try store.journal().logSymptom(log)
            return (Page.redirect("/journal", ok: "Saved: \(e.symptom), \(e.severity), \(e.shownPhrase).",
                                  emergency: EmergencyLine.line(symptom: e.symptom, severity: e.severity) != nil), .deleteSymptom(e.id))
        } catch {
            return (Page.redirect("/", error: WebJournal.notSaved(error)), nil)
        }
    }
}

@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import Hummingbird

/// Logging a symptom in the browser in two or three actions from the start page: a symptom
/// button (or type another), a severity button, done. The time is now and the part of the
/// day follows from it; category, factors and a note wait behind "Add details".
enum SymptomPages {
    static let severityWords: [(Severity, String, String)] = [
        (.mild, "Mild", "I notice it"), (.moderate, "Moderate", "It bothers me"),
        (.severe, "Severe", "It stops me doing some things"), (.debilitating, "Debilitating", "I cannot do my usual things"),
    ]

    /// Second step: how bad it is (each a button that saves), optional details above.
    static func logPage(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let symptom = (query["symptom"] ?? "").trimmingSpaces
        var p = Page(title: symptom.isEmpty ? "Log a symptom" : "Log: \(symptom)", path: "/symptoms/log", csrf: csrf)
        p.notice(query)
        guard !symptom.isEmpty else {
            p.raw("<p>No symptom was chosen. <a href=\"/\">Back to the start page</a>.</p>")
            return p.document()
        }
        let journal = try WebJournal.open(ctx)
        let categories = try journal.categories()
        let factors = try journal.factorLists()
        let now = DaemonClock.now()
        let part = PartOfDay(hour: Int(Format.local(now).dropFirst(11).prefix(2)) ?? 12)
        p.form("/symptoms/log") { p in
            p.raw("<input type=\"hidden\" name=\"symptom\" value=\"\(Page.escape(symptom))\">")
            p.raw("<p>Logged for now: \(Page.escape(String(Format.local(now).suffix(5)))), \(part.rawValue).</p>")
            p.raw("<details id=\"symptom-details\"><summary>Add details (optional)</summary><p class=\"hint\">When, group, what helped, a note: fill them in before you choose how bad it is.</p>")
            p.raw("<div class=\"field\"><label for=\"f-when\">Part of the day</label><select id=\"f-when\" name=\"when\">")
            p.raw("<option value=\"\">Now: \(part.rawValue)</option>")
            for w in PartOfDay.allCases { p.raw("<option value=\"\(w.rawValue)\">\(w.rawValue.capitalized)</option>") }
            p.raw("</select></div>")
            datalist(&p, "categories", categories.map(\.name))
            p.field("Group (category)", name: "category", extra: "list=\"categories\" autocomplete=\"off\"",
                    hint: "For example: heart. Leave empty to keep it where it is.")
            datalist(&p, "relieving", factors.relieving)
            p.field("What made it better", name: "relieved", extra: "list=\"relieving\" autocomplete=\"off\"", hint: "For example: rest, tea. Separate with commas.")
            datalist(&p, "aggravating", factors.aggravating)
            p.field("What made it worse", name: "aggravated", extra: "list=\"aggravating\" autocomplete=\"off\"", hint: "For example: stairs. Separate with commas.")
            p.raw("<div class=\"field\"><label for=\"f-note\">Note</label><textarea id=\"f-note\" name=\"note\" rows=\"3\"></textarea></div>")
            p.raw("</details>")
            p.raw("<fieldset><legend>How bad is it?</legend><p class=\"hint\">Choosing one saves the entry.</p><div class=\"severities\">")
            for (s, word, explain) in severityWords {
                p.raw("<button type=\"submit\" name=\"severity\" value=\"\(s.description)\" class=\"severity s\(s.weight)\">\(word)<span>\(explain)</span></button>")
            }
            p.raw("</div></fieldset>")
        }
        p.raw("<p><a class=\"button secondary\" href=\"/\">Cancel: do not log it</a></p>")
        return p.document()
    }

    static func datalist(_ p: inout Page, _ id: String, _ values: [String]) {
        p.raw("<datalist id=\"\(id)\">")
        for v in values { p.raw("<option value=\"\(Page.escape(v))\"></option>") }
        p.raw("</datalist>")
    }

    /// Saves the entry; lands on the journal page with the day's scores, and Undo.
    static func log(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        let symptom = form["symptom"] ?? ""
        guard let severity = Severity(parsing: form["severity"] ?? "") else {
            return (Page.redirect("/", error: "Choose how bad it is: Mild, Moderate, Severe or Debilitating."), nil)
        }
        func list(_ name: String) -> [String] {
            (form[name] ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        func optional(_ name: String) -> String? { form[name].map(\.trimmingSpaces).flatMap { $0.isEmpty ? nil : $0 } }
        do {
            let log = SymptomLog(symptom: symptom, severity: severity, when: optional("when").flatMap(PartOfDay.init(rawValue:)),
                                 category: optional("category"), relievedBy: list("relieved"), aggravatedBy: list("aggravated"),
                                 note: optional("note"))
            let (e, _) = try WebJournal.open(ctx).logSymptom(log)
            return (Page.redirect("/journal", ok: "Saved: \(e.symptom), \(e.severity), at \(Format.local(e.at).suffix(5)).",
                                  emergency: EmergencyLine.line(symptom: e.symptom, severity: e.severity) != nil), .deleteSymptom(e.id))
        } catch {
            return (Page.redirect("/", error: WebJournal.notSaved(error)), nil)
        }
    }
}

@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon
import Hummingbird

/// The health journal's screens over the same use cases as the CLI (`HealthJournal`):
/// medications and "taken" in one action, removing a reminder (the reminders page and its forms:
/// `ReminderForms`; measurements: `MeasurePage`).
enum JournalPages {
    static func hub(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        var p = Page(title: "Journal", path: "/journal", csrf: csrf)
        p.notice(query)
        p.raw("<p>What would you like to note?</p><div class=\"tiles\">")
        p.raw("<a href=\"/#feel-h\">I have a symptom</a><a href=\"/notes\">Write or record a note</a>")
        p.raw("<a href=\"/meds\">I took a medication</a><a href=\"/measure\">I measured something</a><a href=\"/reminders\">Set a reminder</a>")
        p.raw("<a href=\"/lifestyle\">Exercise, water, coffee …</a><a href=\"/goals\">Set a goal</a>")
        p.raw("</div>")
        try JournalToday.render(ctx, &p)
        return p.document()
    }

    static func medications(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        var p = Page(title: "Medications", path: "/meds", csrf: csrf)
        p.notice(query)
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        let meds = try journal.medications()
        p.raw("<h2>Mark a dose as taken</h2>")
        if meds.isEmpty { p.raw("<p>No medications yet. Add one below.</p>") }
        for m in meds {
            p.form("/meds/take", cssClass: "card row") { p in
                p.raw("<input type=\"hidden\" name=\"id\" value=\"\(m.id)\"><p><strong>"); p.text(m.name); p.raw("</strong>")
                if !m.dose.isEmpty { p.raw(" – "); p.text(m.dose) }
                p.raw("</p><button type=\"submit\" aria-label=\"Taken: \(Page.escape(m.name))\">Taken now</button>")
            }
        }
        p.raw("<h2>Taken today</h2>")
        let doses = try journal.doses(on: journal.day(nil, now: now))
        if doses.isEmpty { p.raw("<p>Nothing logged today.</p>") } else { DoseEdits.list(doses.map { ($0.0, $0.1?.name ?? "?") }, back: "/meds", &p) }
        MedicationForms.list(meds, &p)
        p.raw("<h2>Add a medication</h2>")
        p.form("/meds/add") { p in
            p.field("Name", name: "name", extra: "required autocomplete=\"off\"")
            p.field("Dose (optional)", name: "dose", hint: "For example: 400 mg")
            p.raw("<button type=\"submit\">Add medication</button>")
        }
        return p.document()
    }

    /// Adds a medication; Undo removes it.
    static func addMedication(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        do {
            let m = try HealthJournal(context: ctx).addMedication(Medication(name: form["name"] ?? "", dose: form["dose"] ?? ""), now: DaemonClock.now())
            return (Page.redirect("/meds", ok: "Added \(m.name)."), .removeMedication(m.id))
        } catch { return (Page.redirect("/meds", error: WebJournal.message(error)), nil) }
    }

    /// Removes a reminder; Undo puts it back with its id and when it last rang.
    static func removeReminder(_ ctx: DaemonContext, _ form: Form) throws -> (Response, JournalUndo?) {
        do {
            let journal = try HealthJournal(context: ctx)
            let id = Int64(form["id"] ?? "") ?? -1
            let lastFired = try journal.lastFired(reminder: id)
            let r = try journal.removeReminder(id)
            return (Page.redirect("/reminders", ok: "Removed: \(r.name)."), .restoreReminder(r, lastFired: lastFired))
        } catch { return (Page.redirect("/reminders", error: WebJournal.message(error)), nil) }
    }
}

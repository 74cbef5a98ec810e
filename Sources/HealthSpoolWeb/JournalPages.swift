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
        if doses.isEmpty { p.raw("<p>Nothing logged today.</p>") } else {
            p.raw("<ul id=\"doses\">")
            for (d, m) in doses { p.raw("<li>"); p.text("\(Format.local(d.takenAt).suffix(5)) \(m?.name ?? "?")"); p.raw("</li>") }
            p.raw("</ul>")
        }
        MedicationForms.list(meds, &p)
        p.raw("<h2>Add a medication</h2>")
        p.form("/meds/add") { p in
            p.field("Name", name: "name", extra: "required autocomplete=\"off\"")
            p.field("Dose (optional)", name: "dose", hint: "For example: 400 mg")
            p.raw("<button type=\"submit\">Add medication</button>")
        }
        return p.document()
    }

    static func addMedication(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let m = try HealthJournal(context: ctx).addMedication(Medication(name: form["name"] ?? "", dose: form["dose"] ?? ""), now: DaemonClock.now())
            return Page.redirect("/meds", ok: "Added \(m.name).")
        } catch { return Page.redirect("/meds", error: WebJournal.message(error)) }
    }

    static func takeDose(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let now = DaemonClock.now()
            let (d, m) = try HealthJournal(context: ctx).takeDose(form["id"] ?? "", at: now)
            return Page.redirect(Page.back(form, else: "/meds"), ok: "Logged: \(m.name) taken at \(Format.local(d.takenAt).suffix(5)).")
        } catch { return Page.redirect(Page.back(form, else: "/meds"), error: WebJournal.message(error)) }
    }

    static func removeReminder(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let r = try HealthJournal(context: ctx).removeReminder(Int64(form["id"] ?? "") ?? -1)
            return Page.redirect("/reminders", ok: "Removed: \(r.name).")
        } catch { return Page.redirect("/reminders", error: WebJournal.message(error)) }
    }
}

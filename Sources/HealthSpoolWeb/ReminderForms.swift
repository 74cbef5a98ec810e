import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// The reminders page: the list, each rule in words and when it next rings ("Every other day at
/// 08:00 · Next: tomorrow 08:00"), and one form to add or change a reminder with every repeat
/// rule the CLI accepts (`RepeatFields`). The same use cases as `healthspool remind`
/// (`HealthJournal.addReminder`, `editReminder`, `reminderRows`).
enum ReminderForms {
    /// What a reminder form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var name = ""
        var times = "08:00"
        var start: String
        var med = ""
        var repeatFields: RepeatFields
        var problems = Problems()

        init(start: CivilDate) {
            self.start = start.description
            repeatFields = RepeatFields(rule: RecurrenceRule(.daily), start: start)
        }

        init(_ r: Reminder) {
            name = r.name
            times = r.times.map(\.description).joined(separator: ", ")
            start = r.start.description
            med = r.medicationID.map(String.init) ?? ""
            repeatFields = RepeatFields(rule: r.rule, start: r.start)
        }

        init(form: Form) {
            name = form["name"] ?? ""
            times = form["time"] ?? ""
            start = form["start"] ?? ""
            med = form["med"] ?? ""
            repeatFields = RepeatFields(form: form)
        }
    }

    static func page(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        return try render(journal, now: now, query: query, csrf: csrf, typed: Typed(start: journal.day(nil, now: now)))
    }

    static func render(_ journal: HealthJournal, now: Timestamp, query: Form, csrf: FormKeys, typed: Typed) throws -> String {
        var p = Page(title: "Reminders", path: "/reminders", csrf: csrf)
        p.notice(query)
        if !typed.problems.isEmpty {
            p.raw("<p class=\"notice error\" role=\"alert\">The reminder was not saved. See the message next to what needs changing.</p>")
        }
        let rows = try journal.reminderRows(now: now)
        p.raw("<section class=\"card\" aria-labelledby=\"reminders-h\"><h2 id=\"reminders-h\">Your reminders</h2>")
        if rows.isEmpty { p.raw("<p>No reminders yet. Add one below.</p>") } else {
            p.raw("<ul id=\"reminders\" class=\"entries\">")
            for row in rows { item(row, &p) }
            p.raw("</ul>")
        }
        p.raw("</section>")
        p.raw("<h2 id=\"add-h\">Add a reminder</h2>")
        form(&p, action: "/reminders/add", id: nil, typed: typed, meds: try journal.medications(), button: "Add reminder")
        return p.document()
    }

    /// One reminder: its name, its rule in words, when it next rings; Change and Remove.
    static func item(_ row: ReminderRow, _ p: inout Page) {
        let r = row.reminder
        p.raw("<li class=\"entry\" id=\"reminder-\(r.id)\"><div class=\"what\"><strong>"); p.text(r.name); p.raw("</strong>")
        if let m = row.medication { p.raw(" <span class=\"for\">("); p.text("for " + m); p.raw(")</span>") }
        p.raw("<br><span class=\"rule\">"); p.text(row.words); p.raw("</span><br><span class=\"ring\">"); p.text("Next: " + row.nextWords)
        p.raw("</span></div><div class=\"actions\"><a class=\"button secondary\" href=\"/reminders/edit?id=\(r.id)\" aria-label=\"Change reminder \(Page.escape(r.name))\">Change</a>")
        p.form("/reminders/remove", cssClass: "") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(r.id)\"><button type=\"submit\" class=\"secondary\" aria-label=\"Remove reminder \(Page.escape(r.name))\">Remove</button>")
        }
        p.raw("</div></li>")
    }

    /// The add or change form.
    static func form(_ p: inout Page, action: String, id: Int64?, typed: Typed, meds: [Medication], button: String) {
        p.form(action, cssClass: "card") { p in
            if let id { p.raw("<input type=\"hidden\" name=\"id\" value=\"\(id)\">") }
            p.field("What to remember", name: "name", value: typed.name, extra: "required autocomplete=\"off\"", hint: "For example: Take vitamin D",
                    error: typed.problems["name"])
            p.field("Time", name: "time", value: typed.times, extra: "required autocomplete=\"off\" class=\"short\"",
                    hint: "Hours and minutes, for example 08:00. For several times: 08:00, 20:00", error: typed.problems["time"])
            typed.repeatFields.render(&p, onceAllowed: false, problems: typed.problems)
            p.field("First day", name: "start", type: "date", value: typed.start, extra: "required", hint: "Every few days and every few weeks count from this day.",
                    error: typed.problems["start"])
            if !meds.isEmpty {
                p.raw("<div class=\"field\"><label for=\"f-med\">For a medication (optional)</label>")
                p.raw("<p class=\"hint\" id=\"f-med-hint\">The reminder then has a Taken button that logs a dose.</p>")
                p.raw("<select id=\"f-med\" name=\"med\" aria-describedby=\"f-med-hint\"><option value=\"\">None</option>")
                for m in meds {
                    p.raw("<option value=\"\(m.id)\"\(typed.med == String(m.id) ? " selected" : "")>"); p.text(m.name); p.raw("</option>")
                }
                p.raw("</select></div>")
            }
            p.raw("<button type=\"submit\">\(Page.escape(button))</button>")
        }
    }

    /// What a posted form asks for, or the problems to show next to its fields.
    static func read(_ form: Form, journal: HealthJournal, now: Timestamp) -> (Typed, (String, [TimeOfDay], RecurrenceRule, CivilDate, String?)?) {
        var typed = Typed(form: form)
        if typed.name.trimmingSpaces.isEmpty { typed.problems["name"] = "Type what to remember, for example Take vitamin D." }
        let times = try? TimeOfDay.list(parsing: typed.times)
        if times == nil { typed.problems["time"] = "Type the time as hours and minutes, for example 08:00." }
        let start = CivilDate(parsing: typed.start.trimmingSpaces)
        if start == nil { typed.problems["start"] = "Choose the first day, for example today." }
        var rule: RecurrenceRule?
        switch typed.repeatFields.rule(onceAllowed: false) {
        case .success(let r): rule = r
        case .failure(let problems): typed.problems.merge(problems)
        }
        guard typed.problems.isEmpty, let times, let start, let rule else { return (typed, nil) }
        return (typed, (typed.name, times, rule, start, typed.med.isEmpty ? nil : typed.med))
    }

    /// Adds a reminder; Undo removes it.
    static func add(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        let (typed, asked) = read(form, journal: journal, now: now)
        guard let (name, times, rule, start, med) = asked else {
            return (Page.respond(.init(code: 422), try render(journal, now: now, query: Form(""), csrf: keys, typed: typed)), nil)
        }
        do {
            let r = try journal.addReminder(name: name, kind: nil, times: times, rule: rule, start: start, medication: med, now: now)
            return (Page.redirect("/reminders", ok: "Reminder set: \(r.name). \(RecurrenceWords.rule(r.rule, times: r.times, start: r.start))."),
                    .removeReminder(r.id))
        } catch { return (Page.redirect("/reminders", error: WebJournal.message(error)), nil) }
    }

    static func editPage(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let journal = try HealthJournal(context: ctx)
        guard let id = Int64(query["id"] ?? ""), let r = try? journal.reminder(id) else {
            var p = Page(title: "Change a reminder", path: "/reminders", csrf: csrf)
            p.raw("<p>This reminder is not there any more.</p><p><a class=\"button\" href=\"/reminders\">Back to reminders</a></p>")
            return p.document()
        }
        return editDocument(r, typed: Typed(r), meds: try journal.medications(), csrf: csrf)
    }

    static func editDocument(_ r: Reminder, typed: Typed, meds: [Medication], csrf: FormKeys) -> String {
        var p = Page(title: "Change a reminder", path: "/reminders", csrf: csrf)
        if !typed.problems.isEmpty {
            p.raw("<p class=\"notice error\" role=\"alert\">The reminder was not changed. See the message next to what needs changing.</p>")
        }
        form(&p, action: "/reminders/edit", id: r.id, typed: typed, meds: meds, button: "Save changes")
        p.raw("<p><a class=\"button secondary\" href=\"/reminders\">Back without changing</a></p>")
        return p.document()
    }

    static func edit(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> Response {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        guard let id = Int64(form["id"] ?? ""), let old = try? journal.reminder(id) else {
            return Page.redirect("/reminders", error: "This reminder is not there any more.")
        }
        let (typed, asked) = read(form, journal: journal, now: now)
        guard let (name, times, rule, start, med) = asked else {
            return Page.respond(.init(code: 422), editDocument(old, typed: typed, meds: try journal.medications(), csrf: keys))
        }
        do {
            let r = try journal.editReminder(id, name: name, times: times, rule: rule, start: start, medication: med, now: now)
            return Page.redirect("/reminders", ok: "Changed: \(r.name). \(RecurrenceWords.rule(r.rule, times: r.times, start: r.start)).")
        } catch { return Page.redirect("/reminders", error: WebJournal.message(error)) }
    }
}

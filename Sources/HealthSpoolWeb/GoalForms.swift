import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Goals in the browser: every goal with how often it applies, and a form to add one — one-off
/// or repeating (`RepeatFields`), checked off by hand or measured from the data ("10,000 steps a
/// day") — and to remove one. The same use cases as `healthspool goal` (`HealthJournal.addGoal`,
/// `removeGoal`, `goals(on:)`).
enum GoalForms {
    /// The measured kinds offered, by registry name: what the day's data adds up to.
    static let measured: [(type: String, words: String, example: String)] = [
        ("stepCount", "Steps", "10000"), ("exerciseTime", "Exercise minutes", "30"), ("standHours", "Stand hours", "12"),
        ("flightsClimbed", "Flights climbed", "10"), ("distanceWalkingRunning", "Walking + running distance (km)", "5"),
        ("activeEnergyBurned", "Active energy (kcal)", "500"),
    ]

    /// What the form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var name = ""
        var type = ""
        var target = ""
        var repeatFields: RepeatFields
        var problems = Problems()

        init(today: CivilDate) { repeatFields = RepeatFields(rule: nil, start: today) }
        init(form: Form) {
            name = form["name"] ?? ""
            type = form["type"] ?? ""
            target = form["target"] ?? ""
            repeatFields = RepeatFields(form: form)
        }
    }

    static func page(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        return try render(journal, now: now, query: query, csrf: csrf, typed: Typed(today: journal.day(nil, now: now)), style: NumberStyle(environment: ctx.environment))
    }

    static func render(_ journal: HealthJournal, now: Timestamp, query: Form, csrf: FormKeys, typed: Typed, style: NumberStyle) throws -> String {
        var p = Page(title: "Goals", path: "/goals", csrf: csrf)
        p.notice(query)
        if !typed.problems.isEmpty {
            p.raw("<p class=\"notice error\" role=\"alert\">The goal was not saved. See the message next to what needs changing.</p>")
        }
        let today = try journal.day(nil, now: now)
        let goals = try journal.goals(on: today, now: now)
        p.raw("<section class=\"card\" aria-labelledby=\"all-goals-h\"><h2 id=\"all-goals-h\">Your goals</h2>")
        if goals.isEmpty { p.raw("<p>No goals yet. Add one below.</p>") } else {
            p.raw("<ul id=\"all-goals\" class=\"entries\">")
            for g in goals { item(g, style: style, &p) }
            p.raw("</ul><p><a class=\"button secondary\" href=\"/journal#goals-h\">Check off today’s goals on the journal page</a></p>")
        }
        p.raw("</section><h2 id=\"add-goal-h\">Add a goal</h2>")
        form(&p, typed: typed)
        return p.document()
    }

    /// One goal: its name, how often, what it is measured by, whether it is done today; Remove.
    static func item(_ g: GoalStatus, style: NumberStyle, _ p: inout Page) {
        let goal = g.goal
        p.raw("<li class=\"entry\" id=\"goal-\(goal.id)\"><div class=\"what\"><strong>"); p.text(goal.name); p.raw("</strong><br><span class=\"rule\">")
        p.text(RecurrenceWords.rule(goal.rule, start: goal.start))
        if let type = goal.type, let target = goal.target {
            p.text(" · " + style.number(target, digits: 1) + " " + (measured.first { $0.type == type }?.words ?? Format.typeName(type)).lowercased() + " a day, from your data")
        }
        p.raw("</span><br><span class=\"ring\">")
        p.text(g.done != nil ? "Done" + (goal.rule == nil ? "" : " today") : g.applies ? "Not done yet today" : "Not due today")
        p.raw("</span></div><div class=\"actions\">")
        p.form("/goals/remove", cssClass: "") { p in
            p.raw("<input type=\"hidden\" name=\"id\" value=\"\(goal.id)\"><button type=\"submit\" class=\"secondary\" aria-label=\"Remove goal \(Page.escape(goal.name))\">Remove</button>")
        }
        p.raw("</div></li>")
    }

    static func form(_ p: inout Page, typed: Typed) {
        p.form("/goals/add", cssClass: "card") { p in
            p.field("Your goal", name: "name", value: typed.name, extra: "required autocomplete=\"off\"", hint: "For example: Walk 10,000 steps, or Physio exercises",
                    error: typed.problems["name"])
            typed.repeatFields.render(&p, onceAllowed: true, problems: typed.problems)
            p.raw("<fieldset><legend>Checked off by your data (optional)</legend>")
            p.raw("<div class=\"field\"><label for=\"f-type\">Measured by</label>")
            if let e = typed.problems["type"] { p.raw("<p class=\"error\" id=\"f-type-error\">"); p.text(e); p.raw("</p>") }
            p.raw("<p class=\"hint\" id=\"f-type-hint\">Leave at Nothing to check it off yourself.</p>")
            p.raw("<select id=\"f-type\" name=\"type\" aria-describedby=\"\(typed.problems["type"] != nil ? "f-type-error " : "")f-type-hint\"")
            if typed.problems["type"] != nil { p.raw(" aria-invalid=\"true\"") }
            p.raw("><option value=\"\">Nothing: I check it off</option>")
            for m in measured { p.raw("<option value=\"\(m.type)\"\(typed.type == m.type ? " selected" : "")>\(Page.escape(m.words))</option>") }
            p.raw("</select></div>")
            p.field("Target for the day", name: "target", value: typed.target, extra: "inputmode=\"decimal\" autocomplete=\"off\" class=\"short\"",
                    hint: "A number, for example 10000 steps", error: typed.problems["target"])
            p.raw("</fieldset><button type=\"submit\">Add goal</button>")
        }
    }

    /// Adds the goal, or shows the form again with what was typed and what to change (422).
    static func add(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        let journal = try HealthJournal(context: ctx)
        let now = DaemonClock.now()
        var typed = Typed(form: form)
        if typed.name.trimmingSpaces.isEmpty { typed.problems["name"] = "Type your goal, for example Walk 10,000 steps." }
        var rule: RecurrenceRule?
        switch typed.repeatFields.rule(onceAllowed: true) {
        case .success(let r): rule = r
        case .failure(let problems): typed.problems.merge(problems)
        }
        let type = typed.type.isEmpty ? nil : typed.type
        var target: Double?
        let targetText = typed.target.trimmingSpaces
        if let type {
            if measured.first(where: { $0.type == type }) == nil { typed.problems["type"] = "Choose from the list." }
            if targetText.isEmpty {
                typed.problems["target"] = "Type the number to reach in a day, for example \(measured.first { $0.type == type }?.example ?? "10000")."
            } else if let v = MeasurementEntry.plainNumber(targetText.filter { $0 != " " }), v > 0 {
                target = v
            } else {
                typed.problems["target"] = "Type only the number, for example 10000."
            }
        } else if !targetText.isEmpty {
            typed.problems["type"] = "Choose what the target counts, for example Steps, or clear the target."
        }
        guard typed.problems.isEmpty else {
            return (Page.respond(.init(code: 422), try render(journal, now: now, query: Form(""), csrf: keys, typed: typed,
                                                               style: NumberStyle(environment: ctx.environment))), nil)
        }
        do {
            let g = try journal.addGoal(name: typed.name, rule: rule, start: nil, type: type, target: target, now: now)
            return (Page.redirect("/goals", ok: "Goal added: \(g.name). \(RecurrenceWords.rule(g.rule, start: g.start))."), .removeGoal(g.id))
        } catch { return (Page.redirect("/goals", error: WebJournal.message(error)), nil) }
    }

    /// Removes a goal.
    static func remove(_ ctx: DaemonContext, _ form: Form) throws -> Response {
        do {
            let journal = try HealthJournal(context: ctx)
            let id = Int64(form["id"] ?? "") ?? -1
            let now = DaemonClock.now()
            let name = try journal.goals(on: journal.day(nil, now: now), now: now).first { $0.goal.id == id }?.goal.name
            try journal.removeGoal(id)
            return Page.redirect("/goals", ok: "Removed: \(name ?? "the goal").")
        } catch { return Page.redirect("/goals", error: WebJournal.message(error)) }
    }
}

import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Lifestyle factors (requirements 10–12) in the browser: a form to log one — what (exercise,
/// water, coffee, … or the person's own), how much (an amount with its unit, or a level) and
/// the part of the day — and the last week's entries shown back. The same use case as
/// `healthspool lifestyle log` (`JournalUseCases.logLifestyle`).
enum LifestylePage {
    /// How many days back the list goes.
    static let listDays = 7

    /// What the form holds: typed values, kept when it comes back with errors.
    struct Typed {
        var factor = ""
        var other = ""
        var amount = ""
        var unit = ""
        var level = ""
        var when = ""
        var note = ""
        var problems = Problems()

        init() {}
        init(form: Form) {
            factor = form["factor"] ?? ""
            other = form["other"] ?? ""
            amount = form["amount"] ?? ""
            unit = form["unit"] ?? ""
            level = form["level"] ?? ""
            when = form["when"] ?? ""
            note = form["note"] ?? ""
        }
    }

    static let levelWords: [(String, String)] = [("", "Not given"), ("none", "None"), ("low", "Low"), ("moderate", "Moderate"), ("high", "High")]
    static let whenWords: [(String, String)] = [("", "Now (from the time)"), ("morning", "Morning"), ("afternoon", "Afternoon"),
                                                ("evening", "Evening"), ("night", "Night")]

    static func page(_ ctx: DaemonContext, query: Form, csrf: FormKeys) throws -> String {
        try render(WebJournal.open(ctx), query: query, csrf: csrf, typed: Typed())
    }

    static func render(_ journal: JournalUseCases, query: Form, csrf: FormKeys, typed: Typed) throws -> String {
        var p = Page(title: "Lifestyle", path: "/lifestyle", csrf: csrf)
        p.notice(query)
        if !typed.problems.isEmpty {
            p.raw("<p class=\"notice error\" role=\"alert\">It was not saved. See the message next to what needs changing.</p>")
        }
        p.raw("<p>Note what you did or had: exercise, water, coffee, stress, sleep, or anything of your own.</p>")
        form(&p, typed: typed, factors: try journal.factorLists().lifestyle)
        recent(journal, &p)
        return p.document()
    }

    static func form(_ p: inout Page, typed: Typed, factors: [String]) {
        p.form("/lifestyle/log", cssClass: "card") { p in
            if let e = typed.problems["factor"] { p.raw("<p class=\"error\" id=\"factor-error\">"); p.text(e); p.raw("</p>") }
            p.raw("<fieldset id=\"factor\"><legend>What</legend>")
            p.raw("<div class=\"day-boxes\">")
            for (i, f) in factors.enumerated() {
                let id = "factor-\(i)"
                p.raw("<div class=\"check\"><input type=\"radio\" id=\"\(id)\" name=\"factor\" value=\"\(Page.escape(f))\"\(typed.factor == f ? " checked" : "")")
                if typed.problems["factor"] != nil { p.raw(" aria-invalid=\"true\" aria-describedby=\"factor-error\"") }
                p.raw("><label for=\"\(id)\">"); p.text(f.prefix(1).uppercased() + f.dropFirst()); p.raw("</label></div>")
            }
            p.raw("</div></fieldset>")
            p.field("Or something else", name: "other", value: typed.other, extra: "autocomplete=\"off\"", hint: "For example: walk with the dog",
                    error: typed.problems["other"])
            p.raw("<fieldset><legend>How much (optional)</legend><div class=\"row\">")
            p.field("Amount", name: "amount", value: typed.amount, extra: "inputmode=\"decimal\" autocomplete=\"off\" class=\"short\"",
                    hint: "A number, for example 2", error: typed.problems["amount"])
            p.field("Unit", name: "unit", value: typed.unit, extra: "autocomplete=\"off\" class=\"short\"", hint: "cups, glasses, minutes …",
                    error: typed.problems["unit"])
            p.raw("</div><div class=\"field\"><label for=\"f-level\">Or a level</label>")
            if let e = typed.problems["level"] { p.raw("<p class=\"error\" id=\"f-level-error\">"); p.text(e); p.raw("</p>") }
            p.raw("<select id=\"f-level\" name=\"level\"")
            if typed.problems["level"] != nil { p.raw(" aria-invalid=\"true\" aria-describedby=\"f-level-error\"") }
            p.raw(">")
            for (v, w) in levelWords { p.raw("<option value=\"\(v)\"\(typed.level == v ? " selected" : "")>\(w)</option>") }
            p.raw("</select></div></fieldset>")
            p.raw("<div class=\"field\"><label for=\"f-when\">When</label><select id=\"f-when\" name=\"when\">")
            for (v, w) in whenWords { p.raw("<option value=\"\(v)\"\(typed.when == v ? " selected" : "")>\(w)</option>") }
            p.raw("</select></div>")
            p.field("Note (optional)", name: "note", value: typed.note, extra: "autocomplete=\"off\"")
            p.raw("<button type=\"submit\">Save</button>")
        }
    }

    /// The last week's entries, newest day first.
    static func recent(_ journal: JournalUseCases, _ p: inout Page) {
        p.raw("<section class=\"card\" aria-labelledby=\"lifestyle-h\" id=\"lifestyle-list\"><h2 id=\"lifestyle-h\">What you noted this week</h2>")
        let today = journal.today
        var any = false
        for back in 0..<Int64(listDays) {
            let day = CivilDate(daysSinceEpoch: today.daysSinceEpoch - back)
            let entries = ((try? journal.lifestyle(on: day)) ?? []).filter { !$0.deleted }
            guard !entries.isEmpty else { continue }
            any = true
            p.raw("<h3>"); p.text(back == 0 ? "Today" : back == 1 ? "Yesterday" : DayStrip.long(day)); p.raw("</h3><ul class=\"readings\">")
            for e in entries.sorted(by: { $0.at.millis > $1.at.millis }) {
                p.raw("<li class=\"editable\" data-entry=\"\(e.id)\"><span class=\"what\">"); p.text(line(e)); p.raw("</span>")
                Edits.buttons(&p, edit: "/lifestyle/\(e.id)/edit?back=/lifestyle", delete: "/lifestyle/delete", fields: [("id", e.id.description)],
                              what: "\(e.factor) at \(Format.local(e.at).suffix(5))", back: "/lifestyle")
                p.raw("</li>")
            }
            p.raw("</ul>")
        }
        if !any { p.raw("<p>Nothing noted in the last \(listDays) days.</p>") }
        p.raw("</section>")
    }

    /// "08:15 Coffee: 2 cups (morning) – with milk".
    static func line(_ e: LifestyleEntry) -> String {
        var s = String(Format.local(e.at).suffix(5)) + " " + e.factor.prefix(1).uppercased() + e.factor.dropFirst()
        switch e.measure {
        case .amount(let v, let unit)?: s += ": " + SampleIdentity.canonicalNumber(v) + (unit.isEmpty ? "" : " " + unit)
        case .level(let l)?: s += ": " + l.rawValue + " level"
        case nil: break
        }
        s += " (" + e.timeOfDay.rawValue + ")"
        if let n = e.note { s += " – " + n }
        return s
    }

    /// Logs the factor, or shows the form again with what was typed and what to change (422).
    static func log(_ ctx: DaemonContext, _ form: Form, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        var typed = Typed(form: form)
        let factor = typed.other.trimmingSpaces.isEmpty ? typed.factor.trimmingSpaces : typed.other.trimmingSpaces
        if factor.isEmpty { typed.problems["factor"] = "Choose what you want to note, or type it under Or something else." }
        if factor.count > 100 { typed.problems["other"] = "Use at most 100 letters." }
        var measure: LifestyleMeasure?
        let amountText = typed.amount.trimmingSpaces
        if !amountText.isEmpty {
            if let v = MeasurementEntry.plainNumber(amountText) { measure = .amount(v, unit: typed.unit.trimmingSpaces) } else {
                typed.problems["amount"] = "Type only the number, for example 2."
            }
        } else if !typed.unit.trimmingSpaces.isEmpty {
            typed.problems["amount"] = "Type how much, for example 2, or leave the unit empty."
        }
        if !typed.level.isEmpty {
            if let l = LifestyleLevel(parsing: typed.level) {
                if measure != nil { typed.problems["level"] = "Give an amount or a level, not both. Set the level to Not given, or clear the amount." }
                measure = .level(l)
            } else {
                typed.problems["level"] = "Choose a level from the list."
            }
        }
        let journal = try WebJournal.open(ctx)
        guard typed.problems.isEmpty else {
            return (Page.respond(.init(code: 422), try render(journal, query: Form(""), csrf: keys, typed: typed)), nil)
        }
        do {
            let note = typed.note.trimmingSpaces
            let e = try journal.logLifestyle(LifestyleLog(factor: factor, measure: measure, when: PartOfDay(parsing: typed.when),
                                                          note: note.isEmpty ? nil : note))
            return (Page.redirect("/lifestyle", ok: "Saved: " + line(e) + "."), .deleteLifestyle(e.id))
        } catch { return (Page.redirect("/lifestyle", error: WebJournal.notSaved(error)), nil) }
    }
}

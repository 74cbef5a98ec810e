import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import Hummingbird

/// Lifestyle factors (requirements 10–12) in the browser: a form to log one — what (exercise,
/// water, coffee, … or the person's own), how much (an amount with its unit, or a level) and
/// the part of the day — and the last week's entries shown back. The same use case as
/// `healthspool lifestyle log` (`HealthJournal.logLifestyle`). The page (`/lifestyle`,
/// `lifestyle.mustache`) is made from `LifestyleView` and what was typed.
struct LifestylePage: Sendable {
    /// A choice of a radio group or a list.
    struct Choice: Sendable {
        let id: String
        let value: String
        let label: String
        let selected: Bool
        /// Marked invalid (described by the group's error).
        let invalid: Bool
    }

    /// One day of the list.
    struct Day: Sendable {
        struct Row: Sendable {
            let entry: String
            let what: String
            let actions: EntryActions
        }

        /// "Today", "Yesterday", "Monday 23 November".
        let title: String
        let rows: [Row]
    }

    let hasProblems: Bool
    let factorError: String?
    let factors: [Choice]
    let otherField: Field
    let amountField: Field
    let unitField: Field
    let levelError: String?
    let levels: [Choice]
    let whens: [Choice]
    let noteField: Field
    let days: [Day]
    let listDays: Int

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
        init(_ form: Fields) {
            factor = form.factor ?? ""
            other = form.other ?? ""
            amount = form.amount ?? ""
            unit = form.unit ?? ""
            level = form.level ?? ""
            when = form.when ?? ""
            note = form.note ?? ""
        }
    }

    /// The log form's fields: a factor chosen or typed (`other`), an amount as typed (a typo
    /// is said next to the field) with its unit, or a level, the part of the day and a note.
    /// All optional: a field left out is read as empty.
    struct Fields: Decodable, Sendable {
        var factor: String?
        var other: String?
        var amount: String?
        var unit: String?
        var level: String?
        var when: String?
        var note: String?
    }

    static let levelWords: [(String, String)] = [("", "Not given"), ("none", "None"), ("low", "Low"), ("moderate", "Moderate"), ("high", "High")]
    static let whenWords: [(String, String)] = [("", "Now (from the time)"), ("morning", "Morning"), ("afternoon", "Afternoon"),
                                                ("evening", "Evening"), ("night", "Night")]

    init(_ view: LifestyleView, typed: Typed) {
        let problems = typed.problems
        hasProblems = !problems.isEmpty
        factorError = problems["factor"]
        factors = view.factors.enumerated().map { i, f in
            Choice(id: "factor-\(i)", value: f, label: f.prefix(1).uppercased() + f.dropFirst(), selected: typed.factor == f, invalid: problems["factor"] != nil)
        }
        var focus = Field.Focus()
        otherField = Field(label: "Or something else", name: "other", value: typed.other, required: false, hint: "For example: walk with the dog",
                           error: problems["other"], focus: &focus)
        amountField = Field(label: "Amount", name: "amount", value: typed.amount, required: false, inputmode: "decimal", short: true,
                            hint: "A number, for example 2", error: problems["amount"], focus: &focus)
        unitField = Field(label: "Unit", name: "unit", value: typed.unit, required: false, short: true, hint: "cups, glasses, minutes …",
                          error: problems["unit"], focus: &focus)
        levelError = problems["level"]
        levels = Self.levelWords.map { Choice(id: "", value: $0.0, label: $0.1, selected: typed.level == $0.0, invalid: false) }
        whens = Self.whenWords.map { Choice(id: "", value: $0.0, label: $0.1, selected: typed.when == $0.0, invalid: false) }
        noteField = Field(label: "Note (optional)", name: "note", value: typed.note, required: false, focus: &focus)
        days = view.days.map { back, day, entries in
            Day(title: back == 0 ? "Today" : back == 1 ? "Yesterday" : DayStrip.long(day), rows: entries.map { e in
                Day.Row(entry: e.id.description, what: Self.line(e),
                        actions: EntryActions(edit: "/lifestyle/\(e.id)/edit?back=/lifestyle", delete: "/lifestyle/delete",
                                              fields: [Hidden(name: "id", value: e.id.description)],
                                              subject: "\(e.factor) at \(Format.local(e.at).suffix(5))", back: "/lifestyle"))
            })
        }
        listDays = Self.listDays
    }

    static func page(store: LentStore, query: Form, csrf: FormKeys) throws -> String {
        try render(store.journal(), query: query, csrf: csrf, typed: Typed())
    }

    static func render(_ journal: HealthJournal, query: Form, csrf: FormKeys, typed: Typed) throws -> String {
        let page = LifestylePage(try journal.lifestyleView(days: listDays), typed: typed)
        return WebTemplates.render(PageFrame(title: "Lifestyle", path: "/lifestyle", keys: csrf, notice: Notice(query, back: "/lifestyle"), page: page),
                                   .lifestyle)
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
    static func log(_ ctx: Configuration, _ store: LentStore, _ form: Fields, _ keys: FormKeys) throws -> (Response, JournalUndo?) {
        var typed = Typed(form)
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
        let journal = try store.journal()
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

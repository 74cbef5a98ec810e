import HealthSpoolCore

/// The repeat choice of the reminder and goal forms: every rule the CLI's `RepeatOptions`
/// accepts, as radio buttons with their numbers beside them (every day; every N days; chosen
/// weekdays every N weeks; a day of the month every N months), and for goals "Only once".
/// Read back into a `RecurrenceRule`, or into what to say next to each field.
struct RepeatFields {
    /// The form's field names.
    static let choice = "repeat", everyDays = "every_days", weekday = "weekday", everyWeeks = "every_weeks",
               monthDay = "month_day", everyMonths = "every_months"

    /// What the fields hold: typed values (kept when the form comes back with an error).
    var values: [String: String]
    var weekdays: Set<Weekday>

    /// The fields for a rule (nil: "Only once" where offered, else every day); `start` gives a
    /// monthly rule's default day.
    init(rule: RecurrenceRule?, start: CivilDate) {
        weekdays = Set(rule?.weekdays ?? [])
        values = [Self.everyDays: "2", Self.everyWeeks: "1", Self.monthDay: String(rule?.monthDay ?? start.day), Self.everyMonths: "1"]
        guard let rule else { values[Self.choice] = "once"; return }
        switch rule.frequency {
        case .daily:
            values[Self.choice] = rule.interval == 1 ? "daily" : "days"
            if rule.interval > 1 { values[Self.everyDays] = String(rule.interval) }
        case .weekly:
            values[Self.choice] = "weeks"
            values[Self.everyWeeks] = String(rule.interval)
            if weekdays.isEmpty, let d = Weekday(number: start.weekday) { weekdays = [d] }
        case .monthly:
            values[Self.choice] = "month"
            values[Self.everyMonths] = String(rule.interval)
        }
    }

    /// The fields as a form posted them.
    init(form: Form) {
        values = [:]
        for name in [Self.choice, Self.everyDays, Self.everyWeeks, Self.monthDay, Self.everyMonths] { values[name] = form[name] ?? "" }
        weekdays = Set(form.all(Self.weekday).compactMap { Weekday(rawValue: $0) })
    }

    /// The rule chosen (nil: only once), or what to say next to each field that needs it.
    func rule(onceAllowed: Bool) -> Result<RecurrenceRule?, Problems> {
        var problems = Problems()
        func number(_ name: String, _ range: ClosedRange<Int>, _ example: String) -> Int? {
            let text = (values[name] ?? "").trimmingSpaces
            if let n = Int(text), range.contains(n) { return n }
            problems[name] = "Type a whole number from \(range.lowerBound) to \(range.upperBound), for example \(example)."
            return nil
        }
        let rule: RecurrenceRule?
        switch values[Self.choice] ?? "" {
        case "once" where onceAllowed: rule = nil
        case "daily", "": rule = RecurrenceRule(.daily)
        case "days": rule = number(Self.everyDays, 1...1000, "2").map { RecurrenceRule(.daily, interval: $0) }
        case "weeks":
            let n = number(Self.everyWeeks, 1...1000, "1")
            if weekdays.isEmpty { problems[Self.weekday] = "Choose at least one day of the week." }
            rule = n.flatMap { weekdays.isEmpty ? nil : RecurrenceRule(.weekly, interval: $0, weekdays: Array(weekdays)) }
        case "month":
            let day = number(Self.monthDay, 1...31, "15")
            let n = number(Self.everyMonths, 1...1000, "1")
            rule = day.flatMap { d in n.map { RecurrenceRule(.monthly, interval: $0, monthDay: d) } }
        default:
            problems[Self.choice] = "Choose how often it repeats."
            rule = nil
        }
        return problems.isEmpty ? .success(rule) : .failure(problems)
    }

    /// The fieldset: a radio button per kind of repeat, its numbers and days under it.
    func render(_ p: inout Page, onceAllowed: Bool, problems: Problems) {
        let chosen = values[Self.choice].flatMap { $0.isEmpty ? nil : $0 } ?? (onceAllowed ? "once" : "daily")
        if let e = problems[Self.choice] { p.raw("<p class=\"error\" id=\"repeat-error\">"); p.text(e); p.raw("</p>") }
        p.raw("<fieldset class=\"repeat\" id=\"repeat\"><legend>How often</legend>")
        func radio(_ p: inout Page, _ value: String, _ label: String) {
            let id = "repeat-" + value
            p.raw("<div class=\"check\"><input type=\"radio\" id=\"\(id)\" name=\"\(Self.choice)\" value=\"\(value)\"\(value == chosen ? " checked" : "")>")
            p.raw("<label for=\"\(id)\">"); p.text(label); p.raw("</label></div>")
        }
        func number(_ p: inout Page, _ label: String, _ name: String, hint: String? = nil) {
            p.field(label, name: name, value: values[name] ?? "", extra: "inputmode=\"numeric\" autocomplete=\"off\" class=\"short\"", hint: hint,
                    error: problems[name])
        }
        if onceAllowed { radio(&p, "once", "Only once") }
        radio(&p, "daily", "Every day")
        radio(&p, "days", "Every few days")
        radio(&p, "weeks", "On days of the week")
        radio(&p, "month", "Once a month")
        // The numbers and days of each choice below the choices (a group of radio buttons
        // holds only them, for screen readers).
        p.raw("</fieldset><div class=\"sub\"><p class=\"for\">For every few days:</p>")
        number(&p, "Every how many days", Self.everyDays, hint: "2 means every other day.")
        p.raw("<p class=\"for\">For days of the week:</p>")
        if let e = problems[Self.weekday] { p.raw("<p class=\"error\" id=\"weekday-error\">"); p.text(e); p.raw("</p>") }
        p.raw("<fieldset class=\"days\"><legend>Which days</legend>")
        p.raw("<div class=\"day-boxes\">")
        for d in Weekday.allCases.sorted() {
            let id = "weekday-" + d.rawValue.lowercased()
            p.raw("<div class=\"check\"><input type=\"checkbox\" id=\"\(id)\" name=\"\(Self.weekday)\" value=\"\(d.rawValue)\"\(weekdays.contains(d) ? " checked" : "")")
            if problems[Self.weekday] != nil { p.raw(" aria-invalid=\"true\" aria-describedby=\"weekday-error\"") }
            p.raw("><label for=\"\(id)\">"); p.text(RecurrenceWords.dayNames[d]!); p.raw("</label></div>")
        }
        p.raw("</div></fieldset>")
        number(&p, "Every how many weeks", Self.everyWeeks, hint: "1 means every week, 2 every other week.")
        p.raw("<p class=\"for\">For once a month:</p>")
        number(&p, "Day of the month", Self.monthDay, hint: "From 1 to 31. A month without that day is skipped.")
        number(&p, "Every how many months", Self.everyMonths)
        p.raw("</div>")
    }
}

/// What to say next to each field of a form that was sent back: field name → message.
struct Problems: Error, Sendable {
    private(set) var messages: [String: String] = [:]
    var isEmpty: Bool { messages.isEmpty }
    subscript(_ field: String) -> String? {
        get { messages[field] }
        set { if messages[field] == nil { messages[field] = newValue } }
    }
    mutating func merge(_ other: Problems) { for (k, v) in other.messages { self[k] = v } }
}

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

    /// The repeat fields as a form posted them (decoded with the reminder's or goal's `Fields`,
    /// from the same form): every field optional, the weekdays one value per ticked box.
    struct Sent: Decodable, Sendable {
        var choice: String?
        var everyDays: String?
        var weekdays: [String]?
        var everyWeeks: String?
        var monthDay: String?
        var everyMonths: String?

        private enum CodingKeys: String, CodingKey {
            case choice = "repeat", everyDays = "every_days", weekdays = "weekday", everyWeeks = "every_weeks", monthDay = "month_day",
                 everyMonths = "every_months"
        }

        /// The fields sent once per ticked box (`ListFields`): the weekdays.
        static let lists: Set<String> = [RepeatFields.weekday]
    }

    /// The fields as a form posted them; a weekday that is not one ("XX") is left out.
    init(_ sent: Sent) {
        values = [Self.choice: sent.choice ?? "", Self.everyDays: sent.everyDays ?? "", Self.everyWeeks: sent.everyWeeks ?? "",
                  Self.monthDay: sent.monthDay ?? "", Self.everyMonths: sent.everyMonths ?? ""]
        weekdays = Set((sent.weekdays ?? []).compactMap { Weekday(rawValue: $0) })
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

    /// What `repeat-fields.mustache` shows.
    struct View: Sendable {
        struct Radio: Sendable {
            let value: String
            let label: String
            let checked: Bool
        }

        struct Day: Sendable {
            /// "mo": the checkbox's id is `weekday-mo`.
            let key: String
            /// "MO", as the form posts it.
            let code: String
            let label: String
            let checked: Bool
            let invalid: Bool
        }

        let repeatError: String?
        let radios: [Radio]
        let everyDays: Field
        let weekdayError: String?
        let days: [Day]
        let everyWeeks: Field
        let monthDay: Field
        let everyMonths: Field
    }

    /// The fieldset: a radio button per kind of repeat ("Only once" when `onceAllowed`), the
    /// numbers and days under it, each with its problem.
    func view(onceAllowed: Bool, problems: Problems, focus: inout Field.Focus) -> View {
        let chosen = values[Self.choice].flatMap { $0.isEmpty ? nil : $0 } ?? (onceAllowed ? "once" : "daily")
        let choices = (onceAllowed ? [("once", "Only once")] : []) + [("daily", "Every day"), ("days", "Every few days"),
                                                                     ("weeks", "On days of the week"), ("month", "Once a month")]
        func number(_ label: String, _ name: String, hint: String? = nil, focus: inout Field.Focus) -> Field {
            Field(label: label, name: name, value: values[name] ?? "", required: false, inputmode: "numeric", short: true, hint: hint,
                  error: problems[name], focus: &focus)
        }
        let everyDays = number("Every how many days", Self.everyDays, hint: "2 means every other day.", focus: &focus)
        let invalid = problems[Self.weekday] != nil
        let days = Weekday.allCases.sorted().map { d in
            View.Day(key: d.rawValue.lowercased(), code: d.rawValue, label: RecurrenceWords.dayNames[d]!, checked: weekdays.contains(d), invalid: invalid)
        }
        let everyWeeks = number("Every how many weeks", Self.everyWeeks, hint: "1 means every week, 2 every other week.", focus: &focus)
        let monthDay = number("Day of the month", Self.monthDay, hint: "From 1 to 31. A month without that day is skipped.", focus: &focus)
        let everyMonths = number("Every how many months", Self.everyMonths, focus: &focus)
        return View(repeatError: problems[Self.choice], radios: choices.map { View.Radio(value: $0.0, label: $0.1, checked: $0.0 == chosen) },
                    everyDays: everyDays, weekdayError: problems[Self.weekday], days: days, everyWeeks: everyWeeks, monthDay: monthDay,
                    everyMonths: everyMonths)
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

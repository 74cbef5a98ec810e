import ArgumentParser
import HealthSpoolCore

/// Reads the repeat options shared by `remind add` and `goal add`.
struct RepeatOptions: ParsableArguments {
    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("Repeat every N days, weeks or months: 'day', '2 days', 'week', '2 weeks', 'month'.", valueName: "N UNIT"))
    var every: [String] = []
    @Option(help: ArgumentHelp("Repeat weekly on these days (mon,wed,fri); with --every 2 weeks, every other week.", valueName: "DAYS"))
    var weekdays: String?
    @Flag(help: "Repeat monthly on the start date's day (or --month-day).") var monthly = false
    @Option(name: .customLong("month-day"), help: "Monthly on this day of the month (1–31; months without it are skipped).")
    var monthDay: Int?
    @Option(help: ArgumentHelp("iCalendar RRULE (FREQ=DAILY|WEEKLY|MONTHLY, INTERVAL, BYDAY, BYMONTHDAY).", valueName: "RRULE"))
    var rrule: String?

    /// The rule, or nil when no repeat option was given.
    func rule() throws -> RecurrenceRule? {
        do {
            if let rrule { return try RecurrenceRule(parsing: rrule) }
            var interval = 1
            var unit: String?
            if !every.isEmpty {
                let every = every.joined(separator: " ")
                let words = every.split(separator: " ").map { $0.lowercased() }
                guard (1...2).contains(words.count) else { throw ValidationError("--every takes 'day', '2 days', '3 weeks' or 'month', got '\(every)'") }
                if words.count == 2 {
                    guard let n = Int(words[0]), (1...1000).contains(n) else { throw ValidationError("--every: '\(words[0])' is not a number from 1 to 1000") }
                    interval = n
                }
                unit = words.last!.hasSuffix("s") ? String(words.last!.dropLast()) : words.last!
                if unit == "other" { throw ValidationError("--every: write '2 days' or '2 weeks' for every other") }
            }
            var days: [Weekday] = []
            if let weekdays {
                for name in weekdays.split(separator: ",") {
                    guard let d = Weekday(name: String(name).trimmingSpaces) else {
                        throw ValidationError("--weekdays: '\(name)' is not a weekday (mon,tue,wed,thu,fri,sat,sun)")
                    }
                    days.append(d)
                }
            }
            if monthly || monthDay != nil || unit == "month" {
                if let monthDay, !(1...31).contains(monthDay) { throw ValidationError("--month-day takes 1 to 31, got \(monthDay)") }
                guard days.isEmpty else { throw ValidationError("--weekdays cannot be combined with a monthly repeat") }
                return RecurrenceRule(.monthly, interval: unit == "month" ? interval : 1, monthDay: monthDay)
            }
            if !days.isEmpty || unit == "week" {
                return RecurrenceRule(.weekly, interval: unit == "week" ? interval : 1, weekdays: days)
            }
            if unit == "day" { return RecurrenceRule(.daily, interval: interval) }
            if let unit { throw ValidationError("--every: unit '\(unit)' is not day, week or month") }
            return nil
        } catch let e as JournalError {
            throw ValidationError(e.description)
        }
    }
}

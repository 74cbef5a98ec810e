/// A day of the week, as RFC 5545 spells it in `BYDAY`.
public enum Weekday: String, CaseIterable, Hashable, Comparable, Sendable {
    case monday = "MO", tuesday = "TU", wednesday = "WE", thursday = "TH", friday = "FR", saturday = "SA", sunday = "SU"

    /// 0 = Sunday … 6 = Saturday, as `CivilDate.weekday`.
    public var number: Int {
        switch self {
        case .sunday: 0
        case .monday: 1
        case .tuesday: 2
        case .wednesday: 3
        case .thursday: 4
        case .friday: 5
        case .saturday: 6
        }
    }

    /// Days after Monday (the week start, `WKST=MO`).
    var sinceMonday: Int { (number + 6) % 7 }

    public init?(number: Int) {
        guard let d = Self.allCases.first(where: { $0.number == number }) else { return nil }
        self = d
    }

    /// Parses `mon`, `monday`, `mo` (any case).
    public init?(name: String) {
        let n = name.lowercased()
        guard n.count >= 2, let d = Self.allCases.first(where: { "\($0)".hasPrefix(n) || $0.rawValue.lowercased() == n })
        else { return nil }
        self = d
    }

    public static func < (a: Weekday, b: Weekday) -> Bool { a.sinceMonday < b.sinceMonday }
}

/// A repeat rule: the subset of an RFC 5545 `RRULE` that reminders and goals use.
///
/// `FREQ=DAILY|WEEKLY|MONTHLY`, `INTERVAL`, `BYDAY` (weekly: plain weekdays), `BYMONTHDAY`
/// (monthly: one day 1–31; a month without that day is skipped, as RFC 5545 says), `WKST=MO`.
/// Times of day are not part of the rule: a reminder with several times is one series per time
/// (one `VEVENT` each in the export), which keeps 08:00 and 20:30 exact where `BYHOUR`/`BYMINUTE`
/// would multiply into four times.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
    public enum Frequency: String, Hashable, Sendable { case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY" }

    public var frequency: Frequency
    /// Every `interval` days, weeks or months (1 = every one).
    public var interval: Int
    /// Weekly: the days (empty = the start date's weekday).
    public var weekdays: [Weekday]
    /// Monthly: the day of the month (nil = the start date's day).
    public var monthDay: Int?

    public init(_ frequency: Frequency, interval: Int = 1, weekdays: [Weekday] = [], monthDay: Int? = nil) {
        self.frequency = frequency
        self.interval = max(1, interval)
        self.weekdays = Array(Set(weekdays)).sorted()
        self.monthDay = monthDay
    }

    /// The `RRULE` value: `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;WKST=MO`.
    public var description: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if frequency == .weekly, !weekdays.isEmpty { parts.append("BYDAY=" + weekdays.map(\.rawValue).joined(separator: ",")) }
        if frequency == .monthly, let monthDay { parts.append("BYMONTHDAY=\(monthDay)") }
        if frequency == .weekly { parts.append("WKST=MO") }
        return parts.joined(separator: ";")
    }

    /// Parses the subset this type describes; anything else is refused with what is accepted.
    public init(parsing text: String) throws(JournalError) {
        func bad(_ why: String) -> JournalError {
            .invalid(field: "RRULE", value: text, expected: why)
        }
        var freq: Frequency?, interval = 1, days: [Weekday] = [], monthDay: Int?
        for part in text.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw bad("KEY=VALUE parts separated by ';'") }
            switch kv[0].uppercased() {
            case "FREQ":
                guard let f = Frequency(rawValue: kv[1].uppercased()) else { throw bad("FREQ=DAILY, WEEKLY or MONTHLY") }
                freq = f
            case "INTERVAL":
                guard let n = Int(kv[1]), (1...1000).contains(n) else { throw bad("INTERVAL from 1 to 1000") }
                interval = n
            case "BYDAY":
                for d in kv[1].split(separator: ",") {
                    guard let day = Weekday(rawValue: d.uppercased()) else { throw bad("BYDAY as plain weekdays (MO,WE,FR)") }
                    days.append(day)
                }
            case "BYMONTHDAY":
                guard let n = Int(kv[1]), (1...31).contains(n) else { throw bad("one BYMONTHDAY from 1 to 31") }
                monthDay = n
            case "WKST":
                guard kv[1].uppercased() == "MO" else { throw bad("WKST=MO") }
            default:
                throw bad("only FREQ, INTERVAL, BYDAY, BYMONTHDAY and WKST")
            }
        }
        guard let freq else { throw bad("a FREQ") }
        if !days.isEmpty && freq != .weekly { throw bad("BYDAY only with FREQ=WEEKLY") }
        if monthDay != nil && freq != .monthly { throw bad("BYMONTHDAY only with FREQ=MONTHLY") }
        self.init(freq, interval: interval, weekdays: days, monthDay: monthDay)
    }

    /// Whether the series that starts on `start` (its `DTSTART` date, itself an occurrence)
    /// has an occurrence on `date`.
    public func matches(_ date: CivilDate, start: CivilDate) -> Bool {
        let days = date.daysSinceEpoch - start.daysSinceEpoch
        guard days >= 0 else { return false }
        switch frequency {
        case .daily:
            return days % Int64(interval) == 0
        case .weekly:
            let chosen = weekdays.isEmpty ? [Weekday(number: start.weekday)!] : weekdays
            guard chosen.contains(where: { $0.number == date.weekday }) else { return false }
            // Weeks counted from the Monday of the start's week (WKST=MO).
            let startMonday = start.daysSinceEpoch - Int64(Weekday(number: start.weekday)!.sinceMonday)
            return ((date.daysSinceEpoch - startMonday) / 7) % Int64(interval) == 0
        case .monthly:
            guard date.day == (monthDay ?? start.day) else { return false }
            let months = (date.year - start.year) * 12 + date.month - start.month
            return months % interval == 0
        }
    }

    /// The first date on or after `date` that the rule gives, the series anchored there: a
    /// `DTSTART` that is itself an occurrence (RFC 5545 leaves an unsynchronized one undefined).
    /// Nil when none comes within 400 years.
    public func firstDate(onOrAfter date: CivilDate) -> CivilDate? {
        var d = date.daysSinceEpoch
        let limit = d + 146_097
        while d < limit {
            let c = CivilDate(daysSinceEpoch: d)
            switch frequency {
            case .daily: return c
            case .weekly: if weekdays.isEmpty || weekdays.contains(where: { $0.number == c.weekday }) { return c }
            case .monthly: if c.day == (monthDay ?? date.day) { return c }
            }
            d += 1
        }
        return nil
    }
}

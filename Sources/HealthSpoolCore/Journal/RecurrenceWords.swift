/// A repeat rule and a reminder's next ring in words people use: "Every other day at 08:00",
/// "Every 3 weeks on Monday and Friday at 08:00, 20:00", "Next: tomorrow 08:00". Pure: the
/// instant and the zone are inputs. The web's reminder list and `healthspool remind list` say
/// the same words.
public enum RecurrenceWords {
    /// The weekdays' names in English ("Monday").
    public static let dayNames: [Weekday: String] = [
        .monday: "Monday", .tuesday: "Tuesday", .wednesday: "Wednesday", .thursday: "Thursday", .friday: "Friday",
        .saturday: "Saturday", .sunday: "Sunday",
    ]
    /// The months' names in English ("January").
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                             "November", "December"]

    /// The rule in words ("Every other day", "Every week on Monday, Wednesday and Friday",
    /// "Every month on the 15th"); a one-off (`nil`) is "Once". `start` is the series' first
    /// day: a weekly rule without days repeats on its weekday, a monthly one without a day on
    /// its day of the month.
    public static func rule(_ rule: RecurrenceRule?, start: CivilDate? = nil) -> String {
        guard let rule else { return "Once" }
        switch rule.frequency {
        case .daily:
            return every(rule.interval, "day", "days")
        case .weekly:
            let weekdays = Set(rule.weekdays)
            let days: String
            if weekdays == Set(Weekday.allCases) {
                days = "every day of the week"
            } else if weekdays == [.monday, .tuesday, .wednesday, .thursday, .friday] {
                days = "Monday to Friday"
            } else if weekdays == [.saturday, .sunday] {
                days = "Saturday and Sunday"
            } else if !weekdays.isEmpty {
                days = list(weekdays.sorted().map { dayNames[$0]! })
            } else if let start, let d = Weekday(number: start.weekday) {
                days = dayNames[d]!
            } else {
                return every(rule.interval, "week", "weeks")
            }
            if rule.interval == 1, weekdays.count > 1 { return days.prefix(1).uppercased() + days.dropFirst() }
            return every(rule.interval, "week", "weeks") + " on " + days
        case .monthly:
            let day = rule.monthDay ?? start?.day
            return every(rule.interval, "month", "months") + (day.map { " on the " + ordinal($0) } ?? "")
        }
    }

    /// The rule with its times of day: "Every other day at 08:00", "… at 08:00 and 20:00".
    public static func rule(_ rule: RecurrenceRule?, times: [TimeOfDay], start: CivilDate? = nil) -> String {
        let words = self.rule(rule, start: start)
        return times.isEmpty ? words : words + " at " + list(times.map(\.description))
    }

    /// When a reminder next rings, from `now` in `zone`: "today 20:00", "tomorrow 08:00",
    /// "Wednesday 08:00" within a week, else "Monday 12 January 08:00" (and the year when it is
    /// not this year's). Nil `next` (it never rings again) is "never".
    public static func next(_ next: Timestamp?, now: Timestamp, zone: ZoneRules) -> String {
        guard let next else { return "never" }
        let today = WallClock.localDay(of: now, zone: zone)
        let local = Timestamp(millis: next.millis, utcOffsetSeconds: zone.offset(atUTCMillis: next.millis))
        let day = WallClock.localDay(of: local, zone: zone)
        let time = String(local.iso8601Local.dropFirst(11).prefix(5))
        let ahead = day.daysSinceEpoch - today.daysSinceEpoch
        let weekday = dayNames[Weekday(number: day.weekday)!]!
        switch ahead {
        case 0: return "today " + time
        case 1: return "tomorrow " + time
        case 2...6: return weekday + " " + time
        default:
            let year = day.year == today.year ? "" : " \(day.year)"
            return "\(weekday) \(day.day) \(monthNames[day.month - 1])\(year) \(time)"
        }
    }

    /// "every day", "every other day", "every 3 days", capitalized.
    static func every(_ n: Int, _ one: String, _ many: String) -> String {
        switch n {
        case 1: "Every " + one
        case 2: "Every other " + one
        default: "Every \(n) " + many
        }
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    /// "1st", "2nd", "3rd", "11th", "22nd".
    static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th"
        return "\(n)\(suffix)"
    }
}

import HealthJournal
import HealthSpoolCore
import HealthSpoolDaemon

/// The two ways to choose a day, bound to the date in the address (`/day/YYYY-MM-DD`): a
/// horizontal strip of days that scrolls and snaps (a list of links, so it works without
/// script; days.js adds the arrow keys and centres the chosen day), and the month calendar.
enum DayStrip {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]
    /// Days shown on each side of the chosen one in the strip; the strip stops at today (days
    /// that have not come hold nothing) and shows as many earlier days instead.
    static let reach: Int64 = 14

    /// "Sunday 22 November 2026".
    static func long(_ d: CivilDate) -> String { "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1]) \(d.year)" }

    static func link(_ d: CivilDate) -> String { "/day/\(d)" }

    static func shifted(_ d: CivilDate, by days: Int64) -> CivilDate { CivilDate(daysSinceEpoch: d.daysSinceEpoch + days) }

    /// The same day of the month `by` months away, clamped to that month's last day.
    static func shifted(_ d: CivilDate, months by: Int) -> CivilDate {
        let index = d.year * 12 + (d.month - 1) + by
        let first = CivilDate(year: index / 12, month: index % 12 + 1, day: 1)
        return CivilDate(year: first.year, month: first.month, day: min(d.day, first.daysInMonth))
    }

    /// The strip of days around `selected` (`day-strip.mustache`).
    struct Strip: Sendable {
        struct Day: Sendable {
            let href: String
            let isToday: Bool
            let current: Bool
            /// "Sunday 22 November, today".
            let label: String
            let date: String
            let weekday: String
            let day: Int
            let month: String
        }

        let previous: String
        let next: String
        /// A link to today when another day is shown.
        let todayLink: String?
        let days: [Day]
    }

    static func stripModel(selected: CivilDate, today: CivilDate) -> Strip {
        Strip(previous: link(shifted(selected, by: -1)), next: link(shifted(selected, by: 1)), todayLink: selected != today ? link(today) : nil,
              days: {
                  let last = max(0, min(reach, today.daysSinceEpoch - selected.daysSinceEpoch))
                  return (-(2 * reach - last)...last)
              }().map { offset in
                  let d = shifted(selected, by: offset)
                  return Strip.Day(href: link(d), isToday: d == today, current: offset == 0,
                                   label: "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1])\(d == today ? ", today" : "")",
                                   date: d.description, weekday: String(weekdays[d.weekday].prefix(3)), day: d.day,
                                   month: String(months[d.month - 1].prefix(3)))
              })
    }

    static func strip(selected: CivilDate, today: CivilDate) -> String {
        WebTemplates.render(stripModel(selected: selected, today: today), .dayStrip)
    }

    /// The month around the chosen day (`day-calendar.mustache`).
    struct Calendar: Sendable {
        struct Link: Sendable {
            let href: String
            let label: String
        }

        struct WeekdayName: Sendable {
            let name: String
            let short: String
        }

        /// A day of the month, or an empty cell before the first or after the last (`date` nil).
        struct Cell: Sendable {
            let date: String?
            var shade = ""
            var href = ""
            var isToday = false
            var current = false
            var label = ""
            var score = 0
            var hasData = false
            var day = 0
            /// A heart-rate notification (♥) or a cycle entry (○) that day.
            var heart = false
            var cycle = false
            var mark = ""
        }

        struct Week: Sendable {
            var cells: [Cell]
        }

        let title: String
        let previous: Link
        let next: Link
        let weekdays: [WeekdayName]
        let weeks: [Week]
    }

    /// The month around `selected`, weeks from Monday. Days with data carry a dot, days with
    /// symptoms their score as a number, a heart-rate notification ♥ and a cycle entry ○, and a shade that deepens with the score; each link's
    /// name says all of it in words.
    static func calendarModel(_ month: [DayView.MonthDay], selected: CivilDate) -> Calendar {
        let prev = shifted(selected, months: -1), next = shifted(selected, months: 1)
        let lead = month.first.map { ($0.day.date.weekday + 6) % 7 } ?? 0
        var cells = Array(repeating: Calendar.Cell(date: nil), count: lead)
        for m in month {
            let (day, score) = (m.day, m.score)
            var words = "\(day.date.day) \(months[day.date.month - 1])"
            words += day.hasData ? ", data recorded" : ", no data"
            if score > 0 { words += ", symptom score \(score)" }
            if day.heartRateNotifications > 0 {
                words += ", \(day.heartRateNotifications) heart rate notification\(day.heartRateNotifications == 1 ? "" : "s")"
            }
            if day.cycleEntries > 0 { words += ", cycle tracked" }
            if day.isToday { words += ", today" }
            cells.append(Calendar.Cell(date: day.date.description, shade: shade(score), href: link(day.date), isToday: day.isToday,
                                       current: day.date == selected, label: words, score: score, hasData: day.hasData, day: day.date.day,
                                       heart: day.heartRateNotifications > 0, cycle: day.cycleEntries > 0,
                                       mark: (day.hasData ? "•" : "") + (score > 0 ? String(score) : "")))
        }
        cells += Array(repeating: Calendar.Cell(date: nil), count: (7 - cells.count % 7) % 7)
        return Calendar(title: "\(months[selected.month - 1]) \(selected.year)",
                        previous: .init(href: link(prev), label: months[prev.month - 1]), next: .init(href: link(next), label: months[next.month - 1]),
                        weekdays: [1, 2, 3, 4, 5, 6, 0].map { .init(name: weekdays[$0], short: String(weekdays[$0].prefix(2))) },
                        weeks: stride(from: 0, to: cells.count, by: 7).map { Calendar.Week(cells: Array(cells[$0..<min($0 + 7, cells.count)])) })
    }

    /// The shade class of a symptom score.
    static func shade(_ score: Int) -> String {
        switch score {
        case 0: "s0"
        case 1...2: "s1"
        case 3...5: "s2"
        case 6...9: "s3"
        default: "s4"
        }
    }
}

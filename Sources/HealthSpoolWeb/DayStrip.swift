@preconcurrency import HealthSpoolCore
@preconcurrency import HealthSpoolDaemon

/// The two ways to choose a day, bound to the date in the address (`/day/YYYY-MM-DD`): a
/// horizontal strip of days that scrolls and snaps (a list of links, so it works without
/// script; days.js adds the arrow keys and centres the chosen day), and the month calendar.
enum DayStrip {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]
    /// Days shown on each side of the chosen one in the strip.
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

    static func strip(selected: CivilDate, today: CivilDate) -> String {
        let prev = shifted(selected, by: -1), next = shifted(selected, by: 1)
        var s = "<nav class=\"daynav\" aria-label=\"Days\"><div class=\"row\">"
        s += "<a class=\"button secondary\" id=\"prev-day\" rel=\"prev\" href=\"\(link(prev))\">← Previous day</a>"
        s += "<a class=\"button secondary\" id=\"next-day\" rel=\"next\" href=\"\(link(next))\">Next day →</a>"
        if selected != today { s += "<a class=\"button secondary\" id=\"today\" href=\"\(link(today))\">Today</a>" }
        s += "</div><p class=\"hint\" id=\"strip-hint\">The left and right arrow keys move one day.</p>"
        s += "<ol class=\"strip\" id=\"strip\" aria-describedby=\"strip-hint\">"
        for offset in -reach...reach {
            let d = shifted(selected, by: offset)
            let current = offset == 0 ? " aria-current=\"date\"" : ""
            let label = "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1])\(d == today ? ", today" : "")"
            s += "<li><a href=\"\(link(d))\"\(d == today ? " class=\"today\"" : "")\(current) aria-label=\"\(label)\" data-date=\"\(d)\">"
            s += "<span class=\"wd\">\(weekdays[d.weekday].prefix(3))</span><span class=\"dn\">\(d.day)</span>"
            s += "<span class=\"mo\">\(months[d.month - 1].prefix(3))</span></a></li>"
        }
        return s + "</ol></nav>"
    }

    /// The month around `selected`, weeks from Monday. Days with data carry a dot, days with
    /// symptoms their score as a number, and a shade that deepens with the score; each link's
    /// name says all of it in words.
    static func calendar(_ month: [(CalendarDay, Int)], selected: CivilDate) -> String {
        let prev = shifted(selected, months: -1), next = shifted(selected, months: 1)
        var s = "<section class=\"card calendar\" aria-labelledby=\"cal-h\"><h2 id=\"cal-h\">\(months[selected.month - 1]) \(selected.year)</h2>"
        s += "<div class=\"row\"><a class=\"button secondary\" id=\"prev-month\" href=\"\(link(prev))\">← \(months[prev.month - 1])</a>"
        s += "<a class=\"button secondary\" id=\"next-month\" href=\"\(link(next))\">\(months[next.month - 1]) →</a></div>"
        s += "<table class=\"cal\" id=\"calendar\"><thead><tr>"
        for w in [1, 2, 3, 4, 5, 6, 0] { s += "<th scope=\"col\" abbr=\"\(weekdays[w])\">\(weekdays[w].prefix(2))</th>" }
        s += "</tr></thead><tbody><tr>"
        let lead = month.first.map { ($0.0.date.weekday + 6) % 7 } ?? 0
        s += String(repeating: "<td></td>", count: lead)
        var column = lead
        for (day, score) in month {
            if column == 7 { s += "</tr><tr>"; column = 0 }
            var words = "\(day.date.day) \(months[day.date.month - 1])"
            words += day.hasData ? ", data recorded" : ", no data"
            if score > 0 { words += ", symptom score \(score)" }
            if day.isToday { words += ", today" }
            let current = day.date == selected ? " aria-current=\"date\"" : ""
            s += "<td class=\"\(shade(score))\"><a href=\"\(link(day.date))\"\(day.isToday ? " class=\"today\"" : "")\(current) aria-label=\"\(words)\" data-date=\"\(day.date)\" data-score=\"\(score)\" data-has-data=\"\(day.hasData)\">"
            s += "<span class=\"dn\">\(day.date.day)</span><span class=\"mark\" aria-hidden=\"true\">\(day.hasData ? "•" : "")\(score > 0 ? String(score) : "")</span></a></td>"
            column += 1
        }
        s += String(repeating: "<td></td>", count: (7 - column) % 7)
        s += "</tr></tbody></table>"
        s += "<p class=\"hint\">• means data recorded; a number is the day's symptom score (the sum of the severities: mild 1 … debilitating 4); the darker the day, the higher the score.</p></section>"
        return s
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

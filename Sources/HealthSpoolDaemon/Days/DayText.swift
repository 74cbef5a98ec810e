import HealthSpoolCore

/// The terminal forms of the day view and the month grid (`healthspool day`, `calendar`).
public enum DayText {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The day view: the date, then a row a figure (steps, distance, sleep, heart rate, …).
    public static func render(_ s: DaySummary, zone: ZoneRules) -> String {
        func time(_ ms: Int64) -> String {
            String(Timestamp(millis: ms, utcOffsetSeconds: zone.offset(atUTCMillis: ms)).iso8601Local.dropFirst(11).prefix(5))
        }
        var lines = ["\(weekdays[s.date.weekday]) \(s.date)" + (s.end - s.start == 86_400_000 ? "" : " (\((s.end - s.start) / 3_600_000) hours)")]
        func row(_ label: String, _ value: String) { lines.append(padded(label, 14) + value) }
        let t = s.totals
        row("Steps", t["stepCount"].map { grouped($0) } ?? "—")
        row("Distance", t["distanceWalkingRunning"].map { number($0, 2) + " km" } ?? "—")
        if let c = t["distanceCycling"] { row("Cycling", number(c, 2) + " km") }
        if let f = t["flightsClimbed"] { row("Flights", grouped(f)) }
        if let e = t["activeEnergyBurned"] { row("Active energy", grouped(e) + " kcal") }
        if let sl = s.sleep {
            var text = minutes(sl.asleepMinutes) + " asleep, " + minutes(sl.inBedMinutes) + " in bed (" + time(sl.start) + "–" + time(sl.end) + ")"
            let stages = [(SleepStage.core, "core"), (.deep, "deep"), (.rem, "REM"), (.awake, "awake")].compactMap { st, name in
                s.sleep?.stages[st].flatMap { $0 > 0 ? name + " " + minutes($0) : nil }
            }
            if !stages.isEmpty { text += ": " + stages.joined(separator: ", ") }
            row("Sleep", text)
        } else {
            row("Sleep", "—")
        }
        if let hr = s.heartRate {
            row("Heart rate", "\(number(hr.min, 0)) / \(number(hr.average, 0)) / \(number(hr.max, 0)) bpm (min / average / max), \(hr.count) readings")
        } else {
            row("Heart rate", "—")
        }
        for (i, d) in s.doses.enumerated() { row(i == 0 ? "Doses" : "", time(d.dose.takenAt.millis) + " " + d.medication) }
        for (i, m) in s.measurements.enumerated() { row(i == 0 ? "Measurements" : "", m.time + " " + m.line) }
        for (i, n) in s.notes.enumerated() { row(i == 0 ? "Notes" : "", time(n.created.millis) + " [" + n.category + "] " + n.text) }
        if !s.hasData, s.measurements.isEmpty { lines.append("No health data on this day.") }
        return lines.joined(separator: "\n")
    }

    /// A month grid, weeks from Monday; `*` marks days with data, today is in brackets (and
    /// reversed on a terminal).
    public static func grid(_ days: [CalendarDay], year: Int, month: Int, color: Bool) -> String {
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        var lines = [padded("\(names[month - 1]) \(year)", 28), " Mo   Tu   We   Th   Fr   Sa   Su"]
        var cells = [String](repeating: "    ", count: (days.first!.date.weekday + 6) % 7)
        for d in days {
            var cell = (d.date.day < 10 ? " " : "") + String(d.date.day) + (d.hasData ? "*" : " ")
            if d.isToday {
                cell = "[" + cell.trimmingSpaces + "]"
                cell = String(repeating: " ", count: max(0, 4 - cell.count)) + cell
                if color { cell = "\u{1B}[7m" + cell + "\u{1B}[0m" }
            } else {
                cell = " " + cell
            }
            cells.append(cell)
        }
        for start in stride(from: 0, to: cells.count, by: 7) {
            lines.append(cells[start..<min(start + 7, cells.count)].joined(separator: " "))
        }
        let withData = days.filter(\.hasData).count
        lines.append("")
        lines.append("\(withData) day\(withData == 1 ? "" : "s") with data (*)")
        return lines.joined(separator: "\n")
    }

    static func minutes(_ m: Double) -> String {
        let total = Int(m.rounded())
        return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
    }

    static func number(_ v: Double, _ digits: Int) -> String {
        if digits == 0 { return String(Int(v.rounded())) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = Int((v * scale).rounded())
        let frac = String(abs(r) % Int(scale))
        return String(r / Int(scale)) + "." + String(repeating: "0", count: digits - frac.count) + frac
    }

    static func grouped(_ v: Double) -> String {
        let s = String(Int(v.rounded()))
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0, i % 3 == 0, c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// `s` and at least one space, padded to `width`.
    static func padded(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

import HealthSpoolCore

/// The terminal forms of the day view and the month grid (`healthspool day`, `calendar`).
public enum DayText {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The day view: the date, then a row a figure (steps, distance, sleep, heart rate, …);
    /// numbers written in `style` (the user's locale, `NumberStyle(environment:)`), as the web
    /// pages write them.
    public static func render(_ s: DaySummary, zone: ZoneRules, style: NumberStyle = .english) -> String {
        func time(_ ms: Int64) -> String {
            String(Timestamp(millis: ms, utcOffsetSeconds: zone.offset(atUTCMillis: ms)).iso8601Local.dropFirst(11).prefix(5))
        }
        var lines = ["\(weekdays[s.date.weekday]) \(s.date)" + (s.end - s.start == 86_400_000 ? "" : " (\((s.end - s.start) / 3_600_000) hours)")]
        func row(_ label: String, _ value: String) { lines.append(padded(label, 14) + value) }
        let t = s.totals
        row("Steps", t["stepCount"].map(style.count) ?? "—")
        row("Distance", t["distanceWalkingRunning"].map { style.fixed($0, digits: 2) + " km" } ?? "—")
        if let c = t["distanceCycling"] { row("Cycling", style.fixed(c, digits: 2) + " km") }
        if let f = t["flightsClimbed"] { row("Flights", style.count(f)) }
        if let e = t["activeEnergyBurned"] { row("Active energy", style.count(e) + " kcal") }
        if let sl = s.sleep {
            var text = minutes(sl.asleepMinutes) + " asleep, " + minutes(sl.inBedMinutes) + " in bed (" + time(sl.start) + "–" + time(sl.end) + ")"
            let stages = [SleepStage.core, .deep, .rem, .awake].compactMap { st in
                s.sleep?.stages[st].flatMap { $0 > 0 ? stageName(st, capitalized: false) + " " + minutes($0) : nil }
            }
            if !stages.isEmpty { text += ": " + stages.joined(separator: ", ") }
            row("Sleep", text)
        } else {
            row("Sleep", "—")
        }
        if let hr = s.heartRate {
            row("Heart rate", "\(style.count(hr.min)) / \(style.count(hr.weightedAverage)) / \(style.count(hr.max)) bpm (min / average / max), \(style.count(Double(hr.count))) readings")
            lines.append(padded("", 14) + "The average is weighted by time: each reading counts until the next, at most 10 minutes.")
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
    /// reversed on a terminal); the days with heart-rate notifications and cycle entries below.
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
        let heart = days.filter { $0.heartRateNotifications > 0 }.map { String($0.date.day) }
        if !heart.isEmpty { lines.append("Heart rate notifications on the \(heart.joined(separator: ", "))") }
        let cycle = days.filter { $0.cycleEntries > 0 }.map { String($0.date.day) }
        if !cycle.isEmpty { lines.append("Cycle tracked on the \(cycle.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }

    package static func minutes(_ m: Double) -> String {
        let total = Int(m.rounded())
        return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
    }

    /// A sleep stage as the Health app names it: "Core", "Deep", "REM", "Awake", "In bed" (lower
    /// case inside a sentence, REM always in capitals).
    public static func stageName(_ stage: SleepStage, capitalized: Bool = true) -> String {
        let name = switch stage {
        case .rem: "REM"
        case .inBed: "in bed"
        default: stage.rawValue
        }
        return capitalized && stage != .rem ? name.prefix(1).uppercased() + name.dropFirst() : name
    }

    /// `s` and at least one space, padded to `width`.
    static func padded(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

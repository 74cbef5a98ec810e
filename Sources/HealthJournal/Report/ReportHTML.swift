import HealthSpoolCore

/// The doctor's summary as HTML: a self-contained file (`document`: inline style and SVG
/// charts, no script, nothing fetched) and the same sections for the web page (`body`). Every
/// string from the journal is escaped; charts are drawn in black and grey so they print.
public enum ReportHTML {
    /// The whole file: `healthspool report --out FILE`.
    public static func document(_ r: VisitReport) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">\
        <meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>Health summary \(r.from) to \(r.to)</title>\
        <style>\(css)\(pageHeader(r))</style></head>\
        <body><main class="report-file"><h1>Health summary</h1>\(body(r))</main></body></html>
        """
    }

    /// The header and the sections, for a page that has its own `<h1>` (section titles are `<h2>`).
    public static func body(_ r: VisitReport) -> String {
        var h = HTMLText()
        h.raw("<div class=\"report\">")
        header(r, &h)
        if r.isEmpty { h.raw("<p class=\"report-empty\">Nothing was recorded in this period.</p>") }
        symptoms(r, &h)
        medications(r, &h)
        measurements(r, &h)
        activity(r, &h)
        ecgs(r, &h)
        healthRecords(r, &h)
        labTrends(r, &h)
        factors(r, &h)
        notes(r, &h)
        h.raw("<section class=\"report-section plan\" aria-labelledby=\"r-plan\"><h2 id=\"r-plan\">Plan</h2>")
        h.raw("<p class=\"plan-hint\">For the visit: what was decided.</p><div class=\"plan-box\"></div></section>")
        h.raw("</div>")
        return h.html
    }

    /// The header printed on every page: the period, and page N of M (a style sheet: inline in
    /// the file, `/report/page.css` on the web).
    public static func pageHeader(_ r: VisitReport) -> String { pageHeader(from: r.from, to: r.to, name: r.name) }

    public static func pageHeader(from: CivilDate, to: CivilDate, name: String? = nil) -> String {
        let whose = name.map { cssString($0) + " \\2014  " } ?? ""
        return "@page{@top-left{content:\"\(whose)Health summary \(short(from)) to \(short(to))\";font:9pt sans-serif}" +
            "@bottom-right{content:\"Page \" counter(page) \" of \" counter(pages);font:9pt sans-serif}}"
    }

    /// `text` for inside a CSS string in a `<style>` element: letters, digits and spaces as they
    /// are, every other character as a CSS escape (no quote, backslash, newline or `<` gets in).
    static func cssString(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar.properties.isAlphabetic || (48...57).contains(scalar.value) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return out
    }

    static func header(_ r: VisitReport, _ h: inout HTMLText) {
        h.raw("<div class=\"report-meta\">")
        if let name = r.name { h.raw("<p class=\"name\"><strong>For:</strong> "); h.text(name); h.raw("</p>") }
        h.raw("<p class=\"period\"><strong>Period:</strong> ")
        h.text("\(long(r.from)) to \(long(r.to)) (\(r.days.count) days)")
        h.raw("</p><p><strong>Made:</strong> "); h.text(when(r.made)); h.raw("</p>")
        h.raw("<p class=\"source\">These figures are from the person's own records (their health journal and the health data they imported), not from a clinic's records.</p></div>")
    }

    // MARK: Sections

    static func open(_ id: String, _ title: String, _ h: inout HTMLText) {
        h.raw("<section class=\"report-section\" aria-labelledby=\"r-\(id)\"><h2 id=\"r-\(id)\">\(title)</h2>")
    }

    static func symptoms(_ r: VisitReport, _ h: inout HTMLText) {
        guard !r.symptoms.isEmpty else { return }
        open("symptoms", "Symptoms", &h)
        h.raw("<p class=\"hint\">A day's score is the sum of its entries' severities: mild 1, moderate 2, severe 3, debilitating 4.</p>")
        for (i, c) in r.symptoms.enumerated() {
            // The store's group of symptoms logged without one, in words (issue 40).
            let name = c.category.name == SymptomEntry.defaultCategory ? "Symptoms without a group" : c.category.name
            h.raw("<div class=\"keep\"><h3>"); h.text(name); h.raw("</h3>")
            h.raw(ReportChart.bars(c.category.daily.map(Double.init), days: r.days, label: "Daily score of \(name)", id: "sym\(i)"))
            h.raw(table("Symptoms of \(HTMLText.escape(name))") + "<thead><tr><th scope=\"col\">Symptom</th><th scope=\"col\" class=\"num\">Entries</th><th scope=\"col\" class=\"num\">Days</th>")
            h.raw("<th scope=\"col\" class=\"num\">Total score</th><th scope=\"col\" class=\"num\">Highest day</th><th scope=\"col\">Worst days</th>")
            h.raw("<th scope=\"col\">Parts of the day</th></tr></thead><tbody>")
            func row(_ s: ScoreFigures, all: Bool) {
                h.raw(all ? "<tr class=\"total\"><th scope=\"row\">All " : "<tr><th scope=\"row\">")
                h.text(all ? "(\(s.name))" : s.name)
                h.raw("</th><td class=\"num\">\(s.entries)</td><td class=\"num\">\(s.days)</td><td class=\"num\">\(s.total)</td>")
                h.raw("<td class=\"num\">\(s.highest)</td><td>")
                h.text(s.worstDays.map { "\(short($0.day)) (\($0.score))" }.joined(separator: ", "))
                h.raw("</td><td>"); h.text(s.parts.map { "\($0.part) \($0.count)" }.joined(separator: ", ")); h.raw("</td></tr>")
            }
            for s in c.symptoms { row(s, all: false) }
            if c.symptoms.count > 1 { row(c.category, all: true) }
            h.raw("</tbody></table></div></div>")
        }
        h.raw("</section>")
    }

    static func medications(_ r: VisitReport, _ h: inout HTMLText) {
        guard !r.medications.isEmpty else { return }
        open("medications", "Medications", &h)
        h.raw(table("Medications and doses") + "<thead><tr><th scope=\"col\">Medication</th><th scope=\"col\">Dose</th><th scope=\"col\">Directions</th>")
        h.raw("<th scope=\"col\">Prescriber</th><th scope=\"col\" class=\"num\">Doses logged</th><th scope=\"col\" class=\"num\">Due</th>")
        h.raw("<th scope=\"col\" class=\"num\">On time</th><th scope=\"col\" class=\"num\">Late</th><th scope=\"col\" class=\"num\">Missed</th></tr></thead><tbody>")
        for m in r.medications {
            h.raw("<tr><th scope=\"row\">"); h.text(m.name); h.raw("</th><td class=\"dose\">"); h.text(m.dose); h.raw("</td><td>"); h.text(m.directions)
            h.raw("</td><td>"); h.text(m.prescriber); h.raw("</td><td class=\"num\">\(m.taken)</td>")
            if let a = m.adherence {
                h.raw("<td class=\"num\">\(a.due)</td><td class=\"num\">\(a.onTime)</td><td class=\"num\">\(a.late)</td><td class=\"num\">\(a.missed)</td>")
            } else {
                h.raw("<td class=\"num\" colspan=\"4\">no reminder</td>")
            }
            h.raw("</tr>")
        }
        h.raw("</tbody></table></div>")
        h.raw("<p class=\"hint\">Due: the doses the reminders asked for. On time: logged within an hour of the time due; late: logged later, before the next dose's hour; missed: not logged.</p>")
        let weekly = r.medications.filter { !$0.weeks.isEmpty }
        if !weekly.isEmpty {
            h.raw("<h3>Adherence by week</h3>" + table("Adherence by week") + "<thead><tr><th scope=\"col\">Week of</th><th scope=\"col\">Medication</th>")
            h.raw("<th scope=\"col\" class=\"num\">Due</th><th scope=\"col\" class=\"num\">On time</th><th scope=\"col\" class=\"num\">Late</th>")
            h.raw("<th scope=\"col\" class=\"num\">Missed</th></tr></thead><tbody>")
            let weeks = Set(weekly.flatMap { $0.weeks.map(\.week) }).sorted()
            for w in weeks {
                for m in weekly {
                    guard let c = m.weeks.first(where: { $0.week == w })?.count else { continue }
                    h.raw("<tr><td>"); h.text(short(w)); h.raw("</td><td>"); h.text(m.name)
                    h.raw("</td><td class=\"num\">\(c.due)</td><td class=\"num\">\(c.onTime)</td><td class=\"num\">\(c.late)</td><td class=\"num\">\(c.missed)</td></tr>")
                }
            }
            h.raw("</tbody></table></div>")
        }
        h.raw("</section>")
    }

    static func measurements(_ r: VisitReport, _ h: inout HTMLText) {
        guard !r.measurements.isEmpty else { return }
        open("measurements", "Measurements", &h)
        for (i, m) in r.measurements.enumerated() {
            h.raw("<div class=\"keep\"><h3>"); h.text("\(m.title) (\(m.unit))"); h.raw("</h3>")
            h.raw(ReportChart.measurement(m, days: r.days, id: "m\(i)"))
            let bp = m.kind == "bloodPressure"
            if !m.readings.isEmpty {
                h.raw(table("\(m.title) readings", narrow: true) + "<thead><tr><th scope=\"col\">Time</th><th scope=\"col\" class=\"num\">\(bp ? "Systolic / diastolic" : "Value")</th></tr></thead><tbody>")
                for x in m.readings {
                    h.raw("<tr><td>"); h.text(when(x.at)); h.raw("</td><td class=\"num\">")
                    h.text(number(x.value) + (x.second.map { " / " + number($0) } ?? "")); h.raw("</td></tr>")
                }
            } else {
                h.raw("<p class=\"hint\">\(m.count) readings: each day's lowest, mean and highest.</p>")
                h.raw(table("\(m.title) by day", narrow: true) + "<thead><tr><th scope=\"col\">Date</th><th scope=\"col\" class=\"num\">Readings</th>")
                h.raw("<th scope=\"col\" class=\"num\">Lowest</th><th scope=\"col\" class=\"num\">Mean</th><th scope=\"col\" class=\"num\">Highest</th></tr></thead><tbody>")
                for d in m.daily {
                    func cell(_ a: Double, _ b: Double?) -> String { number(a) + (b.map { " / " + number($0) } ?? "") }
                    h.raw("<tr><td>"); h.text(short(d.day)); h.raw("</td><td class=\"num\">\(d.count)</td><td class=\"num\">")
                    h.text(cell(d.low, d.second?.low)); h.raw("</td><td class=\"num\">"); h.text(cell(d.mean, d.second?.mean))
                    h.raw("</td><td class=\"num\">"); h.text(cell(d.high, d.second?.high)); h.raw("</td></tr>")
                }
            }
            h.raw("</tbody></table></div></div>")
        }
        h.raw("</section>")
    }

    static func notes(_ r: VisitReport, _ h: inout HTMLText) {
        guard !r.notes.isEmpty else { return }
        open("notes", "Notes", &h)
        for g in r.notes {
            h.raw("<h3>"); h.text(g.category + (g.questions ? " (questions)" : "")); h.raw("</h3><ul class=\"report-notes\">")
            for n in g.notes {
                h.raw("<li><span class=\"when\">"); h.text(when(n.created)); h.raw("</span> ")
                h.text(n.text.isEmpty && n.hasAudio ? "(voice recording)" : n.text)
                if n.hasAudio && !n.text.isEmpty { h.raw(" <span class=\"hint\">(with a voice recording)</span>") }
                h.raw("</li>")
            }
            h.raw("</ul>")
        }
        h.raw("</section>")
    }

    /// A table's start inside a box that scrolls sideways on a narrow screen (the page does not),
    /// reachable by keyboard and named for screen readers; `label` is markup (escaped).
    static func table(_ label: String, narrow: Bool = false) -> String {
        "<div class=\"table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"\(label)\"><table\(narrow ? " class=\"narrow\"" : "")>"
    }

    // MARK: Text

    /// `3 Nov 2026`: a date as a person writes it, not ISO (issue 40).
    static func short(_ d: CivilDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// `Tue 3 Nov 2026`.
    static func long(_ d: CivilDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// `3 Nov 2026, 08:15` in the time's own offset.
    static func when(_ t: Timestamp) -> String {
        let s = t.iso8601Local
        return (CivilDate(parsing: String(s.prefix(10))).map(short) ?? String(s.prefix(10))) + ", " + String(s.dropFirst(11).prefix(5))
    }

    /// A figure with at most one decimal place.
    static func number(_ v: Double) -> String {
        let r = VisitReport.rounded(v)
        if r == r.rounded(), abs(r) < 1e15 { return grouped(Int64(r)) }
        let whole = Int64(r.rounded(.towardZero)), tenth = Int64((abs(r) * 10).rounded()) % 10
        return (r < 0 && whole == 0 ? "-" : "") + grouped(whole) + "." + String(tenth)
    }

    /// `12,345`.
    static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// Minutes as `7 h 05 min`.
    static func duration(_ minutes: Double) -> String {
        let m = Int(minutes.rounded())
        return "\(m / 60) h " + (m % 60 < 10 ? "0" : "") + "\(m % 60) min"
    }
}

/// HTML being written: markup as is, text escaped. `escape` is the one HTML escape of the
/// project: the web interface's pages use it too (`Page.escape`).
public struct HTMLText {
    private(set) var html = ""

    mutating func raw(_ s: String) { html += s }
    mutating func text(_ s: String) { html += Self.escape(s) }

    /// `s` with `& < > " '` escaped: safe in text and in quoted attributes.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

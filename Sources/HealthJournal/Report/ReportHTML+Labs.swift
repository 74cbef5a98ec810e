import HealthSpoolCore

extension ReportHTML {
    /// The lab values the person's providers sent (`HealthRecords.labs`), a row per test: its
    /// results oldest to newest (the last six), the change since the one before, and the lab's
    /// reference range; left out when there is none.
    static func labTrends(_ r: VisitReport, _ h: inout HTMLText) {
        let labs = r.healthRecords.labs
        guard !labs.isEmpty else { return }
        open("labs", "Lab trends", &h)
        h.raw("<p class=\"hint\">Lab results as the person’s providers sent them to their phone (all dates, not only this period), oldest first.</p>")
        h.raw(table("Lab trends") + "<thead><tr><th scope=\"col\">Test</th><th scope=\"col\">Results</th><th scope=\"col\" class=\"num\">Change</th>")
        h.raw("<th scope=\"col\">Reference range</th></tr></thead><tbody>")
        for t in labs {
            h.raw("<tr><th scope=\"row\">"); h.text(t.name); h.raw("<br><span class=\"hint\">"); h.text(t.latest.provider); h.raw("</span></th><td>")
            h.text(t.readings.suffix(6).map { "\(short(day($0.date))): \($0.text)\(flag($0))" }.joined(separator: "; "))
            h.raw("</td><td class=\"num\">"); h.text(change(t)); h.raw("</td><td>"); h.text(range(t.latest) + (t.unit.isEmpty || t.latest.low == nil && t.latest.high == nil ? "" : " " + t.unit)); h.raw("</td></tr>")
        }
        h.raw("</tbody></table></div></section>")
    }

    /// The reading's own day (a lab's date is the day it was taken, wherever that was).
    static func day(_ t: Timestamp) -> CivilDate {
        CivilDate(parsing: String(t.iso8601Local.prefix(10))) ?? CivilDate(daysSinceEpoch: 0)
    }

    /// ` (high)` or ` (low)` against the lab's reference range.
    static func flag(_ r: LabReading) -> String {
        if let high = r.high, r.value > high { return " (high)" }
        if let low = r.low, r.value < low { return " (low)" }
        return ""
    }

    /// `+12 mg/dL` since the result before, `–` for a single one.
    static func change(_ t: LabTrend) -> String {
        guard let p = t.previous else { return "–" }
        let d = t.latest.value - p.value
        return (d > 0 ? "+" : d < 0 ? "−" : "±") + DecimalText.trimmed(abs(d), digits: 2) + (t.unit.isEmpty ? "" : " " + t.unit)
    }

    static func range(_ r: LabReading) -> String {
        switch (r.low, r.high) {
        case let (low?, high?): "\(DecimalText.trimmed(low, digits: 2))–\(DecimalText.trimmed(high, digits: 2))"
        case let (low?, nil): "from \(DecimalText.trimmed(low, digits: 2))"
        case let (nil, high?): "up to \(DecimalText.trimmed(high, digits: 2))"
        case (nil, nil): "–"
        }
    }
}

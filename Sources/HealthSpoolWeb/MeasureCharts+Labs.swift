import HealthJournal
import HealthSpoolCore

extension MeasureCharts {
    /// One lab test the providers sent (`LabTrend`), on the measurements page below the typed-in
    /// kinds: its values over all their dates as a line (`trend.mustache`), the lab's reference
    /// range shaded, and each result listed.
    struct LabChart: Sendable {
        let id: String
        let title: String
        let trend: Trend
        /// The shaded range in words, or which chart above it is also drawn on.
        let hint: String?
        /// `22 Aug 2016: 182 mg/dL (high), Valley Clinic`, newest first.
        let results: [String]

        init(_ t: LabTrend) {
            let slug = (t.loinc ?? t.name).lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            id = "lab-" + slug
            title = t.name + (t.unit.isEmpty ? "" : " (\(t.unit))")
            let marks = t.readings.map { Self.mark($0, value: $0.value) }
            let first = marks.map(\.day).min()!, last = marks.map(\.day).max()!
            let latest = t.latest
            var shaded: [Band] = []
            var words: [String] = []
            if let low = latest.low, let high = latest.high, low < high {
                shaded.append(Band(low: low, high: high, words: ""))
                words.append("Shaded: the lab’s reference range, \(DecimalText.trimmed(low, digits: 2))–\(DecimalText.trimmed(high, digits: 2))"
                             + (t.unit.isEmpty ? "." : " \(t.unit)."))
            }
            if let kind = t.kind { words.append("Also drawn on your \(kind.title.lowercased()) chart above, as diamonds, when in its range.") }
            hint = words.isEmpty ? nil : words.joined(separator: " ")
            let count = t.readings.count
            trend = Trend(id: "chart-" + id, title: "\(t.name): \(count) result\(count == 1 ? "" : "s"), latest \(latest.text) on \(LabDay.long(latest.date))",
                          marks: marks, labs: [], shaded: shaded, firstDay: first, days: Int(last - first) + 1, floorAtLowest: false, pairs: false,
                          firstLabel: LabDay.long(t.readings[0].date), lastLabel: first == last ? "" : LabDay.long(latest.date))
            results = t.readings.reversed().map { r in
                "\(LabDay.long(r.date)): \(r.text)" + (r.high.map { r.value > $0 ? " (high)" : "" } ?? "")
                    + (r.low.map { r.value < $0 ? " (low)" : "" } ?? "") + ", \(r.provider)"
            }
        }

        /// A lab result at its own day and time, `value` as drawn.
        static func mark(_ r: LabReading, value: Double) -> Trend.Mark {
            let local = r.date.iso8601Local
            let day = CivilDate(parsing: String(local.prefix(10)))?.daysSinceEpoch ?? 0
            return Trend.Mark(day: day, dayPart: Trend.dayPart(String(local.dropFirst(11).prefix(5))), values: [value])
        }
    }

    /// Dates of lab results, years apart: `22 Aug 2016`.
    enum LabDay {
        static func long(_ t: Timestamp) -> String {
            let d = t.localDate
            return MeasureCharts.short(d) + " \(d.year)"
        }
    }
}

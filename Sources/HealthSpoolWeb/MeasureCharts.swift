import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

/// The measurements page's charts: one per kind over the last 30 or 90 days, drawn by the
/// server as SVG (like `BarChart` and `HeartCurve`: nothing to load, no inline style), each
/// reading a dot joined by a line, the usual range shaded where one is well known. Narrow
/// (360 units) so that on a phone the labels render at 14 px or more (`svg.trend text`).
enum MeasureCharts {
    /// The usual ranges shaded, in the unit drawn (glucose: mg/dL, converted when drawn).
    struct Band {
        var low: Double
        var high: Double
        var words: String
    }

    static let ranges = [30, 90]

    /// The charts section (`measure.mustache`): the range links, then a chart per kind.
    struct Section: Sendable {
        struct Range: Sendable {
            let days: Int
            let current: Bool
        }

        struct Chart: Sendable {
            let kind: String
            let title: String
            /// The chart, built and escaped by `svg`; nil: no readings in the range.
            let svg: String?
            /// The shaded range in words.
            let hint: String?
        }

        let days: Int
        let ranges: [Range]
        let kinds: [Chart]
    }

    /// The charts over the last 30 days, or 90 with `range=90`.
    static func section(_ ctx: DaemonContext, _ view: MeasurementsView, query: Form) -> Section {
        let days = Int(query["range"] ?? "") == 90 ? 90 : 30
        let zone = (try? ZoneInfo.current(environment: ctx.environment)) ?? .utc
        let today = WallClock.localDay(of: DaemonClock.now(), zone: zone)
        let first = today.daysSinceEpoch - Int64(days - 1)
        let readings = view.days.filter { $0.date.daysSinceEpoch >= first }.flatMap(\.readings)
        return Section(days: days, ranges: ranges.map { Section.Range(days: $0, current: $0 == days) }, kinds: MeasurementKind.allCases.map { kind in
            let mine = readings.filter { $0.kind == kind }.sorted { $0.at.millis < $1.at.millis }
            let words = bands(kind, glucoseUnit: view.glucoseUnit).first?.words
            return Section.Chart(kind: kind.rawValue, title: kind.title,
                                 svg: mine.isEmpty ? nil : svg(kind, mine, firstDay: first, days: days, glucoseUnit: view.glucoseUnit),
                                 hint: words)
        })
    }

    /// The usual ranges of a kind (blood pressure: systolic and diastolic), in the unit drawn.
    static func bands(_ kind: MeasurementKind, glucoseUnit: GlucoseUnit) -> [Band] {
        switch kind {
        case .bloodPressure:
            return [Band(low: 90, high: 120, words: "Shaded: the usual ranges, top number 90–120 and bottom number 60–80 mmHg."),
                    Band(low: 60, high: 80, words: "")]
        case .heartRate: return [Band(low: 60, high: 100, words: "Shaded: the usual resting heart rate, 60–100 bpm.")]
        case .oxygen: return [Band(low: 95, high: 100, words: "Shaded: the usual blood oxygen, 95–100 %.")]
        case .glucose:
            let mg = glucoseUnit == .mgPerDL
            return [Band(low: mg ? 70 : 3.9, high: mg ? 99 : 5.5,
                         words: "Shaded: the usual fasting blood sugar, " + (mg ? "70–99 mg/dL." : "3.9–5.5 mmol/L."))]
        case .weight: return []
        }
    }

    /// A reading's values as drawn: oxygen in %, glucose in the chosen unit.
    static func values(_ r: MeasurementReading, glucoseUnit: GlucoseUnit) -> [Double] {
        switch r.kind {
        case .bloodPressure: [r.value] + (r.diastolic.map { [$0] } ?? [])
        case .oxygen: [r.value <= 1 ? r.value * 100 : r.value]
        case .glucose: [glucoseUnit.value(fromMgPerDL: r.value)]
        default: [r.value]
        }
    }

    static func svg(_ kind: MeasurementKind, _ readings: [MeasurementReading], firstDay: Int64, days: Int, glucoseUnit: GlucoseUnit) -> String {
        let width = 360.0, height = 220.0, left = 52.0, right = 10.0, top = 12.0, bottom = 44.0
        let plotW = width - left - right, plotH = height - top - bottom
        let series = readings.map { values($0, glucoseUnit: glucoseUnit) }
        let bands = bands(kind, glucoseUnit: glucoseUnit)
        let all = series.flatMap { $0 } + bands.flatMap { [$0.low, $0.high] }
        let step = niceStep((all.max()! - all.min()!) / 4)
        let low = (all.min()! / step).rounded(.down) * step - (kind == .oxygen ? 0 : step)
        let high = max((all.max()! / step).rounded(.up) * step, low + step)
        func x(_ r: MeasurementReading) -> Double {
            let hm = r.time.split(separator: ":").compactMap { Double($0) }
            let dayPart = hm.count == 2 ? (hm[0] * 60 + hm[1]) / 1440 : 0.5
            return left + plotW * (Double(r.date.daysSinceEpoch - firstDay) + dayPart) / Double(days)
        }
        func y(_ v: Double) -> Double { top + plotH * (1 - (v - low) / (high - low)) }
        func f(_ d: Double) -> String { String(Int(d.rounded())) }
        let last = readings.last!
        let title = "\(kind.title), last \(days) days: \(readings.count) reading\(readings.count == 1 ? "" : "s"), latest \(last.text) on \(DayStrip.long(last.date))"
        let id = "chart-\(kind.rawValue)"
        var s = "<svg role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" class=\"trend\" id=\"\(id)\"><title id=\"\(id)-title\">\(Page.escape(title))</title>"
        for b in bands {
            s += "<rect class=\"band\" x=\"\(f(left))\" y=\"\(f(y(b.high)))\" width=\"\(f(plotW))\" height=\"\(f(y(b.low) - y(b.high)))\" fill=\"#d9eedb\"></rect>"
        }
        for v in stride(from: low, through: high + step / 2, by: step) {
            s += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" stroke=\"#c8c8c0\"></line>"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(y(v) + 6))\" text-anchor=\"end\" fill=\"#1a1a1a\">\(Page.escape(label(v, step: step)))</text>"
        }
        let lastDay = CivilDate(daysSinceEpoch: firstDay + Int64(days - 1))
        let firstDate = CivilDate(daysSinceEpoch: firstDay)
        s += "<text x=\"\(f(left))\" y=\"\(f(height - 10))\" fill=\"#1a1a1a\">\(short(firstDate))</text>"
        s += "<text x=\"\(f(width - right))\" y=\"\(f(height - 10))\" text-anchor=\"end\" fill=\"#1a1a1a\">\(short(lastDay))</text>"
        let colors = ["#14365c", "#a13d00"]
        for i in 0..<(series.map(\.count).max() ?? 1) {
            let points = zip(readings, series).compactMap { r, v in i < v.count ? (x(r), y(v[i])) : nil }
            if points.count > 1 {
                s += "<polyline points=\"\(points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " "))\" fill=\"none\" stroke=\"\(colors[i])\" stroke-width=\"2.5\"></polyline>"
            }
            for (px, py) in points {
                s += i == 0 ? "<circle cx=\"\(f(px))\" cy=\"\(f(py))\" r=\"5\" fill=\"\(colors[i])\"></circle>"
                    : "<rect x=\"\(f(px - 5))\" y=\"\(f(py - 5))\" width=\"10\" height=\"10\" fill=\"\(colors[i])\"></rect>"
            }
        }
        return s + "</svg>" + (kind == .bloodPressure ? "<p class=\"hint\">Dots: the top number. Squares: the bottom number.</p>" : "")
    }

    /// A step of 1, 2 or 5 times a power of ten at least `rough`.
    static func niceStep(_ rough: Double) -> Double {
        guard rough > 0, rough.isFinite else { return 1 }
        var p = 1.0
        while p * 10 <= rough { p *= 10 }
        while p > rough { p /= 10 }
        for m in [1.0, 2, 5, 10] where p * m >= rough { return p * m }
        return p * 10
    }

    static func label(_ v: Double, step: Double) -> String {
        step < 1 ? DecimalText.trimmed(v, digits: 1) : String(Int(v.rounded()))
    }

    static func short(_ d: CivilDate) -> String {
        "\(d.day) " + ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.month - 1]
    }
}

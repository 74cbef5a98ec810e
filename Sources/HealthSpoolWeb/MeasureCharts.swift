import HealthJournal
import HealthSpoolConfig
import HealthSpoolCore
import HealthSpoolDaemon
import HealthSpoolLinux

/// The measurements page's charts: one per kind over the last 30 or 90 days, drawn by the
/// server as SVG (`trend.mustache` over `Trend`'s coordinates, like `BarChart` and `HeartCurve`:
/// nothing to load, no inline style), each reading a dot joined by a line, the usual range
/// shaded where one is well known. Narrow (360 units) so that on a phone the labels render at
/// 14 px or more (`svg.trend text`).
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
            /// The chart (`trend.mustache`); nil: no readings in the range.
            let trend: Trend?
            /// The shaded range in words.
            let hint: String?
        }

        let days: Int
        let ranges: [Range]
        let kinds: [Chart]
        /// A chart per lab test the providers sent, over all its dates (`MeasureCharts+Labs`).
        let labs: [LabChart]
        let hasLabs: Bool
    }

    /// The charts over the last 30 days, or 90 with `range=90`.
    /// Lab results of a kind typed in (`LabTrend.kind`) in the range are drawn on its chart as diamonds.
    static func section(_ ctx: Configuration, _ view: MeasurementsView, labs: [LabTrend] = [], query: Form) -> Section {
        let days = Int(query["range"] ?? "") == 90 ? 90 : 30
        let zone = (try? ZoneInfo.current(environment: ctx.environment)) ?? .utc
        let today = WallClock.localDay(of: DaemonClock.now(), zone: zone)
        let first = today.daysSinceEpoch - Int64(days - 1)
        let readings = view.days.filter { $0.date.daysSinceEpoch >= first }.flatMap(\.readings)
        let labCharts = labs.map { LabChart($0) }
        return Section(days: days, ranges: ranges.map { Section.Range(days: $0, current: $0 == days) }, kinds: MeasurementKind.readingKinds.map { kind in
            let mine = readings.filter { $0.kind == kind }.sorted { $0.at.millis < $1.at.millis }
            let labMarks = labs.filter { $0.kind == kind }.flatMap { t in
                t.readings.map { r in LabChart.mark(r, value: kind == .glucose ? view.glucoseUnit.value(fromMgPerDL: t.measured(r)) : t.measured(r)) }
            }.filter { $0.day >= first && $0.day <= today.daysSinceEpoch }
            var words = bands(kind, glucoseUnit: view.glucoseUnit).first?.words
            if !labMarks.isEmpty { words = (words.map { $0 + " " } ?? "") + "Diamonds: lab results from your providers." }
            return Section.Chart(kind: kind.rawValue, title: kind.title,
                                 trend: mine.isEmpty && labMarks.isEmpty ? nil
                                     : Trend(kind, mine, labs: labMarks, firstDay: first, days: days, glucoseUnit: view.glucoseUnit),
                                 hint: words)
        }, labs: labCharts, hasLabs: !labCharts.isEmpty)
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
        case .weight, .steps: return []
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

    /// One kind's chart, its coordinates as text (`trend.mustache`).
    struct Trend: Sendable {
        struct Point: Sendable {
            let x: String
            let y: String
        }

        /// A shaded range.
        struct Band: Sendable {
            let x: String
            let y: String
            let w: String
            let h: String
        }

        /// A grid line and its value.
        struct Grid: Sendable {
            let x1: String
            let x2: String
            let y: String
            let labelX: String
            let labelY: String
            let label: String
        }

        /// One series of values (blood pressure: the top number, then the bottom one).
        struct Series: Sendable {
            let color: String
            /// The points joined, nil for a single reading.
            let polyline: String?
            /// The readings as dots (the first series) or squares (the second).
            let dots: [Point]
            let squares: [Point]
        }

        let id: String
        let width: Int
        let height: Int
        /// What a screen reader says for the chart.
        let title: String
        let bands: [Band]
        let grid: [Grid]
        let axisLeft: String
        let axisRight: String
        let axisY: String
        /// The first and last day of the range ("26 Oct").
        let firstDay: String
        let lastDay: String
        let series: [Series]
        /// Whether the chart has two series (blood pressure), said under it.
        let pairs: Bool

        /// A lab result drawn beside the readings (a diamond's outline, `M x,y l…`).
        let labs: [String]

        /// What is drawn at one time: its day, the part of the day gone (0..<1), its values.
        struct Mark {
            var day: Int64
            var dayPart: Double
            var values: [Double]
        }

        init(_ kind: MeasurementKind, _ readings: [MeasurementReading], labs: [Mark] = [], firstDay: Int64, days: Int, glucoseUnit: GlucoseUnit) {
            let marks = readings.map { r in
                Mark(day: r.date.daysSinceEpoch, dayPart: Trend.dayPart(r.time), values: MeasureCharts.values(r, glucoseUnit: glucoseUnit))
            }
            var title = "\(kind.title), last \(days) days: " + (readings.last.map {
                "\(readings.count) reading\(readings.count == 1 ? "" : "s"), latest \($0.text) on \(DayStrip.long($0.date))"
            } ?? "no reading typed in")
            if !labs.isEmpty { title += "; \(labs.count) lab result\(labs.count == 1 ? "" : "s") from your providers" }
            self.init(id: "chart-\(kind.rawValue)", title: title, marks: marks, labs: labs, shaded: MeasureCharts.bands(kind, glucoseUnit: glucoseUnit),
                      firstDay: firstDay, days: days, floorAtLowest: kind == .oxygen, pairs: kind == .bloodPressure,
                      firstLabel: short(CivilDate(daysSinceEpoch: firstDay)), lastLabel: short(CivilDate(daysSinceEpoch: firstDay + Int64(days - 1))))
        }

        /// Any series over `days` days from `firstDay`: `marks` joined by a line, `labs` as
        /// diamonds; at least one mark or lab.
        init(id: String, title: String, marks: [Mark], labs: [Mark], shaded: [MeasureCharts.Band], firstDay: Int64, days: Int,
             floorAtLowest: Bool, pairs: Bool, firstLabel: String, lastLabel: String) {
            let width = 360.0, height = 220.0, left = 52.0, right = 10.0, top = 12.0, bottom = 44.0
            let plotW = width - left - right, plotH = height - top - bottom
            let all = marks.flatMap(\.values) + labs.flatMap(\.values) + shaded.flatMap { [$0.low, $0.high] }
            var least = all.min()!, most = all.max()!
            // One value alone (a single lab result): a scale around it, not one step under it.
            if least == most, least != 0 { least -= abs(least) * 0.1; most += abs(most) * 0.1 }
            let step = niceStep((most - least) / 4)
            let low = (least / step).rounded(.down) * step - (floorAtLowest ? 0 : step)
            let high = max((most / step).rounded(.up) * step, low + step)
            func x(_ m: Mark) -> Double { left + plotW * (Double(m.day - firstDay) + m.dayPart) / Double(days) }
            func y(_ v: Double) -> Double { top + plotH * (1 - (v - low) / (high - low)) }
            func f(_ d: Double) -> String { String(Int(d.rounded())) }
            self.id = id
            self.width = Int(width)
            self.height = Int(height)
            self.title = title
            bands = shaded.map { Band(x: f(left), y: f(y($0.high)), w: f(plotW), h: f(y($0.low) - y($0.high))) }
            grid = stride(from: low, through: high + step / 2, by: step).map { v in
                Grid(x1: f(left), x2: f(width - right), y: f(y(v)), labelX: f(left - 6), labelY: f(y(v) + 6), label: MeasureCharts.label(v, step: step))
            }
            axisLeft = f(left)
            axisRight = f(width - right)
            axisY = f(height - 10)
            self.firstDay = firstLabel
            lastDay = lastLabel
            let colors = ["#14365c", "#a13d00"]
            series = (0..<(marks.map(\.values.count).max() ?? 0)).map { i in
                let points = marks.compactMap { m in i < m.values.count ? (x(m), y(m.values[i])) : nil }
                return Series(color: colors[i], polyline: points.count > 1 ? points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ") : nil,
                              dots: i == 0 ? points.map { Point(x: f($0.0), y: f($0.1)) } : [],
                              squares: i == 0 ? [] : points.map { Point(x: f($0.0 - 5), y: f($0.1 - 5)) })
            }
            self.labs = labs.compactMap { m in m.values.first.map { "M\(f(x(m))),\(f(y($0) - 7))l7,7l-7,7l-7,-7z" } }
            self.pairs = pairs
        }

        /// `HH:MM` as the part of the day gone; noon when unknown.
        static func dayPart(_ time: String) -> Double {
            let hm = time.split(separator: ":").compactMap { Double($0) }
            return hm.count >= 2 ? (hm[0] * 60 + hm[1]) / 1440 : 0.5
        }
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

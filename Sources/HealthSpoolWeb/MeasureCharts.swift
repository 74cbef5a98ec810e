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
    }

    /// The charts over the last 30 days, or 90 with `range=90`.
    static func section(_ ctx: Configuration, _ view: MeasurementsView, query: Form) -> Section {
        let days = Int(query["range"] ?? "") == 90 ? 90 : 30
        let zone = (try? ZoneInfo.current(environment: ctx.environment)) ?? .utc
        let today = WallClock.localDay(of: DaemonClock.now(), zone: zone)
        let first = today.daysSinceEpoch - Int64(days - 1)
        let readings = view.days.filter { $0.date.daysSinceEpoch >= first }.flatMap(\.readings)
        return Section(days: days, ranges: ranges.map { Section.Range(days: $0, current: $0 == days) }, kinds: MeasurementKind.readingKinds.map { kind in
            let mine = readings.filter { $0.kind == kind }.sorted { $0.at.millis < $1.at.millis }
            let words = bands(kind, glucoseUnit: view.glucoseUnit).first?.words
            return Section.Chart(kind: kind.rawValue, title: kind.title,
                                 trend: mine.isEmpty ? nil : Trend(kind, mine, firstDay: first, days: days, glucoseUnit: view.glucoseUnit),
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

        init(_ kind: MeasurementKind, _ readings: [MeasurementReading], firstDay: Int64, days: Int, glucoseUnit: GlucoseUnit) {
            let width = 360.0, height = 220.0, left = 52.0, right = 10.0, top = 12.0, bottom = 44.0
            let plotW = width - left - right, plotH = height - top - bottom
            let values = readings.map { MeasureCharts.values($0, glucoseUnit: glucoseUnit) }
            let shaded = MeasureCharts.bands(kind, glucoseUnit: glucoseUnit)
            let all = values.flatMap { $0 } + shaded.flatMap { [$0.low, $0.high] }
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
            id = "chart-\(kind.rawValue)"
            self.width = Int(width)
            self.height = Int(height)
            title = "\(kind.title), last \(days) days: \(readings.count) reading\(readings.count == 1 ? "" : "s"), latest \(last.text) on \(DayStrip.long(last.date))"
            bands = shaded.map { Band(x: f(left), y: f(y($0.high)), w: f(plotW), h: f(y($0.low) - y($0.high))) }
            grid = stride(from: low, through: high + step / 2, by: step).map { v in
                Grid(x1: f(left), x2: f(width - right), y: f(y(v)), labelX: f(left - 6), labelY: f(y(v) + 6), label: MeasureCharts.label(v, step: step))
            }
            axisLeft = f(left)
            axisRight = f(width - right)
            axisY = f(height - 10)
            self.firstDay = short(CivilDate(daysSinceEpoch: firstDay))
            lastDay = short(CivilDate(daysSinceEpoch: firstDay + Int64(days - 1)))
            let colors = ["#14365c", "#a13d00"]
            series = (0..<(values.map(\.count).max() ?? 1)).map { i in
                let points = zip(readings, values).compactMap { r, v in i < v.count ? (x(r), y(v[i])) : nil }
                return Series(color: colors[i], polyline: points.count > 1 ? points.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ") : nil,
                              dots: i == 0 ? points.map { Point(x: f($0.0), y: f($0.1)) } : [],
                              squares: i == 0 ? [] : points.map { Point(x: f($0.0 - 5), y: f($0.1 - 5)) })
            }
            pairs = kind == .bloodPressure
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

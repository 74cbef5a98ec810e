import HealthSpoolCore

/// One of the summary's charts as the template `report-chart` draws it: inline SVG in black and
/// grey (readable printed in black and white), no style attribute (the web's content security
/// policy refuses inline style), an image with its description for screen readers. Every
/// coordinate is a number of the SVG's user units (`ChartNumber`).
public struct ReportChart: Sendable {
    /// A line of the value scale (low, middle, high) and its figure.
    public struct Tick: Sendable {
        public var y: ChartNumber
        public var textY: ChartNumber
        public var value: String
    }

    /// A date under the time axis; `anchor` is its `text-anchor` (none: the start).
    public struct DateLabel: Sendable {
        public var x: ChartNumber
        public var anchor: String?
        public var text: String
    }

    /// A day's bar.
    public struct Bar: Sendable {
        public var x: ChartNumber
        public var y: ChartNumber
        public var width: ChartNumber
        public var height: ChartNumber
    }

    /// A day's lowest to highest, a vertical line.
    public struct Span: Sendable {
        public var x: ChartNumber
        public var low: ChartNumber
        public var high: ChartNumber
    }

    /// A point of a series; `spaced`: not the first (a space before it in the list of points).
    public struct Point: Sendable {
        public var x: ChartNumber
        public var y: ChartNumber
        public var spaced: Bool
    }

    /// Points joined by a line with a dot each; `open`: dashed, with open dots (diastolic).
    public struct Series: Sendable {
        public var open: Bool
        public var points: [Point]
    }

    public var id: String
    public var label: String
    public let viewWidth = Int(ReportChart.width), viewHeight = Int(ReportChart.height)
    /// The plot's frame: its left and right, top and bottom.
    public let frameLeft = ChartNumber(ReportChart.left), frameRight = ChartNumber(ReportChart.left + ReportChart.plotWidth)
    public let frameTop = ChartNumber(ReportChart.top), frameBottom = ChartNumber(ReportChart.top + ReportChart.plotHeight)
    /// Where the scale's figures end (right-aligned) and the dates stand.
    public let scaleX = ChartNumber(ReportChart.left - 6), datesY = ChartNumber(ReportChart.top + ReportChart.plotHeight + 22)
    public var ticks: [Tick]
    public var dates: [DateLabel]
    public var bars: [Bar] = []
    public var spans: [Span] = []
    public var series: [Series] = []

    static let width = 720.0, height = 170.0
    static let left = 72.0, right = 10.0, top = 12.0, bottom = 30.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// The frame with its scale from `low` to `high` and the first, middle and last dates of `days`.
    init(id: String, label: String, low: Double, high: Double, days: [CivilDate]) {
        self.id = id
        self.label = label
        let top = Self.top, plotHeight = Self.plotHeight
        ticks = [(low, top + plotHeight), ((low + high) / 2, top + plotHeight / 2), (high, top)].map { v, y in
            Tick(y: ChartNumber(y), textY: ChartNumber(y + 5), value: ReportText.number(v))
        }
        dates = []
        guard let first = days.first, let last = days.last else { return }
        dates.append(DateLabel(x: ChartNumber(Self.left), anchor: nil, text: ReportText.short(first)))
        if days.count > 2 {
            dates.append(DateLabel(x: ChartNumber(Self.left + Self.plotWidth / 2), anchor: "middle", text: ReportText.short(days[days.count / 2])))
        }
        if days.count > 1 { dates.append(DateLabel(x: ChartNumber(Self.left + Self.plotWidth), anchor: "end", text: ReportText.short(last))) }
    }

    /// One bar per day of the period.
    static func bars(_ values: [Double], days: [CivilDate], label: String, id: String) -> ReportChart {
        let high = niceCeiling(values.max() ?? 0)
        var chart = ReportChart(id: id, label: label, low: 0, high: high, days: days)
        let slot = plotWidth / Double(max(values.count, 1))
        for (i, v) in values.enumerated() where v > 0 {
            let h = v / high * plotHeight
            chart.bars.append(Bar(x: ChartNumber(left + Double(i) * slot + slot * 0.1), y: ChartNumber(top + plotHeight - h),
                                  width: ChartNumber(max(slot * 0.8, 0.6)), height: ChartNumber(h)))
        }
        return chart
    }

    /// Readings over the period (a line with a dot each; blood pressure: systolic filled,
    /// diastolic open and dashed), or each day's lowest to highest with its mean; nil without values.
    static func measurement(_ m: MeasurementFigures, days: [CivilDate], id: String) -> ReportChart? {
        let all = m.readings.flatMap { [$0.value] + ($0.second.map { [$0] } ?? []) }
            + m.daily.flatMap { [$0.low, $0.high] + ($0.second.map { [$0.low, $0.high] } ?? []) }
        guard let lo = all.min(), let hi = all.max(), let first = days.first else { return nil }
        // A scale in round steps (10 past a range of 20, else 1) with a round middle line.
        let pad = max((hi - lo) * 0.1, 1), step = hi - lo > 20 ? 10.0 : 1
        let low = max(0, ((lo - pad) / step).rounded(.down) * step)
        var high = ((hi + pad) / step).rounded(.up) * step
        if ((high - low) / step).truncatingRemainder(dividingBy: 2) != 0 { high += step }
        let label = "\(m.title) over the period, \(m.unit)" + (m.kind == "bloodPressure" ? ": systolic filled dots, diastolic open dots" : "")
        var chart = ReportChart(id: id, label: label, low: low, high: high, days: days)
        let span = Double(days.count) * 86_400_000
        let origin = Double(first.daysSinceEpoch) * 86_400_000
        func x(_ t: Timestamp) -> Double { left + (Double(t.millis + Int64(t.utcOffsetSeconds) * 1000) - origin) / span * plotWidth }
        func xDay(_ d: CivilDate) -> Double { left + (Double(d.daysSinceEpoch - first.daysSinceEpoch) + 0.5) / Double(days.count) * plotWidth }
        func y(_ v: Double) -> ChartNumber { ChartNumber(top + plotHeight - (v - low) / (high - low) * plotHeight) }
        func series(_ points: [(Double, Double)], open: Bool) {
            guard !points.isEmpty else { return }
            chart.series.append(Series(open: open, points: points.enumerated().map { i, p in Point(x: ChartNumber(p.0), y: y(p.1), spaced: i > 0) }))
        }
        if !m.readings.isEmpty {
            series(m.readings.map { (x($0.at), $0.value) }, open: false)
            series(m.readings.compactMap { r in r.second.map { (x(r.at), $0) } }, open: true)
        } else {
            for d in m.daily {
                chart.spans.append(Span(x: ChartNumber(xDay(d.day)), low: y(d.low), high: y(d.high)))
                if let s = d.second { chart.spans.append(Span(x: ChartNumber(xDay(d.day)), low: y(s.low), high: y(s.high))) }
            }
            series(m.daily.map { (xDay($0.day), $0.mean) }, open: false)
            series(m.daily.compactMap { d in d.second.map { (xDay(d.day), $0.mean) } }, open: true)
        }
        return chart
    }

    /// A round top for a scale: 1, 2 or 5 times a power of ten, at least `v` (and at least 1).
    static func niceCeiling(_ v: Double) -> Double {
        guard v > 1 else { return 1 }
        var p = 1.0
        while p * 10 < v { p *= 10 }
        for m in [1.0, 2, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }
}

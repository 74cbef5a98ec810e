import HealthSpoolCore

/// The day's heart-rate curve as inline SVG (`heart-curve.mustache`): the band from the lowest
/// to the highest reading of each 15 minutes, the average as a line, hours along the bottom.
/// The coordinates are computed here and written as text by the template. The margins leave
/// room for labels drawn large on a phone (14 px as rendered, `svg.curve text`).
struct HeartCurve: Sendable {
    /// A horizontal grid line and its value on the left.
    struct Grid: Sendable {
        let x1: String
        let x2: String
        let y: String
        let labelY: String
        let value: Int
    }

    /// An hour along the bottom ("06:00").
    struct Hour: Sendable {
        let x: String
        let y: String
        let anchor: String
        let label: String
        /// The day's first or last hour: left out on a phone, where the labels are drawn large
        /// enough to read (16 px) and would touch their neighbours.
        let edge: Bool
    }

    /// The band and the line, as SVG point lists ("66,120 …").
    struct Plot: Sendable {
        let band: String
        let line: String
    }

    let width: Int
    let height: Int
    /// What a screen reader says for the chart.
    let title: String
    let grid: [Grid]
    let hours: [Hour]
    /// Nil when the day has no curve.
    let curvePlot: Plot?

    init(_ hr: HeartRateFigure, dayStart: Int64, dayEnd: Int64) {
        let width = 720.0, height = 250.0, left = 66.0, bottom = 46.0, top = 14.0
        let plotW = width - left - 8, plotH = height - bottom - top
        let low = max(0, (hr.min / 10).rounded(.down) * 10 - 10), high = (hr.max / 10).rounded(.up) * 10 + 10
        let span = Double(max(dayEnd - dayStart, 1))
        func x(_ t: Int64) -> Double { left + plotW * Double(t - dayStart) / span }
        func y(_ v: Double) -> Double { top + plotH * (1 - (v - low) / max(high - low, 1)) }
        func f(_ d: Double) -> String { String(Int(d.rounded())) }
        self.width = Int(width)
        self.height = Int(height)
        title = "Heart rate through the day: lowest \(Int(hr.min)), average \(Int(hr.average.rounded())), highest \(Int(hr.max)) beats per minute"
        grid = stride(from: low, through: high, by: max(10, ((high - low) / 4 / 10).rounded(.up) * 10)).map { v in
            Grid(x1: f(left), x2: f(width - 8), y: f(y(v)), labelY: f(y(v) + 10), value: Int(v))
        }
        hours = stride(from: 0, through: 24, by: 6).compactMap { h in
            let t = dayStart + Int64(h) * 3_600_000
            guard t <= dayEnd else { return nil }
            let anchor = h == 0 ? "start" : t + 6 * 3_600_000 > dayEnd ? "end" : "middle"
            return Hour(x: f(x(t)), y: f(height - 6), anchor: anchor, label: "\(h < 10 ? "0" : "")\(h):00", edge: anchor != "middle")
        }
        let points = hr.curve
        if points.isEmpty {
            curvePlot = nil
        } else {
            var band = "", line = ""
            for p in points { band += "\(f(x(p.time))),\(f(y(p.max))) " }
            for p in points.reversed() { band += "\(f(x(p.time))),\(f(y(p.min))) " }
            for p in points { line += "\(f(x(p.time))),\(f(y(p.average))) " }
            curvePlot = Plot(band: band, line: line)
        }
    }
}

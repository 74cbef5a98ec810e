import HealthSpoolCore

/// The report's charts: inline SVG in black and grey (readable printed in black and white),
/// no style attribute (the web's content security policy refuses inline style), each an image
/// with its description for screen readers.
enum ReportChart {
    static let width = 720.0, height = 170.0
    static let left = 72.0, right = 10.0, top = 12.0, bottom = 30.0
    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// One bar per day of the period.
    static func bars(_ values: [Double], days: [CivilDate], label: String, id: String) -> String {
        let top = niceCeiling(values.max() ?? 0)
        var svg = open(label: label, id: id)
        svg += axes(low: 0, high: top, days: days)
        let n = Double(max(values.count, 1)), slot = plotWidth / n
        for (i, v) in values.enumerated() where v > 0 {
            let h = v / top * plotHeight
            svg += "<rect x=\"\(f(left + Double(i) * slot + slot * 0.1))\" y=\"\(f(Self.top + plotHeight - h))\" width=\"\(f(max(slot * 0.8, 0.6)))\" height=\"\(f(h))\" fill=\"#555\"></rect>"
        }
        return svg + "</svg>"
    }

    /// Readings over the period (a line with a dot each; blood pressure: systolic filled,
    /// diastolic open and dashed), or each day's lowest to highest with its mean.
    static func measurement(_ m: MeasurementFigures, days: [CivilDate], id: String) -> String {
        let all = m.readings.flatMap { [$0.value] + ($0.second.map { [$0] } ?? []) }
            + m.daily.flatMap { [$0.low, $0.high] + ($0.second.map { [$0.low, $0.high] } ?? []) }
        guard let lo = all.min(), let hi = all.max(), let first = days.first else { return "" }
        // A scale in round steps (10 past a range of 20, else 1) with a round middle line.
        let pad = max((hi - lo) * 0.1, 1), step = hi - lo > 20 ? 10.0 : 1
        let low = max(0, ((lo - pad) / step).rounded(.down) * step)
        var high = ((hi + pad) / step).rounded(.up) * step
        if ((high - low) / step).truncatingRemainder(dividingBy: 2) != 0 { high += step }
        let label = "\(m.title) over the period, \(m.unit)" + (m.kind == "bloodPressure" ? ": systolic filled dots, diastolic open dots" : "")
        var svg = open(label: label, id: id) + axes(low: low, high: high, days: days)
        let span = Double(days.count) * 86_400_000
        let origin = Double(first.daysSinceEpoch) * 86_400_000
        func x(_ t: Timestamp) -> Double { left + (Double(t.millis + Int64(t.utcOffsetSeconds) * 1000) - origin) / span * plotWidth }
        func xDay(_ d: CivilDate) -> Double { left + (Double(d.daysSinceEpoch - first.daysSinceEpoch) + 0.5) / Double(days.count) * plotWidth }
        func y(_ v: Double) -> Double { top + plotHeight - (v - low) / (high - low) * plotHeight }
        func series(_ points: [(Double, Double)], open: Bool) {
            guard !points.isEmpty else { return }
            svg += "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"1.2\"\(open ? " stroke-dasharray=\"4 3\"" : "") points=\""
                + points.map { "\(f($0.0)),\(f(y($0.1)))" }.joined(separator: " ") + "\"></polyline>"
            for p in points {
                svg += "<circle cx=\"\(f(p.0))\" cy=\"\(f(y(p.1)))\" r=\"3\" fill=\"\(open ? "#fff" : "#000")\" stroke=\"#000\" stroke-width=\"1.2\"></circle>"
            }
        }
        if !m.readings.isEmpty {
            series(m.readings.map { (x($0.at), $0.value) }, open: false)
            series(m.readings.compactMap { r in r.second.map { (x(r.at), $0) } }, open: true)
        } else {
            for d in m.daily {
                svg += "<line x1=\"\(f(xDay(d.day)))\" x2=\"\(f(xDay(d.day)))\" y1=\"\(f(y(d.low)))\" y2=\"\(f(y(d.high)))\" stroke=\"#666\" stroke-width=\"2\"></line>"
                if let s = d.second {
                    svg += "<line x1=\"\(f(xDay(d.day)))\" x2=\"\(f(xDay(d.day)))\" y1=\"\(f(y(s.low)))\" y2=\"\(f(y(s.high)))\" stroke=\"#666\" stroke-width=\"2\"></line>"
                }
            }
            series(m.daily.map { (xDay($0.day), $0.mean) }, open: false)
            series(m.daily.compactMap { d in d.second.map { (xDay(d.day), $0.mean) } }, open: true)
        }
        return svg + "</svg>"
    }

    // MARK: Parts

    static func open(label: String, id: String) -> String {
        "<svg class=\"report-chart\" id=\"chart-\(id)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">"
    }

    /// The frame: the value scale on the left (low, middle, high) and the first, middle and last dates below.
    static func axes(low: Double, high: Double, days: [CivilDate]) -> String {
        var s = "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(top + plotHeight))\" y2=\"\(f(top + plotHeight))\" stroke=\"#000\"></line>"
        s += "<line x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(top))\" y2=\"\(f(top + plotHeight))\" stroke=\"#000\"></line>"
        for (v, yy) in [(low, top + plotHeight), ((low + high) / 2, top + plotHeight / 2), (high, top)] {
            s += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotWidth))\" y1=\"\(f(yy))\" y2=\"\(f(yy))\" stroke=\"#ccc\" stroke-width=\"0.6\"></line>"
            s += "<text x=\"\(f(left - 6))\" y=\"\(f(yy + 5))\" text-anchor=\"end\" font-size=\"16\" fill=\"#000\">\(ReportHTML.number(v))</text>"
        }
        guard let first = days.first, let last = days.last else { return s }
        let baseline = f(top + plotHeight + 22)
        s += "<text x=\"\(f(left))\" y=\"\(baseline)\" font-size=\"16\" fill=\"#000\">\(ReportHTML.short(first))</text>"
        if days.count > 2 {
            s += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(baseline)\" text-anchor=\"middle\" font-size=\"16\" fill=\"#000\">\(ReportHTML.short(days[days.count / 2]))</text>"
        }
        if days.count > 1 {
            s += "<text x=\"\(f(left + plotWidth))\" y=\"\(baseline)\" text-anchor=\"end\" font-size=\"16\" fill=\"#000\">\(ReportHTML.short(last))</text>"
        }
        return s
    }

    /// A round top for a scale: 1, 2 or 5 times a power of ten, at least `v` (and at least 1).
    static func niceCeiling(_ v: Double) -> Double {
        guard v > 1 else { return 1 }
        var p = 1.0
        while p * 10 < v { p *= 10 }
        for m in [1.0, 2, 5, 10] where m * p >= v { return m * p }
        return 10 * p
    }

    /// A coordinate with one decimal place.
    static func f(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}

import HealthSpoolCore

/// The day's heart-rate curve as inline SVG drawn by the server: the band from the lowest to the
/// highest reading of each 15 minutes, the average as a line, hours along the bottom. The
/// margins leave room for labels drawn large on a phone (14 px as rendered, `svg.curve text`).
enum HeartCurve {
    static func svg(_ hr: HeartRateFigure, dayStart: Int64, dayEnd: Int64) -> String {
        let width = 720.0, height = 250.0, left = 66.0, bottom = 46.0, top = 14.0
        let plotW = width - left - 8, plotH = height - bottom - top
        let low = max(0, (hr.min / 10).rounded(.down) * 10 - 10), high = (hr.max / 10).rounded(.up) * 10 + 10
        let span = Double(max(dayEnd - dayStart, 1))
        func x(_ t: Int64) -> Double { left + plotW * Double(t - dayStart) / span }
        func y(_ v: Double) -> Double { top + plotH * (1 - (v - low) / max(high - low, 1)) }
        func f(_ d: Double) -> String { String(Int(d.rounded())) }
        let title = "Heart rate through the day: lowest \(Int(hr.min)), average \(Int(hr.average.rounded())), highest \(Int(hr.max)) beats per minute"
        var s = "<svg role=\"img\" aria-labelledby=\"hr-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" class=\"curve\"><title id=\"hr-title\">\(Page.escape(title))</title>"
        for v in stride(from: low, through: high, by: max(10, ((high - low) / 4 / 10).rounded(.up) * 10)) {
            s += "<line x1=\"\(f(left))\" x2=\"\(f(width - 8))\" y1=\"\(f(y(v)))\" y2=\"\(f(y(v)))\" stroke=\"#d8d8d0\"></line>"
            s += "<text x=\"0\" y=\"\(f(y(v) + 10))\" fill=\"#1a1a1a\">\(Int(v))</text>"
        }
        for h in stride(from: 0, through: 24, by: 6) {
            let t = dayStart + Int64(h) * 3_600_000
            guard t <= dayEnd else { break }
            let anchor = h == 0 ? "start" : t + 6 * 3_600_000 > dayEnd ? "end" : "middle"
            s += "<text x=\"\(f(x(t)))\" y=\"\(f(height - 6))\" text-anchor=\"\(anchor)\" fill=\"#1a1a1a\">\(h < 10 ? "0" : "")\(h):00</text>"
        }
        let points = hr.curve
        if !points.isEmpty {
            var band = "", line = ""
            for p in points { band += "\(f(x(p.time))),\(f(y(p.max))) " }
            for p in points.reversed() { band += "\(f(x(p.time))),\(f(y(p.min))) " }
            for p in points { line += "\(f(x(p.time))),\(f(y(p.average))) " }
            s += "<polygon points=\"\(band)\" fill=\"#b9cde4\"></polygon>"
            s += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"#14365c\" stroke-width=\"2.5\"></polyline>"
        }
        return s + "</svg>"
    }
}

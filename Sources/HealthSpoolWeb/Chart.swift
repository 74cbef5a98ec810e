/// Charts drawn by the server as inline SVG: nothing to load, works offline.
enum Chart {
    /// A horizontal bar chart, each bar under its label with its value written beside it,
    /// titled for screen readers. Narrow (340 units) so that on a phone the labels are drawn
    /// at 14 px or more (`svg.bars` in the style sheet). `valueText` writes the number after
    /// each bar (e.g. "more than 10,000" for a count that stopped at its limit).
    static func bars(_ rows: [(String, Int)], label: String, valueText: (Int) -> String = { String($0) }) -> String {
        let rows = Array(rows.prefix(12))
        let maxValue = max(rows.map(\.1).max() ?? 1, 1)
        let rowHeight = 48, width = 340
        let textWidth = max(60, (rows.map { valueText($0.1).count }.max() ?? 0) * 9 + 10)
        let barWidth = width - textWidth
        let height = rows.count * rowHeight + 4
        var svg = "<svg role=\"img\" aria-labelledby=\"chart-title\" viewBox=\"0 0 \(width) \(height)\" width=\"100%\" class=\"bars\"><title id=\"chart-title\">\(Page.escape(label))</title>"
        for (i, (name, value)) in rows.enumerated() {
            let y = i * rowHeight
            let w = max(2, value * barWidth / maxValue)
            svg += "<text x=\"0\" y=\"\(y + 16)\" fill=\"#1a1a1a\">\(Page.escape(String(name.prefix(32))))</text>"
            svg += "<rect x=\"0\" y=\"\(y + 22)\" width=\"\(w)\" height=\"18\" fill=\"#14365c\"></rect>"
            svg += "<text x=\"\(w + 6)\" y=\"\(y + 37)\" fill=\"#1a1a1a\">\(Page.escape(valueText(value)))</text>"
        }
        return svg + "</svg>"
    }
}

/// Charts drawn by the server as inline SVG: nothing to load, works offline.
enum Chart {
    /// A horizontal bar chart with its values written beside the bars, titled for screen readers.
    /// `valueText` writes the number after each bar (e.g. "more than 10,000" for a count that
    /// stopped at its limit); the chart widens to fit it.
    static func bars(_ rows: [(String, Int)], label: String, valueText: (Int) -> String = { String($0) }) -> String {
        let rows = Array(rows.prefix(12))
        let maxValue = max(rows.map(\.1).max() ?? 1, 1)
        let rowHeight = 30, labelWidth = 190, barWidth = 300
        let textWidth = max(80, (rows.map { valueText($0.1).count }.max() ?? 0) * 10 + 10)
        let height = rows.count * rowHeight + 10
        var svg = "<svg role=\"img\" aria-labelledby=\"chart-title\" viewBox=\"0 0 \(labelWidth + barWidth + textWidth) \(height)\" width=\"100%\" style=\"max-width:\(36 + (textWidth - 80) / 16)rem\"><title id=\"chart-title\">\(Page.escape(label))</title>"
        for (i, (name, value)) in rows.enumerated() {
            let y = i * rowHeight + 5
            let w = max(2, value * barWidth / maxValue)
            svg += "<text x=\"0\" y=\"\(y + 19)\" fill=\"#1a1a1a\">\(Page.escape(String(name.prefix(24))))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(w)\" height=\"20\" fill=\"#14365c\"></rect>"
            svg += "<text x=\"\(labelWidth + w + 6)\" y=\"\(y + 19)\" fill=\"#1a1a1a\">\(Page.escape(valueText(value)))</text>"
        }
        return svg + "</svg>"
    }
}

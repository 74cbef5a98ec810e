/// Charts drawn by the server as inline SVG: nothing to load, works offline.
enum Chart {
    /// A horizontal bar chart with its values written beside the bars, titled for screen readers.
    static func bars(_ rows: [(String, Int)], label: String) -> String {
        let rows = Array(rows.prefix(12))
        let maxValue = max(rows.map(\.1).max() ?? 1, 1)
        let rowHeight = 30, labelWidth = 190, barWidth = 300
        let height = rows.count * rowHeight + 10
        var svg = "<svg role=\"img\" aria-labelledby=\"chart-title\" viewBox=\"0 0 \(labelWidth + barWidth + 80) \(height)\" width=\"100%\" style=\"max-width:36rem\"><title id=\"chart-title\">\(Page.escape(label))</title>"
        for (i, (name, value)) in rows.enumerated() {
            let y = i * rowHeight + 5
            let w = max(2, value * barWidth / maxValue)
            svg += "<text x=\"0\" y=\"\(y + 19)\" fill=\"#1a1a1a\">\(Page.escape(String(name.prefix(24))))</text>"
            svg += "<rect x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(w)\" height=\"20\" fill=\"#14365c\"></rect>"
            svg += "<text x=\"\(labelWidth + w + 6)\" y=\"\(y + 19)\" fill=\"#1a1a1a\">\(value)</text>"
        }
        return svg + "</svg>"
    }
}

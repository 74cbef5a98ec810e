/// A horizontal bar chart drawn by the server as inline SVG (`bars.mustache`: nothing to load,
/// works offline), each bar under its label with its value written beside it, titled for
/// screen readers. Narrow (340 units) so that on a phone the labels are drawn at 14 px or more
/// (`svg.bars` in the style sheet). The coordinates are computed here and written as text by
/// the template.
struct BarChart: Sendable {
    /// One bar: its label above, its value after it.
    struct Row: Sendable {
        let name: String
        let nameY: Int
        let barY: Int
        let barWidth: Int
        let value: String
        let valueX: Int
        let valueY: Int
    }

    let width: Int
    let height: Int
    /// What a screen reader says for the chart.
    let label: String
    let rows: [Row]

    /// The first 12 of `rows` (label, value); `valueText` writes the number after each bar (e.g.
    /// "more than 10,000" for a count that stopped at its limit).
    init(_ rows: [(String, Int)], label: String, valueText: (Int) -> String = { String($0) }) {
        let rows = Array(rows.prefix(12))
        let maxValue = max(rows.map(\.1).max() ?? 1, 1)
        let rowHeight = 48, width = 340
        let textWidth = max(60, (rows.map { valueText($0.1).count }.max() ?? 0) * 10 + 10)
        let barWidth = width - textWidth
        self.width = width
        height = rows.count * rowHeight + 4
        self.label = label
        self.rows = rows.enumerated().map { i, row in
            let y = i * rowHeight
            let w = max(2, row.1 * barWidth / maxValue)
            return Row(name: String(row.0.prefix(32)), nameY: y + 16, barY: y + 22, barWidth: w, value: valueText(row.1), valueX: w + 6, valueY: y + 37)
        }
    }
}

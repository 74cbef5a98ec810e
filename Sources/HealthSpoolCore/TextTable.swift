/// A plain-text table whose columns stay aligned whatever the length of their cells (long type
/// names included): each column is as wide as its widest cell, two spaces apart; the last
/// column is not padded.
public struct TextTable: Sendable {
    public var header: [String]?
    public var rows: [[String]]

    /// A table with a header row (nil for none) and rows of cells.
    public init(_ header: [String]?, _ rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// The width of each column: its widest cell, in characters.
    public var widths: [Int] {
        let all = (header.map { [$0] } ?? []) + rows
        let columns = all.map(\.count).max() ?? 0
        return (0..<columns).map { c in all.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
    }

    /// The lines, each with its cells padded to the column widths, prefixed by `indent`.
    public func lines(indent: String = "") -> [String] {
        let widths = widths
        return ((header.map { [$0] } ?? []) + rows).map { row in
            var line = indent
            for (c, cell) in row.enumerated() {
                let last = c == row.count - 1
                line += last ? cell : cell + String(repeating: " ", count: widths[c] - cell.count + 2)
            }
            return line
        }
    }

    /// `cell` padded with spaces to `width` characters (as it is; never cut).
    public static func pad(_ cell: String, _ width: Int) -> String {
        cell.count >= width ? cell : cell + String(repeating: " ", count: width - cell.count)
    }

    /// The lines joined with newlines.
    public var text: String { lines().joined(separator: "\n") }
}

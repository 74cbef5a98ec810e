/// An ECG drawn on the standard paper scale: 25 mm a second across, 10 mm a millivolt up, on
/// a 1 mm grid with a heavier line every 5 mm. The units are millimetres of paper; a page
/// scales the drawing to fit, a printed page keeps it true.
public struct ECGStrip: Sendable, Equatable {
    /// One row of the strip: `rowSeconds` of the recording.
    public struct Row: Sendable, Equatable {
        /// SVG polyline points, in mm from the row's top-left corner.
        public var polyline: String
        /// Seconds from the start of the recording at the row's left edge.
        public var startSecond: Int
    }

    public static let millimetresPerSecond = 25.0
    public static let millimetresPerMillivolt = 10.0
    /// Height of one row: ±1.5 mV around the middle (a QRS rarely goes past).
    public static let rowHeight = 30.0

    public var rows: [Row]
    /// Width of one row, mm.
    public var rowWidth: Double

    /// Draws `microvolts` sampled at `sampleRateHz`, `rowSeconds` a row. Each 0.5 mm keeps its
    /// lowest and highest voltage, so no peak is lost however many samples fall there.
    public init(microvolts: [Double], sampleRateHz: Double, rowSeconds: Int = 10) {
        rowWidth = Double(rowSeconds) * Self.millimetresPerSecond
        guard sampleRateHz > 0, sampleRateHz.isFinite, !microvolts.isEmpty else { rows = []; return }
        let perRow = Int(Double(rowSeconds) * sampleRateHz)
        guard perRow > 0 else { rows = []; return }
        let bucket = max(1, Int(sampleRateHz / Self.millimetresPerSecond / 2))  // samples per 0.5 mm
        var out: [Row] = []
        var start = 0
        while start < microvolts.count {
            let end = min(start + perRow, microvolts.count)
            var parts: [String] = []
            var i = start
            while i < end {
                let j = min(i + bucket, end)
                var lo = i, hi = i
                for k in i..<j where microvolts[k].isFinite {
                    if !microvolts[lo].isFinite || microvolts[k] < microvolts[lo] { lo = k }
                    if !microvolts[hi].isFinite || microvolts[k] > microvolts[hi] { hi = k }
                }
                for k in (lo <= hi ? [lo, hi] : [hi, lo]) where microvolts[k].isFinite {
                    let x = Double(k - start) / sampleRateHz * Self.millimetresPerSecond
                    let mv = microvolts[k] / 1000
                    let y = min(Self.rowHeight, max(0, Self.rowHeight / 2 - mv * Self.millimetresPerMillivolt))
                    parts.append("\(RouteShape.tenth(x)),\(RouteShape.tenth(y))")
                }
                i = j
            }
            out.append(Row(polyline: parts.joined(separator: " "), startSecond: out.count * rowSeconds))
            start = end
        }
        rows = out
    }
}

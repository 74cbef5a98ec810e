/// The mean of readings taken at uneven intervals, weighted by time: each reading stands for
/// the time until the next one, at most `cap` (a watch that was off for hours does not stretch
/// its last reading over them). A workout read every 5 s and a quiet afternoon read every
/// 10 min then count by how long they lasted, not by how many readings they gave.
///
/// Readings at the same instant (two sources) share that instant's time equally. The last
/// reading counts until `end` (the day's end), at most `cap`.
public enum TimeWeightedMean {
    /// How long one reading counts at most: 10 minutes.
    public static let cap: Int64 = 10 * 60_000

    /// The weighted mean of `(time in ms, value)` readings, or nil without readings (or when
    /// every weight is 0: all at `end`).
    public static func mean(_ readings: [(Int64, Double)], end: Int64, cap: Int64 = cap) -> Double? {
        let sorted = readings.sorted { $0.0 < $1.0 }
        var sum = 0.0, weight = 0.0
        var i = 0
        while i < sorted.count {
            var j = i
            var values = 0.0
            while j < sorted.count, sorted[j].0 == sorted[i].0 { values += sorted[j].1; j += 1 }
            let until = j < sorted.count ? sorted[j].0 : max(end, sorted[i].0)
            let w = Double(min(until - sorted[i].0, cap))
            sum += w * values / Double(j - i)
            weight += w
            i = j
        }
        return weight > 0 ? sum / weight : nil
    }
}

/// A set of instants as sorted, disjoint half-open intervals `[start, end)` of milliseconds.
public struct IntervalSet: Hashable, Sendable {
    /// The intervals, sorted and disjoint (touching intervals are joined).
    public private(set) var intervals: [(start: Int64, end: Int64)] = []

    public init() {}

    public init(_ spans: [(Int64, Int64)]) {
        let sorted = spans.filter { $0.1 > $0.0 }.sorted { $0.0 < $1.0 }
        for (s, e) in sorted {
            if let last = intervals.last, s <= last.end {
                intervals[intervals.count - 1].end = max(last.end, e)
            } else {
                intervals.append((s, e))
            }
        }
    }

    /// The total length in milliseconds.
    public var length: Int64 { intervals.reduce(0) { $0 + ($1.end - $1.start) } }

    /// The union with `other`.
    public func union(_ other: IntervalSet) -> IntervalSet {
        IntervalSet(intervals.map { ($0.start, $0.end) } + other.intervals.map { ($0.start, $0.end) })
    }

    /// How much of `[start, end)` this set covers, in milliseconds.
    public func covered(_ start: Int64, _ end: Int64) -> Int64 {
        guard end > start else { return 0 }
        // The first interval that ends after `start` (binary search), then forward.
        var lo = 0, hi = intervals.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if intervals[mid].end <= start { lo = mid + 1 } else { hi = mid }
        }
        var total: Int64 = 0
        var i = lo
        while i < intervals.count, intervals[i].start < end {
            total += min(intervals[i].end, end) - max(intervals[i].start, start)
            i += 1
        }
        return total
    }

    /// Whether the instant `t` lies inside.
    public func contains(_ t: Int64) -> Bool { covered(t, t + 1) > 0 }

    public static func == (a: IntervalSet, b: IntervalSet) -> Bool {
        a.intervals.count == b.intervals.count && zip(a.intervals, b.intervals).allSatisfy { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        for i in intervals { hasher.combine(i.start); hasher.combine(i.end) }
    }
}

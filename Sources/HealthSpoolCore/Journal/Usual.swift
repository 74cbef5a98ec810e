/// How a figure compares with the person's own usual (issue 40, "a glance"): the median of
/// their figures of the last 30 days, and whether this one is about it, higher or lower, said in
/// words and with an arrow (never by colour alone).
public struct Usual: Sendable, Equatable {
    public enum Direction: String, Sendable {
        case about, higher, lower
    }

    public var direction: Direction
    /// The median of the earlier figures.
    public var median: Double

    public init(direction: Direction, median: Double) {
        self.direction = direction
        self.median = median
    }

    /// How many days back the usual is taken from.
    public static let days = 30
    /// Fewer earlier figures than this: no usual yet.
    public static let fewest = 3

    /// `value` against `earlier` (the figures before it, of up to `days` days): about the usual
    /// when within `band` (a fraction of the median: 0.1 is ±10 %). Nil with fewer than
    /// `fewest` earlier figures.
    public static func compare(_ value: Double, with earlier: [Double], band: Double) -> Usual? {
        guard earlier.count >= fewest, let median = median(earlier) else { return nil }
        let margin = abs(median) * band
        let direction: Direction = value > median + margin ? .higher : value < median - margin ? .lower : .about
        return Usual(direction: direction, median: median)
    }

    /// The middle value (the mean of the two middle ones for an even count); nil for none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// "about your usual", "higher than usual", "lower than usual".
    public var words: String {
        switch direction {
        case .about: "about your usual"
        case .higher: "higher than usual"
        case .lower: "lower than usual"
        }
    }

    /// "→", "↑", "↓": the same as the words, for a glance.
    public var arrow: String {
        switch direction {
        case .about: "→"
        case .higher: "↑"
        case .lower: "↓"
        }
    }
}

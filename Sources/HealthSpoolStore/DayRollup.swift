import HealthSpoolCore

/// One stored daily figure: a type's day (or `sleep`, the nights ending that day).
///
/// For a cumulative type (`DayMerge.cumulativeTypes`) `value` is the merged total; for other
/// types the plain sum of the readings that start that day (their mean is `value / count`),
/// with `low` and `high` the lowest and highest reading. For `sleep`, `value` is minutes asleep,
/// `low` minutes in bed, `high` unused, and `detail` the stages and the nights' bounds.
public struct DayRollup: Hashable, Sendable {
    /// The local day, as days since 1970-01-01.
    public var day: Int64
    /// A type's registry name, or `sleep`.
    public var figure: String
    public var value: Double
    /// Samples that start that day (sleep: samples of its nights).
    public var count: Int
    public var low: Double?
    public var high: Double?
    public var detail: String?

    public init(day: Int64, figure: String, value: Double, count: Int, low: Double? = nil, high: Double? = nil, detail: String? = nil) {
        self.day = day
        self.figure = figure
        self.value = value
        self.count = count
        self.low = low
        self.high = high
        self.detail = detail
    }

    /// The figure name of the sleep rollup.
    public static let sleep = "sleep"

    /// Whether two rollups agree (values within a relative 1e-9: a sum's rounding depends on its order).
    func agrees(with o: DayRollup) -> Bool {
        func close(_ a: Double?, _ b: Double?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
        }
        return day == o.day && figure == o.figure && count == o.count && close(value, o.value)
            && close(low, o.low) && close(high, o.high) && detail == o.detail
    }

    /// The sleep figure this rollup holds (nil for other figures).
    public var sleepFigure: SleepFigure? {
        guard figure == Self.sleep, let detail, let v = try? JSONParser.parse(detail) else { return nil }
        var stages: [SleepStage: Double] = [:]
        for s in SleepStage.allCases { if let m = v[s.rawValue]?.doubleValue { stages[s] = m } }
        return SleepFigure(asleepMinutes: value, inBedMinutes: low ?? 0, stages: stages,
                           start: Int64(v["start"]?.doubleValue ?? 0), end: Int64(v["end"]?.doubleValue ?? 0))
    }

    /// The `detail` text of a sleep figure.
    static func detail(of f: SleepFigure) -> String {
        var w = JSONWriter(capacity: 96)
        var members: [(String, JSONValue)] = [("start", .number(Double(f.start))), ("end", .number(Double(f.end)))]
        for s in SleepStage.allCases { if let m = f.stages[s] { members.append((s.rawValue, .number((m * 1000).rounded() / 1000))) } }
        w.value(.object(members))
        return w.text
    }
}

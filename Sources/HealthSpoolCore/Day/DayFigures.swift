/// One day's (or night's) sleep.
public struct SleepFigure: Hashable, Sendable {
    public var asleepMinutes: Double
    public var inBedMinutes: Double
    /// Minutes by stage (core, deep, REM from the best source with stages; awake not asleep).
    public var stages: [SleepStage: Double]
    /// The first night's start and the last night's end, in milliseconds.
    public var start: Int64
    public var end: Int64

    public init(asleepMinutes: Double, inBedMinutes: Double, stages: [SleepStage: Double] = [:], start: Int64, end: Int64) {
        self.asleepMinutes = asleepMinutes
        self.inBedMinutes = inBedMinutes
        self.stages = stages
        self.start = start
        self.end = end
    }
}

/// Readings of one measure: lowest, highest, sum and count (so the mean).
public struct ReadingRange: Hashable, Sendable {
    public var min = Double.infinity
    public var max = -Double.infinity
    public var sum = 0.0
    public var count = 0

    public init() {}

    public init(min: Double, max: Double, sum: Double, count: Int) {
        self.min = min
        self.max = max
        self.sum = sum
        self.count = count
    }

    /// The mean of the readings (0 with none).
    public var average: Double { count == 0 ? 0 : sum / Double(count) }

    /// Counts one reading.
    public mutating func add(_ v: Double) {
        min = Swift.min(min, v)
        max = Swift.max(max, v)
        sum += v
        count += 1
    }
}

/// Heart rate figures: the day's readings (`hr.min`, `hr.average`, … read through to them)
/// and its curve.
@dynamicMemberLookup
public struct HeartRateFigure: Hashable, Sendable {
    public var readings = ReadingRange()
    /// The day's curve (empty when read from a rollup).
    public var curve: [HeartRatePoint] = []
    /// The mean weighted by time (`TimeWeightedMean`): each reading counts for the time until
    /// the next, at most `TimeWeightedMean.cap`; what the day's average says. A one-hour
    /// workout read every few seconds no longer outweighs the rest of the day.
    public var weightedAverage: Double

    public init(readings: ReadingRange = ReadingRange(), curve: [HeartRatePoint] = [], weightedAverage: Double? = nil) {
        self.readings = readings
        self.curve = curve
        self.weightedAverage = weightedAverage ?? readings.average
    }

    /// A field of `readings` (`min`, `max`, `sum`, `count`, `average`).
    public subscript<T>(dynamicMember field: KeyPath<ReadingRange, T>) -> T { readings[keyPath: field] }
}

/// A point of the heart-rate curve: the readings of one bucket starting at `time` (ms);
/// `point.min`, `point.average`, … read through to them.
@dynamicMemberLookup
public struct HeartRatePoint: Hashable, Sendable {
    public var time: Int64
    public var readings = ReadingRange()

    public init(time: Int64, readings: ReadingRange = ReadingRange()) {
        self.time = time
        self.readings = readings
    }

    /// A field of `readings` (`min`, `max`, `sum`, `count`, `average`).
    public subscript<T>(dynamicMember field: KeyPath<ReadingRange, T>) -> T { readings[keyPath: field] }
}

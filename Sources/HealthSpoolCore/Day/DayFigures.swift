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

/// Heart rate figures: lowest, highest, mean and count of readings.
public struct HeartRateFigure: Hashable, Sendable {
    public var min = Double.infinity
    public var max = -Double.infinity
    public var sum = 0.0
    public var count = 0
    /// The day's curve (empty when read from a rollup).
    public var curve: [HeartRatePoint] = []

    public init() {}

    public init(min: Double, max: Double, sum: Double, count: Int) {
        self.min = min
        self.max = max
        self.sum = sum
        self.count = count
    }

    public var average: Double { count == 0 ? 0 : sum / Double(count) }

    mutating func add(_ v: Double) {
        min = Swift.min(min, v)
        max = Swift.max(max, v)
        sum += v
        count += 1
    }
}

/// A point of the heart-rate curve: the readings of one bucket starting at `time` (ms).
public struct HeartRatePoint: Hashable, Sendable {
    public var time: Int64
    public var min = Double.infinity
    public var max = -Double.infinity
    public var sum = 0.0
    public var count = 0

    public init(time: Int64) { self.time = time }

    public var average: Double { count == 0 ? 0 : sum / Double(count) }

    mutating func add(_ v: Double) {
        min = Swift.min(min, v)
        max = Swift.max(max, v)
        sum += v
        count += 1
    }
}

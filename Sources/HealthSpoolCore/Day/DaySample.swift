/// A sample as the day-total rules see it: its interval in milliseconds, value, source and,
/// for sleep, its stage.
public struct DaySample: Hashable, Sendable {
    public var start: Int64
    public var end: Int64
    public var value: Double
    /// The source's name (identity for merging: samples of one name are one source).
    public var source: String
    /// The device text, consulted for the source's priority only.
    public var device: String?
    /// The sleep stage of a `sleepAnalysis` or `timeInBed` sample; nil for other types.
    public var stage: SleepStage?

    public init(start: Int64, end: Int64, value: Double, source: String, device: String? = nil, stage: SleepStage? = nil) {
        self.start = start
        self.end = max(start, end)
        self.value = value
        self.source = source
        self.device = device
        self.stage = stage
    }
}

/// A stage of sleep, read from a sample's `sleepStage` metadata (HealthKit's identifiers or
/// Health Auto Export's names).
public enum SleepStage: String, Hashable, Sendable, CaseIterable {
    case inBed, awake, asleep, core, deep, rem

    /// Whether the stage counts as asleep.
    public var isAsleep: Bool { self == .asleep || self == .core || self == .deep || self == .rem }

    /// The stage of a sample of `type` with `sleepStage` metadata `text` (nil text: asleep for
    /// `sleepAnalysis`, in bed for `timeInBed`).
    public init(type: String, metadata text: String?) {
        let t = (text ?? "").lowercased()
        if type == "timeInBed" || t.hasSuffix("inbed") { self = .inBed }
        else if t.hasSuffix("awake") { self = .awake }
        else if t.hasSuffix("core") { self = .core }
        else if t.hasSuffix("deep") { self = .deep }
        else if t.hasSuffix("rem") { self = .rem }
        else { self = .asleep }
    }
}

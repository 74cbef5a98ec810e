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
    /// Whether the interval only stands for a day: a night given without its own times (a date,
    /// laid over its 00:00–24:00). Such a sample counts as its value, not its span.
    public var valueOnly: Bool
    /// Whether the sample is one night's total over its own times (a Health Auto Export night
    /// with `sleepStart`/`sleepEnd`): its value is the night's figure, its interval only says
    /// when the night was (its span also holds the time awake), and it joins no other night.
    public var nightTotal: Bool

    public init(start: Int64, end: Int64, value: Double, source: String, device: String? = nil, stage: SleepStage? = nil,
                valueOnly: Bool = false, nightTotal: Bool = false) {
        self.start = start
        self.end = max(start, end)
        self.value = value
        self.source = source
        self.device = device
        self.stage = stage
        self.valueOnly = valueOnly
        self.nightTotal = nightTotal && !valueOnly
    }

    /// Whether a Health Auto Export night of `type` with `metadata` was given without its own
    /// times: asleep without `sleepStart`/`sleepEnd`, in bed without `inBedStart`/`inBedEnd`
    /// and not laid over the asleep span (`inBedSpan`) — earlier versions laid it over `date` + 24 h.
    public static func isValueOnly(type: String, metadata: [String: String]) -> Bool {
        guard metadata["aggregation"] == "day" else { return false }
        if type == "timeInBed" { return (metadata["inBedStart"] == nil || metadata["inBedEnd"] == nil) && metadata["inBedSpan"] == nil }
        return metadata["sleepStart"] == nil || metadata["sleepEnd"] == nil
    }

    /// Whether a sample of `type` with `metadata` is a Health Auto Export night given with its own
    /// times (`nightTotal`): aggregated by day and not value-only.
    public static func isNightTotal(type: String, metadata: [String: String]) -> Bool {
        metadata["aggregation"] == "day" && !isValueOnly(type: type, metadata: metadata)
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

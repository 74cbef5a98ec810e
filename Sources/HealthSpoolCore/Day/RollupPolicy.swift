/// What daily rollups are computed with: the zone that draws the days and the source priority.
/// Rollups computed under another policy are rebuilt (`key` differs).
public struct RollupPolicy: Hashable, Sendable {
    public var zone: ZoneRules
    public var priority: SourcePriority

    public init(zone: ZoneRules = .utc, priority: SourcePriority = .standard) {
        self.zone = zone
        self.priority = priority
    }

    /// Identifies the policy in the store (`v3` names this version of the rules: v1 merged
    /// cumulative types by time in proportion, v2 by stretches, v3 counts sleep given without
    /// times as its value, v4 counts a night given as a total over its times as its value, on
    /// the day it ends, joined with no other night; stores of an earlier version rebuild).
    public var key: String { "v4|" + zone.name + "|" + priority.description }

    /// The local day (days since 1970-01-01) of the instant `millis`.
    public func day(ofMillis millis: Int64) -> Int64 {
        let s = Timestamp.floorDivide(millis, 1000).0
        return Timestamp.floorDivide(s + Int64(zone.offset(atUTCSeconds: s)), 86_400).0
    }

    /// The instants `[start, end)` of local day `day`.
    public func bounds(ofDay day: Int64) -> (Int64, Int64) {
        WallClock.bounds(of: CivilDate(daysSinceEpoch: day), zone: zone)
    }

    /// The days whose rollup of `type` a sample over `[start, end]` can change: the days it
    /// touches, and for sleep the days a night it joins may end on.
    public func days(type: String, start: Int64, end: Int64) -> ClosedRange<Int64> {
        days(sleep: DayMerge.sleepTypes.contains(type), start: start, end: end)
    }

    /// `days(type:start:end:)` for a type already known to be sleep or not (an import asks it
    /// once a type, not once a sample).
    public func days(sleep: Bool, start: Int64, end: Int64) -> ClosedRange<Int64> {
        if sleep {
            return day(ofMillis: start - DayMerge.nightGapMillis)...day(ofMillis: end + DayMerge.nightGapMillis) + 1
        }
        // A sample longer than the lookback counts only for the days it reaches within it.
        let last = min(end > start ? end - 1 : start, start + DayMerge.lookbackMillis)
        return day(ofMillis: start)...max(day(ofMillis: start), day(ofMillis: last))
    }
}

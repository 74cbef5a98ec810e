/// The day-total rules: each moment counted once, as the Health app does (docs/formats.md,
/// "Day totals"). Pure functions: samples, source priority and day bounds in, figures out.
public enum DayMerge {
    /// Types whose samples add up over time, merged by source priority.
    public static let cumulativeTypes: Set<String> = [
        "stepCount", "distanceWalkingRunning", "distanceCycling", "flightsClimbed",
        "activeEnergyBurned", "basalEnergyBurned",
    ]
    /// The types sleep figures are read from.
    public static let sleepTypes: Set<String> = ["sleepAnalysis", "timeInBed"]
    /// Sleep intervals closer than this belong to one night (a short wake-up does not split it).
    public static let nightGapMillis: Int64 = 2 * 3_600_000
    /// How far before a day the samples that may count for it are read: the longest sample (or
    /// night) a day total takes into account.
    public static let lookbackMillis: Int64 = 48 * 3_600_000

    /// The total of a cumulative type over `[from, to)`: one source's count per stretch.
    ///
    /// Each sample is first cut to the bounds; its share is its value times the part of its
    /// interval inside them, divided by its whole interval (an instant counts whole inside).
    /// The cut samples of every source are joined into stretches where they overlap (touching
    /// is not overlapping; an instant joins the stretch whose time holds it). In each stretch
    /// only the highest source that has a sample in it counts (`priority`, then name), all of its
    /// shares there; lower sources count only in stretches where no higher one has anything.
    /// The day total is that sum, raised to the largest single source's own total when it is
    /// below it: each source's total is steps that were taken, so the merged total never says
    /// fewer (docs/formats.md, "Day totals"). Hence, for non-negative values, the largest
    /// source's total ≤ the result ≤ the sum of the sources' totals.
    public static func cumulativeTotal(_ samples: [DaySample], from: Int64, to: Int64, priority: SourcePriority) -> Double {
        cumulativeTotal(samples, from: from, to: to, ranks: sourceRanks(samples, priority: priority))
    }

    /// The total of a cumulative type over `[from, to)`, with each source's rank given: `ranks`
    /// holds every source of `samples`, ranked as `sourceRanks` does (the best rank of its
    /// devices). A caller that ranks each distinct source once, across days, passes its cache's
    /// figures here instead of ranking the day's samples again.
    public static func cumulativeTotal(_ samples: [DaySample], from: Int64, to: Int64, ranks: [String: Int]) -> Double {
        var cut: [(start: Int64, end: Int64, share: Double, source: String)] = []
        cut.reserveCapacity(samples.count)
        for s in samples {
            if s.end == s.start {
                if s.start >= from, s.start < to { cut.append((s.start, s.start, s.value, s.source)) }
                continue
            }
            let a = max(s.start, from), b = min(s.end, to)
            guard b > a else { continue }
            cut.append((a, b, s.value * Double(b - a) / Double(s.end - s.start), s.source))
        }
        cut.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        var bySource: [String: Double] = [:]
        var merged = 0.0
        // The open stretch: its end, the time of its latest instant, and its sources' shares.
        var stretchEnd = Int64.min, instantAt: Int64?
        var stretch: [String: Double] = [:]
        func close() {
            guard let best = stretch.keys.min(by: { (ranks[$0]!, $0) < (ranks[$1]!, $1) }) else { return }
            merged += stretch[best]!
            stretch.removeAll(keepingCapacity: true)
        }
        for c in cut {
            if !(c.start < stretchEnd || c.start == instantAt) {
                close()
                stretchEnd = c.end
                instantAt = nil
            }
            stretchEnd = max(stretchEnd, c.end)
            if c.start == c.end { instantAt = c.start }
            stretch[c.source, default: 0] += c.share
            bySource[c.source, default: 0] += c.share
        }
        close()
        return max(merged, bySource.values.max() ?? 0)
    }

    /// Each source's rank: the best rank of any of its devices.
    ///
    /// A source's rank is looked up once per run of samples from the same source and device (the
    /// store reads them in runs): ranking lowercases and searches both names, which per sample
    /// was most of the rollups' share of an import (BENCHMARKS.md, "Daily rollups").
    static func sourceRanks(_ samples: [DaySample], priority: SourcePriority) -> [String: Int] {
        var rank: [String: Int] = [:]
        var last: (source: String, device: String?)?
        for s in samples {
            if let l = last, l.source == s.source, l.device == s.device { continue }
            last = (s.source, s.device)
            let r = priority.rank(name: s.source, device: s.device)
            rank[s.source] = min(rank[s.source] ?? r, r)
        }
        return rank
    }

    /// The samples grouped by source, highest priority first (ties by name, for a stable order).
    static func bySource(_ samples: [DaySample], priority: SourcePriority) -> [[DaySample]] {
        var groups: [String: [DaySample]] = [:]
        for s in samples { groups[s.source, default: []].append(s) }
        let rank = sourceRanks(samples, priority: priority)
        return groups.keys.sorted { (rank[$0]!, $0) < (rank[$1]!, $1) }.map { groups[$0]! }
    }

    /// The sleep of the nights that end in `(dayStart, dayEnd]`.
    ///
    /// Nights are the sleep samples (any stage, in bed included) joined where they overlap or
    /// lie less than `nightGapMillis` apart; a night belongs to the day it ends on. Asleep is
    /// the union of its asleep intervals (core, deep, REM, unspecified) over every source, never
    /// their sum; in bed the union of all its intervals. Stages come from the highest-priority
    /// source that recorded stages in those nights.
    ///
    /// A night given as a total (`DaySample.nightTotal`: its value the night's minutes, its
    /// interval from falling asleep to waking, time awake included) joins no other night, so a
    /// night whose end touches the next one's start stays on its own day; it counts as its value
    /// on the day it ends on. A value-only sample (`DaySample.valueOnly`: a night given without
    /// times) joins no night either and counts as its value on the day that holds the middle of
    /// its interval. Such values of one source on one day add up where their spans do not overlap
    /// (two naps) and count once where they do (one night exported twice, `largestSourceTotal`);
    /// asleep is the larger of the nights' asleep and each source's asleep values, in bed the
    /// larger of the nights' in bed, such values and asleep. Invariant, kept by cutting: asleep ≤ in bed ≤ the day's length.
    public static func sleep(_ samples: [DaySample], dayStart: Int64, dayEnd: Int64, priority: SourcePriority) -> SleepFigure? {
        let sleepSamples = samples.filter { $0.stage != nil && $0.end > $0.start && !$0.valueOnly && !$0.nightTotal }
        let values = samples.filter { s in
            guard s.stage != nil, s.valueOnly || s.nightTotal, s.value.isFinite, s.value > 0 else { return false }
            if s.nightTotal { return s.end > dayStart && s.end <= dayEnd }
            let middle = s.start + (s.end - s.start) / 2
            return middle >= dayStart && middle < dayEnd
        }
        let nights = joined(sleepSamples.map { ($0.start, $0.end) }, gap: nightGapMillis)
            .filter { $0.1 > dayStart && $0.1 <= dayEnd }
        guard !nights.isEmpty || !values.isEmpty else { return nil }
        let mine = sleepSamples.filter { s in nights.contains { s.start < $0.1 && s.end > $0.0 } }
        let asleep = IntervalSet(mine.filter { $0.stage!.isAsleep }.map { ($0.start, $0.end) })
        let inBed = IntervalSet(mine.map { ($0.start, $0.end) })
        let awake = IntervalSet(mine.filter { $0.stage == .awake }.map { ($0.start, $0.end) })
        var stages: [SleepStage: Double] = [:]
        let staged = mine.filter { [.core, .deep, .rem].contains($0.stage!) }
        if let best = bySource(staged, priority: priority).first {
            for stage in [SleepStage.core, .deep, .rem] {
                let set = IntervalSet(best.filter { $0.stage == stage }.map { ($0.start, $0.end) })
                stages[stage] = Double(set.length) / 60_000
            }
        }
        let awakeOnly = awake.intervals.reduce(Int64(0)) { $0 + ($1.end - $1.start) - asleep.covered($1.start, $1.end) }
        if awakeOnly > 0 { stages[.awake] = Double(awakeOnly) / 60_000 }
        let dayMinutes = Double(dayEnd - dayStart) / 60_000
        var asleepMinutes = Double(asleep.length) / 60_000, inBedMinutes = Double(inBed.length) / 60_000
        asleepMinutes = max(asleepMinutes, largestSourceTotal(values.filter { $0.stage!.isAsleep }))
        inBedMinutes = max(inBedMinutes, largestSourceTotal(values.filter { !$0.stage!.isAsleep }))
        inBedMinutes = min(max(inBedMinutes, asleepMinutes), dayMinutes)
        asleepMinutes = min(asleepMinutes, inBedMinutes)
        let spans = nights + values.map { ($0.start, $0.end) }
        return SleepFigure(asleepMinutes: asleepMinutes, inBedMinutes: inBedMinutes, stages: stages,
                           start: spans.map(\.0).min()!, end: spans.map(\.1).max()!)
    }

    /// The largest of the sources' totals of night values: within a source, values whose spans
    /// overlap are one night given twice (a later export that moved its end) and count as the
    /// larger; values apart (or touching) add up.
    static func largestSourceTotal(_ values: [DaySample]) -> Double {
        var bySource: [String: [DaySample]] = [:]
        for v in values { bySource[v.source, default: []].append(v) }
        return bySource.values.map { list in
            var total = 0.0, groupEnd = Int64.min, groupMax = 0.0
            for v in list.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
                if v.start < groupEnd {
                    groupMax = max(groupMax, v.value)
                    groupEnd = max(groupEnd, v.end)
                } else {
                    total += groupMax
                    groupMax = v.value
                    groupEnd = v.end
                }
            }
            return total + groupMax
        }.max() ?? 0
    }

    /// Intervals joined where they overlap or lie at most `gap` apart, in order.
    static func joined(_ spans: [(Int64, Int64)], gap: Int64) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        for (s, e) in spans.sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, s <= last.1 + gap { out[out.count - 1].1 = max(last.1, e) } else { out.append((s, e)) }
        }
        return out
    }

    /// Heart rate over the samples that start in `[from, to)`: lowest, highest, mean of the
    /// readings, the mean weighted by time (`TimeWeightedMean`, each reading counting until the
    /// next, at most until `to`), and the curve as one point per `bucketMillis` that has readings.
    public static func heartRate(_ samples: [DaySample], from: Int64, to: Int64, bucketMillis: Int64 = 15 * 60_000) -> HeartRateFigure? {
        var figure = HeartRateFigure()
        var buckets: [Int64: HeartRatePoint] = [:]
        var readings: [(Int64, Double)] = []
        for s in samples where s.start >= from && s.start < to && s.value.isFinite {
            figure.readings.add(s.value)
            readings.append((s.start, s.value))
            let key = from + (s.start - from) / bucketMillis * bucketMillis
            buckets[key, default: HeartRatePoint(time: key)].readings.add(s.value)
        }
        guard figure.count > 0 else { return nil }
        figure.curve = buckets.keys.sorted().map { buckets[$0]! }
        figure.weightedAverage = TimeWeightedMean.mean(readings, end: to) ?? figure.average
        return figure
    }
}

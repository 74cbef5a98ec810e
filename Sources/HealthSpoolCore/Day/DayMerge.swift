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

    /// The total of a cumulative type over `[from, to)`.
    ///
    /// Sources are taken in priority order (`priority`, then name). A source counts only where
    /// no higher source has a sample: each of its samples counts in proportion to the part of
    /// its interval that lies inside the bounds and outside every higher source's samples. An
    /// instant sample (start = end) counts whole when it lies inside and uncovered. Samples of
    /// one source do not cover each other.
    public static func cumulativeTotal(_ samples: [DaySample], from: Int64, to: Int64, priority: SourcePriority) -> Double {
        var covered = IntervalSet()
        var total = 0.0
        for group in bySource(samples, priority: priority) {
            for s in group {
                if s.end == s.start {
                    if s.start >= from, s.start < to, !covered.contains(s.start) { total += s.value }
                    continue
                }
                let a = max(s.start, from), b = min(s.end, to)
                guard b > a else { continue }
                let free = (b - a) - covered.covered(a, b)
                if free > 0 { total += s.value * Double(free) / Double(s.end - s.start) }
            }
            covered = covered.union(IntervalSet(group.map { ($0.start, $0.end) }))
        }
        return total
    }

    /// The samples grouped by source, highest priority first (ties by name, for a stable order).
    ///
    /// A source's rank is looked up once per run of samples from the same source and device (the
    /// store reads them in runs): ranking lowercases and searches both names, which per sample
    /// was most of the rollups' share of an import (BENCHMARKS.md, "Daily rollups").
    static func bySource(_ samples: [DaySample], priority: SourcePriority) -> [[DaySample]] {
        var groups: [String: [DaySample]] = [:]
        var rank: [String: Int] = [:]
        var last: (source: String, device: String?)?
        for s in samples {
            groups[s.source, default: []].append(s)
            if let l = last, l.source == s.source, l.device == s.device { continue }
            last = (s.source, s.device)
            let r = priority.rank(name: s.source, device: s.device)
            rank[s.source] = min(rank[s.source] ?? r, r)
        }
        return groups.keys.sorted { (rank[$0]!, $0) < (rank[$1]!, $1) }.map { groups[$0]! }
    }

    /// The sleep of the nights that end in `(dayStart, dayEnd]`.
    ///
    /// Nights are the sleep samples (any stage, in bed included) joined where they overlap or
    /// lie less than `nightGapMillis` apart; a night belongs to the day it ends on. Asleep is
    /// the union of its asleep intervals (core, deep, REM, unspecified) over every source, never
    /// their sum; in bed the union of all its intervals. Stages come from the highest-priority
    /// source that recorded stages in those nights.
    public static func sleep(_ samples: [DaySample], dayStart: Int64, dayEnd: Int64, priority: SourcePriority) -> SleepFigure? {
        let sleepSamples = samples.filter { $0.stage != nil && $0.end > $0.start }
        let nights = joined(sleepSamples.map { ($0.start, $0.end) }, gap: nightGapMillis)
            .filter { $0.1 > dayStart && $0.1 <= dayEnd }
        guard !nights.isEmpty else { return nil }
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
        return SleepFigure(asleepMinutes: Double(asleep.length) / 60_000, inBedMinutes: Double(inBed.length) / 60_000,
                           stages: stages, start: nights.first!.0, end: nights.last!.1)
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
    /// readings, and the curve as one point per `bucketMillis` that has readings.
    public static func heartRate(_ samples: [DaySample], from: Int64, to: Int64, bucketMillis: Int64 = 15 * 60_000) -> HeartRateFigure? {
        var figure = HeartRateFigure()
        var buckets: [Int64: HeartRatePoint] = [:]
        for s in samples where s.start >= from && s.start < to && s.value.isFinite {
            figure.readings.add(s.value)
            let key = from + (s.start - from) / bucketMillis * bucketMillis
            buckets[key, default: HeartRatePoint(time: key)].readings.add(s.value)
        }
        guard figure.count > 0 else { return nil }
        figure.curve = buckets.keys.sorted().map { buckets[$0]! }
        return figure
    }
}

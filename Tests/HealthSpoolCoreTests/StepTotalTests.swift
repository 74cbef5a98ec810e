import Testing
@testable import HealthSpoolCore

/// A seeded generator (SplitMix64): the same days on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Issue 30: two step counters on one person count the same steps once — one source's count per
/// stretch, the preferred one, and the day never below the largest single source.
@Suite struct StepTotalTests {
    static let h: Int64 = 3_600_000, m: Int64 = 60_000
    /// 2026-01-01T00:00:00Z.
    static let jan1: Int64 = 1_767_225_600_000
    let h = StepTotalTests.h, m = StepTotalTests.m, s: Int64 = 1000

    func steps(_ from: Int64, _ to: Int64, _ value: Double, _ source: String) -> DaySample {
        DaySample(start: Self.jan1 + from, end: Self.jan1 + to, value: value, source: source)
    }

    func total(_ samples: [DaySample], priority: SourcePriority = .standard) -> Double {
        DayMerge.cumulativeTotal(samples, from: Self.jan1, to: Self.jan1 + 24 * h, priority: priority)
    }

    /// Each source's own total over the day: its samples' values in proportion to the part of
    /// their interval inside the day (an instant whole when inside).
    static func sourceTotals(_ samples: [DaySample], from: Int64, to: Int64) -> [String: Double] {
        var out: [String: Double] = [:]
        for s in samples {
            if s.start == s.end {
                if s.start >= from, s.start < to { out[s.source, default: 0] += s.value }
                continue
            }
            let a = max(s.start, from), b = min(s.end, to)
            if b > a { out[s.source, default: 0] += s.value * Double(b - a) / Double(s.end - s.start) }
        }
        return out
    }

    /// A day of walking: steps per minute (0 where still), about `walks` walks of a few to 40 minutes.
    static func walkingMinutes(walks: Int, using rng: inout SeededGenerator) -> [Double] {
        var minutes = [Double](repeating: 0, count: 24 * 60)
        for _ in 0..<walks {
            let start = Int.random(in: 0..<(24 * 60 - 45), using: &rng)
            for i in start..<(start + Int.random(in: 2...40, using: &rng)) { minutes[i] = Double(Int.random(in: 60...130, using: &rng)) }
        }
        return minutes
    }

    /// A phone's bursts: each run of walking minutes cut into bursts of 1 to 5 minutes.
    func bursts(_ minutes: [Double], source: String, using rng: inout SeededGenerator) -> [DaySample] {
        var out: [DaySample] = []
        var i = 0
        while i < minutes.count {
            guard minutes[i] > 0 else { i += 1; continue }
            var j = i
            let limit = i + Int.random(in: 1...5, using: &rng)
            while j < minutes.count, j < limit, minutes[j] > 0 { j += 1 }
            out.append(steps(Int64(i) * m, Int64(j) * m, minutes[i..<j].reduce(0, +), source))
            i = j
        }
        return out
    }

    /// A band's buckets of `size` minutes from `offset`, each the sum of its minutes (none where 0).
    func buckets(_ minutes: [Double], size: Int, offset: Int = 0, source: String) -> [DaySample] {
        var out: [DaySample] = []
        var start = offset - size
        while start < minutes.count {
            let lo = max(start, 0), hi = min(start + size, minutes.count)
            let sum = lo < hi ? minutes[lo..<hi].reduce(0, +) : 0
            if sum > 0 { out.append(steps(Int64(lo) * m, Int64(hi) * m, sum, source)) }
            start += size
        }
        return out
    }

    /// Property: for every day, the largest source's total ≤ the total ≤ the sum of the sources'
    /// totals, over random days of one to four sources with bursts, buckets, long samples,
    /// instants and samples across midnight, under three priorities.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theTotalLiesBetweenTheLargestSourceAndTheSum(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let names = ["Anna's Apple Watch", "Anna's iPhone", "Mi Fit", "Pedometer++"]
        let priorities = [SourcePriority.standard, SourcePriority(["phone", "watch"]), SourcePriority(["fit", "pedometer"])]
        for day in 0..<250 {
            var samples: [DaySample] = []
            for source in names.shuffled(using: &rng).prefix(Int.random(in: 1...4, using: &rng)) {
                for _ in 0..<Int.random(in: 0...60, using: &rng) {
                    let start = Int64.random(in: -2 * h..<26 * h, using: &rng)
                    let length: Int64 = switch Int.random(in: 0..<6, using: &rng) {
                    case 0: 0
                    case 1: Int64.random(in: 1...5, using: &rng) * m
                    case 2: 10 * m
                    case 3: h
                    case 4: Int64.random(in: 1...300, using: &rng) * m
                    default: Int64.random(in: 1...20, using: &rng) * m + Int64.random(in: 0..<m, using: &rng)
                    }
                    samples.append(steps(start, start + length, Double(Int.random(in: 0...2000, using: &rng)), source))
                }
            }
            let priority = priorities[day % priorities.count]
            let totals = Self.sourceTotals(samples, from: Self.jan1, to: Self.jan1 + 24 * h)
            let largest = totals.values.max() ?? 0, sum = totals.values.reduce(0, +)
            let t = total(samples, priority: priority)
            let slack = 1e-9 * max(1, sum)
            #expect(t >= largest - slack && t <= sum + slack, "seed \(seed) day \(day): \(t) outside [\(largest), \(sum)]")
        }
    }

    /// Property: a phone's bursts and a band's 10-minute buckets that count the same steps give
    /// the true count, whichever source is preferred — not up to 1.59 times it.
    @Test(arguments: [UInt64(11), 12, 13])
    func burstsAgainstBucketsGiveTheTrueCount(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for day in 0..<100 {
            let minutes = Self.walkingMinutes(walks: Int.random(in: 1...30, using: &rng), using: &rng)
            let truth = minutes.reduce(0, +)
            let samples = bursts(minutes, source: "Anna's iPhone", using: &rng) + buckets(minutes, size: 10, source: "Mi Fit")
            #expect(total(samples) == truth, "seed \(seed) day \(day): phone preferred")
            #expect(total(samples, priority: SourcePriority(["fit"])) == truth, "seed \(seed) day \(day): band preferred")
        }
    }

    /// The worst day in small: a 3-minute burst inside each 10-minute bucket, the same steps.
    @Test func aBurstInsideABucketCountsOnce() {
        let samples = [steps(10 * h + 2 * m, 10 * h + 5 * m, 300, "Anna's iPhone"), steps(10 * h, 10 * h + 10 * m, 300, "Mi Fit"),
                       steps(11 * h + 8 * m, 11 * h + 12 * m, 400, "Anna's iPhone"),
                       steps(11 * h, 11 * h + 10 * m, 250, "Mi Fit"), steps(11 * h + 10 * m, 11 * h + 20 * m, 150, "Mi Fit")]
        #expect(total(samples) == 700)
    }

    /// Two bands with buckets of 10 and 15 minutes, shifted, counting the same steps.
    @Test(arguments: [UInt64(21), 22])
    func bucketsAgainstBucketsGiveTheTrueCount(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for day in 0..<100 {
            let minutes = Self.walkingMinutes(walks: Int.random(in: 1...30, using: &rng), using: &rng)
            let truth = minutes.reduce(0, +)
            let samples = buckets(minutes, size: 10, source: "Mi Fit") + buckets(minutes, size: 15, offset: 7, source: "Withings")
            #expect(total(samples) == truth, "seed \(seed) day \(day)")
        }
    }

    /// A watch and a phone on one walk: the watch's count; the phone alone while the watch charges.
    @Test func watchAgainstPhone() {
        let walk = [steps(8 * h, 8 * h + 1 * m, 110, "Anna's Apple Watch"), steps(8 * h + m, 8 * h + 7 * m, 640, "Anna's Apple Watch"),
                    steps(8 * h + 7 * m, 8 * h + 15 * m, 900, "Anna's Apple Watch"),
                    steps(8 * h + 30 * s, 8 * h + 4 * m, 420, "Anna's iPhone"), steps(8 * h + 6 * m, 8 * h + 14 * m, 1100, "Anna's iPhone")]
        let charging = [steps(19 * h, 19 * h + 12 * m, 1300, "Anna's iPhone")]
        #expect(total(walk + charging) == 1650 + 1300)
        // The phone preferred: its count on the walk, 1520, the watch's nowhere else.
        #expect(total(walk + charging, priority: SourcePriority(["phone", "watch"])) == 1520 + 1300)
    }
    /// A preferred source that counted less on the only stretch: the day is the larger source's.
    @Test func theDayIsNeverBelowTheLargestSource() {
        let samples = [steps(10 * h, 10 * h + 3 * m, 100, "Anna's iPhone"), steps(10 * h, 10 * h + 10 * m, 800, "Mi Fit")]
        #expect(total(samples) == 800)
    }
}

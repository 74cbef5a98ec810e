import Testing
@testable import HealthSpoolCore

/// Issue 40, item 4: a Health Auto Export night given as a total over its own times shows, on
/// the day it ends on, what was stored for it: never joined with the next night, never its
/// whole span counted as asleep.
@Suite struct NightTotalTests {
    static let h: Int64 = 3_600_000, m: Int64 = 60_000
    /// 2026-01-01T00:00:00Z.
    static let jan1: Int64 = 1_767_225_600_000
    let h = NightTotalTests.h, m = NightTotalTests.m

    /// An aggregated night as the store reads it back: `value` minutes over `from`…`to`.
    func night(_ from: Int64, _ to: Int64, _ value: Double, _ stage: SleepStage = .asleep, source: String = "Health Auto Export") -> DaySample {
        DaySample(start: Self.jan1 + from, end: Self.jan1 + to, value: value, source: source, stage: stage,
                  nightTotal: DaySample.isNightTotal(type: stage == .inBed ? "timeInBed" : "sleepAnalysis",
                                                     metadata: ["aggregation": "day", "sleepStart": "x", "sleepEnd": "y", "inBedSpan": "sleep"]))
    }

    func day(_ n: Int64, _ samples: [DaySample]) -> SleepFigure? {
        DayMerge.sleep(samples, dayStart: Self.jan1 + n * 24 * h, dayEnd: Self.jan1 + (n + 1) * 24 * h, priority: .standard)
    }

    /// The shape of the report: a night stored as 553.5 min whose end touches the next night's
    /// start (stored as 441). Each shows on the day it ends, as stored.
    @Test func touchingNightsStayApartEachOnItsOwnDay() throws {
        let first = night(-2 * h, 9 * h + 30 * m, 553.5)              // 31 Dec 22:00 → 1 Jan 09:30
        let second = night(9 * h + 30 * m, 24 * h + 7 * h, 441)       // 1 Jan 09:30 → 2 Jan 07:00
        let jan1 = try #require(day(0, [first, second]))
        #expect(jan1.asleepMinutes == 553.5)
        let jan2 = try #require(day(1, [first, second]))
        #expect(jan2.asleepMinutes == 441)
        #expect(jan2.start == second.start && jan2.end == second.end)
    }

    /// A night of 441 min asleep from 22:00 to 08:00 (600 min, awake time inside): 441, not 600;
    /// its in-bed total (480) is the in-bed figure.
    @Test func aNightsSpanIsNotItsSleep() throws {
        let samples = [night(-2 * h, 8 * h, 441), night(-2 * h, 8 * h, 480, .inBed)]
        let f = try #require(day(0, samples))
        #expect(f.asleepMinutes == 441)
        #expect(f.inBedMinutes == 480)
    }

    /// The stored total and another source's segments for the same night: the larger, not the sum.
    @Test func aTotalBesideSegmentsCountsOnce() throws {
        let segments = DaySample(start: Self.jan1 - 1 * h, end: Self.jan1 + 6 * h, value: 420, source: "Apple Watch", stage: .core)
        let f = try #require(day(0, [night(-2 * h, 8 * h, 441), segments]))
        #expect(f.asleepMinutes == 441)
    }

    /// One night exported twice with a moved end (its id holds its span) counts once, the larger;
    /// an afternoon nap of the same source adds to it.
    @Test func aNightExportedTwiceCountsOnceAndANapAdds() throws {
        let f = try #require(day(0, [night(-2 * h, 7 * h, 420), night(-2 * h, 8 * h, 441), night(14 * h, 15 * h, 50)]))
        #expect(f.asleepMinutes == 491)
    }

    /// Without `sleepStart`/`sleepEnd` a night is value-only (counted on the day holding its
    /// middle), not a night total.
    @Test func aNightWithoutTimesIsNotANightTotal() {
        #expect(!DaySample.isNightTotal(type: "sleepAnalysis", metadata: ["aggregation": "day"]))
        #expect(DaySample.isNightTotal(type: "sleepAnalysis", metadata: ["aggregation": "day", "sleepStart": "a", "sleepEnd": "b"]))
        #expect(!DaySample.isNightTotal(type: "sleepAnalysis", metadata: ["sleepStage": "core"]))
    }

    /// Property: a run of aggregated nights (touching, overlapping by up to an hour, or apart),
    /// one ending on each day, spans longer than their totals: every day shows exactly the
    /// night that ends on it.
    @Test(arguments: [UInt64(1), 2, 3, 40, 286])
    func everyDayShowsTheNightThatEndsOnIt(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        var samples: [DaySample] = [], stored: [Int64: Double] = [:]
        var start = -3 * h
        for d in Int64(0)..<60 {
            let end = d * 24 * h + Int64.random(in: 5 * h...14 * h, using: &g)   // wakes on day d
            guard end > start else { continue }
            let spanMinutes = Double(end - start) / Double(m)
            let asleep = (Double.random(in: 0.3...1.0, using: &g) * min(spanMinutes, 900) * 2).rounded() / 2
            samples.append(night(start, end, asleep))
            stored[d] = asleep
            // The next night starts where this one ended, up to an hour before, or hours later.
            start = end + Int64.random(in: -1 * h...10 * h, using: &g)
        }
        for (d, asleep) in stored {
            let f = try #require(day(d, samples.shuffled(using: &g)))
            #expect(f.asleepMinutes == asleep, "day \(d)")
        }
    }
}

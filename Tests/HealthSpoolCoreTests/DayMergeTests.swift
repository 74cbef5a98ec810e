import Testing
@testable import HealthSpoolCore

/// The day-total rules: source priority, proportional boundaries, sleep union, nights, DST days.
@Suite struct DayMergeTests {
    static let h: Int64 = 3_600_000, m: Int64 = 60_000
    /// 2026-01-01T00:00:00Z.
    static let jan1: Int64 = 1_767_225_600_000

    func steps(_ from: Int64, _ to: Int64, _ value: Double, _ source: String, device: String? = nil) -> DaySample {
        DaySample(start: Self.jan1 + from, end: Self.jan1 + to, value: value, source: source, device: device)
    }

    func total(_ samples: [DaySample], priority: SourcePriority = .standard, from: Int64 = 0, to: Int64 = 24 * h) -> Double {
        DayMerge.cumulativeTotal(samples, from: Self.jan1 + from, to: Self.jan1 + to, priority: priority)
    }

    let h = DayMergeTests.h, m = DayMergeTests.m

    /// One walk seen by both (the phone's burst inside the watch's samples) and one by the phone
    /// alone: the watch's count on the first stretch, the phone's on the second.
    @Test func watchCountsInItsStretchesAndThePhoneWhereTheWatchHasNothing() {
        let walk = [steps(10 * h, 10 * h + 10 * m, 600, "Anna's Apple Watch"), steps(10 * h + 2 * m, 10 * h + 8 * m, 500, "Anna's iPhone")]
        let alone = steps(12 * h, 12 * h + 10 * m, 300, "Anna's iPhone")
        #expect(total(walk + [alone]) == 900)
        #expect(total([alone] + walk.reversed()) == 900)
    }

    @Test func priorityIsConfigurable() {
        let walk = [steps(10 * h, 10 * h + 10 * m, 600, "Anna's Apple Watch"), steps(10 * h + 2 * m, 10 * h + 8 * m, 500, "Anna's iPhone")]
        let alone = steps(12 * h, 12 * h + 10 * m, 300, "Anna's iPhone")
        #expect(total(walk + [alone], priority: SourcePriority(["phone", "watch"])) == 800)
    }

    @Test func deviceTextGivesTheRankWhenTheNameDoesNot() {
        let watch = steps(0, h, 100, "Health", device: "<<HKDevice>, name:Apple Watch, model:Watch>")
        let phone = steps(0, h, 300, "Health", device: "iPhone")
        // One source name: one source, whose samples do not cover each other.
        #expect(total([watch, phone]) == 400)
        #expect(SourcePriority.standard.rank(name: "Health", device: "name:Apple Watch") == 0)
    }

    /// Ranks are looked up once per run of one source and device: a source whose later run comes
    /// from a better device still ranks by it, ahead of a source in between.
    @Test func aSourcesRankIsItsBestDeviceWhateverTheOrderOfItsRuns() {
        let phone1 = steps(0, 30 * m, 150, "Health", device: "iPhone")
        let phone2 = steps(30 * m, h, 150, "Health", device: "iPhone")
        let app1 = steps(0, h, 100, "Pedometer++")
        let watch = steps(h, 2 * h, 100, "Health", device: "name:Apple Watch")
        let app2 = steps(h, 2 * h, 50, "Pedometer++")
        let app3 = steps(3 * h, 4 * h, 200, "Pedometer++")
        // "Health" ranks as a watch (0) and wins the first two hours: 300 + 100; the app its own hour: 200.
        #expect(total([phone1, phone2, app1, watch, app2, app3]) == 600)
        #expect(total([watch, app3, app2, app1, phone1, phone2]) == 600)
        // Ranked by the phone alone, "Health" (2) would come after the app (1): 100 + 50 + 200,
        // raised to Health's own 400.
        #expect(total([phone1, phone2, app1, watch, app2, app3], priority: SourcePriority(["watch", "pedometer", "phone"])) == 600)
    }

    /// An app's hourly bucket holding the watch's walk counts the watch's; the app's next hour,
    /// where the watch has nothing, counts the app's.
    @Test func appsComeAfterWatchAndPhoneAndCountOnlyWhereTheyHaveNothing() {
        let samples = [steps(8 * h, 9 * h, 2800, "Pedometer++"), steps(8 * h + 10 * m, 8 * h + 50 * m, 3000, "Apple Watch"),
                       steps(9 * h, 10 * h, 500, "Pedometer++")]
        #expect(total(samples) == 3500)
    }

    @Test func identicalCountsFromTwoDevicesCountOnce() {
        var samples: [DaySample] = []
        for hour in Int64(0)..<24 {
            samples.append(steps(hour * h, (hour + 1) * h, 250, "Apple Watch"))
            samples.append(steps(hour * h, (hour + 1) * h, 250, "iPhone"))
        }
        #expect(total(samples) == 6000)
    }

    @Test func sampleAcrossMidnightCountsInProportion() {
        let s = steps(23 * h + 30 * m, 24 * h + 30 * m, 120, "iPhone")
        #expect(total([s]) == 60)
        #expect(total([s], from: 24 * h, to: 48 * h) == 60)
    }

    @Test func instantSamplesCountWholeUnlessCovered() {
        let watch = steps(10 * h, 11 * h, 100, "Apple Watch")
        let inside = steps(10 * h + 30 * m, 10 * h + 30 * m, 7, "iPhone")
        let outside = steps(12 * h, 12 * h, 5, "iPhone")
        #expect(total([watch, inside, outside]) == 105)
    }

    /// Three sources: each stretch counts the highest one present in it.
    @Test func aThirdSourceCountsOnlyInStretchesBothHigherLeaveEmpty() {
        let samples = [steps(0, h, 60, "Apple Watch"), steps(30 * m, 90 * m, 50, "iPhone"), steps(0, 2 * h, 20, "Some App"),
                       steps(3 * h, 4 * h, 40, "iPhone"), steps(3 * h, 5 * h, 10, "Some App"), steps(6 * h, 7 * h, 30, "Some App")]
        // 0–2 h: the watch's 60; 3–5 h: the phone's 40; 6–7 h: the app's 30.
        #expect(total(samples) == 130)
        // Raised to the app's own 540 when it counted more alone than the merge.
        #expect(total(samples.filter { $0.value != 20 } + [steps(0, 2 * h, 500, "Some App")]) == 540)
    }

    func sleep(_ from: Int64, _ to: Int64, _ stage: SleepStage, _ source: String) -> DaySample {
        DaySample(start: Self.jan1 + from, end: Self.jan1 + to, value: Double(to - from) / Double(m), source: source, stage: stage)
    }

    @Test func nightAcrossMidnightBelongsToTheDayItEndsOn() throws {
        let night = [sleep(23 * h, 24 * h + 7 * h, .asleep, "Apple Watch")]
        #expect(DayMerge.sleep(night, dayStart: Self.jan1, dayEnd: Self.jan1 + 24 * h, priority: .standard) == nil)
        let jan2 = try #require(DayMerge.sleep(night, dayStart: Self.jan1 + 24 * h, dayEnd: Self.jan1 + 48 * h, priority: .standard))
        #expect(jan2.asleepMinutes == 8 * 60)
    }

    @Test func twoSleepAppsOnOneNightGiveTheUnionNotTheSum() throws {
        let night = [sleep(23 * h, 31 * h, .asleep, "Apple Watch"), sleep(23 * h + 30 * m, 31 * h + 30 * m, .asleep, "AutoSleep")]
        let f = try #require(DayMerge.sleep(night, dayStart: Self.jan1 + 24 * h, dayEnd: Self.jan1 + 48 * h, priority: .standard))
        #expect(f.asleepMinutes == 8.5 * 60)
    }

    @Test func stagesInBedAndAwake() throws {
        let night = [
            sleep(22 * h, 30 * h, .inBed, "iPhone"),
            sleep(23 * h, 25 * h, .core, "Apple Watch"), sleep(25 * h, 26 * h, .deep, "Apple Watch"),
            sleep(26 * h, 26 * h + 20 * m, .awake, "Apple Watch"), sleep(26 * h + 20 * m, 29 * h, .rem, "Apple Watch"),
            sleep(23 * h, 29 * h, .core, "AutoSleep"),
        ]
        let f = try #require(DayMerge.sleep(night, dayStart: Self.jan1 + 24 * h, dayEnd: Self.jan1 + 48 * h, priority: .standard))
        #expect(f.inBedMinutes == 8 * 60)
        #expect(f.asleepMinutes == 6 * 60)   // AutoSleep's core covers the watch's awake 20 minutes
        #expect(f.stages[.core] == 120 && f.stages[.deep] == 60 && f.stages[.rem] == 160)
        #expect(f.stages[.awake] == nil)
        #expect(f.start == Self.jan1 + 22 * h && f.end == Self.jan1 + 30 * h)
    }

    @Test func aShortWakeDoesNotSplitTheNightButAnAfternoonNapIsItsOwn() throws {
        let samples = [sleep(23 * h, 27 * h, .asleep, "Apple Watch"), sleep(28 * h, 31 * h, .asleep, "Apple Watch"),
                       sleep(38 * h, 39 * h, .asleep, "Apple Watch")]
        let f = try #require(DayMerge.sleep(samples, dayStart: Self.jan1 + 24 * h, dayEnd: Self.jan1 + 48 * h, priority: .standard))
        #expect(f.asleepMinutes == 8 * 60)
        #expect(f.start == Self.jan1 + 23 * h && f.end == Self.jan1 + 39 * h)
    }

    /// In-bed samples chained into one 30-hour night ending on the day: in bed is cut to the
    /// day's length and asleep to in bed.
    @Test func inBedNeverExceedsTheDay() throws {
        let samples = [sleep(-6 * h, 10 * h, .inBed, "iPhone"), sleep(11 * h, 24 * h, .inBed, "iPhone"),
                       sleep(12 * h, 23 * h, .asleep, "Apple Watch")]
        let f = try #require(DayMerge.sleep(samples, dayStart: Self.jan1, dayEnd: Self.jan1 + 24 * h, priority: .standard))
        #expect(f.inBedMinutes == 24 * 60 && f.asleepMinutes == 11 * 60)
    }

    /// A night given only as a date counts as its value on that date, and joins no night.
    @Test func aValueWithoutTimesCountsAsItsValue() throws {
        let dated = (0..<3).map { d in
            DaySample(start: Self.jan1 + Int64(d) * 24 * h, end: Self.jan1 + Int64(d + 1) * 24 * h, value: 465, source: "Watch",
                      stage: .asleep, valueOnly: true)
        }
        let f = try #require(DayMerge.sleep(dated, dayStart: Self.jan1 + 24 * h, dayEnd: Self.jan1 + 48 * h, priority: .standard))
        #expect(f.asleepMinutes == 465 && f.inBedMinutes == 465)
        #expect(f.start == Self.jan1 + 24 * h && f.end == Self.jan1 + 48 * h)
    }

    @Test func heartRateFiguresAndCurve() throws {
        let readings = [60.0, 80, 100, 70].enumerated().map { i, v in
            DaySample(start: Self.jan1 + Int64(i) * 10 * m, end: Self.jan1 + Int64(i) * 10 * m, value: v, source: "Apple Watch")
        }
        let f = try #require(DayMerge.heartRate(readings, from: Self.jan1, to: Self.jan1 + 24 * h))
        #expect(f.min == 60 && f.max == 100 && f.average == 77.5 && f.count == 4)
        #expect(f.curve.map(\.time) == [Self.jan1, Self.jan1 + 15 * m, Self.jan1 + 30 * m])
        #expect(f.curve.map(\.average) == [70, 100, 70])
    }

    /// Hourly steps from two devices through the days clocks change in Berlin: 23 and 25 hours.
    @Test(arguments: [("2026-03-29", 23), ("2026-10-25", 25), ("2026-06-01", 24)])
    func dstDays(_ date: String, _ hours: Int) throws {
        let zone = try ZoneRules(name: "Europe/Berlin", tzif: try #require(tzif("Europe/Berlin")))
        let day = try #require(CivilDate(parsing: date))
        let (from, to) = WallClock.bounds(of: day, zone: zone)
        #expect(to - from == Int64(hours) * h)
        var samples: [DaySample] = []
        var t = from - 3 * h
        while t < to + 3 * h {
            samples.append(DaySample(start: t, end: t + h, value: 100, source: "Apple Watch"))
            samples.append(DaySample(start: t + 30 * m, end: t + 90 * m, value: 100, source: "iPhone"))
            t += h
        }
        #expect(DayMerge.cumulativeTotal(samples, from: from, to: to, priority: .standard) == Double(hours * 100))
    }

    @Test func intervalSetCoverage() {
        let set = IntervalSet([(0, 10), (5, 20), (30, 40)])
        #expect(set.intervals.count == 2 && set.length == 30)
        #expect(set.covered(15, 35) == 10)
        #expect(set.contains(39) && !set.contains(40))
    }
}

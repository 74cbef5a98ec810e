import Testing
@testable import HealthSpoolCore

@Suite struct TimeWeightedMeanTests {
    static let minute: Int64 = 60_000
    static let day: Int64 = 24 * 60 * minute

    @Test func eachReadingCountsUntilTheNext() {
        // 60 for 10 minutes, 90 for 5 minutes, 60 for the last 5 (cut at the end).
        let m = Self.minute
        let readings: [(Int64, Double)] = [(0, 60), (10 * m, 90), (15 * m, 60)]
        let mean = TimeWeightedMean.mean(readings, end: 20 * m)
        let expected: Double = (600 + 450 + 300) / 20
        #expect(mean == expected)
    }

    @Test func aGapIsCappedAtTenMinutes() {
        // 50 read once, then nothing for 3 hours, then 100: 50 counts for 10 minutes, 100 for 10.
        let readings: [(Int64, Double)] = [(0, 50), (180 * Self.minute, 100)]
        let mean = TimeWeightedMean.mean(readings, end: Self.day)
        #expect(mean == 75)
    }

    @Test func readingsAtOneInstantShareItsTime() {
        let readings: [(Int64, Double)] = [(0, 60), (0, 80), (10 * Self.minute, 70)]
        let mean = TimeWeightedMean.mean(readings, end: 20 * Self.minute)
        #expect(mean == 70)
        #expect(TimeWeightedMean.mean([], end: Self.day) == nil)
    }

    @Test func aWorkoutReadEveryFewSecondsNoLongerOutweighsTheDay() throws {
        // A resting day read every 10 minutes at 65 bpm, and one hour of workout read every
        // 6.4 s (560 readings) at 150 bpm: the plain mean says 133, the weighted one about 69.
        var samples: [DaySample] = []
        for i in 0..<144 where !(60...65).contains(i) {
            samples.append(DaySample(start: Int64(i) * 10 * Self.minute, end: Int64(i) * 10 * Self.minute, value: 65, source: "Watch"))
        }
        let workout = 600 * Self.minute
        for i in 0..<560 {
            let t = workout + Int64(i) * 3_600_000 / 560
            samples.append(DaySample(start: t, end: t, value: 150, source: "Watch"))
        }
        let hr = try #require(DayMerge.heartRate(samples, from: 0, to: Self.day))
        #expect(hr.average > 120)
        let expected: Double = (23 * 65 + 150) / 24
        #expect(abs(hr.weightedAverage - expected) < 0.5)
    }
}

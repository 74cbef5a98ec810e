import Testing
import HealthSpoolCore
@testable import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30: sleep rollups of Health Auto Export nights — nights given only as a date count as
/// their values, in bed without its own times does not chain the nights; asleep ≤ in bed ≤ the
/// length of the local day.
@Suite struct NightRollupTests {
    let store: SampleStore
    static let berlin = DayRollupTests.berlin
    /// 2026-03-27T00:00:00+01:00: 2026-03-29 has 23 hours in Berlin.
    static let base = DayRollupTests.base
    static let h: Int64 = 3_600_000, m: Int64 = 60_000

    init() throws {
        var template = Array("/tmp/healthspool-nights-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        store = try SampleStore(path: dir + "/test.db")
        store.rollupPolicy = RollupPolicy(zone: Self.berlin, priority: .standard)
    }

    /// An aggregated HAE night as the parser stores it.
    func night(_ type: String, _ start: Int64, _ end: Int64, _ value: Double, metadata: [String: String]) -> Sample {
        var m = metadata
        m["aggregation"] = "day"
        m["sleepStage"] = type == "timeInBed" ? "inBed" : "asleep"
        return Sample(type: type, value: value, unit: "min",
                      start: Timestamp(millis: Self.base + start, utcOffsetSeconds: 3600), end: Timestamp(millis: Self.base + end, utcOffsetSeconds: 3600),
                      source: SampleSource(name: "Watch"), metadata: m, revisable: true)
    }

    func sleep(day: Int64) throws -> (figure: SleepFigure, length: Double)? {
        let key = CivilDate(year: 2026, month: 3, day: 27).daysSinceEpoch + day
        guard let r = try store.rollups(fromDay: key, toDay: key, figures: [DayRollup.sleep]).first else { return nil }
        let (from, to) = store.rollupPolicy.bounds(ofDay: key)
        return (try #require(r.sleepFigure), Double(to - from) / 60_000)
    }

    /// The metrics CSV: each date's night over 00:00–24:00, consecutive; each day shows its values.
    @Test func nightsGivenOnlyAsADateCountAsTheirValues() throws {
        var samples: [Sample] = []
        for d: Int64 in 0..<4 {
            samples.append(night("sleepAnalysis", d * 24 * Self.h, (d + 1) * 24 * Self.h, 465 + Double(d), metadata: [:]))
            samples.append(night("timeInBed", d * 24 * Self.h, (d + 1) * 24 * Self.h, 500, metadata: [:]))
        }
        _ = try store.insert(samples, now: Timestamp(millis: 1))
        for d: Int64 in 0..<4 {
            let (f, length) = try #require(try sleep(day: d), "day \(d)")
            #expect(f.asleepMinutes == 465 + Double(d), "day \(d)")
            #expect(f.inBedMinutes == 500, "day \(d)")
            #expect(f.asleepMinutes <= f.inBedMinutes && f.inBedMinutes <= length, "day \(d)")
        }
    }

    /// In bed given without its own times (stored over `date` + 24 h by earlier versions) next to
    /// a timed asleep night: no 46-hour days.
    @Test func inBedWithoutItsTimesDoesNotChainTheNights() throws {
        var samples: [Sample] = []
        for d: Int64 in 1..<4 {
            let times = ["sleepStart": "x", "sleepEnd": "x"]
            samples.append(night("sleepAnalysis", d * 24 * Self.h - Self.h, d * 24 * Self.h + 6 * Self.h + 30 * Self.m, 450, metadata: times))
            samples.append(night("timeInBed", d * 24 * Self.h, (d + 1) * 24 * Self.h, 470, metadata: times))
        }
        _ = try store.insert(samples, now: Timestamp(millis: 1))
        for d: Int64 in 1..<4 {
            let (f, length) = try #require(try sleep(day: d), "day \(d)")
            #expect(f.asleepMinutes == 450, "day \(d)")
            #expect(f.inBedMinutes == 470, "day \(d)")
            #expect(f.asleepMinutes <= f.inBedMinutes && f.inBedMinutes <= length, "day \(d)")
        }
    }

    /// Invariant on every day, 23-hour day included: asleep ≤ in bed ≤ the local day's length,
    /// whatever the values given without times say.
    @Test func asleepNeverExceedsInBedNorInBedTheDay() throws {
        var samples: [Sample] = []
        for d: Int64 in 0..<4 {
            samples.append(night("sleepAnalysis", d * 24 * Self.h, (d + 1) * 24 * Self.h, 1_430, metadata: [:]))
            samples.append(night("timeInBed", d * 24 * Self.h, (d + 1) * 24 * Self.h, 400, metadata: [:]))
        }
        _ = try store.insert(samples, now: Timestamp(millis: 1))
        var lengths: [Double] = []
        for d: Int64 in 0..<4 {
            let (f, length) = try #require(try sleep(day: d), "day \(d)")
            lengths.append(length)
            #expect(f.asleepMinutes <= f.inBedMinutes && f.inBedMinutes <= length, "day \(d): \(f.asleepMinutes) asleep, \(f.inBedMinutes) in bed, \(length) min day")
        }
        #expect(lengths.contains(23 * 60))
    }
}

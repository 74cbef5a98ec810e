@testable import HealthJournal
import Testing
import HealthSpoolCore

/// The day view's JSON (`healthspool day --json`, the web's day view): the heart-rate figures
/// and curve keep their exact form whatever holds them in memory.
@Suite struct DaySummaryJSONTests {
    /// 2026-01-01 00:00 in Berlin (UTC+1).
    static let start: Int64 = 1_767_222_000_000
    static let minute: Int64 = 60_000

    @Test func theHeartRateFiguresAndCurveReadAsBefore() throws {
        let readings = [(0, 60.0), (10, 80), (20, 100), (40, 70.5), (44, 71)].map { m, v in
            DaySample(start: Self.start + Int64(m) * Self.minute, end: Self.start + Int64(m) * Self.minute, value: v, source: "Apple Watch")
        }
        let end = Self.start + 24 * 60 * Self.minute
        let heart = try #require(DayMerge.heartRate(readings, from: Self.start, to: end))
        var summary = DaySummary(date: CivilDate(year: 2026, month: 1, day: 1), start: Self.start, end: end, totals: [:],
                                 sleep: nil, heartRate: heart, doses: [], notes: [], counts: ["heartRate": 5])
        summary.zone = .fixed(name: "Europe/Berlin", offset: 3600)
        var w = JSONWriter(capacity: 1024)
        w.value(try #require(summary.json.objectValue?.first { $0.0 == "heartRate" }?.1))
        #expect(w.text == """
            {"min":60,"average":76.3,"weightedAverage":77.091,"max":100,"count":5,"curve":[\
            {"time":"2026-01-01T00:00:00.000+01:00","min":60,"average":70,"max":80},\
            {"time":"2026-01-01T00:15:00.000+01:00","min":100,"average":100,"max":100},\
            {"time":"2026-01-01T00:30:00.000+01:00","min":70.5,"average":70.75,"max":71}]}
            """)
        // Weighted by time (each reading until the next, at most 10 min): 60, 80 and 100 for
        // 10 min each, 70.5 for 4, 71 for 10: 3392 / 44.
        #expect(abs(heart.weightedAverage - 3392.0 / 44) < 1e-9)
    }
}

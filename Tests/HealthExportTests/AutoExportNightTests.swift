import Testing
import HealthSpoolCore
@testable import HealthExport

/// Issue 30: Health Auto Export nights that are nights — in bed without its own times, `asleep`
/// as a total or as the unstaged part, and nights given only as a date.
@Suite struct AutoExportNightTests {
    static func night(_ members: String, date: String = "2024-09-28") -> String {
        #"{"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [{"date": "\#(date) 00:00:00 +1000", "#
            + members + #", "source": "Watch"}]}]}}"#
    }

    static func minutes(_ s: Sample) -> Double { Double(s.end.millis - s.start.millis) / 60_000 }

    /// Without `inBedStart`/`inBedEnd`, time in bed lies over the asleep span, not `date` + 24 h.
    @Test func inBedWithoutItsTimesSpansTheAsleepSpan() throws {
        let (samples, report) = try parseAutoExport(Self.night(#""totalSleep": 7, "inBed": 7.5, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:45:00 +1000""#))
        #expect(report.problemCount == 0)
        let sleep = try #require(samples.first { $0.type == "sleepAnalysis" })
        let bed = try #require(samples.first { $0.type == "timeInBed" })
        #expect(bed.start == sleep.start && bed.end == sleep.end)
        #expect(bed.value == 450 && bed.value >= sleep.value && bed.value <= Self.minutes(bed))
    }

    /// Two nights in a row without in-bed times: their in-bed samples do not overlap or touch.
    @Test func nightsWithoutInBedTimesDoNotChain() throws {
        let json = #"{"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": ["#
            + #"{"date": "2024-09-28 00:00:00 +1000", "asleep": 7, "inBed": 7.6, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:30:00 +1000"},"#
            + #"{"date": "2024-09-29 00:00:00 +1000", "asleep": 6.5, "inBed": 7, "sleepStart": "2024-09-28 23:30:00 +1000", "sleepEnd": "2024-09-29 06:30:00 +1000"}"#
            + "]}]}}"
        let (samples, _) = try parseAutoExport(json)
        let beds = samples.filter { $0.type == "timeInBed" }.sorted { $0.start < $1.start }
        try #require(beds.count == 2)
        #expect(beds[0].end < beds[1].start)
        #expect(beds.allSatisfy { Self.minutes($0) < 12 * 60 })
    }

    /// Newer files: `asleep` is the unstaged part beside core, deep and REM (stages larger than
    /// it, the sum fitting in the span): the night is their sum.
    @Test func asleepAsTheUnstagedPartIsAddedToTheStages() throws {
        let (samples, _) = try parseAutoExport(Self.night(#""asleep": 0.5, "core": 5, "deep": 1.5, "rem": 2, "inBed": 9.5, "sleepStart": "2024-09-27 22:00:00 +1000", "sleepEnd": "2024-09-28 07:30:00 +1000""#))
        let sleep = try #require(samples.first { $0.type == "sleepAnalysis" })
        #expect(sleep.value == 540)
        #expect(sleep.metadata["asleepMinutes"] == "30")
    }

    /// Older files: `asleep` is the total, the stages its breakdown (no larger than it).
    @Test func asleepAsTheTotalIsNotAddedToTheStages() throws {
        let (samples, _) = try parseAutoExport(Self.night(#""asleep": 8, "core": 5, "deep": 1.5, "rem": 1.2, "sleepStart": "2024-09-27 22:00:00 +1000", "sleepEnd": "2024-09-28 07:30:00 +1000""#))
        #expect(samples.first { $0.type == "sleepAnalysis" }?.value == 480)
    }

    /// Stages larger than `asleep` whose sum with it does not fit in the span: the stages' sum.
    @Test func stagesLargerThanAsleepThatDoNotFitWithItCountAlone() throws {
        let (samples, _) = try parseAutoExport(Self.night(#""asleep": 3, "core": 3.5, "deep": 1.2, "rem": 1.7, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:00:00 +1000""#))
        #expect(samples.first { $0.type == "sleepAnalysis" }?.value == 384)
    }

    /// The metrics CSV (dates only, no times) in the newer shape: the unstaged part and the stages.
    @Test func theMetricsCSVInTheNewerShape() throws {
        let csv = """
        Date,Sleep Analysis [Asleep] (hr),Sleep Analysis [In Bed] (hr),Sleep Analysis [Core] (hr),Sleep Analysis [Deep] (hr),Sleep Analysis [REM] (hr)
        2024-09-28,0.6,9.5,5,1.3,2.3
        """
        let (samples, _) = try parseAutoExportCSV(csv)
        let sleep = try #require(samples.first { $0.type == "sleepAnalysis" })
        #expect(abs(sleep.value - 552) < 1e-9)
        #expect(samples.first { $0.type == "timeInBed" }?.value == 570)
    }
}

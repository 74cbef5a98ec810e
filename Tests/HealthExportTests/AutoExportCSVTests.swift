import HealthSpoolCore
import Testing
@testable import HealthExport

/// Parses HAE CSV text.
func parseAutoExportCSV(_ csv: String) throws -> ([Sample], ParseReport) {
    let sink = CollectingSink()
    let report = try AutoExportParser.parseCSV(Array(csv.utf8), into: sink)
    return (sink.samples, report)
}

@Suite("Health Auto Export CSV")
struct AutoExportCSVTests {
    @Test func headerCellsSplitIntoMetricPartAndUnit() {
        let vo2 = AutoExportParser.CSVColumn(index: 0, header: "VO2 Max (ml/(kg·min))")
        #expect(vo2.metric == "vo2_max" && vo2.part == nil && vo2.unit == "ml/(kg·min)")
        let hr = AutoExportParser.CSVColumn(index: 0, header: "Heart Rate [Min] (count/min)")
        #expect(hr.metric == "heart_rate" && hr.part == "min" && hr.unit == "count/min")
        let sleep = AutoExportParser.CSVColumn(index: 0, header: "Sleep Analysis [In Bed] (hr)")
        #expect(sleep.metric == "sleep_analysis" && sleep.part == "in_bed")
        let weight = AutoExportParser.CSVColumn(index: 0, header: "Weight & Body Mass (lb)")
        #expect(weight.metric == "weight_body_mass" && AutoExportNames.type(for: weight.metric) == "bodyMass")
        let distance = AutoExportParser.CSVColumn(index: 0, header: "Walking + Running Distance (km)")
        #expect(AutoExportNames.type(for: distance.metric) == "distanceWalkingRunning")
        #expect(AutoExportNames.type(for: AutoExportParser.CSVColumn(index: 0, header: "Resting Energy (kcal)").metric) == "basalEnergyBurned")
    }

    @Test func rowsAreDailyRevisableTotalsWithEmptyCellsSkipped() throws {
        let csv = """
        Date,Step Count (count),Active Energy (kcal),Dietary Water (mL)
        2024-09-27,10412,520.5,
        2024-09-28,3521,,250
        """
        let (samples, report) = try parseAutoExportCSV(csv)
        #expect(report.problemCount == 0)
        #expect(samples.map(\.type) == ["stepCount", "activeEnergyBurned", "stepCount", "dietaryWater"])
        #expect(samples.allSatisfy { $0.revisable && $0.end.millis - $0.start.millis == 86_400_000 })
        #expect(samples.allSatisfy { $0.source.name == "Health Auto Export" })
    }

    @Test func aLaterExportWithABiggerTotalKeepsTheIds() throws {
        let (a, _) = try parseAutoExportCSV("Date/Time,Step Count (count)\n2024-09-27 00:00:00,10412\n2024-09-28 00:00:00,3521\n")
        let (b, _) = try parseAutoExportCSV("Date/Time,Step Count (count)\n2024-09-28 00:00:00,9050\n2024-09-29 00:00:00,12\n")
        #expect(a[1].id == b[0].id)
        #expect(b[0].value == 9050)
        #expect(Set(a.map(\.id)).intersection(b.map(\.id)).count == 1)
    }

    @Test func twelveHourDatesAndASourceColumnAreRead() throws {
        let csv = "Date/Time,Heart Rate [Min] (count/min),Heart Rate [Avg] (count/min),Heart Rate [Max] (count/min),Source\n"
            + "2024-09-28 4:00:00\u{202F}PM,61,72.5,90,Apple Watch|iPhone\n"
            + "2024-09-28 5:00:00 pm,58,66,81,Apple Watch|iPhone\n"
        let (samples, _) = try parseAutoExportCSV(csv)
        #expect(samples.map(\.start.iso8601UTC) == ["2024-09-28T16:00:00.000Z", "2024-09-28T17:00:00.000Z"])
        #expect(samples.map(\.value) == [72.5, 66])
        #expect(samples[0].metadata["min"] == "61" && samples[0].metadata["max"] == "90")
        #expect(samples[0].metadata["aggregation"] == "hour")
        #expect(samples[0].source.name == "Apple Watch|iPhone")
    }

    @Test func startAndEndColumnsGiveExplicitIntervals() throws {
        let csv = "Start,End,Mindful Minutes (min)\n2024-09-28 07:00:00 +0200,2024-09-28 07:10:00 +0200,10\n"
        let (samples, _) = try parseAutoExportCSV(csv)
        #expect(samples.count == 1)
        #expect(samples[0].type == "mindfulMinutes" && !samples[0].revisable)
        #expect(samples[0].end.millis - samples[0].start.millis == 600_000)
    }

    @Test func workoutsCSVRowsBecomeWorkouts() throws {
        let csv = """
        Workout Type,Start,End,Duration,Active Energy (kJ),Distance (km)
        Outdoor Walk,2024-09-28 07:00:00 +0200,2024-09-28 07:45:00 +0200,0:40:00,836.8,3.9
        """
        let (samples, report) = try parseAutoExportCSV(csv)
        #expect(report.problemCount == 0)
        #expect(samples.count == 1)
        #expect(samples[0].type == "workout" && samples[0].value == 40)
        #expect(samples[0].metadata["workoutName"] == "Outdoor Walk")
        #expect(samples[0].metadata["activeEnergyKcal"] == "200")
        #expect(samples[0].metadata["distanceKm"] == "3.9")
    }

    @Test func aHeaderWithoutADateColumnIsMalformed() {
        #expect {
            _ = try parseAutoExportCSV("Day,Step Count (count)\n2024-09-28,10\n")
        } throws: { error in
            guard case let .malformed(format, line, _, reason) = error as? ImportError else { return false }
            return format == "Health Auto Export CSV" && line == 1 && reason.contains("Date/Time")
        }
    }

    @Test func datesNoRowCanUseMakeTheFileMalformed() {
        #expect {
            _ = try parseAutoExportCSV("Date,Step Count (count)\n28.09.2024,10\n29.09.2024,12\n")
        } throws: { error in
            guard case let .malformed(_, line, _, reason) = error as? ImportError else { return false }
            return line == 2 && reason.contains("'28.09.2024'") && reason.contains("yyyy-MM-dd")
        }
    }

    @Test func aBadRowIsNotedWithItsLine() throws {
        let (samples, report) = try parseAutoExportCSV("Date,Step Count (count)\n2024-09-27,10\nnot a date,11\n2024-09-29,12\n")
        #expect(samples.map(\.value) == [10, 12])
        #expect(report.problems.map(\.line) == [3])
    }

    @Test func aSleepColumnWithoutPartsIsTheNightsTotal() throws {
        let (samples, _) = try parseAutoExportCSV("Date,Sleep Analysis (hr)\n2024-09-28,7.5\n")
        #expect(samples.map(\.type) == ["sleepAnalysis"])
        #expect(samples.first?.value == 450 && samples.first?.revisable == true)
    }
}

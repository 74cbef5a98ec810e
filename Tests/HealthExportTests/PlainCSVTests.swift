import HealthSpoolCore
import Testing
@testable import HealthExport

@Suite("Plain CSV (type,value,unit,start,end,source)")
struct PlainCSVTests {
    func parse(_ text: String) throws -> ([Sample], ParseReport) {
        let sink = CollectingSink()
        let report = try PlainCSVParser.parse(Array(text.utf8), into: sink)
        return (sink.samples, report)
    }

    @Test func rowsBecomeSamples() throws {
        let (samples, report) = try parse("""
        type,value,unit,start,end,source
        heartRate,61,bpm,2026-01-01 10:00:00 +0100,,Polar H10
        stepCount,900,count,2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,
        bodyMass,165.2,lb,2026-01-01 07:00:00 +0000,,
        """)
        #expect(report.problemCount == 0)
        #expect(samples.map(\.type) == ["heartRate", "stepCount", "bodyMass"])
        #expect(samples.map(\.source.name) == ["Polar H10", "csv", "csv"])
        #expect(samples[1].end.millis - samples[1].start.millis == 86_400_000)
        #expect(samples[2].value == 74.933459524 && samples[2].metadata["originalUnit"] == "lb")
    }

    @Test func columnsInAnyOrderQuotedFieldsAndCRLF() throws {
        let text = "\u{FEFF}\"Source\",\"Start\",\"Value\",\"Type\"\r\n\"Omron, Inc.\",\"2026-01-01 4:51:00\u{202F}pm +0100\",\"118\",\"bloodPressureSystolic\"\r\n"
        let (samples, _) = try parse(text)
        #expect(samples.count == 1)
        #expect(samples[0].source.name == "Omron, Inc.")
        #expect(samples[0].start.iso8601UTC == "2026-01-01T15:51:00.000Z")
        #expect(samples[0].unit == "mmHg")
    }

    @Test func emptyRowsAsSpreadsheetsSaveThemAreSkipped() throws {
        let (samples, report) = try parse("type,value,start\n,,\nheartRate,60,2026-01-01\n\n , ,\n")
        #expect(samples.count == 1)
        #expect(report.problemCount == 0)
    }

    @Test func typesOutsideTheRegistryAreKept() throws {
        let (samples, _) = try parse("type,value,unit,start\nHKQuantityTypeIdentifierUVExposure,3,count,2026-01-01\n")
        #expect(samples.first?.type == "HKQuantityTypeIdentifierUVExposure")
    }

    @Test func badRowsAreNotedWithTheirLineInCSVTerms() throws {
        let (samples, report) = try parse("""
        type,value,unit,start,end,source
        heartRate,61,bpm,2026-01-01 10:00:00 +0100,,
        heartRate,,bpm,2026-01-01 10:01:00 +0100,,
        heartRate,62,bpm,tomorrow,,
        heartRate,63,bpm,2026-01-01 10:03:00 +0100,2026-01-01 10:02:00 +0100,
        heartRate,64,furlong,2026-01-01 10:04:00 +0100,,"Polar
        H10"
        heartRate,65,bpm,2026-01-01 10:05:00 +0100,,"Polar H10"
        heartRate,sixty-six,bpm,2026-01-01 10:06:00 +0100,,
        """)
        #expect(samples.map(\.value) == [61, 65])
        #expect(report.problems.map(\.line) == [3, 4, 5, 6, 9])
        #expect(report.problems[0].message == "missing or non-numeric value")
        #expect(report.problems[1].message.hasPrefix("start 'tomorrow' is not a date"))
        #expect(report.problems[2].message == "end is before start")
        #expect(report.problems[3].message.contains("'furlong' cannot be converted"))
    }

    @Test func aHeaderWithoutTheRequiredColumnsIsMalformed() {
        #expect(throws: ImportError.malformed(format: "CSV", line: 1, offset: nil,
                                              reason: "header must name at least type, value and start columns (type,value,unit,start,end,source)")) {
            _ = try parse("kind,amount,when\nheartRate,60,2026-01-01\n")
        }
        #expect(throws: ImportError.self) { _ = try parse("") }
    }

    @Test func detectionSendsPlainCSVHere() throws {
        let sink = CollectingSink()
        let (format, report) = try ExportReader.parse(MemoryByteSource("value,type,start\n60,heartRate,2026-01-01\n"), name: "x.csv", into: sink)
        #expect(format == .csv && report.samples == 1)
    }
}

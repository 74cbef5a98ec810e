import HealthSpoolCore
import Testing
@testable import HealthExport

@Suite("Native JSON / NDJSON")
struct NativeParserTests {
    func parse(_ text: String) throws -> ([Sample], ParseReport) {
        let sink = CollectingSink()
        let report = try NativeParser.parse(Array(text.utf8), into: sink)
        return (sink.samples, report)
    }

    let one = #"{"type": "heartRate", "value": 61, "unit": "bpm", "startDate": "2026-01-01T10:00:00+01:00", "source": "Polar H10"}"#

    @Test func arrayObjectAndSingleSampleAllRead() throws {
        let (a, _) = try parse("[\(one)]")
        let (b, _) = try parse(#"{"samples": [\#(one)]}"#)
        let (c, _) = try parse(one)
        #expect(a.count == 1 && a == b && b == c)
        #expect(a[0].type == "heartRate" && a[0].unit == "count/min" && a[0].value == 61)
        #expect(a[0].source.name == "Polar H10")
        #expect(a[0].start == a[0].end)
    }

    @Test func registryNamesAndHealthKitIdentifiersMapToTheSameType() throws {
        let (samples, _) = try parse("""
        [{"type": "HKQuantityTypeIdentifierStepCount", "value": 10, "startDate": "2026-01-01T10:00:00Z"},
         {"type": "stepcount", "value": 10, "startDate": "2026-01-01T10:00:00Z"},
         {"type": "HKQuantityTypeIdentifierNotInTheRegistry", "value": 1, "startDate": "2026-01-01T10:00:00Z"}]
        """)
        #expect(samples.map(\.type) == ["stepCount", "stepCount", "HKQuantityTypeIdentifierNotInTheRegistry"])
    }

    @Test func unitsAreConvertedWithTheOriginalKept() throws {
        let (samples, _) = try parse(#"[{"type": "bodyMass", "value": 165.2, "unit": "lb", "startDate": "2026-01-01T07:00:00Z"}]"#)
        #expect(samples[0].value == 74.933459524 && samples[0].unit == "kg")
        #expect(samples[0].metadata == ["originalUnit": "lb", "originalValue": "165.2"])
    }

    @Test func revisableAndSourceObjectAndMetadataAreRead() throws {
        let (samples, _) = try parse("""
        [{"type": "stepCount", "value": 900, "startDate": "2026-01-01T00:00:00Z", "endDate": "2026-01-02T00:00:00Z",
          "revisable": true, "source": {"name": "Pedometer++", "version": "5.1", "device": "iPhone"},
          "metadata": {"note": "walk", "count": 2, "flag": true, "nested": {"a": 1}, "nothing": null}}]
        """)
        let s = try #require(samples.first)
        #expect(s.revisable)
        #expect(s.source == SampleSource(name: "Pedometer++", version: "5.1", device: "iPhone"))
        #expect(s.metadata == ["note": "walk", "count": "2", "flag": "true", "nested": #"{"a":1}"#])
        let revised = Sample(type: "stepCount", value: 1200, unit: "count", start: s.start, end: s.end, source: s.source, revisable: true)
        #expect(revised.id == s.id)
    }

    @Test func ndjsonReadsEveryLineAndNotesTheBadOnes() throws {
        let text = one + "\n\n{not json}\n" + #"{"type": "stepCount", "startDate": "2026-01-01T10:00:00Z"}"# + "\r\n"
            + #"{"type": "restingHeartRate", "value": 52, "startDate": "2026-01-01T06:00:00+01:00"}"# + "\n"
        let (samples, report) = try parse(text)
        #expect(samples.map(\.type) == ["heartRate", "restingHeartRate"])
        #expect(report.problems.map(\.line) == [3, 4])
        #expect(report.problems[1].message.contains("\"value\""))
    }

    @Test func sampleProblemsAreNotedWithTheReason() throws {
        let (samples, report) = try parse("""
        [{"type": "heartRate", "value": 60, "startDate": "last tuesday"},
         {"type": "heartRate", "value": 60, "startDate": "2026-01-01T10:00:00Z", "endDate": "2026-01-01T09:00:00Z"},
         {"type": "heartRate", "value": 60, "unit": "furlong", "startDate": "2026-01-01T10:00:00Z"},
         {"type": "heartRate", "value": "sixty", "startDate": "2026-01-01T10:00:00Z"},
         7]
        """)
        #expect(samples.isEmpty)
        #expect(report.problems.map(\.message) == [
            "sample 1: \"startDate\" 'last tuesday' is not a date (use 2026-01-01T10:00:00+01:00)",
            "sample 2: \"endDate\" is before \"startDate\"",
            "sample 3: unit 'furlong' cannot be converted to heartRate's unit count/min",
            "sample 4: missing or non-numeric \"value\"",
            "sample 5: expected an object",
        ])
    }

    @Test func aBrokenPrettyPrintedArrayIsMalformedAtItsLine() {
        let text = "[\n  {\"type\": \"heartRate\", \"value\": 60,\n   \"startDate\": \"2026-01-01T10:00:00Z\"\n  },\n  {\"type\": \n]\n"
        #expect {
            _ = try parse(text)
        } throws: { error in
            guard case let .malformed(format, line, offset, _) = error as? ImportError else { return false }
            return format == "native JSON" && line == 6 && offset != nil
        }
    }

    @Test func aBrokenSingleObjectIsMalformedAtItsLine() {
        #expect {
            _ = try parse("{\n \"type\": \"heartRate\",\n \"value\": 60,\n \"startDate\": \"2026-01-01T10:00:00Z\"\n")
        } throws: { error in
            guard case let .malformed(_, line, _, _) = error as? ImportError else { return false }
            return line == 5
        }
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let sink = CollectingSink()
        _ = try NativeParser.parse([0xEF, 0xBB, 0xBF] + Array("[\(one)]".utf8), into: sink)
        #expect(sink.samples.count == 1)
    }

    @Test func jsonThatIsNotSamplesIsMalformed() {
        #expect(throws: ImportError.self) { _ = try parse(#"{"hello": "world"}"#) }
        #expect(throws: ImportError.self) { _ = try parse("42") }
    }
}

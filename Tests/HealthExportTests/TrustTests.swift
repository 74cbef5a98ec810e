import HealthSpoolCore
import Testing
@testable import HealthExport

/// Parses an Apple Health export.xml given as text (wrapped in `<HealthData>`).
func parseAppleXML(_ body: String, offsetFallback: Int32? = nil) throws -> ([Sample], ParseReport) {
    try parseAppleXML(bytes: Array(("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n" + body + "\n</HealthData>\n").utf8),
                      offsetFallback: offsetFallback)
}

func parseAppleXML(bytes: [UInt8], offsetFallback: Int32? = nil) throws -> ([Sample], ParseReport) {
    let sink = CollectingSink()
    let scanner = XMLTagScanner(SourceByteStream(MemoryByteSource(bytes)))
    let builder = AppleHealthSampleBuilder(scanner: scanner, sink: sink)
    if let offsetFallback { builder.fallbackOffset = { _ in offsetFallback } }
    loop: while true {
        switch try scanner.next() {
        case .start: try builder.start(empty: false)
        case .empty: try builder.start(empty: true)
        case .end: try builder.end()
        case .eof: try builder.finish(); break loop
        }
    }
    return (sink.samples, builder.report)
}

/// Issue 13, "Trust, part 1": Apple Health XML.
@Suite struct AppleHealthTrustTests {
    /// Early iOS wrote heart rate as min/max/average with a record count and no value.
    @Test func earlyIOSAverageRecordsAreKeptWithTheirRange() throws {
        let (samples, report) = try parseAppleXML("""
        <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Phone" unit="count/min" startDate="2014-10-01 08:00:00 +0200" endDate="2014-10-01 08:10:00 +0200" min="58" max="96" average="71.5" recordCount="12"/>
        <Record type="HKQuantityTypeIdentifierBodyTemperature" sourceName="Phone" unit="degF" startDate="2014-10-01 08:00:00 +0200" endDate="2014-10-01 08:10:00 +0200" min="97.7" max="99.5" average="98.6" recordCount="3"/>
        """)
        #expect(report.problemCount == 0)
        let hr = try #require(samples.first { $0.type == "heartRate" })
        #expect(hr.value == 71.5)
        #expect(hr.metadata["min"] == "58" && hr.metadata["max"] == "96" && hr.metadata["recordCount"] == "12")
        let temp = try #require(samples.first { $0.type == "bodyTemperature" })
        #expect(temp.value == 37 && temp.metadata["min"] == "36.5" && temp.metadata["max"] == "37.5")
        #expect(temp.metadata["originalValue"] == "98.6")
    }

    /// A category record without a value is HealthKit's value 0: for sleep, in bed. A record
    /// asleep at the same time is then a second sample, not a duplicate of it.
    @Test func aSleepRecordWithoutAValueIsInBedAndKeepsItsAsleepTwin() throws {
        let (samples, _) = try parseAppleXML("""
        <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Phone" startDate="2015-03-01 23:00:00 +0100" endDate="2015-03-02 07:00:00 +0100"/>
        <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Phone" startDate="2015-03-01 23:00:00 +0100" endDate="2015-03-02 07:00:00 +0100" value="1"/>
        """)
        #expect(samples.map(\.type) == ["timeInBed", "sleepAnalysis"])
        #expect(samples[0].metadata["sleepStage"] == "HKCategoryValueSleepAnalysisInBed")
        #expect(Set(samples.map(\.id)).count == 2)
    }

    /// Percent fractions and unit spellings keep the value and unit as written.
    @Test func convertedValuesKeepTheirOriginals() throws {
        let (samples, _) = try parseAppleXML("""
        <Record type="HKQuantityTypeIdentifierOxygenSaturation" sourceName="Watch" unit="%" startDate="2026-01-01 03:00:00 +0100" endDate="2026-01-01 03:00:00 +0100" value="0.96"/>
        <Record type="HKQuantityTypeIdentifierBloodGlucose" sourceName="Meter" unit="mmol&lt;180.15588&gt;/L" startDate="2026-01-01 03:00:00 +0100" endDate="2026-01-01 03:00:00 +0100" value="5"/>
        <Record type="HKQuantityTypeIdentifierNewThing" sourceName="Watch" unit="hr" startDate="2026-01-01 03:00:00 +0100" endDate="2026-01-01 03:00:00 +0100" value="2"/>
        """)
        #expect(samples[0].value == 96 && samples[0].metadata["originalValue"] == "0.96" && samples[0].metadata["originalUnit"] == "%")
        #expect(samples[1].value == 90.07794)
        #expect(samples[2].unit == "h" && samples[2].value == 2 && samples[2].metadata["originalUnit"] == "hr")
    }

    /// A correlation's own metadata reaches its members, even though their top-level copies
    /// come first in the file.
    @Test func aCorrelationsMetadataIsKeptOnItsMembers() throws {
        let record = { (t: String, v: Int) in
            "<Record type=\"HKQuantityTypeIdentifierBloodPressure\(t)\" sourceName=\"Shinzo\" unit=\"mmHg\" startDate=\"2020-08-02 19:12:21 +0900\" endDate=\"2020-08-02 19:12:21 +0900\" value=\"\(v)\"/>"
        }
        let (samples, _) = try parseAppleXML("""
        \(record("Systolic", 125))
        \(record("Diastolic", 74))
        <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Shinzo" unit="mmHg" startDate="2020-08-03 19:12:21 +0900" endDate="2020-08-03 19:12:21 +0900" value="130"/>
        <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Shinzo" startDate="2020-08-02 19:12:21 +0900" endDate="2020-08-02 19:12:21 +0900">
         <MetadataEntry key="Sequence no" value="3"/>
         <MetadataEntry key="Manufacturer" value="FREDDIE"/>
         \(record("Diastolic", 74))
         \(record("Systolic", 125))
        </Correlation>
        """)
        #expect(samples.count == 3)
        let inCorrelation = samples.filter { $0.metadata["Sequence no"] == "3" }
        #expect(inCorrelation.count == 2 && inCorrelation.allSatisfy { $0.metadata["Manufacturer"] == "FREDDIE" })
        #expect(samples.contains { $0.value == 130 && $0.metadata.isEmpty }, "a reading without a correlation still arrives")
    }

    /// The activity summary's day is the local day the export's records carry, not UTC.
    @Test func anActivitySummaryIsTheLocalDayOfTheRecords() throws {
        let (samples, _) = try parseAppleXML("""
        <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-01-31 09:00:00 -0800" endDate="2024-01-31 09:10:00 -0800" value="100"/>
        <ActivitySummary dateComponents="2024-01-31" activeEnergyBurned="400" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
        <ActivitySummary dateComponents="2024-02-05" activeEnergyBurned="300" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
        """, offsetFallback: 3600)
        let days = samples.filter { $0.type == "activitySummary" }
        #expect(days[0].start.iso8601Local == "2024-01-31T00:00:00.000-08:00")
        #expect(days[0].end.iso8601Local == "2024-02-01T00:00:00.000-08:00")
        // No record on that day: the importing machine's zone (here given as +01:00).
        #expect(days[1].start.iso8601Local == "2024-02-05T00:00:00.000+01:00")
    }

    /// Bytes that are not UTF-8 refuse the record, naming the byte and the attribute; the
    /// rest of the file imports and no type with U+FFFD in its name appears.
    @Test func invalidUTF8RefusesTheRecordAndNamesTheByte() throws {
        let head = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
        var bytes = Array(head.utf8)
        let badRecord = Array("<Record type=\"he".utf8) + [0xFF] + Array("(rt\" sourceName=\"Phone\" unit=\"count\" startDate=\"2026-01-01 10:00:00 +0100\" endDate=\"2026-01-01 10:00:00 +0100\" value=\"1\"/>\n".utf8)
        let badOffset = bytes.count + 16
        bytes += badRecord
        bytes += Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Ph".utf8) + [0xC3, 0x28] + Array("one\" unit=\"count\" startDate=\"2026-01-01 10:00:00 +0100\" endDate=\"2026-01-01 10:00:00 +0100\" value=\"5\"/>\n".utf8)
        bytes += Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2026-01-01 10:00:00 +0100\" endDate=\"2026-01-01 10:00:00 +0100\" value=\"7\">\n <MetadataEntry key=\"note\" value=\"\u{00}".utf8).dropLast() + [0xE2, 0x82] + Array("\"/>\n</Record>\n".utf8)
        bytes += Array("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2026-01-01 11:00:00 +0100\" endDate=\"2026-01-01 11:00:00 +0100\" value=\"9\"/>\n</HealthData>\n".utf8)
        let (samples, report) = try parseAppleXML(bytes: bytes)
        #expect(samples.map(\.value) == [9])
        #expect(report.problemCount == 3)
        #expect(report.problems[0].offset == Int64(badOffset) && report.problems[0].line == 3)
        #expect(report.problems[0].message.contains("'type' is not valid UTF-8"))
        #expect(report.problems[1].message.contains("'sourceName'"))
        #expect(report.problems[2].message.contains("'value'"))
        #expect(!samples.contains { $0.type.contains("\u{FFFD}") })
    }
}

/// Issue 13, "Trust, part 1": Health Auto Export.
@Suite struct AutoExportTrustTests {
    static func night(_ members: String) -> String {
        #"{"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [{"date": "2024-09-28 00:00:00 +1000", "#
            + members + #", "source": "Watch"}]}]}}"#
    }

    /// `asleep` is a total; core, deep and rem are its breakdown, not added on top of it.
    @Test func theStagesAreNotAddedToTheAsleepTotal() throws {
        let (samples, report) = try parseAutoExport(Self.night(#""asleep": 6.5, "core": 3.5, "deep": 1.2, "rem": 1.7, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:45:00 +1000""#))
        #expect(report.problemCount == 0)
        let sleep = try #require(samples.first { $0.type == "sleepAnalysis" })
        #expect(sleep.value == 390)
        #expect(sleep.metadata["coreMinutes"] == "210" && sleep.metadata["deepMinutes"] == "72" && sleep.metadata["remMinutes"] == "102")
    }

    /// Stages are summed only when no total is given.
    @Test func theStagesAreSummedWhenNoTotalIsGiven() throws {
        let (samples, _) = try parseAutoExport(Self.night(#""core": 3.5, "deep": 1.2, "rem": 1.7, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:45:00 +1000""#))
        #expect(samples.first { $0.type == "sleepAnalysis" }?.value == 384)
    }

    /// The night spans sleepStart…sleepEnd (time in bed: inBedStart…inBedEnd), not the day.
    @Test func aNightSpansItsSleepAndItsTimeInBed() throws {
        let (samples, _) = try parseAutoExport(Self.night(#""totalSleep": 7, "inBed": 7.5, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 06:30:00 +1000", "inBedStart": "2024-09-27 22:50:00 +1000", "inBedEnd": "2024-09-28 06:40:00 +1000""#))
        let sleep = try #require(samples.first { $0.type == "sleepAnalysis" })
        let bed = try #require(samples.first { $0.type == "timeInBed" })
        #expect(sleep.start.iso8601Local == "2024-09-27T23:00:00.000+10:00" && sleep.end.iso8601Local == "2024-09-28T06:30:00.000+10:00")
        #expect(bed.start.iso8601Local == "2024-09-27T22:50:00.000+10:00" && bed.end.iso8601Local == "2024-09-28T06:40:00.000+10:00")
    }

    /// Invariant: a night never holds more time than its span, whatever the file says.
    @Test(arguments: [
        #""totalSleep": 12.9, "sleepStart": "2024-09-27 23:00:00 +1000", "sleepEnd": "2024-09-28 05:30:00 +1000""#,
        #""asleep": 6.5, "core": 3.5, "deep": 1.2, "rem": 1.7, "sleepStart": "2024-09-28 00:00:00 +1000", "sleepEnd": "2024-09-28 04:00:00 +1000""#,
        #""core": 30, "deep": 1, "rem": 1"#,
        #""inBed": 9, "asleep": 8, "inBedStart": "2024-09-27 23:00:00 +1000", "inBedEnd": "2024-09-28 06:00:00 +1000", "sleepStart": "2024-09-27 23:30:00 +1000", "sleepEnd": "2024-09-28 05:00:00 +1000""#,
    ])
    func aNightNeverHoldsMoreThanItsSpan(_ members: String) throws {
        let (samples, _) = try parseAutoExport(Self.night(members))
        #expect(!samples.isEmpty)
        for s in samples {
            #expect(s.value <= Double(s.end.millis - s.start.millis) / 60_000, "\(s.type) \(s.value) min over \(s.start.iso8601Local)…\(s.end.iso8601Local)")
        }
        if let cut = samples.first(where: { $0.metadata["reportedMinutes"] != nil }) {
            #expect(Double(cut.metadata["reportedMinutes"]!)! > cut.value)
        }
    }

    /// HAE's workouts CSV (`Type,Start,End,Duration,…`): one workout per row, its figures as
    /// the workout's statistics, and no activity samples from its energy or step columns.
    @Test func theWorkoutsCSVGivesOneWorkoutPerRow() throws {
        let csv = """
        Type,Start,End,Duration,Active Energy (kcal),Resting Energy (kcal),Max Heart Rate (count/min),Avg Heart Rate (count/min),Distance (km),Step Count (count),Step Cadence (spm)
        Outdoor Run,2024-09-28 06:00:00 +1000,2024-09-28 06:45:30 +1000,0:45:30,512.4,80.1,171,148,8.2,7400,165
        Indoor Cycle,2024-09-28 18:00:00 +1000,2024-09-28 18:30:00 +1000,00:30:00,250,40,150,130,,,
        """
        let (samples, report) = try parseAutoExportCSV(csv)
        #expect(report.problemCount == 0)
        #expect(samples.map(\.type) == ["workout", "workout"])
        let run = samples[0]
        #expect(run.value == 45.5)
        #expect(run.metadata["workoutName"] == "Outdoor Run")
        #expect(run.metadata["activeEnergyKcal"] == "512.4" && run.metadata["distanceKm"] == "8.2")
        #expect(run.metadata["stepCount"] == "7400" && run.metadata["avgHeartRate"] == "148" && run.metadata["stepCadence"] == "165")
        #expect(samples[1].value == 30)
    }

    /// Symptoms become samples of HealthKit's symptom types, with the severity as HealthKit
    /// numbers it; state of mind keeps its valence, labels and associations.
    @Test func symptomsAndStateOfMindAreSamples() throws {
        let (samples, report) = try parseAutoExport(#"""
        {"data": {"symptoms": [{"start": "2024-02-06 10:00:00 -0800", "end": "2024-02-06 12:00:00 -0800", "name": "Headache", "severity": "Severe", "userEntered": true, "source": "Health"}],
                  "stateOfMind": [{"id": "a", "start": "2024-02-06 14:00:00 -0800", "end": "2024-02-06 14:00:00 -0800", "kind": "dailyMood", "labels": ["Calm"], "associations": ["Family", "Work"], "valence": -0.3, "valenceClassification": 0}]}}
        """#)
        #expect(report.problemCount == 0)
        let headache = try #require(samples.first)
        #expect(headache.type == "headache" && headache.value == 4 && headache.metadata["severity"] == "Severe")
        #expect(DataType.lookup(headache.type)?.hkIdentifier == "HKCategoryTypeIdentifierHeadache")
        #expect(DataType.lookup(headache.type)?.category == .symptoms)
        let mood = try #require(samples.last)
        #expect(mood.type == "stateOfMind" && mood.value == -0.3)
        #expect(mood.metadata["labels"] == #"["Calm"]"# && mood.metadata["associations"] == #"["Family","Work"]"#)
        #expect(DataType.lookup("stateOfMind")?.category == .mentalWellbeing)
    }

    /// A point whose string holds bytes that are not UTF-8 is refused, naming byte, line and
    /// field; a metric whose name is damaged is refused whole; the rest imports.
    @Test func invalidUTF8InHAEJSONRefusesThePointOrMetric() throws {
        var bytes = Array(#"{"data": {"metrics": [{"name": "heart_rate", "units": "count/min", "data": ["#.utf8)
        bytes += Array("\n".utf8)
        bytes += Array(#"{"date": "2024-09-28 10:00:01 +1000", "qty": 60, "source": "Wa"#.utf8) + [0xFF] + Array(#"tch"},"#.utf8)
        bytes += Array("\n".utf8)
        bytes += Array(#"{"date": "2024-09-28 10:00:02 +1000", "qty": 61, "source": "Watch"}]},"#.utf8)
        bytes += Array(#"{"name": "he"#.utf8) + [0xFF] + Array(#"(rt", "units": "count", "data": [{"date": "2024-09-28 10:00:00 +1000", "qty": 1}]}]}}"#.utf8)
        let sink = CollectingSink()
        let report = try AutoExportParser.parseJSON(bytes, into: sink)
        #expect(sink.samples.map(\.value) == [61])
        #expect(report.problemCount == 2)
        #expect(report.problems[0].line == 2 && report.problems[0].message.contains("metric heart_rate, point 1 refused: \"source\""))
        #expect(report.problems[1].message.contains("metrics 2 refused: \"name\""))
    }

    /// A native sample (array or NDJSON) with bytes that are not UTF-8 is refused, naming the
    /// byte and the field; the samples around it are imported.
    @Test(arguments: [false, true]) func invalidUTF8InNativeJSONRefusesTheSample(ndjson: Bool) throws {
        let good = Array(#"{"type": "heartRate", "value": 61, "startDate": "2026-01-01T10:00:00Z"}"#.utf8)
        let bad = Array(#"{"type": "he"#.utf8) + [0xFF] + Array(#"(rt", "value": 62, "startDate": "2026-01-01T10:01:00Z"}"#.utf8)
        let bytes = ndjson ? good + [0x0A] + bad + [0x0A] + good + [0x0A] : Array("[".utf8) + good + Array(",".utf8) + bad + Array(",".utf8) + good + Array("]".utf8)
        let sink = CollectingSink()
        let report = try NativeParser.parse(bytes, into: sink)
        #expect(sink.samples.map(\.type) == ["heartRate", "heartRate"])
        let badOffset = (ndjson ? good.count + 1 : good.count + 2) + 12
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.message.contains("invalid UTF-8 at byte \(badOffset) in \"type\"") == true,
                "\(report.problems.first?.message ?? "no problem")")
    }

    /// A CSV row with bytes that are not UTF-8 is refused, naming its line and column.
    @Test func invalidUTF8InCSVRefusesTheRow() throws {
        let bytes = Array("type,value,start\nheartRate,61,2026-01-01 10:00:00 +0100\nhe".utf8) + [0xFF] + Array("(rt,62,2026-01-01 10:01:00 +0100\n".utf8)
        let sink = CollectingSink()
        let report = try PlainCSVParser.parse(bytes, into: sink)
        #expect(sink.samples.map(\.type) == ["heartRate"])
        #expect(report.problems.first?.line == 3 && report.problems.first?.offset == 58)
        #expect(report.problems.first?.message.contains("column type is not valid UTF-8") == true)
    }
}

/// Problems are counted by kind, so a report names every one of them.
@Suite struct ProblemKindTests {
    @Test func aReportCountsEveryProblemByKindWithExamples() throws {
        var points = (0..<80).map { #"{"date": "day \#($0)", "qty": 1}"# }
        points += (0..<6).map { #"{"date": "2024-09-28 10:00:0\#($0) +1000", "qty": "n/a"}"# }
        let (_, report) = try parseAutoExport(autoExport(metric: "step_count", units: "count", points: points))
        #expect(report.problemCount == 86)
        #expect(report.problemKinds.count == 2)
        #expect(report.problemKinds.map(\.count) == [80, 6])
        #expect(report.problemKinds[0].examples.count == ParseReport.examplesPerKind)
        #expect(report.problemKinds[0].kind == #"metric step_count, point N: "date" '…' is not a date (expected e.g. N-N-N N:N:N +N or N-N-N N:N:N pm +N)"#)
    }
}

import HealthSpoolCore
import Testing
@testable import HealthExport

/// Parses HAE JSON text; the samples and the report.
func parseAutoExport(_ json: String) throws -> ([Sample], ParseReport) {
    let sink = CollectingSink()
    let report = try AutoExportParser.parseJSON(Array(json.utf8), into: sink)
    return (sink.samples, report)
}

/// An HAE export holding one metric.
func autoExport(metric name: String, units: String, points: [String]) -> String {
    """
    {"data": {"metrics": [{"name": "\(name)", "units": "\(units)", "data": [\(points.joined(separator: ","))]}], "workouts": []}}
    """
}

@Suite("Health Auto Export JSON")
struct AutoExportJSONTests {
    // MARK: Overlap and revision

    /// Hourly steps as HAE sends them every few hours: yesterday plus today so far.
    func hourlySteps(_ buckets: [(String, Int)], heartRate: [String] = []) -> String {
        let steps = buckets.map { #"{"date": "\#($0.0) +0200", "qty": \#($0.1), "source": "Apple Watch|iPhone"}"# }
        return """
        {"data": {"metrics": [
          {"name": "step_count", "units": "count", "data": [\(steps.joined(separator: ","))]},
          {"name": "heart_rate", "units": "count/min", "data": [\(heartRate.joined(separator: ","))]}
        ]}}
        """
    }

    @Test func overlappingExportsGiveTheSameIdsForTheOverlap() throws {
        let reading = #"{"date": "2024-09-28 09:14:37 +0200", "Min": 64, "Avg": 64, "Max": 64, "source": "Apple Watch"}"#
        let morning = hourlySteps([("2024-09-27 22:00:00", 310), ("2024-09-27 23:00:00", 12),
                                   ("2024-09-28 08:00:00", 900), ("2024-09-28 09:00:00", 450)], heartRate: [reading])
        let afternoon = hourlySteps([("2024-09-27 23:00:00", 12), ("2024-09-28 08:00:00", 900),
                                     ("2024-09-28 09:00:00", 1210), ("2024-09-28 13:00:00", 75)], heartRate: [reading])
        let (a, _) = try parseAutoExport(morning)
        let (b, _) = try parseAutoExport(afternoon)
        func byStart(_ s: [Sample]) -> [String: Sample] {
            Dictionary(uniqueKeysWithValues: s.map { ($0.type + " " + $0.start.iso8601Local, $0) })
        }
        let first = byStart(a), second = byStart(b)
        let overlap = Set(first.keys).intersection(second.keys)
        #expect(overlap == ["stepCount 2024-09-27T23:00:00.000+02:00", "stepCount 2024-09-28T08:00:00.000+02:00",
                            "stepCount 2024-09-28T09:00:00.000+02:00", "heartRate 2024-09-28T09:14:37.000+02:00"])
        for key in overlap { #expect(first[key]!.id == second[key]!.id, "\(key)") }
        // The hour still being counted grew: same id, the later value.
        let nine = "stepCount 2024-09-28T09:00:00.000+02:00"
        #expect(first[nine]!.value == 450 && second[nine]!.value == 1210)
        #expect(first[nine]!.end.iso8601Local == "2024-09-28T10:00:00.000+02:00")
        // Ids are unique within an export, and only the overlap is shared.
        #expect(Set(a.map(\.id)).count == a.count)
        #expect(Set(a.map(\.id)).intersection(b.map(\.id)).count == overlap.count)
    }

    @Test func aRevisedDailyTotalKeepsItsIdAndTakesTheNewValue() throws {
        func daily(_ today: Int) -> String {
            autoExport(metric: "step_count", units: "count", points: [
                #"{"date": "2024-09-27 00:00:00 +1000", "qty": 10412, "source": "Apple Watch|iPhone"}"#,
                #"{"date": "2024-09-28 00:00:00 +1000", "qty": \#(today), "source": "Apple Watch|iPhone"}"#,
            ])
        }
        let (early, _) = try parseAutoExport(daily(3521))
        let (late, _) = try parseAutoExport(daily(8_094))
        #expect(early.map(\.id) == late.map(\.id))
        #expect(early.map(\.value) == [10412, 3521])
        #expect(late.map(\.value) == [10412, 8094])
        #expect(late.allSatisfy { $0.revisable && $0.metadata["aggregation"] == "day" })
        #expect(late[1].start.iso8601Local == "2024-09-28T00:00:00.000+10:00")
        #expect(late[1].end.iso8601Local == "2024-09-29T00:00:00.000+10:00")
    }

    @Test func singleReadingsAreNotRevisableAndKeepTheirValueInTheId() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "heart_rate", units: "count/min", points: [
            #"{"date": "2024-09-28 16:51:59 -0700", "Min": 72, "Avg": 72, "Max": 72}"#,
            #"{"date": "2024-09-28 16:52:00 -0700", "Min": 75, "Avg": 75, "Max": 75}"#,
        ]))
        #expect(samples.count == 2)
        #expect(samples.allSatisfy { !$0.revisable && $0.start == $0.end && $0.metadata["aggregation"] == nil })
        #expect(samples.map(\.source.name) == ["Health Auto Export", "Health Auto Export"])
    }

    @Test func theAggregationPeriodIsSharedByTheWholeExport() throws {
        // Weight was measured once at 07:00, but steps show the export is per minute.
        let json = """
        {"data": {"metrics": [
          {"name": "weight_body_mass", "units": "kg", "data": [{"date": "2024-09-28 07:00:00 +0000", "qty": 72.4}]},
          {"name": "step_count", "units": "count", "data": [{"date": "2024-09-28 07:00:00 +0000", "qty": 10},
                                                           {"date": "2024-09-28 07:01:00 +0000", "qty": 12}]}
        ]}}
        """
        let (samples, _) = try parseAutoExport(json)
        #expect(samples.map { $0.metadata["aggregation"] } == ["minute", "minute", "minute"])
        #expect(samples[0].end.millis - samples[0].start.millis == 60_000)
    }

    @Test func aMetricWrittenInTwelveAndTwentyFourHourClockIdentifiesAlike() throws {
        let (twelve, _) = try parseAutoExport(autoExport(metric: "resting_heart_rate", units: "count/min", points: [
            "{\"date\": \"2024-09-28 4:51:00\u{202F}pm +1000\", \"qty\": 58}",
        ]))
        let (twentyFour, _) = try parseAutoExport(autoExport(metric: "resting_heart_rate", units: "count/min", points: [
            #"{"date": "2024-09-28 16:51:00 +1000", "qty": 58}"#,
        ]))
        #expect(twelve.count == 1)
        #expect(twelve.map(\.id) == twentyFour.map(\.id))
        #expect(twelve[0].start.iso8601UTC == "2024-09-28T06:51:00.000Z")
    }

    // MARK: Mapping and units

    @Test(arguments: [
        ("step_count", "stepCount"), ("active_energy", "activeEnergyBurned"), ("basal_energy_burned", "basalEnergyBurned"),
        ("resting_heart_rate", "restingHeartRate"), ("walking_heart_rate_average", "walkingHeartRateAverage"),
        ("heart_rate_variability", "heartRateVariability"), ("blood_oxygen_saturation", "oxygenSaturation"),
        ("respiratory_rate", "respiratoryRate"), ("vo2_max", "vo2Max"), ("weight_body_mass", "bodyMass"),
        ("body_mass_index", "bodyMassIndex"), ("body_fat_percentage", "bodyFatPercentage"), ("lean_body_mass", "leanBodyMass"),
        ("height", "height"), ("waist_circumference", "waistCircumference"), ("blood_glucose", "bloodGlucose"),
        ("body_temperature", "bodyTemperature"), ("dietary_water", "dietaryWater"), ("dietary_energy", "dietaryEnergy"),
        ("protein", "dietaryProtein"), ("carbohydrates", "dietaryCarbohydrates"), ("total_fat", "dietaryFat"),
        ("fiber", "dietaryFiber"), ("dietary_sugar", "dietarySugar"), ("sodium", "dietarySodium"),
        ("potassium", "dietaryPotassium"), ("calcium", "dietaryCalcium"), ("iron", "dietaryIron"),
        ("vitamin_c", "dietaryVitaminC"), ("vitamin_d", "dietaryVitaminD"), ("caffeine", "dietaryCaffeine"),
        ("dietary_caffeine", "dietaryCaffeine"), ("mindful_minutes", "mindfulMinutes"),
        ("walking_running_distance", "distanceWalkingRunning"), ("cycling_distance", "distanceCycling"),
        ("flights_climbed", "flightsClimbed"), ("apple_exercise_time", "exerciseTime"), ("apple_stand_hour", "standHours"),
        ("apple_stand_time", "standTime"), ("environmental_audio_exposure", "environmentalAudioExposure"),
        ("headphone_audio_exposure", "headphoneAudioExposure"), ("heart_rate", "heartRate"),
        ("sleep_analysis", "sleepAnalysis"),
    ])
    func metricNamesMapToRegistryTypes(_ name: String, _ type: String) {
        #expect(AutoExportNames.type(for: name) == type)
        #expect(DataType.lookup(type) != nil)
    }

    @Test func unknownMetricsAreKeptUnderTheirOwnName() throws {
        let (samples, report) = try parseAutoExport(autoExport(metric: "walking_asymmetry_percentage", units: "%", points: [
            #"{"date": "2024-09-28 00:00:00 +0000", "qty": 0.021, "source": "iPhone"}"#,
        ]))
        #expect(report.problemCount == 0)
        #expect(samples.count == 1)
        #expect(samples[0].type == "walking_asymmetry_percentage")
        #expect(samples[0].value == 0.021 && samples[0].unit == "%")
    }

    @Test(arguments: [(0.97, 97.0), (97.0, 97.0), (1.0, 100.0), (99.5, 99.5)])
    func oxygenSaturationIsNormalizedToPercent(_ qty: Double, _ expected: Double) throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "blood_oxygen_saturation", units: "%", points: [
            #"{"date": "2024-09-28 10:00:00 +0000", "qty": \#(qty)}"#,
        ]))
        #expect(samples.first?.value == expected)
        #expect(samples.first?.metadata["originalValue"] == (qty <= 1 ? SampleIdentity.canonicalNumber(qty) : nil))
    }

    @Test func localeUnitsAreConvertedAndTheOriginalKept() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "dietary_energy", units: "kJ", points: [
            #"{"date": "2024-09-28 00:00:00 +0200", "qty": 8368}"#,
        ]))
        #expect(samples.first?.value == 2000)
        #expect(samples.first?.unit == "kcal")
        #expect(samples.first?.metadata["originalUnit"] == "kJ")
        #expect(samples.first?.metadata["originalValue"] == "8368")
    }

    @Test func heartRateKeepsMinAndMaxInMetadata() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "heart_rate", units: "count/min", points: [
            #"{"date": "2024-09-28 10:00:00 +0000", "Min": 58, "Avg": 71.5, "Max": 133, "source": "Apple Watch"}"#,
        ]))
        #expect(samples.first?.value == 71.5)
        #expect(samples.first?.metadata["min"] == "58")
        #expect(samples.first?.metadata["max"] == "133")
    }

    @Test func bloodPressureBecomesTwoSamples() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "blood_pressure", units: "mmHg", points: [
            #"{"date": "2024-09-28 07:31:12 +0000", "systolic": 118, "diastolic": 77, "source": "Omron Connect"}"#,
        ]))
        #expect(samples.map(\.type) == ["bloodPressureSystolic", "bloodPressureDiastolic"])
        #expect(samples.map(\.value) == [118, 77])
        #expect(samples.allSatisfy { $0.unit == "mmHg" && $0.source.name == "Omron Connect" })
        #expect(samples[0].id != samples[1].id)
    }

    @Test func joinedSourcesAreKeptAsGiven() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "step_count", units: "count", points: [
            #"{"date": "2024-09-28 00:00:00 +0000", "qty": 1, "source": "Jane’s Apple Watch|Jane’s iPhone"}"#,
        ]))
        #expect(samples.first?.source.name == "Jane’s Apple Watch|Jane’s iPhone")
    }

    @Test func sleepSegmentsWithTheSameStageAndDurationStayDistinct() throws {
        let (samples, _) = try parseAutoExport(autoExport(metric: "sleep_analysis", units: "hr", points: [
            #"{"startDate": "2024-09-28 01:00:00 +0000", "endDate": "2024-09-28 01:30:00 +0000", "value": "Core", "qty": 0.5}"#,
            #"{"startDate": "2024-09-28 03:00:00 +0000", "endDate": "2024-09-28 03:30:00 +0000", "value": "Core", "qty": 0.5}"#,
        ]))
        #expect(samples.map(\.value) == [30, 30])
        #expect(samples[0].id != samples[1].id)
        #expect(samples.allSatisfy { $0.metadata["sleepStage"] == "core" && !$0.revisable })
    }

    // MARK: Problems

    @Test func aPointThatCannotBeReadIsNotedAndTheRestKept() throws {
        let json = """
        {"data": {"metrics": [
          {"name": "weight_body_mass", "units": "stone-ish", "data": [{"date": "2024-09-28 07:00:00 +0000", "qty": 11}]},
          {"name": "step_count", "units": "count", "data": [{"date": "2024-09-28 07:00:00 +0000", "qty": 5},
                                                           {"date": "2024-09-28 07:01:00 +0000"}]}
        ]}}
        """
        let (samples, report) = try parseAutoExport(json)
        #expect(samples.map(\.type) == ["stepCount"])
        #expect(report.problemCount == 2)
        #expect(report.problems.map(\.message) == [
            "metric weight_body_mass, point 1: bodyMass: unit 'stone-ish' cannot be converted to kg",
            "metric step_count, point 2: no numeric \"qty\" (or \"Avg\")",
        ])
    }

    @Test func truncatedJSONIsMalformedWithWhereAndWhatToDo() throws {
        let json = "{\"data\": {\n\"metrics\": [{\"name\": \"step_count\", \"units\": \"count\", \"data\": [\n{\"date\": \"2024-09-28"
        #expect {
            _ = try parseAutoExport(json)
        } throws: { error in
            guard case let .malformed(format, line, offset, reason) = error as? ImportError else { return false }
            return format == "Health Auto Export JSON" && line == 3 && offset == Int64(json.utf8.count)
                && reason.contains("export it again")
        }
    }

    @Test func jsonWithoutMetricsOrWorkoutsIsMalformed() throws {
        #expect {
            _ = try parseAutoExport(#"{"data": {"exportDate": "2024-09-28"}}"#)
        } throws: { error in
            guard case let .malformed(_, _, _, reason) = error as? ImportError else { return false }
            return reason.contains("\"metrics\"") && reason.contains("\"workouts\"")
        }
        #expect(throws: ImportError.malformed(format: "Health Auto Export JSON", line: nil, offset: nil, reason: "\"data.metrics\" must be an array")) {
            _ = try parseAutoExport(#"{"data": {"metrics": {"name": "step_count"}}}"#)
        }
    }

    @Test func everySectionNotReadIsNamedWithItsCount() throws {
        let (samples, report) = try parseAutoExport(#"{"data": {"metrics": [], "workouts": [], "medications": [], "ecg": [], "futureSection": [1, 2, 3], "version": "8.1"}}"#)
        #expect(samples.isEmpty)
        #expect(report.ignored == ["futureSection (section not read)": 3, "version (section not read)": 1])
        #expect(report.problemCount == 0)
    }
}

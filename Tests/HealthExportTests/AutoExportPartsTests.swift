import HealthExport
import HealthSpoolCore
import Testing

/// Health Auto Export's workout `route[]` and `ecg` section give the same samples as an Apple
/// export's GPX and CSV files.
@Suite struct AutoExportPartsTests {
    static let json = Array("""
        {"data": {"workouts": [{"id": "W1", "name": "Outdoor Run", "start": "2025-06-07 12:58:33 +0200",
            "end": "2025-06-07 12:59:12 +0200", "duration": 39,
            "route": [
              {"latitude": 48.8566, "longitude": 2.3522, "altitude": 35.2, "timestamp": "2025-06-07 12:58:33 +0200", "speed": -1, "course": 38.5, "horizontalAccuracy": 3.1, "verticalAccuracy": 2.2},
              {"latitude": 48.8567, "longitude": 2.3523, "altitude": 35.4, "timestamp": "2025-06-07 12:58:34 +0200", "speed": 2.7, "course": 38.9},
              {"lat": 48.8568, "lon": 2.3524, "timestamp": "2025-06-07 12:58:35 +0200"},
              {"latitude": 48.8569, "timestamp": "2025-06-07 12:58:36 +0200"}
            ]}],
          "ecg": [{"start": "2025-06-08 08:41:07 +0200", "end": "2025-06-08 08:41:37 +0200", "classification": "Atrial Fibrillation",
            "averageHeartRate": 104, "numberOfVoltageMeasurements": 3, "samplingFrequency": 512, "source": "Camille’s Apple Watch",
            "voltageMeasurements": [{"date": "2025-06-08 08:41:07 +0200", "voltage": -0.000052551, "units": "V"},
                                    {"date": "2025-06-08 08:41:07 +0200", "voltage": 0.00011, "units": "V"},
                                    {"date": "2025-06-08 08:41:07 +0200", "voltage": 0.5, "units": "mV"}]}]}}
        """.utf8)

    @Test func aWorkoutsRouteIsTiedToItAndBadPointsAreNoted() throws {
        let outcome = ParseOutcome.parse(Self.json, name: "HealthAutoExport.json")
        #expect(outcome.error == nil)
        let workout = try #require(outcome.samples.first { $0.type == "workout" })
        let route = try #require(outcome.samples.first { $0.type == "workoutRoute" })
        #expect(route.metadata["workoutId"] == workout.id.description)
        let text = try #require(route.metadata["points"])
        let points = try #require(RoutePoint.decode(text))
        #expect(points.map(\.latitude) == [48.8566, 48.8567, 48.8568])
        #expect(points[0].speed == nil && points[0].course == 38.5 && points[0].elevation == 35.2)
        #expect(outcome.report?.problems.contains { $0.message.contains("1 points without a position") } == true)
    }

    @Test func anECGEntryKeepsItsRateAndItsVoltagesInMicrovolts() throws {
        let outcome = ParseOutcome.parse(Self.json, name: "HealthAutoExport.json")
        let ecg = try #require(outcome.samples.first { $0.type == "electrocardiogram" })
        #expect(ecg.value == 104)
        #expect(ecg.metadata["classificationCode"] == "atrialFibrillation")
        #expect(ecg.source.name == "Camille’s Apple Watch")
        let text = try #require(ecg.metadata["voltages"])
        let v = try #require(ECGVoltages.decode(text))
        #expect(v.count == 3)
        #expect(abs(v[0] - -52.551) < 1e-9 && abs(v[1] - 110) < 1e-9 && v[2] == 500)
        // Read, not named as a section left out.
        #expect(outcome.report?.ignored.keys.contains { $0.hasPrefix("ecg") } == false)
    }
}

import Foundation
import HealthExport
import HealthSpoolCore
import Testing

/// The parts of an export.zip beside export.xml: workout routes (GPX) and ECGs (CSV), found by
/// content, tied to their workout, damage noted with the part's name and line.
@Suite struct ExportPartsTests {
    static func part(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden/parts"))
        return Array(try Data(contentsOf: url))
    }

    static let xml = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="fr_FR">
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="1" durationUnit="min" sourceName="Camille’s Apple Watch" sourceVersion="11.2" startDate="2025-06-07 12:58:33 +0200" endDate="2025-06-07 12:59:12 +0200">
          <WorkoutRoute sourceName="Camille’s Apple Watch" sourceVersion="11.2" startDate="2025-06-07 12:58:33 +0200" endDate="2025-06-07 12:59:12 +0200">
           <FileReference path="/workout-routes/route_2025-06-07_12.58pm.gpx"/>
          </WorkoutRoute>
         </Workout>
        </HealthData>

        """.utf8)

    /// An archive with the XML and `parts` (name → bytes), folder names as given.
    static func archive(_ parts: [(String, [UInt8])]) -> [UInt8] {
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: xml))
        for (name, data) in parts { z.add(.init(name: Array(("apple_health_export/" + name).utf8), data: data)) }
        return z.finish()
    }

    static func standard() throws -> [UInt8] {
        archive([("workout-routes/route_2025-06-07_12.58pm.gpx", try part("route_2025-06-07_12.58pm.gpx")),
                 ("electrocardiograms/ecg_2025-06-08.csv", try part("ecg_2025-06-08.csv"))])
    }

    @Test func aRouteIsTiedToItsWorkoutWithEveryPointInOrder() throws {
        let outcome = ParseOutcome.parse(try Self.standard(), name: "export.zip")
        #expect(outcome.error == nil)
        let workout = try #require(outcome.samples.first { $0.type == "workout" })
        let routes = outcome.samples.filter { $0.type == "workoutRoute" }
        #expect(routes.count == 1)
        let route = try #require(routes.first)
        #expect(route.metadata["workoutId"] == workout.id.description)
        #expect(route.metadata["final"] == "true")
        #expect(route.source.name == "Camille’s Apple Watch")
        let text = try #require(route.metadata["points"])
        let points = try #require(RoutePoint.decode(text))
        #expect(points.count == 40)
        #expect(route.value == 40)
        #expect(points.map(\.millis) == points.map(\.millis).sorted())
        // The first point as the file gives it: Apple's -1 speed and course mean "unknown".
        let gpx = String(decoding: try Self.part("route_2025-06-07_12.58pm.gpx"), as: UTF8.self)
        let firstLat = try #require(gpx.firstMatch(of: /lat="([0-9.]+)"/)?.1)
        #expect(points[0].latitude == Double(firstLat))
        #expect(points[0].speed == nil && points[0].course == nil)
        #expect(points[1].speed != nil && points[1].horizontalAccuracy != nil && points[1].elevation != nil)
        #expect(route.start == Timestamp(millis: points[0].millis) && route.end == Timestamp(millis: points[39].millis))
    }

    @Test func anECGKeepsItsClassificationLeadRateAndEveryVoltage() throws {
        let outcome = ParseOutcome.parse(try Self.standard(), name: "export.zip")
        let ecg = try #require(outcome.samples.first { $0.type == "electrocardiogram" })
        #expect(ecg.metadata["classification"] == "Sinus Rhythm")
        #expect(ecg.metadata["classificationCode"] == "sinusRhythm")
        #expect(ecg.metadata["lead"] == "Lead I")
        #expect(ecg.metadata["sampleRateHz"] == "512")
        #expect(ecg.metadata["symptoms"] == nil)
        #expect(ecg.start == TimestampParser.parse("2025-06-08 08:41:07 +0200"))
        #expect(ecg.end.millis - ecg.start.millis == 2000)
        // Neither the name nor the date of birth is kept.
        #expect(!ecg.metadata.values.contains { $0.contains("Camille") || $0.contains("1979") })
        let csv = String(decoding: try Self.part("ecg_2025-06-08.csv"), as: UTF8.self)
        let written = csv.split(separator: "\n").compactMap { Double($0) }
        let voltages = try #require(ecg.metadata["voltages"])
        #expect(ECGVoltages.decode(voltages) == written)
        #expect(written.count == 1024)
        // 66 beats a minute, counted from the voltages (the CSV gives no rate).
        #expect(abs(ecg.value - 66) <= 2)
        #expect(ecg.metadata["averageHeartRateFrom"] == "voltages")
    }

    @Test func aTranslatedECGIsFoundByItsContent() throws {
        let outcome = ParseOutcome.parse(Self.archive([("Elektrokardiogramme/ekg_2025-06-09.csv", try Self.part("ekg_2025-06-09.csv"))]),
                                         name: "export.zip")
        let ecg = try #require(outcome.samples.first { $0.type == "electrocardiogram" })
        #expect(ecg.metadata["classification"] == "Vorhofflimmern")
        #expect(ecg.metadata["classificationCode"] == "atrialFibrillation")
        #expect(ecg.metadata["symptoms"] == "Herzrasen, Schwindel")
        #expect(ecg.metadata["lead"] == "Ableitung I")
        #expect(ecg.start == TimestampParser.parse("2025-06-09 21:05:44 +0200"))
        #expect(!ecg.metadata.values.contains { $0.contains("Camille") || $0.contains("1979") })
    }

    @Test func aDamagedRouteIsNotedByNameAndLineAndTheRestImported() throws {
        var gpx = try Self.part("route_2025-06-07_12.58pm.gpx")
        gpx = Array(gpx[0..<(gpx.count * 2 / 3)])   // cut inside a point
        let outcome = ParseOutcome.parse(Self.archive([("workout-routes/route_2025-06-07_12.58pm.gpx", gpx),
                                                       ("electrocardiograms/ecg_2025-06-08.csv", try Self.part("ecg_2025-06-08.csv"))]),
                                         name: "export.zip")
        #expect(outcome.error == nil)
        let problem = try #require(outcome.report?.problems.first { $0.message.contains("route_2025-06-07_12.58pm.gpx") })
        #expect(problem.message.contains("line "))
        let route = try #require(outcome.samples.first { $0.type == "workoutRoute" })
        #expect(route.value > 10 && route.value < 40)
        #expect(outcome.samples.contains { $0.type == "electrocardiogram" })
        #expect(outcome.samples.contains { $0.type == "workout" })
    }

    @Test func aReDropGivesTheSameIds() throws {
        let a = ParseOutcome.parse(try Self.standard(), name: "export.zip").samples.map(\.id)
        let b = ParseOutcome.parse(try Self.standard(), name: "export.zip").samples.map(\.id)
        #expect(a == b && a.count == 3)
    }

    @Test func aLongRouteGoesInPartsOfFiveHundredInOrder() throws {
        var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
        for i in 0..<1_234 {
            gpx += "<trkpt lat=\"\(45 + Double(i) * 1e-5)\" lon=\"7\"><time>2025-06-07T10:\(String(format: "%02d", i / 60 % 60)):\(String(format: "%02d", i % 60))Z</time></trkpt>\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        let outcome = ParseOutcome.parse(Self.archive([("workout-routes/route_x.gpx", Array(gpx.utf8))]), name: "export.zip")
        let parts = outcome.samples.filter { $0.type == "workoutRoute" }
        #expect(parts.map(\.value) == [500, 500, 234])
        #expect(parts.map { $0.metadata["firstPoint"] } == ["0", "500", "1000"])
        #expect(parts.map { $0.metadata["final"] } == [nil, nil, "true"])
        // Not named by export.xml: kept, without a workout.
        #expect(parts.allSatisfy { $0.metadata["workoutId"] == nil })
    }

    @Test func heartbeatsAreCountedOnARegularSignal() {
        // One sharp beat a second for 10 s at 500 Hz: 60 a minute.
        var v = [Double](repeating: 0, count: 5_000)
        for beat in stride(from: 250, to: 5_000, by: 500) {
            for k in -6...6 { v[beat + k] = 1_000 * (1 - Double(abs(k)) / 6) }
        }
        #expect(HeartbeatCounter.averageRate(microvolts: v, sampleRateHz: 500) == 60)
    }

    @Test(arguments: [("Sinus Rhythm", ECGClassification.sinusRhythm), ("Atrial Fibrillation", .atrialFibrillation),
                      ("Heart Rate Over 150", .inconclusiveHighHeartRate), ("Heart Rate Under 50", .inconclusiveLowHeartRate),
                      ("Poor Recording", .inconclusivePoorReading), ("Inconclusive", .inconclusiveOther),
                      ("Vorhofflimmern", .atrialFibrillation), ("Sinusrhythmus", .sinusRhythm), ("?", .unrecognized)])
    func classificationsAreReadFromTheirWords(text: String, expected: ECGClassification) {
        #expect(ECGClassification(text: text) == expected)
    }
}

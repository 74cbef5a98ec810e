import Foundation
import HealthExport
import HealthSpoolCore
import Testing

/// The real export samples in ../shared/fixtures/apple-health (skipped when absent).
@Suite struct AppleHealthFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/apple-health")

    static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

    /// File, `<Record>` elements (those inside a Correlation included), records inside a Correlation.
    static let cases: [(String, Int, Int)] = [
        ("healthkit-to-sqlite__export.xml", 2, 0),
        ("applehealthdata__export6s3sample.xml", 15, 0),
        ("ahcd-go__export.xml", 11, 2),
        ("apple-health-landing-zone__export.xml", 28, 2),
        ("applehealth-AlekSi__testdata.xml", 2, 0),
    ]

    @Test(.enabled(if: available), arguments: cases)
    func recordCounts(file: String, records: Int, inCorrelation: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(file)))
        let outcome = ParseOutcome.parse(bytes, name: file)
        #expect(outcome.error == nil)
        let report = try #require(outcome.report)
        #expect(report.problemCount == 0, "\(report.problems)")
        let fromRecords = outcome.samples.filter { !["workout", "activitySummary", "workoutRoute"].contains($0.type) }
        #expect(fromRecords.count == records)
        // In these (hand-edited) samples the records inside a Correlation do not repeat at top
        // level, as they do in real exports: nothing is duplicated, so every Record is one
        // distinct sample, those inside the Correlation included.
        #expect(Set(fromRecords.map(\.id)).count == records)
        let pressure = fromRecords.filter { $0.type.hasPrefix("bloodPressure") }
        #expect(pressure.count >= inCorrelation)
    }

    /// Exports before iOS 11 put a route's points inline (`<WorkoutRoute><Location …/>`): they
    /// become the workout's route as a GPX file's points do.
    @Test(.enabled(if: available)) func inlineLocationsAreTheWorkoutsRoute() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("healthkit-to-sqlite__export.xml")))
        let outcome = ParseOutcome.parse(bytes, name: "export.xml")
        let workout = try #require(outcome.samples.first { $0.type == "workout" })
        let route = try #require(outcome.samples.first { $0.type == "workoutRoute" })
        #expect(route.metadata["workoutId"] == workout.id.description)
        let text = try #require(route.metadata["points"])
        let points = try #require(RoutePoint.decode(text))
        #expect(points.count == 2)
        #expect(points[0].latitude == 37.7777 && points[0].longitude == -122.426 && points[0].elevation == 21.2694)
        #expect(points[0].course == nil && points[0].speed == 2.48034)
    }
}

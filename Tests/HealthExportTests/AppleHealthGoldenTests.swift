import Foundation
import HealthExport
import HealthSpoolCore
import Testing

/// Golden files: each `Golden/apple-health/NAME.xml` is parsed and the outcome (samples,
/// profile, ignored elements, problems, error) compared with `NAME.json` beside it.
/// `UPDATE_GOLDEN=1 swift test --filter AppleHealthGoldenTests` rewrites the expected files
/// (review the diff before committing).
@Suite struct AppleHealthGoldenTests {
    static let names = [
        "modern-export", "ios16-broken-dtd", "ios8-export", "billion-laughs", "truncated",
        "unescaped-device", "unreadable-values", "no-dtd-minimal",
    ]

    static func input(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Golden/apple-health"))
        return try [UInt8](Data(contentsOf: url))
    }

    @Test(arguments: names) func golden(name: String) throws {
        let outcome = ParseOutcome.parse(try Self.input(name), name: name + ".xml")
        let actual = outcome.rendered
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] != nil {
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Golden/apple-health/\(name).json")
            try actual.write(to: source, atomically: true, encoding: .utf8)
            return
        }
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Golden/apple-health"))
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected)
    }

    /// The same file parsed twice yields the same ids (and the same samples).
    @Test(arguments: names) func idempotent(name: String) throws {
        let bytes = try Self.input(name)
        let first = ParseOutcome.parse(bytes, name: name + ".xml")
        let second = ParseOutcome.parse(bytes, name: name + ".xml")
        #expect(first.samples.map(\.id) == second.samples.map(\.id))
        #expect(first.samples == second.samples)
    }
}

/// Element-level checks that the golden files show but that deserve their own name.
@Suite struct AppleHealthElementTests {
    /// Blood pressure records inside a Correlation repeat the top-level ones: both copies give
    /// the identical sample, so the store keeps one.
    /// …and the copy handed over is the correlation's, with the correlation's metadata: the
    /// top-level copy, which comes first, is held back until the correlation has been read.
    @Test func correlationCopiesAreOneSampleWithTheCorrelationsMetadata() throws {
        let samples = ParseOutcome.parse(try AppleHealthGoldenTests.input("modern-export"), name: "export.xml").samples
        let pressure = samples.filter { $0.type.hasPrefix("bloodPressure") }
        #expect(pressure.count == 2)
        #expect(Set(pressure.map(\.id)).count == 2)
        #expect(pressure.allSatisfy { $0.metadata["HKWasUserEntered"] == "0" })
    }

    /// The device string (with its object address) never changes a sample's id.
    @Test func deviceIsNotIdentity() throws {
        let samples = ParseOutcome.parse(try AppleHealthGoldenTests.input("unescaped-device"), name: "export.xml").samples
        #expect(samples[0].source.device != samples[1].source.device)
        #expect(samples[0].id == samples[1].id)
    }

    /// A `Me` element is profile data, never a sample.
    @Test func meIsProfileOnly() throws {
        let outcome = ParseOutcome.parse(try AppleHealthGoldenTests.input("modern-export"), name: "export.xml")
        #expect(outcome.profiles.count == 1)
        #expect(!outcome.samples.contains { $0.type.contains("Characteristic") })
    }

    /// Quirks that lose nothing are not problems (a problem sends the file to failed/).
    @Test(arguments: ["ios16-broken-dtd", "ios8-export", "unescaped-device", "no-dtd-minimal", "modern-export"])
    func quirksAreNotProblems(name: String) throws {
        let outcome = ParseOutcome.parse(try AppleHealthGoldenTests.input(name), name: name + ".xml")
        #expect(outcome.error == nil)
        #expect(outcome.report?.problemCount == 0)
    }

    /// A billion-laughs DTD is never expanded: the reference stays as written, noted.
    @Test func entitiesAreNeverExpanded() throws {
        let outcome = ParseOutcome.parse(try AppleHealthGoldenTests.input("billion-laughs"), name: "x.xml")
        #expect(outcome.samples.first?.source.name == "&lol9;")
        #expect(outcome.report?.problemCount == 2)
    }

    /// Inputs that end or break anywhere: an error or a report, never a crash or a hang.
    @Test func everyPrefixOfAnExportTerminates() throws {
        let xml = try AppleHealthGoldenTests.input("modern-export")
        for cut in stride(from: 0, to: xml.count, by: 97) {
            let outcome = ParseOutcome.parse(Array(xml[0..<cut]), name: "export.xml")
            #expect(outcome.error != nil || cut == 0 || outcome.report != nil)
        }
    }
}

import Foundation
import HealthSpoolCore
import Testing
@testable import HealthExport

/// Golden files for Health Auto Export: `Golden/hae-*.json|csv` (synthesized from the
/// published format) beside `Golden/hae-*.expected.json` (every sample, the problems noted and
/// what was ignored). Run with `HEALTHSPOOL_UPDATE_GOLDEN=1` to rewrite the expected files,
/// then review the diff.
enum AutoExportGolden {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "golden file \(name) is not in the test bundle" }
    }

    /// The bytes of `Golden/<name>` from the test bundle.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let dir = Bundle.module.url(forResource: "Golden", withExtension: nil) else { throw Missing(name: "Golden/") }
        let url = dir.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else { throw Missing(name: name) }
        return Array(data)
    }

    /// Parses `Golden/<name>` through format detection, as the importer would.
    static func parse(_ name: String) throws -> (ExportFormat, [Sample], ParseReport) {
        let sink = CollectingSink()
        let (format, report) = try ExportReader.parse(MemoryByteSource(try bytes(name)), name: name, into: sink)
        return (format, sink.samples, report)
    }

    /// One sample as a JSON object with its metadata sorted by key.
    static func json(_ s: Sample) -> JSONValue {
        .object([
            ("type", .string(s.type)), ("value", .number(s.value)), ("unit", .string(s.unit)),
            ("start", .string(s.start.iso8601Local)), ("end", .string(s.end.iso8601Local)),
            ("source", .string(s.source.name)), ("revisable", .bool(s.revisable)), ("id", .string(s.id.description)),
            ("metadata", .object(s.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])
    }

    /// The expected-file text: one sample a line, then the problems and the ignored counts.
    static func render(_ samples: [Sample], _ report: ParseReport) -> String {
        func line(_ v: JSONValue) -> String { var w = JSONWriter(); w.value(v); return w.text }
        func list(_ lines: [String]) -> String { lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n]" }
        var out = "{\"samples\": " + list(samples.map { line(json($0)) })
        out += ",\n\"problems\": " + list(report.problems.map { line(.string($0.description)) })
        out += ",\n\"ignored\": "
        out += line(.object(report.ignored.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))
        return out + "\n}\n"
    }
}

@Suite("Health Auto Export golden files")
struct AutoExportGoldenTests {
    @Test(arguments: [
        "hae-daily.json", "hae-us-minutes.json", "hae-sleep-aggregated.json", "hae-sleep-segments.json",
        "hae-workouts.json", "hae-metrics.csv",
    ])
    func matchesExpected(_ name: String) throws {
        let (format, samples, report) = try AutoExportGolden.parse(name)
        #expect(format == (name.hasSuffix(".csv") ? .autoExportCSV : .autoExportJSON))
        #expect(report.samples == samples.count)
        let actual = AutoExportGolden.render(samples, report)
        let expectedName = String(name[..<name.lastIndex(of: ".")!]) + ".expected.json"
        if ProcessInfo.processInfo.environment["HEALTHSPOOL_UPDATE_GOLDEN"] == "1" {
            let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
            try actual.write(to: dir.appendingPathComponent(expectedName), atomically: true, encoding: .utf8)
            return
        }
        let expected = String(decoding: try AutoExportGolden.bytes(expectedName), as: UTF8.self)
        #expect(actual == expected, "\(name) no longer parses to \(expectedName); rerun with HEALTHSPOOL_UPDATE_GOLDEN=1 and review the diff")
    }

    @Test(arguments: ["hae-daily.json", "hae-us-minutes.json", "hae-sleep-aggregated.json", "hae-sleep-segments.json",
                      "hae-workouts.json", "hae-metrics.csv"])
    func reimportingTheSameFileGivesTheSameIds(_ name: String) throws {
        let (_, first, _) = try AutoExportGolden.parse(name)
        let (_, again, _) = try AutoExportGolden.parse(name)
        #expect(!first.isEmpty)
        #expect(first.map(\.id) == again.map(\.id))
        #expect(Set(first.map(\.id)).count == first.count, "ids must be unique within one export")
    }

    @Test func expectedFilesAreValidJSON() throws {
        for name in ["hae-daily", "hae-us-minutes", "hae-sleep-aggregated", "hae-sleep-segments", "hae-workouts", "hae-metrics"] {
            _ = try JSONParser.parse(try AutoExportGolden.bytes(name + ".expected.json"))
        }
    }
}

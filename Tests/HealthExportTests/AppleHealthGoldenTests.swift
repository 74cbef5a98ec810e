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

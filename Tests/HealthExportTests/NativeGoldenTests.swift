import Foundation
import HealthSpoolCore
import Testing
@testable import HealthExport

/// Golden files for the native format: `Golden/native-*` beside `native-*.expected.json`
/// (every sample, the problems noted). The expected files were written by the whole-document
/// parser the streaming one replaced; the streaming parser must match them whatever the read
/// sizes. `HEALTHSPOOL_UPDATE_GOLDEN=1` rewrites them (review the diff).
@Suite("Native JSON golden files")
struct NativeGoldenTests {
    static let inputs = ["native-array.json", "native-samples-object.json", "native-single.json", "native-lines.ndjson",
                         "native-problems.json", "native-bom.json"]

    static func expectedName(_ name: String) -> String { String(name[..<name.lastIndex(of: ".")!]) + ".expected.json" }

    @Test(arguments: inputs) func matchesExpected(_ name: String) throws {
        let (format, samples, report) = try AutoExportGolden.parse(name)
        #expect(format == .nativeJSON)
        #expect(report.samples == samples.count)
        let actual = AutoExportGolden.render(samples, report)
        if ProcessInfo.processInfo.environment["HEALTHSPOOL_UPDATE_GOLDEN"] == "1" {
            let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
            try actual.write(to: dir.appendingPathComponent(Self.expectedName(name)), atomically: true, encoding: .utf8)
            return
        }
        let expected = String(decoding: try AutoExportGolden.bytes(Self.expectedName(name)), as: UTF8.self)
        #expect(actual == expected, "\(name) no longer parses to its expected file")
    }
}

/// Hands out at most `step` bytes a read: the streaming parser must not care where reads end.
final class SteppedByteSource: ByteSource {
    let bytes: MemoryByteSource
    let step: Int
    init(_ bytes: [UInt8], step: Int) {
        self.bytes = MemoryByteSource(bytes)
        self.step = step
    }
    var size: Int64 { bytes.size }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try bytes.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(step, buffer.count)]))
    }
}

@Suite("Native JSON streaming")
struct NativeStreamingTests {
    static let steps = [1, 7, 64 << 10]

    @Test(arguments: NativeGoldenTests.inputs, steps)
    func anyReadSizeGivesTheGoldenSamples(_ name: String, step: Int) throws {
        let sink = CollectingSink()
        let report = try NativeParser.parse(SteppedByteSource(try AutoExportGolden.bytes(name), step: step), into: sink)
        let expected = String(decoding: try AutoExportGolden.bytes(NativeGoldenTests.expectedName(name)), as: UTF8.self)
        #expect(AutoExportGolden.render(sink.samples, report) == expected, "\(name) read \(step) bytes at a time")
    }

    static let sample = #"{"type": "heartRate", "value": 61, "unit": "bpm", "startDate": "2026-01-01T10:00:00+01:00"}"#

    /// A sample larger than the limit (a huge metadata string) is skipped and named with its
    /// byte offset; the samples around it are read.
    @Test(arguments: steps) func anOversizeSampleIsRefusedWithItsOffset(step: Int) throws {
        let huge = #"{"type": "stepCount", "value": 1, "startDate": "2026-01-01T10:00:00Z", "metadata": {"note": ""#
            + String(repeating: "x", count: NativeParser.maxValueBytes) + #""}}"#
        let prefix = "[" + Self.sample + ",\n "
        let text = prefix + huge + ",\n" + Self.sample.replacingOccurrences(of: "61", with: "62") + "]"
        let sink = CollectingSink()
        let report = try NativeParser.parse(SteppedByteSource(Array(text.utf8), step: step), into: sink)
        #expect(sink.samples.map(\.value) == [61, 62])
        #expect(report.problemCount == 1)
        let problem = try #require(report.problems.first)
        #expect(problem.offset == Int64(prefix.utf8.count) && problem.line == 2)
        #expect(problem.message.hasPrefix("sample 2: ") && problem.message.contains("\(NativeParser.maxValueBytes)-byte limit"), "\(problem)")
    }

    @Test func anOversizeNDJSONLineIsRefusedWithItsOffset() throws {
        let first = Self.sample + "\n"
        let text = first + "{\"type\": \"" + String(repeating: "y", count: NativeParser.maxValueBytes) + "\"}\n" + Self.sample + "\n"
        let sink = CollectingSink()
        let report = try NativeParser.parse(SteppedByteSource(Array(text.utf8), step: 7), into: sink)
        #expect(sink.samples.count == 2)
        #expect(report.problems.map(\.offset) == [Int64(first.utf8.count)] && report.problems.map(\.line) == [2])
    }

    /// A one-line document far past the limit streams: every sample read.
    @Test func aOneLineDocumentLargerThanTheLimitStreams() throws {
        let count = 3 * NativeParser.maxValueBytes / Self.sample.utf8.count
        let text = #"{"samples": ["# + Array(repeating: Self.sample, count: count).joined(separator: ",") + "]}"
        let sink = CollectingSink()
        let report = try NativeParser.parse(Array(text.utf8), into: sink)
        #expect(report.samples == count && sink.samples.count == count && report.problemCount == 0)
    }

    /// Where a broken document stops is the same whatever the read size.
    @Test(arguments: steps) func aSyntaxErrorIsPlacedTheSameWhateverTheReadSize(step: Int) throws {
        let text = "[\n  " + Self.sample + ",\n  " + Self.sample + ",\n  {\"type\": \n]\n"
        let sink = CollectingSink()
        #expect {
            _ = try NativeParser.parse(SteppedByteSource(Array(text.utf8), step: step), into: sink)
        } throws: { error in
            guard case let .malformed(_, line, offset, _) = error as? ImportError else { return false }
            return line == 5 && offset == Int64(text.utf8.count - 2)
        }
        #expect(sink.samples.count == 2, "the samples before the break are kept")
    }
}

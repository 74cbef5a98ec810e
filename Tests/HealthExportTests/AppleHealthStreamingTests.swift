import HealthExport
import HealthSpoolCore
import Testing

/// Streaming behaviour: progress reports, a sink that stops the parse, inputs larger than the
/// scanner's buffer (tags across chunk boundaries).
@Suite struct AppleHealthStreamingTests {
    /// An export of `count` heart-rate records (about 400 bytes each).
    static func export(records count: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
        for i in 0..<count {
            let s = 1_000 + i
            text += " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" sourceVersion=\"10.1\" device=\"&lt;&lt;HKDevice: 0x283f7c2d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch&gt;\" unit=\"count/min\" creationDate=\"2026-01-01 10:00:00 +0100\" startDate=\"2026-01-0\(1 + s / 86_400 % 9) \(String(s / 3600 % 24).leftPadded):\(String(s / 60 % 60).leftPadded):\(String(s % 60).leftPadded) +0100\" endDate=\"2026-01-01 10:00:00 +0100\" value=\"\(60 + i % 40)\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"\(i % 3)\"/>\n </Record>\n"
        }
        return Array((text + "</HealthData>\n").utf8)
    }

    final class RecordingSink: SampleSink {
        var samples = 0
        var progress: [Int64] = []
        var failAfter: Int?
        struct Full: Error {}
        func accept(_ sample: Sample) throws {
            if let failAfter, samples >= failAfter { throw Full() }
            samples += 1
        }
        func progress(bytesRead: Int64) { progress.append(bytesRead) }
    }

    @Test func progressIsReportedEveryFewMegabytes() throws {
        let bytes = Self.export(records: 12_000)       // ~5 MB: several scanner chunks
        let sink = RecordingSink()
        let (_, report) = try ExportReader.parse(MemoryByteSource(bytes), name: "export.xml", into: sink)
        #expect(report.problemCount == 0, "\(report.problems)")
        #expect(sink.samples == 12_000)
        #expect(sink.progress.count >= 2)
        #expect(sink.progress == sink.progress.sorted())
        #expect(sink.progress.last == Int64(bytes.count))
    }

    /// A sink that throws (the store is full, say) stops the parse with its own error.
    @Test func aThrowingSinkStopsTheParse() throws {
        let sink = RecordingSink()
        sink.failAfter = 3_000
        #expect(throws: RecordingSink.Full.self) {
            try ExportReader.parse(MemoryByteSource(Self.export(records: 8_000)), name: "export.xml", into: sink)
        }
        #expect(sink.samples == 3_000)
    }
}

private extension String {
    var leftPadded: String { count < 2 ? "0" + self : self }
}

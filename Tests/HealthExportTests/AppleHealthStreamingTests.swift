import Foundation
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
        func accept(_ sample: consuming Sample) throws {
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

/// Markup oddities that real files could hold, parsed from inline text.
@Suite struct AppleHealthMarkupTests {
    static func parse(_ text: String) -> ParseOutcome { ParseOutcome.parse(Array(text.utf8), name: "export.xml") }

    static let record = #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-01-01 10:00:00 +0100" endDate="2026-01-01 10:10:00 +0100" value="5"/>"#

    /// A DTD so broken that its closing `]>` is gone: the root element still ends it.
    @Test func doctypeWithoutItsEnd() {
        let outcome = Self.parse("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ATTLIST Record\n type CDATA #REQUIRED\n\n<HealthData locale=\"en\">\n" + Self.record + "\n</HealthData>\n")
        #expect(outcome.error == nil)
        #expect(outcome.samples.count == 1)
    }

    /// A tag larger than the scanner's 1 MiB buffer: the buffer grows for it.
    @Test func aTagLargerThanTheBuffer() {
        let big = String(repeating: "x", count: 3 << 20)
        let outcome = Self.parse("<HealthData>\n<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2026-01-01 10:00:00 +0100\" endDate=\"2026-01-01 10:10:00 +0100\" value=\"5\">\n<MetadataEntry key=\"blob\" value=\"\(big)\"/>\n</Record>\n" + Self.record + "\n</HealthData>\n")
        #expect(outcome.error == nil)
        #expect(outcome.samples.count == 2)
        #expect(outcome.samples.first?.metadata["blob"]?.utf8.count == 3 << 20)
    }

    /// An XML file that is not an Apple Health export (the CDA beside it, say).
    @Test func notAnExport() {
        let outcome = Self.parse("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"><title>x</title></ClinicalDocument>\n")
        guard case .unrecognized? = outcome.error as? ImportError else {
            Issue.record("expected .unrecognized, got \(String(describing: outcome.error))"); return
        }
    }

    /// The root is never closed: complete records are kept, the file is reported truncated.
    @Test func rootNeverClosed() {
        let outcome = Self.parse("<HealthData locale=\"en\">\n" + Self.record + "\n")
        #expect(outcome.samples.count == 1)
        guard case .truncated? = outcome.error as? ImportError else {
            Issue.record("expected .truncated, got \(String(describing: outcome.error))"); return
        }
    }

    /// Mis-nested end tags and stray text do not lose records.
    @Test func strayEndTagsAndText() {
        let outcome = Self.parse("<HealthData>\n</Workout> stray & text \u{0B}\n" + Self.record + "\n</Correlation>\n" + Self.record.replacingOccurrences(of: "10:10:00", with: "10:20:00") + "\n</HealthData>")
        #expect(outcome.error == nil)
        #expect(outcome.samples.count == 2)
    }
}

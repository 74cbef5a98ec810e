import Foundation
import HealthSpoolCore
import Testing
@testable import HealthExport

/// Inputs the fuzz targets (Fuzz/, docs/fuzzing.md) found, minimised, each with the property it broke.
@Suite("Fuzz findings")
struct FuzzRegressionTests {
    /// Samples encoded as the gateway's json body and read back by the native parser. The wire does
    /// not carry `revisable` (it only decides whether the value is part of the id): it is copied over.
    func roundTrip(_ samples: [Sample]) throws -> [Sample] {
        let stored = samples.enumerated().map { StoredSample(sample: $1, createdAt: Timestamp(millis: 0), rowID: Int64($0)) }
        let body = BatchEncoder.encode(stored, format: .json, envelope: BatchEnvelope(deviceId: "d", userId: "u", appVersion: "0"),
                                       now: Timestamp(millis: 0))
        let sink = CollectingSink()
        let report = try NativeParser.parse(body, into: sink)
        #expect(report.problems.isEmpty && sink.samples.count == samples.count)
        return zip(samples, sink.samples).map { original, parsed in
            var s = parsed
            s.revisable = original.revisable
            s.refreshID()
            return s
        }
    }

    /// apple-xml round trip: a record whose unit its registry type cannot take is kept under its
    /// HealthKit identifier; the native parser rejected that sample when it came back.
    @Test func aHealthKitTypeKeptWithAnUnconvertibleUnitParsesBack() throws {
        let xml = #"<HealthData><Record type="HKQuantityTypeIdentifierHeight" sourceName="Health" unit="furlong" startDate="2026-01-01 08:00:00 +0100" endDate="2026-01-01 08:00:00 +0100" value="0.01"/></HealthData>"#
        let sink = CollectingSink()
        _ = try AppleHealthParser.parseXML(MemoryByteSource(xml), into: sink)
        try #require(sink.samples.count == 1)
        #expect(sink.samples[0].type == "HKQuantityTypeIdentifierHeight" && sink.samples[0].unit == "furlong")
        #expect(try roundTrip(sink.samples) == sink.samples)
    }

    /// The rule is for HealthKit identifiers only: a registry name or alias with a unit it cannot
    /// take is still a problem.
    @Test func aRegistryNameWithAnUnconvertibleUnitIsStillRejected() throws {
        let sink = CollectingSink()
        let report = try NativeParser.parse(Array(#"[{"type":"height","value":1,"unit":"furlong","startDate":"2026-01-01T10:00:00Z"}]"#.utf8), into: sink)
        #expect(sink.samples.isEmpty && report.problemCount == 1)
    }

    /// Fuzz finding A3 (apple-xml round trip, the eighth session): a record whose type is written
    /// as a registry name, not a HealthKit identifier, in a unit that type cannot take, was kept
    /// under the name as written (`ActivitySummary` in `count`; `heartRate` in `kg` even kept the
    /// registry's own name in a unit it cannot take); the native parser refused it when it came
    /// back. The record is now refused with the reason, as the native parser refuses it.
    @Test(arguments: [("ActivitySummary", "count", "activitySummary", "kcal"), ("heartRate", "kg", "heartRate", "count/min")])
    func aRegistryNameInAUnitItCannotTakeIsRefused(_ type: String, _ unit: String, _ name: String, _ canonical: String) throws {
        let xml = """
            <HealthData><Record type="\(type)" sourceName="Watch" unit="\(unit)" startDate="2026-01-01 10:00:00 +0100" value="100"/>\
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2026-01-01 10:00:00 +0100" value="100"/></HealthData>
            """
        let sink = CollectingSink()
        let report = try AppleHealthParser.parseXML(MemoryByteSource(xml), into: sink)
        #expect(sink.samples.map(\.type) == ["stepCount"])
        #expect(report.problems.map(\.description).contains { $0.contains("\(type) record refused: unit '\(unit)' cannot be converted to \(name)'s unit \(canonical)") },
                "\(report.problems)")
        #expect(try roundTrip(sink.samples) == sink.samples)
    }

    /// Every golden Apple Health export survives the encoder and the native parser.
    @Test(arguments: ["modern-export", "ios8-export", "ios16-broken-dtd", "no-dtd-minimal", "unescaped-device"])
    func goldenExportsRoundTrip(_ name: String) throws {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Golden/apple-health"))
        let bytes = try [UInt8](Data(contentsOf: url))
        let sink = CollectingSink()
        _ = try AppleHealthParser.parseXML(MemoryByteSource(bytes), into: sink)
        #expect(!sink.samples.isEmpty)
        #expect(try roundTrip(sink.samples) == sink.samples)
    }

    /// Fuzz finding D1 (decimal target): past 19 significant digits the rest were dropped, and the
    /// rounding could differ from the correctly rounded value (the standard library's).
    @Test(arguments: [
        ("0830000100000000000004", 830000100000000000004.0),
        ("00000000000000800000000000000000000000.3000000", 8.000000000000001e23),
        ("8.000000000000000838e23", 8.000000000000001e23),
        ("800000000000000000000000.3", 8.000000000000001e23),
        ("9007199254740993.0000000000001", 9007199254740994.0),
        ("-0.000000000000000000000000000000000000000000000000009007199254740993000001e67", -9.007199254740994e16),
    ])
    func aNumberPastNineteenDigitsIsCorrectlyRounded(_ text: String, _ expected: Double) throws {
        var copy = text
        let v = try #require(copy.withUTF8 { DecimalParser.parse(UnsafeRawBufferPointer($0)) })
        #expect(v.bitPattern == expected.bitPattern)
        #expect(v.bitPattern == Double(text)?.bitPattern)
    }

    /// The shift (a fraction read as a percentage) moves the point of every digit, kept or not.
    @Test func aShiftedLongNumberIsCorrectlyRounded() throws {
        // 8e23 lies halfway between two doubles: the 0.03 past the 19th digit decides.
        var copy = "8000000000000000.0000003"
        let v = try #require(copy.withUTF8 { DecimalParser.parse(UnsafeRawBufferPointer($0), shift: 8) })
        #expect(v.bitPattern == Double("8000000000000000.0000003e8")?.bitPattern)
        #expect(v == 8.000000000000001e23)
    }

    /// Fuzz finding A1 (apple-xml target's round trip): a record whose endDate is before its
    /// startDate became a sample with end < start, which the native parser refused when it came
    /// back. The Apple builder now refuses the record, noting both dates with its line; the rest imports.
    @Test func aRecordEndingBeforeItStartsIsRefusedWithItsPlace() throws {
        let xml = """
            <HealthData>
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="5510-01-01 12:00:00 -0500" endDate="2026-01-01 12:00:00 -0500" value="5"/>
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2026-01-01 12:00:00 -0500" endDate="2026-01-01 12:05:00 -0500" value="7"/>
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Phone" startDate="2026-01-02 12:00:00 -0500" endDate="2026-01-02 11:00:00 -0500"/>
            </HealthData>
            """
        let sink = CollectingSink()
        let report = try AppleHealthParser.parseXML(MemoryByteSource(xml), into: sink)
        #expect(sink.samples.count == 1 && sink.samples.first?.value == 7)
        #expect(report.problemCount == 2)
        let record = try #require(report.problems.first)
        #expect(record.line == 2)
        #expect(record.message.contains("endDate '2026-01-01 12:00:00 -0500' is before startDate '5510-01-01 12:00:00 -0500'"))
        #expect(report.problems.last?.line == 4 && report.problems.last?.message.hasPrefix("Workout refused: endDate") == true)
        #expect(try roundTrip(sink.samples) == sink.samples)
    }

    /// Fuzz finding H1 (hae-csv target's round trip): a header cell cut up so that it names no
    /// metric (only a part and a unit, or punctuation) made samples with an empty type, which the
    /// native parser refused. The column is refused with a problem naming it; the others import.
    @Test func aHeaderCellNamingNoMetricIsRefused() throws {
        let csv = "Date,[Min] (count/min),Step Count (count),% ()\n2024-01-01 00:00:00,5,120,3\n"
        let sink = CollectingSink()
        let report = try AutoExportParser.parseCSV(Array(csv.utf8), into: sink)
        #expect(sink.samples.map(\.type) == ["stepCount"])
        #expect(!sink.samples.contains { $0.type.isEmpty })
        #expect(report.problems.map(\.message) == [
            "column 2 ('[Min] (count/min)') refused: its header names no metric; the header is damaged there",
            "column 4 ('% ()') refused: its header names no metric; the header is damaged there",
        ])
        #expect(try roundTrip(sink.samples) == sink.samples)
    }

    /// Fuzz finding Z2 (zip target, its input): a deflated member cut short said "after 583 bytes
    /// of it were read" with whole reads and "after 566" with short ones. zlib still held output it
    /// had decoded (a match cut by a full buffer) when the source ran out, and the stream declared
    /// the zip truncated without letting zlib hand it over. Every decodable byte is now handed
    /// over first: the bytes and the error are the same whatever the read sizes.
    @Test func aTruncatedMemberGivesTheSameBytesAndErrorWhateverTheReadSizes() throws {
        let zip = try #require(Data(base64Encoded: "UEsDBC0AAAAIAAAAIQDhVj7H//////////8KABQAZXhwb3J0LnhtbAEAEABPAgAAAAAAAEoBAAAAAAAAdZLNSsNAEMfvgu8w7iUHidkGKkWShmKRiihYWzyUUpbN1CwmuyWZVOurefCRfAWnScFS7TKHnY//zvyG/f78ipL3Ioc1lpVxNhadCykArXapsS+xmE5u/J5I+qcn0QhVTtlQkYLcaZVj7KFdTJ88TkJ05vugQLuiQEvwZiiDaIzalSnQZoWxWKpXFEEfjK1MiuD7jSxZGahcgZRxu6QJtSq+Qav0RnePtbJkaDNh/zblBmZpsBxjRaziuUoaK0Kv0VSuLjU+qAIhBvGsSGeiSdTWUAQAAAAAAAAALLSrLQWFsW2wIhYzEw8YyvDSlx02kPKqMTiXfLb7SA9qwsOa5rW1ymuu6vZEPwpajnY5s+vhYDKYHVnJfL4Hvssdgx4a5JE3zIWl2IONRRO6NzbdJlBLAwRa2GW+cB+LuhJHODvhjsGX3f85/9bsGHs8OH+K4PdXsPsDUEsBAi0DLQAAAAgAAAAhAOFWPsdKAQAATwIAAAoAAAAAAAAAAAAAAIABAAAAAGV4cG9ydC54bWxQSwUGAACIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIAAABAAEAOAAAAIYBAAAAAA=="))
        let bytes = [UInt8](zip)
        func outcome(readSize: Int, sourceRead: Int) -> (bytes: [UInt8], error: String) {
            Self.memberOutcome(bytes, readSize: readSize, sourceRead: sourceRead)
        }
        let whole = outcome(readSize: 64 << 10, sourceRead: .max)
        #expect(whole.error.contains("the zip ends inside member 'export.xml' after \(whole.bytes.count) bytes of it were read"), "\(whole.error)")
        for (readSize, sourceRead) in [(1, .max), (7, .max), (16, 3), (100, 1), (4096, 5), (64 << 10, 1)] {
            let chunked = outcome(readSize: readSize, sourceRead: sourceRead)
            #expect(chunked.error == whole.error, "reads of \(readSize), source reads of \(sourceRead)")
            let sameBytes = chunked.bytes == whole.bytes
            #expect(sameBytes, "reads of \(readSize), source reads of \(sourceRead): \(chunked.bytes.count) bytes, whole \(whole.bytes.count)")
        }
    }

    /// The export member's bytes and the error, read `readSize` bytes at a time from a source
    /// that returns at most `sourceRead` bytes a read (as the zip fuzz target reads it).
    static func memberOutcome(_ bytes: [UInt8], readSize: Int, sourceRead: Int) -> (bytes: [UInt8], error: String) {
        let source = ShortReadSource(bytes, most: sourceRead)
        var out: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
        defer { buffer.deallocate() }
        do {
            let stream = try ZipMemberStream(source: source, member: try ZipArchive.findHealthExport(in: source))
            while true {
                let n = try stream.read(into: buffer)
                if n == 0 { return (out, "no error") }
                out += buffer[0..<n]
            }
        } catch {
            return (out, "\(error)")
        }
    }

    static let readSizes: [(readSize: Int, sourceRead: Int)] = [(1, .max), (7, .max), (16, 3), (100, 1), (4096, 5), (64 << 10, 1)]

    /// Fuzz finding Z3 (zip target, its input): a small stored export whose CRC fails was read
    /// whole by the first read of the member sniffing, which then failed and called it "no Apple
    /// Health export"; with short reads the sniff saw `<HealthData` and the import named the CRC
    /// failure. The sniff no longer checks the CRC: both say the CRC fails.
    @Test func aSmallExportFailingItsCRCIsNamedSoWhateverTheReadSizes() throws {
        let bytes = [UInt8](try #require(Data(base64Encoded: "UEsDBBQAAAAAAJ19dl3hVj7HTwIAAE8CAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvcnQueG1s77u/PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTgiPz4NCjxIZWFsdGhEYXRhIGxvY2FsZT0nZW5fVVMnPg0KIDwhLS0gYSBjb21tZW50IHdpdGggPFJlY29yZCB0eXBlPSJmYWtlIi8+IGluc2lkZSAtLT4NCiA8P3BpIHNvbWV0aGluZz8+DQogPFJlY29yZA0KICAgdHlwZT0nSEtRdWFudGl0eVR5cGVJZGVudGlmaWVyUmVzdGluZ0hlYXJ0UmF0ZScNCiAgIHNvdXJjZU5hbWUgPSAiV2F0Y2giDQogICB1bml0PSJjb3VudC9taW4iDQogICBzdGFydERhdGU9IjIwMjYtMDEtMDEgMDA6MDA6MDAgKzAwMDAiIGVuZERhdGU9IjIwMjYtMDEtMDIgMDA6MDA6MDAgKzAwMDAiDQogICB2YWx1ZT0iNTgiPjwvUmVjb3JkPg0KIDwhW0NEQVRBWyA8UmVjb3JkIHR5cGU9ImZha2UiLz4gXV0+DQogPFJlY29yZCB0eXBlPSJIS1F1YW50aXR5VHlwZUlkZW50aWZpZXJEaWV0YXJ5V2F0ZXIiIHNvdXJjZU5hbWU9IldhdGVyTWluZGVyAAB1bml0PSJmbF9vel91cyIgc3RhcnREYXRlPSIyMDI2LTAxLTAxIDEyOjAwOjAwIC0wNTAwIiBlbmREYXRlPSIyMDI2LTAxLTAxIDEyOjAwOjAwIC0wNTAwIiB2YWx1ZT0iOCIvPg0KPC9IZWFsdGhEYXRhPg0KUEsBAhQDFAAAAAAAnX12XeFWPsdPAgAATwIAAB4AAAAAAAAAAAAAAIABAAAAAGFwcGxlX2hlYWx0aF9leHBvcnQvZXhwb3J0LnhtbFBLBQYAAAAAAQABAEwAAACLAgAAAAA=")))
        let whole = Self.memberOutcome(bytes, readSize: 64 << 10, sourceRead: .max)
        #expect(whole.error.contains("member 'apple_health_export/export.xml' fails its CRC-32 check"), "\(whole.error)")
        for (readSize, sourceRead) in Self.readSizes {
            let chunked = Self.memberOutcome(bytes, readSize: readSize, sourceRead: sourceRead)
            #expect(chunked.error == whole.error, "reads of \(readSize), source reads of \(sourceRead)")
            let sameBytes = chunked.bytes == whole.bytes
            #expect(sameBytes, "reads of \(readSize), source reads of \(sourceRead)")
        }
    }

    /// The same for corrupt deflate data: the bytes decoded before the damage are handed over by
    /// the read that finds it, and the error (with its byte count) comes with the next read.
    @Test func corruptDeflateDataGivesTheSameBytesAndErrorWhateverTheReadSizes() throws {
        let xml = try AppleHealthGoldenTests.input("modern-export")
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: xml))
        let good = z.finish()
        var corrupt = 0
        for at in stride(from: 200, to: 1200, by: 97) {
            var bytes = good
            for k in at..<(at + 24) { bytes[k] = 0xFF }
            let whole = Self.memberOutcome(bytes, readSize: 64 << 10, sourceRead: .max)
            if whole.error.contains("corrupt compressed data") { corrupt += 1 }
            for (readSize, sourceRead) in Self.readSizes {
                let chunked = Self.memberOutcome(bytes, readSize: readSize, sourceRead: sourceRead)
                #expect(chunked.error == whole.error, "damage at \(at), reads of \(readSize), source reads of \(sourceRead)")
                let sameBytes = chunked.bytes == whole.bytes
                #expect(sameBytes, "damage at \(at), reads of \(readSize), source reads of \(sourceRead): \(chunked.bytes.count), whole \(whole.bytes.count)")
            }
        }
        #expect(corrupt > 0)
    }

    /// Fuzz finding Z4 (zip target, its input): a member holding `<ClinicalDocument` (byte 98)
    /// before `<HealthData` (byte 120) was taken for the export when its first read held both, and
    /// for a CDA document when a short read ended between them. The root that comes first decides.
    @Test func theFirstRootDecidesWhetherAMemberIsTheExportWhateverTheReadSizes() throws {
        let bytes = [UInt8](try #require(Data(base64Encoded: "UEsDBBQAAAAAAJ19dl3hVj7HTwIAAE8CAAAeAAAAYXBwbGVfaGVhbHRoX2V4cG9ydC9leHBvUEsDBG1s77u/PD94bWwgdmVyc2lvbj0iMS4wIiBlbmNvZGluZz0iVVRGLTg8Q2xpbmljYWxEb2N1bWVudCI/Pg0KPEhlYWx0aERhdGEgbG9jYWxlPSdlbl9VUyc+DQp0RGF0ZT0iMjAyNi0wMS0wMSAxMjowMDowMCAtMDUwMCIgZW5kRGF0ZT0iMjAyNi0wMS0wMSAxMjowMDowMCAtMDUwMCIgdmFsdWU9IjgiLz4NCjw0SGVhbHRoRGF0YT4NClBLAQIUAxQAAAAAAJ19dl3hVj7HTwIAAE8CAAAeAAAAAAAAAAAAAQCAAQAAAABhcHBsZV9ikYooWFs8lMDAwMDAwMCdj//O/Ib9/vyKkvcihzWWlXE2Fp0LKQCtdqmxL7GYTm78nkj6pyfRCFVO2VCRgtxplWPsoV1MnzxOQs3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3Nzc3NdOb7oEC7okBL8GYog2iM2pUp0GaFsViqVxRBH4ytTIrg+40sWRmoXIGUcbukCbUqvkFoZWFsdGhfZXhwb3J0L2V4cG9ydC5wZGYueG1sUEsFBgAAAAABAAEATAAAAIsCAAAAAA==")))
        let whole = Self.memberOutcome(bytes, readSize: 64 << 10, sourceRead: .max)
        for (readSize, sourceRead) in Self.readSizes {
            let chunked = Self.memberOutcome(bytes, readSize: readSize, sourceRead: sourceRead)
            #expect(chunked.error == whole.error, "reads of \(readSize), source reads of \(sourceRead)")
            let sameBytes = chunked.bytes == whole.bytes
            #expect(sameBytes, "reads of \(readSize), source reads of \(sourceRead)")
        }
    }

    /// Fuzz finding Z5 (zip target, its input): a member inflating past its declared size was
    /// refused at byte 370 with whole reads and 369 with short ones (how far zlib had read ahead).
    /// The refusal names the member's local header instead.
    @Test func anOverflowingMemberIsRefusedAtTheSamePlaceWhateverTheReadSizes() throws {
        let bytes = [UInt8](try #require(Data(base64Encoded: "UEsDBBQAAAAIAJ19dl3hVj7HSgEAAE8CAAAKAAAAZXhwb3J0LnhtbHWSzUrDQBDH74LvMO4lB4nZBipFkoZikYooWFs8lFKWzdQsJrslmVTrq3nwkXwFp0nBUu0yh52P/878hv3+/IqS9yKHNZaVcTYWnQspAK12qbEvsZhObvyeSPqnJ9EIVU7ZUJGC3GmVY+yhXUw9nzxOQnTm+6BAu6JAS/BmKAgAjNqVKdBmhbFYqlcUQR+MrUyK4PuNLFkZqFyBlHG7pAm1Kr5Bq/RGd4+1smRoM2H/NuUGZmmwHGNFrOK5ShorQq/RVK4uNT6oAiEG8axIZ6JJ1NZQLLSrLQWFsW2wIhYzEw8IAPDSlx02kPKqMTiXfLb7SA9qwsOa5rW1ymuu6vZEP10KWo52QrPr4WAymB1ZyXy+B77LHYMeGuaRN8yFpdiDjUUTujc23SZa2GW+cB+LuhJHODvhjsGX3f85/9bsGHs8XTl/quD3V7D7Aw==")))
        let whole = Self.memberOutcome(bytes, readSize: 64 << 10, sourceRead: .max)
        #expect(whole.error.contains("inflates to more than the 591 bytes its header declares"), "\(whole.error)")
        for (readSize, sourceRead) in Self.readSizes {
            let chunked = Self.memberOutcome(bytes, readSize: readSize, sourceRead: sourceRead)
            #expect(chunked.error == whole.error, "reads of \(readSize), source reads of \(sourceRead)")
        }
    }

    /// Fuzz finding A2 (apple-xml target's round trip): `<Record type="">` made a sample with an
    /// empty type. It is a record without a type, noted with its line.
    @Test func aRecordWithAnEmptyTypeIsRefused() throws {
        let xml = #"<HealthData><Record type="" sourceName="Watch" startDate="2026-01-01 00:40:30 +0100" endDate="2026-01-01 01:30:00 +0100" value="HKCategoryValueSleepAnalysisAsleepDeep"/></HealthData>"#
        let sink = CollectingSink()
        let report = try AppleHealthParser.parseXML(MemoryByteSource(xml), into: sink)
        #expect(sink.samples.isEmpty)
        #expect(report.problems.map(\.message) == ["Record without a type"])
    }
}

/// Memory as a `ByteSource` whose reads return at most `most` bytes (a file system may do that).
final class ShortReadSource: ByteSource {
    let bytes: [UInt8]
    let most: Int
    init(_ bytes: [UInt8], most: Int) { self.bytes = bytes; self.most = most }
    var size: Int64 { Int64(bytes.count) }
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = max(0, min(buffer.count, most, bytes.count - Int(offset)))
        if n > 0 { bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) } }
        return n
    }
}

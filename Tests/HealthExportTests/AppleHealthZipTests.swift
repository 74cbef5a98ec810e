import HealthExport
import HealthSpoolCore
import Testing

/// export.zip: the XML member found by content whatever its name, stored and deflated
/// members, zip64, data descriptors, truncated and corrupt archives.
@Suite struct AppleHealthZipTests {
    static let xml = (try? AppleHealthGoldenTests.input("modern-export")) ?? []
    static let cda = Array("<?xml version=\"1.0\"?>\n<ClinicalDocument xmlns=\"urn:hl7-org:v3\"></ClinicalDocument>\n".utf8)

    /// The samples of the bare XML, to compare with.
    static var expected: [Sample] { ParseOutcome.parse(xml, name: "export.xml").samples }

    /// Builds an Apple-like archive whose XML member is named `name`.
    static func archive(name: [UInt8], utf8Flag: Bool = true, deflate: Bool = true, dataDescriptor: Bool = false,
                        zip64: Bool = false) -> [UInt8] {
        var z = TestZipWriter()
        z.zip64 = zip64
        z.add(.init(name: Array("apple_health_export/".utf8), data: [], deflate: false))
        z.add(.init(name: Array("apple_health_export/export_cda.xml".utf8), data: cda))
        z.add(.init(name: Array("apple_health_export/workout-routes/route_2026-01-01_6.30pm.gpx".utf8), data: Array("<gpx/>".utf8)))
        z.add(.init(name: Array("apple_health_export/electrocardiograms/ecg_2026-01-01.csv".utf8), data: Array("Name,x\n".utf8)))
        z.add(.init(name: Array("apple_health_export/".utf8) + name, data: xml, deflate: deflate, utf8Flag: utf8Flag,
                    dataDescriptor: dataDescriptor))
        return z.finish()
    }

    static let names: [(String, [UInt8], Bool)] = [
        ("export.xml", Array("export.xml".utf8), true),
        ("Exportieren.xml", Array("Exportieren.xml".utf8), true),
        ("导出.xml with the UTF-8 flag", Array("导出.xml".utf8), true),
        ("تصدير.xml in UTF-8 without the flag", Array("تصدير.xml".utf8), false),
        ("CP437 name without the flag", [0x45, 0x78, 0x70, 0x84, 0x72, 0x74, 0x2E, 0x78, 0x6D, 0x6C], false),
        ("no .xml suffix", Array("data".utf8), true),
    ]

    @Test(arguments: names) func findsTheExportByContent(label: String, name: [UInt8], utf8Flag: Bool) throws {
        let outcome = ParseOutcome.parse(Self.archive(name: name, utf8Flag: utf8Flag), name: "export.zip")
        #expect(outcome.error == nil, "\(label): \(String(describing: outcome.error))")
        #expect(outcome.samples == Self.expected)
        #expect(outcome.profiles.count == 1)
    }

    @Test(arguments: [(false, false, false), (false, true, false), (true, false, true), (false, false, true), (true, true, true)])
    func storedDeflatedDescriptorsZip64(stored: Bool, dataDescriptor: Bool, zip64: Bool) throws {
        let bytes = Self.archive(name: Array("export.xml".utf8), deflate: !stored, dataDescriptor: dataDescriptor, zip64: zip64)
        let outcome = ParseOutcome.parse(bytes, name: "export.zip")
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.samples == Self.expected)
    }

    /// A download cut short: no central directory. Everything complete before the cut is
    /// handed over, then `.truncated` names the zip offset.
    @Test(arguments: [0.1, 0.5, 0.8]) func truncatedZip(fraction: Double) throws {
        let full = Self.archive(name: Array("export.xml".utf8), deflate: true)
        let cut = Array(full[0..<Int(Double(full.count) * fraction)])
        let outcome = ParseOutcome.parse(cut, name: "export.zip")
        guard case let .truncated(format, offset, _)? = outcome.error as? ImportError else {
            Issue.record("expected .truncated, got \(String(describing: outcome.error))")
            return
        }
        #expect(format == "Apple Health zip")
        #expect(offset > 0 && offset <= Int64(cut.count))
        if fraction >= 0.5 { #expect(!outcome.samples.isEmpty) }
        #expect(Array(Self.expected.prefix(outcome.samples.count)) == outcome.samples)
    }

    /// Cut inside the central directory, after the export member: nothing of the export is
    /// lost (its local header carries sizes and CRC), so it imports without complaint.
    @Test func cutAfterTheExportMember() throws {
        let full = Self.archive(name: Array("export.xml".utf8), deflate: true)
        let outcome = ParseOutcome.parse(Array(full[0..<(full.count - 40)]), name: "export.zip")
        #expect(outcome.error == nil)
        #expect(outcome.samples == Self.expected)
        #expect(outcome.report?.problemCount == 0)
    }

    @Test func truncatedXMLInsideACompleteZip() throws {
        var z = TestZipWriter()
        z.add(.init(name: Array("export.xml".utf8), data: Array(Self.xml[0..<(Self.xml.count * 2 / 3)])))
        let outcome = ParseOutcome.parse(z.finish(), name: "export.zip")
        guard case .truncated? = outcome.error as? ImportError else {
            Issue.record("expected .truncated, got \(String(describing: outcome.error))"); return
        }
        #expect(!outcome.samples.isEmpty)
    }

    /// Corrupt compressed data: an error, never a crash or a loop.
    @Test func corruptDeflateData() throws {
        var bytes = Self.archive(name: Array("export.xml".utf8))
        let start = bytes.count / 2
        for i in start..<(start + 64) { bytes[i] ^= 0x5A }
        let outcome = ParseOutcome.parse(bytes, name: "export.zip")
        #expect(outcome.error is ImportError)
    }

    @Test func zipWithoutAnExport() throws {
        var z = TestZipWriter()
        z.add(.init(name: Array("export_cda.xml".utf8), data: Self.cda))
        z.add(.init(name: Array("notes.txt".utf8), data: Array("hello".utf8)))
        let outcome = ParseOutcome.parse(z.finish(), name: "export.zip")
        guard case .unrecognized? = outcome.error as? ImportError else {
            Issue.record("expected .unrecognized, got \(String(describing: outcome.error))"); return
        }
    }
}

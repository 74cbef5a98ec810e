import HealthSpoolCore
import Testing
@testable import HealthExport

/// Zips whose export member healthspool cannot read (encrypted, or compressed with bzip2, LZMA,
/// Deflate64, …) are refused with a reason that names the member, the method or the encryption,
/// and what to do; they never crash the process (the member stream once freed its input buffer
/// twice when its initializer threw).
@Suite struct ZipUnreadableMemberTests {
    static let xml = (try? AppleHealthGoldenTests.input("modern-export")) ?? []

    static let cases: [(label: String, method: UInt16?, encrypted: Bool, says: String)] = [
        ("encrypted", nil, true, "encrypted"),
        ("bzip2", 12, false, "bzip2 (method 12)"),
        ("LZMA", 14, false, "LZMA (method 14)"),
        ("Deflate64", 9, false, "Deflate64 (method 9)"),
        ("AES", 99, true, "AES"),
    ]

    /// An Apple-like zip whose export.xml member is written with `method`/`encrypted`.
    static func archive(method: UInt16?, encrypted: Bool, dataDescriptor: Bool = false, centralDirectory: Bool = true) -> [UInt8] {
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/".utf8), data: [], deflate: false))
        // Raw bytes stand in for the other method's output: it is never read.
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: method == nil ? xml : Array(xml.prefix(4096)),
                    dataDescriptor: dataDescriptor, encrypted: encrypted, method: method))
        return centralDirectory ? z.finish() : z.bytes
    }

    @Test(arguments: cases) func anUnreadableExportMemberIsRefusedNamingItAndWhatToDo(
        label: String, method: UInt16?, encrypted: Bool, says: String
    ) throws {
        let outcome = ParseOutcome.parse(Self.archive(method: method, encrypted: encrypted), name: "export.zip")
        guard case let .refused(_, _, reason)? = outcome.error as? ImportError else {
            Issue.record("\(label): expected .refused, got \(String(describing: outcome.error))"); return
        }
        #expect(reason.contains("'apple_health_export/export.xml'"), "\(reason)")
        #expect(reason.contains(says), "\(reason)")
        #expect(reason.contains("unpack"), "\(reason)")
        #expect(outcome.samples.isEmpty)
    }

    /// Without a central directory (a truncated download), the local headers are walked: the
    /// member is refused there too.
    @Test(arguments: cases) func anUnreadableMemberInATruncatedZipIsRefused(
        label: String, method: UInt16?, encrypted: Bool, says: String
    ) throws {
        let bytes = Self.archive(method: method, encrypted: encrypted, centralDirectory: false)
        let outcome = ParseOutcome.parse(bytes, name: "export.zip")
        guard case let .refused(_, _, reason)? = outcome.error as? ImportError else {
            Issue.record("\(label): expected .refused, got \(String(describing: outcome.error))"); return
        }
        #expect(reason.contains("export.xml") && reason.contains(says), "\(reason)")
    }

    @Test(arguments: cases) func theMemberStreamRefusesWithoutCrashing(
        label: String, method: UInt16?, encrypted: Bool, says: String
    ) throws {
        let source = MemoryByteSource(Self.archive(method: method, encrypted: encrypted))
        var members = try ZipArchive.centralDirectory(source)
        members[1].dataOffset = try ZipArchive.dataOffset(source, members[1])
        for _ in 0..<3 {   // each refusal frees what the stream holds exactly once
            #expect(throws: ImportError.self) { _ = try ZipMemberStream(source: source, member: members[1]) }
        }
    }

    /// Another member that cannot be read (a bzip2 picture, an encrypted note) does not stop
    /// the export beside it.
    @Test func anUnreadableMemberBesideTheExportIsIgnored() throws {
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/notes.xml".utf8), data: Array("x".utf8), method: 12))
        z.add(.init(name: Array("apple_health_export/secret.xml".utf8), data: Array("x".utf8), encrypted: true))
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: Self.xml))
        let outcome = ParseOutcome.parse(z.finish(), name: "export.zip")
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.samples == ParseOutcome.parse(Self.xml, name: "export.xml").samples)
    }
}

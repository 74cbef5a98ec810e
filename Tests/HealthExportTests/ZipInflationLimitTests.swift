import HealthSpoolCore
import Testing
@testable import HealthExport

/// Decompression is bounded as it goes: a member that inflates past the size its header
/// declares, or more than `ZipMemberStream.maxRatio`× its compressed bytes once past
/// `ratioFloor`, stops at once. Measured in bytes produced, never in time.
@Suite struct ZipInflationLimitTests {
    static let head = Array("<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n".utf8)

    /// `<HealthData` then `mebibytes` MiB of spaces, deflated (about 1 KiB per MiB).
    static func spaces(mebibytes: Int) -> (payload: [UInt8], size: Int, crc: UInt32) {
        let mebibyte = [UInt8](repeating: 0x20, count: 1 << 20)
        return TestZipWriter.deflate(chunks: mebibytes + 1) { $0 == 0 ? head : mebibyte }
    }

    /// A zip of one export.xml member holding `bomb`; its header declares `declared` bytes, or
    /// nothing (a data descriptor and no central directory, as in a cut download).
    static func archive(_ bomb: (payload: [UInt8], size: Int, crc: UInt32), declared: UInt32?) -> [UInt8] {
        var z = TestZipWriter()
        z.add(.init(name: Array("apple_health_export/export.xml".utf8), data: [], dataDescriptor: declared == nil,
                    declaredSize: declared ?? 0, deflated: bomb.payload, crc: bomb.crc))
        return declared == nil ? Array(z.bytes.prefix(z.bytes.count - 16)) : z.finish()   // no descriptor, no directory
    }

    /// Reads the export member through `ZipMemberStream` until it stops; returns the bytes it
    /// produced, the compressed bytes it read and the error.
    static func drain(_ zip: [UInt8]) throws -> (produced: Int64, read: Int64, error: Error?) {
        let source = MemoryByteSource(zip)
        let member = try ZipArchive.findHealthExport(in: source)
        let stream = try ZipMemberStream(source: source, member: member)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var produced: Int64 = 0
        do {
            while case let n = try stream.read(into: buffer), n > 0 { produced += Int64(n) }
        } catch {
            return (produced, stream.sourceBytesRead - member.dataOffset, error)
        }
        return (produced, stream.sourceBytesRead - member.dataOffset, nil)
    }

    @Test func aLyingSizeHeaderStopsOneByteAfterTheDeclaredSize() throws {
        let bomb = Self.spaces(mebibytes: 64)
        let (produced, read, error) = try Self.drain(Self.archive(bomb, declared: 4096))
        guard case let .refused(_, _, reason)? = error as? ImportError else {
            Issue.record("expected .refused, got \(String(describing: error))"); return
        }
        #expect(produced <= 4096, "handed over \(produced) bytes")
        #expect(read <= 256 << 10, "read \(read) of \(bomb.payload.count) compressed bytes")
        #expect(reason.contains("'apple_health_export/export.xml'") && reason.contains("4096 bytes its header declares"), "\(reason)")
    }

    @Test func aBombWithNoDeclaredSizeStopsPastTheFloor() throws {
        let bomb = Self.spaces(mebibytes: 256)
        let (produced, read, error) = try Self.drain(Self.archive(bomb, declared: nil))
        guard case let .refused(_, _, reason)? = error as? ImportError else {
            Issue.record("expected .refused, got \(String(describing: error))"); return
        }
        #expect(produced > ZipMemberStream.ratioFloor - (1 << 20) && produced <= ZipMemberStream.ratioFloor + (1 << 20),
                "handed over \(produced) bytes of \(bomb.size)")
        #expect(read < Int64(bomb.payload.count), "read all \(read) compressed bytes")
        #expect(reason.contains("'apple_health_export/export.xml'") && reason.contains("200×"), "\(reason)")
    }

    /// An honest header does not license a bomb: the ratio stops it too.
    @Test func aBombWithAnHonestHeaderStopsPastTheFloor() throws {
        let bomb = Self.spaces(mebibytes: 256)
        let (produced, _, error) = try Self.drain(Self.archive(bomb, declared: UInt32(bomb.size)))
        guard case .refused? = error as? ImportError else {
            Issue.record("expected .refused, got \(String(describing: error))"); return
        }
        #expect(produced <= ZipMemberStream.ratioFloor + (1 << 20), "handed over \(produced) bytes of \(bomb.size)")
    }

    /// Through the whole parse (read-ahead thread, scanner): the import stops with the reason,
    /// which says how many bytes were produced.
    @Test func theImportOfABombIsRefusedWithTheMemberAndTheLimit() throws {
        let outcome = ParseOutcome.parse(Self.archive(Self.spaces(mebibytes: 128), declared: nil), name: "export.zip")
        guard case let .refused(_, _, reason)? = outcome.error as? ImportError else {
            Issue.record("expected .refused, got \(String(describing: outcome.error))"); return
        }
        let stopped = try #require(reason.split(separator: " ").drop { $0 != "after" }.dropFirst().first.flatMap { Int64($0) })
        #expect(stopped <= ZipMemberStream.ratioFloor + (1 << 20), "\(reason)")
    }

    /// Export-like XML (records that differ in dates and values) of more than the floor
    /// inflates far below the ratio and is read whole.
    @Test func anExportLikeMemberPastTheFloorIsReadWhole() throws {
        let records = (48 << 20) / (150 * 2048) + 1
        let xml = TestZipWriter.deflate(chunks: records) { k in
            var chunk = k == 0 ? Self.head : []
            for r in 0..<2048 {
                let n = k * 2048 + r
                chunk += Array(("<Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\""
                    + " startDate=\"2026-01-\(n % 28 + 1) \(n / 60 % 24):\(n % 60):00 +0100\" value=\"\(60 + n * 7 % 50)\"/>\n").utf8)
            }
            return chunk
        }
        var z = TestZipWriter()
        z.add(.init(name: Array("export.xml".utf8), data: [], declaredSize: UInt32(xml.size), deflated: xml.payload, crc: xml.crc))
        let (produced, _, error) = try Self.drain(z.finish())
        #expect(error == nil, "\(String(describing: error))")
        #expect(produced == Int64(xml.size) && produced > ZipMemberStream.ratioFloor,
                "\(produced) bytes from \(xml.payload.count) (\(produced / Int64(xml.payload.count))×)")
    }
}

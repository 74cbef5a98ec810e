#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore
import HealthSpoolLinux
import Testing
@testable import HealthSpoolIngest

@Suite struct SpoolDropTests {
    func temporaryDirectory() throws -> String {
        var template = Array("/tmp/spooldrop-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(decoding: try #require(path.map { String(cString: $0) }).utf8, as: UTF8.self)
    }

    func write(_ drop: SpoolDrop, _ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try drop.write($0) }
    }

    @Test func whileWrittenTheFileHasANameTheSpoolIgnoresThenACompleteJSONName() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        let drop = try SpoolDrop(spoolDir: dir)
        try write(drop, "{\"data\":")
        let during = try FileSystem.list(dir)
        #expect(during == [drop.temporaryName])
        #expect(!SpoolDirectory.isEligible(drop.temporaryName))
        try write(drop, "{}}")
        let name = try drop.commit(now: Timestamp(millis: 1_767_261_600_000))
        #expect(try FileSystem.list(dir) == [name])
        #expect(SpoolDirectory.isEligible(name))
        #expect(name.hasPrefix("ingest-20260101") && name.hasSuffix(".json"))
        #expect(String(decoding: try FileSystem.read(dir + "/" + name), as: UTF8.self) == "{\"data\":{}}")
        #expect(FileSystem.regularFile(dir + "/" + name)?.mode ?? 0 & 0o777 == 0o600)
    }

    @Test func aDiscardedOrAbandonedDropLeavesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        let drop = try SpoolDrop(spoolDir: dir)
        try write(drop, "partial")
        drop.discard()
        #expect(try FileSystem.list(dir).isEmpty)
        do {
            let abandoned = try SpoolDrop(spoolDir: dir)
            try write(abandoned, "partial")
        }
        #expect(try FileSystem.list(dir).isEmpty)
    }

    @Test func twoDropsCommittedInTheSameMillisecondGetTwoFiles() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        let now = Timestamp(millis: 1_767_261_600_000)
        let a = try SpoolDrop(spoolDir: dir), b = try SpoolDrop(spoolDir: dir)
        try write(a, "a")
        try write(b, "b")
        let names = [try a.commit(now: now), try b.commit(now: now)]
        #expect(Set(names).count == 2)
        #expect(Set(try FileSystem.list(dir)) == Set(names))
    }

    @Test func leftoversOfACrashAreRemovedAndNothingElse() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        try FileSystem.writeAtomically(dir + "/.ingest-0011.tmp", Array("x".utf8))
        try FileSystem.writeAtomically(dir + "/export.json", Array("x".utf8))
        #expect(SpoolDrop.removeLeftovers(in: dir) == [".ingest-0011.tmp"])
        #expect(try FileSystem.list(dir) == ["export.json"])
    }
}

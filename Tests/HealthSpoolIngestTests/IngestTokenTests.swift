#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolLinux
import Testing
@testable import HealthSpoolIngest

@Suite struct IngestTokenTests {
    func temporaryDirectory() throws -> String {
        var template = Array("/tmp/ingesttoken-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return try #require(path.map { String(cString: $0) })
    }

    @Test func aMissingTokenIsMadeRandomPrivateAndThenKept() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        let path = dir + "/state/ingest-token"
        let first = try IngestToken.loadOrCreate(path: path)
        #expect(first.count == 64)
        #expect((FileSystem.regularFile(path)?.mode ?? 0) & 0o777 == 0o600)
        #expect(try IngestToken.loadOrCreate(path: path) == first)
        let other = dir + "/other-token"
        #expect(try IngestToken.loadOrCreate(path: other) != first)
    }

    @Test func aTokenOthersCanReadOrTooShortIsRefusedWithWhatToDo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileSystem.removeTree(dir) }
        let path = dir + "/token"
        try FileSystem.writeAtomically(path, Array("a-long-enough-token-1234\n".utf8), mode: 0o644)
        #expect(throws: IngestError.self) { try IngestToken.load(path: path) }
        do { _ = try IngestToken.load(path: path) } catch { #expect("\(error)".contains("chmod 600 \(path)")) }
        chmod(path, 0o600)
        #expect(try IngestToken.load(path: path) == Array("a-long-enough-token-1234".utf8))
        try FileSystem.writeAtomically(path, Array("short\n".utf8), mode: 0o600)
        #expect(throws: IngestError.self) { try IngestToken.load(path: path) }
    }
}

import Glibc
import HealthSpoolCore
import HealthSpoolLinux
import Testing
@testable import HealthSpoolDaemon

/// What status counts in failed/: the files that could not be imported, not their reasons, and
/// not a temporary name a crash left while a reason was written.
@Suite struct StatusReportSpoolTests {
    @Test func failedFilesCountNeitherReasonsNorAWritesLeftoverTemporary() throws {
        var template = Array("/tmp/healthspool-status-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = try? FileSystem.removeTree(dir) }
        let spool = SpoolDirectory(path: dir + "/HealthSpool")
        try spool.create()
        for name in ["bad.json", "bad.json.reason", "export.zip", "export.zip.reason", ".export.zip.reason.0123456789abcdef0123456789abcdef.tmp"] {
            try FileSystem.writeAtomically(spool.failed + "/" + name, Array("x".utf8))
        }
        let member = StatusReport.spoolMember(spool, stateDir: dir, live: .object([]), now: 0)
        #expect(member["failedFiles"]?.intValue == 2)
    }
}

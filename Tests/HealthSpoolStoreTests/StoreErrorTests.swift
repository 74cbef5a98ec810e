#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HealthSpoolStore

/// A store error says what SQLite said, and for an I/O error which operation failed and the
/// system's errno (the "disk I/O error (SQLite code 10)" of a sync said neither).
@Suite struct StoreErrorTests {
    @Test func anIOErrorNamesTheOperationAndTheSystemsError() {
        let shortRead = StoreError(path: "/s/healthspool.db", code: 10, message: "disk I/O error", extendedCode: 10 | 2 << 8)
        #expect(shortRead.description == "store /s/healthspool.db: disk I/O error (SQLite code 10, extended 522 (I/O error on short read))")
        let fstat = StoreError(path: "/s/healthspool.db", code: 10, message: "disk I/O error", extendedCode: 10 | 7 << 8, systemErrno: EBADF)
        #expect(fstat.description == "store /s/healthspool.db: disk I/O error (SQLite code 10, extended 1802 (I/O error on fstat), errno 9: Bad file descriptor)")
        #expect(fstat.kind == .io)
        // Another failure's errno is that of SQLite's last system call, not its own: not shown.
        let unique = StoreError(path: "/s", code: 19, message: "UNIQUE constraint failed: t.x", extendedCode: 2067, systemErrno: ENOENT)
        #expect(unique.description == "store /s: UNIQUE constraint failed: t.x (SQLite code 19, extended 2067)")
    }

    @Test func aFailedStatementCarriesSQLitesExtendedCode() throws {
        var template = Array("/tmp/healthspool-error-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { unlink(dir + "/s.db"); rmdir(dir) }
        let connection = try Connection(path: dir + "/s.db")
        try connection.exec("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1)")
        let error = #expect(throws: StoreError.self) { try connection.exec("INSERT INTO t VALUES (1)") }
        #expect(error?.code == 19)
        #expect(error?.extendedCode == 2067)   // SQLITE_CONSTRAINT_UNIQUE
        let prepared = #expect(throws: StoreError.self) { try connection.prepare("INSERT INTO t VALUES (1)").run() }
        #expect(prepared?.extendedCode == 2067)
        #expect(prepared?.description.hasSuffix("(SQLite code 19, extended 2067)") == true)
    }
}

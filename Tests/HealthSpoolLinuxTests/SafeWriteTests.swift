#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HealthSpoolLinux

/// Files are written safely wherever they go (issue 39): a name another user could guess, or a
/// link they placed, is never written through. Real files in a temporary directory.
@Suite struct SafeWriteTests {
    let dir: String

    init() throws {
        var template = Array("/tmp/hs-safewrite-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FileError("mkdtemp", "/tmp") }
        dir = String(cString: made)
    }

    func text(_ path: String) throws -> String { String(decoding: try FileSystem.read(path), as: UTF8.self) }

    func mode(_ path: String) -> mode_t {
        var st = stat()
        lstat(path, &st)
        return st.st_mode & 0o7777
    }

    @Test func linksPlantedAtTheOldPredictableTemporaryNamesAreNotFollowed() throws {
        defer { try? FileSystem.removeTree(dir) }
        let victim = dir + "/bashrc"
        try FileSystem.writeAtomically(victim, Array("# mine\n".utf8))
        let target = dir + "/report.html"
        // What the other user planted for the old writer: PATH.tmp.<pid> → the victim's file.
        #expect(symlink(victim, target + ".tmp.\(getpid())") == 0)
        try FileSystem.writeAtomically(target, Array("<html>report</html>".utf8))
        #expect(try text(victim) == "# mine\n")
        #expect(try text(target) == "<html>report</html>")
        #expect(mode(target) == 0o600)
    }

    @Test func aLinkAtTheTargetIsReplacedNotFollowed() throws {
        defer { try? FileSystem.removeTree(dir) }
        let victim = dir + "/profile"
        try FileSystem.writeAtomically(victim, Array("keep\n".utf8))
        let target = dir + "/healthspool.prom"
        #expect(symlink(victim, target) == 0)
        try FileSystem.writeAtomically(target, Array("metric 1\n".utf8), mode: 0o644)
        #expect(try text(victim) == "keep\n")
        #expect(FileSystem.regularFile(target)?.mode == 0o644)
    }

    @Test func noTemporaryFileIsLeftAndTheNamesAreNotPredictable() throws {
        defer { try? FileSystem.removeTree(dir) }
        try FileSystem.writeAtomically(dir + "/a", Array("1".utf8))
        try FileSystem.writeAtomically(dir + "/a", Array("2".utf8))
        #expect(try FileSystem.list(dir) == ["a"])
        let one = SafeWrite.randomHex(16), two = SafeWrite.randomHex(16)
        #expect(one.count == 32 && one != two)
    }

    @Test func aNewFileIsNeverMadeThroughALinkOrOverAnExistingFile() throws {
        defer { try? FileSystem.removeTree(dir) }
        let victim = dir + "/victim"
        try FileSystem.writeAtomically(victim, Array("v".utf8))
        #expect(symlink(victim, dir + "/link") == 0)
        #expect(throws: FileError.self) { _ = try SafeWrite.createNew(dir + "/link") }
        #expect(throws: FileError.self) { _ = try SafeWrite.createNew(victim) }
        #expect(throws: FileError.self) { _ = try SafeWrite.openOwn(dir + "/link") }
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(throws: FileError.self) { _ = try SafeWrite.openOwn(dir + "/fifo") }
        #expect(try text(victim) == "v")
        let fd = try SafeWrite.openOwn(dir + "/lock")
        close(fd)
        #expect(mode(dir + "/lock") == 0o600)
    }

    @Test func aDirectoryOthersCanWriteIsReportedUnlessSticky() throws {
        defer { try? FileSystem.removeTree(dir) }
        chmod(dir, 0o700)
        #expect(SafeWrite.exposure(of: dir) == nil)
        chmod(dir, 0o777)
        #expect(SafeWrite.exposure(of: dir)?.writableMode == 0o777)
        let exposure = try SafeWrite.replace(dir + "/r.html", Array("x".utf8))
        #expect(exposure?.description.contains("other users can write it") == true)
        chmod(dir, 0o1777)
        #expect(SafeWrite.exposure(of: dir) == nil)
        chmod(dir, 0o700)
    }

    /// Whether this process holds a POSIX lock on the file at `path` (as `/proc/locks` lists them).
    static func holdsLock(on path: String) throws -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { throw FileError("stat", path) }
        let me = "\(getpid())", inode = ":\(st.st_ino)"
        return String(decoding: try FileSystem.read("/proc/locks"), as: UTF8.self).split(separator: "\n").contains { line in
            let f = line.split(separator: " ")
            return f.count > 5 && f[1] == "POSIX" && f[4] == me && f[5].hasSuffix(inode)
        }
    }

    /// The store's file is made this way when missing, while another part of the process may
    /// have opened it meanwhile: closing any descriptor of it would drop the process's POSIX
    /// locks, SQLite's (the daemon's WAL was deleted under it by the next `healthspool status`).
    /// The creation it replaces (`FileSystem.touch`: open the name, fchmod, close) failed the
    /// lock's expectation below.
    @Test func anEmptyFileIsMadeWithoutOpeningItsNameSoALockOnItStays() throws {
        defer { try? FileSystem.removeTree(dir) }
        let path = dir + "/healthspool.db"
        #expect(try SafeWrite.createEmpty(path))
        #expect(FileSystem.regularFile(path)?.size == 0)
        #expect(mode(path) == 0o600)
        #expect(try FileSystem.list(dir) == ["healthspool.db"], "no temporary left")
        // A read lock on a byte of it, as an SQLite connection holds one on its store.
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        var lock = Glibc.flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 1 << 30
        lock.l_len = 1
        #expect(fcntl(fd, F_SETLK, &lock) == 0)
        #expect(try Self.holdsLock(on: path))
        try FileSystem.writeAtomically(dir + "/other", [])
        #expect(try !SafeWrite.createEmpty(path), "there already: left alone")
        #expect(try Self.holdsLock(on: path), "the lock was dropped")
        #expect(try FileSystem.list(dir) == ["healthspool.db", "other"])
        #expect(symlink(dir + "/other", dir + "/planted") == 0)
        #expect(try !SafeWrite.createEmpty(dir + "/planted"), "a link is not followed")
    }

    @Test func aMovedFileTakesTheModeAsked() throws {
        defer { try? FileSystem.removeTree(dir) }
        try FileSystem.writeAtomically(dir + "/export.json", Array("{}".utf8), mode: 0o644)
        try FileSystem.makeDirectory(dir + "/archive")
        try FileSystem.move(dir + "/export.json", to: dir + "/archive/export.json", mode: 0o600)
        #expect(mode(dir + "/archive/export.json") == 0o600)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore

/// A file-system call that failed, with the path and errno text.
public struct FileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let operation: String
    public let code: Int32
    public var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    public init(_ operation: String, _ path: String, _ code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }
}

/// Small POSIX file helpers (no FileManager: its errors lose the errno and it does not fsync).
public enum FileSystem {
    /// Creates `path` and missing parents with `mode`; tightens the mode of the last component.
    public static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0, errno != EEXIST { throw FileError("mkdir", current) }
        }
        var st = stat()
        guard stat(path, &st) == 0 else { throw FileError("stat", path) }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw FileError("mkdir", path, ENOTDIR) }
        if st.st_mode & 0o7777 != mode, st.st_uid == getuid() { chmod(path, mode) }
    }

    /// Whether `path` exists.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether `path` is a regular file; size and mode when it is.
    public static func regularFile(_ path: String) -> (size: Int64, mode: mode_t, uid: uid_t)? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(st.st_size), st.st_mode & 0o7777, st.st_uid)
    }

    /// Whether some process has the regular file at `path` open for writing: a copy into the
    /// spool still in progress. Asked with a read lease (`F_SETLEASE`), which the kernel grants
    /// only while no one has the file open for writing, and released at once. False when a lease
    /// cannot be asked for (a file of another owner without `CAP_LEASE`, a file system without
    /// leases): the file is then taken as complete, as before. A process that calls it must
    /// ignore SIGIO: a writer opening the file while the lease is held sends it (the daemon does).
    public static func isOpenForWriting(_ path: String) -> Bool {
        let setLease: Int32 = 1024, readLease: Int32 = 0, unlock: Int32 = 2   // F_SETLEASE, F_RDLCK, F_UNLCK
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if fcntl(fd, setLease, readLease) == 0 {
            _ = fcntl(fd, setLease, unlock)
            return false
        }
        return errno == EAGAIN
    }

    /// Names in a directory (no `.`/`..`), sorted.
    public static func list(_ dir: String) throws -> [String] {
        guard let d = opendir(dir) else { throw FileError("opendir", dir) }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafePointer(to: e.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if name != ".", name != ".." { out.append(name) }
        }
        return out.sorted()
    }

    /// Reads a whole (small) file.
    public static func read(_ path: String, limit: Int = 1 << 20) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("open", path) }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while out.count < limit {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw FileError("read", path) }
            if n == 0 { break }
            out.append(contentsOf: buf[0..<n])
        }
        return out
    }

    /// Reads a text file, or nil when it does not exist.
    public static func readText(_ path: String) throws -> String? {
        guard exists(path) else { return nil }
        return String(decoding: try read(path), as: UTF8.self)
    }

    /// Writes a file atomically and safely wherever it goes (`SafeWrite.replace`): a new
    /// temporary file of an unpredictable name, created exclusively without following links,
    /// fsynced, then renamed over `path` (a rename replaces a link placed there, never follows
    /// it). A caller that writes where the person chose calls `SafeWrite.replace` itself, to warn
    /// about a folder other users can write.
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws {
        try SafeWrite.replace(path, bytes, mode: mode)
    }

    /// fsyncs the directory holding `path`, so a rename in it is durable.
    public static func syncDirectory(of path: String) {
        let dir = parent(path)
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 { fsync(fd); close(fd) }
    }

    /// The directory part of a path.
    public static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Renames `from` to `to`; durable once it returns: the directories of both names are
    /// fsynced after the rename. The file's modification time becomes now, the time it arrived
    /// in its new folder (the spool's archive/ and failed/ are pruned by it). With `mode`, a
    /// regular file of this user gets that mode first, whatever it had: a file kept in archive/
    /// or failed/ is 0600 even when the person loosened the spool while the daemon ran.
    public static func move(_ from: String, to: String, mode: mode_t? = nil) throws {
        if let mode { tighten(from, mode: mode) }
        // UTIME_OMIT and UTIME_NOW (<sys/stat.h> macros Swift does not import): keep atime, set mtime.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1)]
        _ = utimensat(AT_FDCWD, from, &times, AT_SYMLINK_NOFOLLOW)
        guard rename(from, to) == 0 else { throw FileError("rename", from) }
        try syncDirectoryOrThrow(of: to)
        if parent(from) != parent(to) { try syncDirectoryOrThrow(of: from) }
    }

    /// Sets `mode` on the regular file at `path` when this user owns it (a link is not followed;
    /// a FIFO is not opened for long: `O_NONBLOCK`).
    static func tighten(_ path: String, mode: mode_t) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == getuid(), st.st_mode & 0o7777 != mode else { return }
        fchmod(fd, mode)
    }

    /// fsyncs the directory holding `path`, or throws naming it.
    static func syncDirectoryOrThrow(of path: String) throws {
        let dir = parent(path)
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("open", dir) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError("fsync", dir) }
    }

    /// Modification time of `path` in milliseconds since 1970, and its size; nil when it is not
    /// a regular file.
    public static func modified(_ path: String) -> (millis: Int64, size: Int64)? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(st.st_mtim.tv_sec) * 1000 + Int64(st.st_mtim.tv_nsec) / 1_000_000, Int64(st.st_size))
    }

    /// Removes a file; a missing file is fine.
    public static func remove(_ path: String) throws {
        if unlink(path) != 0, errno != ENOENT { throw FileError("unlink", path) }
    }

    /// Removes a directory tree.
    public static func removeTree(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            for name in try list(path) { try removeTree(path + "/" + name) }
            if rmdir(path) != 0 { throw FileError("rmdir", path) }
        } else {
            try remove(path)
        }
    }
}

/// A file opened for reading, as a random-access byte source (pread).
public final class ReadOnlyFile {
    public let fd: Int32
    public let path: String
    public let size: Int64

    /// Opens a regular file. A symbolic link (as the last component) is not followed and a
    /// FIFO or device is refused without blocking: the caller resolves links it means to follow.
    public init(path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw FileError("open", path) }
        self.path = path
        var st = stat()
        fstat(fd, &st)
        guard (st.st_mode & S_IFMT) == S_IFREG else { close(fd); throw FileError("open", path, EINVAL) }
        size = Int64(st.st_size)
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit { close(fd) }

    /// Reads at `offset`; retries on EINTR.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 {
                // Drop what was read from the page cache accounting of long sequential reads.
                if n > 0, offset > 8 << 20, offset % (8 << 20) < Int64(n) {
                    posix_fadvise(fd, 0, off_t(offset - (4 << 20)), POSIX_FADV_DONTNEED)
                }
                return n
            }
            if errno != EINTR { throw FileError("read", path) }
        }
    }
}

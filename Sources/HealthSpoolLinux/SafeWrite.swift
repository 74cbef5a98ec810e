#if canImport(Glibc)
import Glibc
#endif

/// What another user could do in a directory healthspool writes into: replace or remove what
/// is written there (a directory they own, or one they can write that has no sticky bit).
public struct DirectoryExposure: Sendable, Equatable, CustomStringConvertible {
    public let directory: String
    /// The directory's owner, when it is neither this user nor root.
    public let foreignOwner: uid_t?
    /// The directory's mode, when group or others can write it and it has no sticky bit.
    public let writableMode: mode_t?

    public var description: String {
        var why: [String] = []
        if let foreignOwner { why.append("it belongs to another user (uid \(foreignOwner))") }
        if let writableMode { why.append("other users can write it (mode \(String(writableMode, radix: 8)), no sticky bit)") }
        return "\(directory): \(why.joined(separator: " and ")); another user could replace or remove the file written there"
    }
}

/// The one way healthspool creates files (issue 39): wherever the file goes — its private
/// directories, a folder the person named (`report --out`, `metrics.textfile`), or a shared
/// spool — a name another user can guess or a link they placed is never written through.
///
/// - A new file is created with `O_CREAT|O_EXCL|O_NOFOLLOW`: it did not exist, and no link was
///   followed to make it (`createNew`).
/// - A whole file is replaced through a temporary name of 16 random bytes in the same directory,
///   created as above, written, fsynced and checked to be still the file written before it is
///   renamed over the target (`replace`). A rename replaces a link at the target, never
///   follows it.
/// - A file that is opened again and again (a lock) must be a regular file of this user
///   (`openOwn`).
/// - An empty file made for another owner of descriptors in this process (the SQLite store) is
///   made under a temporary name and linked into place, its own name never opened (`createEmpty`).
///
/// `scripts/check-file-writes.py` fails the build on an `O_CREAT` anywhere else.
public enum SafeWrite {
    /// Creates `path` (which must not exist, and whose last component is not followed if it is a
    /// link) with `mode` and opens it for writing; the descriptor is the caller's to close.
    public static func createNew(_ path: String, mode: mode_t = 0o600) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError("create", path) }
        fchmod(fd, mode)
        return fd
    }

    /// Creates `path` as an empty file with `mode` unless something exists there; true when it
    /// made it. `path` itself is never opened: the file is made under a temporary name beside it
    /// (as `createNew` makes one), closed, and only then linked to `path`, which fails harmlessly
    /// when `path` exists. For a file another part of the process may have open with POSIX locks
    /// — the SQLite store: closing *any* descriptor of a file drops every lock the process holds
    /// on it, and a store whose connections lost theirs has its WAL deleted under it by the next
    /// process that closes a connection (it then sees none of the daemon's later writes, and a
    /// connection the daemon opens afterwards fails with "disk I/O error"). On a file system
    /// without hard links, the file is created in place (`createNew`).
    @discardableResult
    public static func createEmpty(_ path: String, mode: mode_t = 0o600) throws -> Bool {
        let temporary = FileSystem.parent(path) + "/." + FileSystem.baseName(path) + "." + randomHex(16) + ".tmp"
        close(try createNew(temporary, mode: mode))
        defer { unlink(temporary) }
        if link(temporary, path) == 0 { return true }
        switch errno {
        case EEXIST: return false
        case EPERM, EOPNOTSUPP, EMLINK:
            do { close(try createNew(path, mode: mode)) } catch let e as FileError where e.code == EEXIST { return false }
            return true
        default: throw FileError("link", path)
        }
    }

    /// Opens `path` for reading and writing, creating it with `mode` when missing. Refuses a
    /// link, anything but a regular file, and a file of another user (`EPERM`).
    public static func openOwn(_ path: String, mode: mode_t = 0o600) throws -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else { throw FileError("open", path) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == geteuid() else {
            close(fd)
            throw FileError("open (not a regular file of this user)", path, EPERM)
        }
        return fd
    }

    /// Replaces `path` with `bytes` (see the type's comment); returns the directory's exposure.
    @discardableResult
    public static func replace(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o600) throws -> DirectoryExposure? {
        let directory = FileSystem.parent(path)
        let exposure = exposure(of: directory)
        var attempt = 0
        var temporary: String
        var fd: Int32
        repeat {
            temporary = directory + "/." + FileSystem.baseName(path) + "." + randomHex(16) + ".tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            attempt += 1
        } while fd < 0 && errno == EEXIST && attempt < 8
        guard fd >= 0 else { throw FileError("create", temporary) }
        var ok = false
        defer {
            close(fd)
            if !ok { unlinkIfSame(temporary, as: fd) }
        }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 { if errno == EINTR { continue }; throw FileError("write", temporary) }
            done += n
        }
        fchmod(fd, mode)
        guard fsync(fd) == 0 else { throw FileError("fsync", temporary) }
        // In a directory others can write, the temporary name could have been replaced since it
        // was made: rename only the file written.
        guard sameFile(temporary, as: fd) else { throw FileError("rename (the temporary file was replaced)", temporary, EEXIST) }
        guard rename(temporary, path) == 0 else { throw FileError("rename", path) }
        ok = true
        FileSystem.syncDirectory(of: path)
        return exposure
    }

    /// What another user could do in `directory`; nil when nothing.
    public static func exposure(of directory: String) -> DirectoryExposure? {
        var st = stat()
        guard stat(directory, &st) == 0 else { return nil }
        let foreign = st.st_uid != geteuid() && st.st_uid != 0 ? st.st_uid : nil
        let sticky = st.st_mode & mode_t(S_ISVTX) != 0
        let writable = st.st_mode & 0o022 != 0 && !sticky ? st.st_mode & 0o7777 : nil
        guard foreign != nil || writable != nil else { return nil }
        return DirectoryExposure(directory: directory, foreignOwner: foreign, writableMode: writable)
    }

    /// Whether the name `path` (not followed) is the file open as `fd`.
    static func sameFile(_ path: String, as fd: Int32) -> Bool {
        var named = stat(), open = stat()
        guard lstat(path, &named) == 0, fstat(fd, &open) == 0 else { return false }
        return named.st_dev == open.st_dev && named.st_ino == open.st_ino
    }

    /// Removes the temporary name when it is still the file written (never another user's file).
    static func unlinkIfSame(_ path: String, as fd: Int32) {
        if sameFile(path, as: fd) { unlink(path) }
    }

    /// `count` random bytes from the kernel (`SystemRandomNumberGenerator` asks getrandom), as hex.
    static func randomHex(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for _ in 0..<count {
            let b = UInt8.random(in: 0...255, using: &generator)
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on a file, held while this object lives. Used so only one daemon runs
/// per user, and so two syncers never send concurrently.
public final class ProcessLock {
    private let fd: Int32
    public let path: String

    /// Takes the lock, or returns nil when another process holds it.
    public init?(path: String, writePID: Bool = false) {
        guard let fd = try? SafeWrite.openOwn(path, mode: 0o600) else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { close(fd); return nil }
        self.fd = fd
        self.path = path
        if writePID {
            ftruncate(fd, 0)
            let text = Array("\(getpid())\n".utf8)
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit { close(fd) }

    /// The PID written in a lock file whose lock is held by a live process, or nil.
    public static func holder(of path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return nil }
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buf[0..<n], as: UTF8.self).trimmingCharacters())
    }
}

extension String {
    func trimmingCharacters() -> String {
        String(self.drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}

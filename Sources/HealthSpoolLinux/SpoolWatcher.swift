#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import HealthSpoolCore
import Synchronization

/// What the watcher saw.
public enum WatchEvent: Sendable, Equatable {
    /// A file was closed after writing, or moved into a watched directory.
    case fileReady(directory: String, name: String)
    /// A file was removed or moved out of a watched directory.
    case fileGone(directory: String, name: String)
    /// The kernel queue overflowed: events were lost, rescan.
    case overflow
    /// An entry whose name is not valid UTF-8 appeared: list the directory (names as bytes).
    case undecodableName(directory: String)
}

/// inotify on one or more directories (our HKObserverQuery): `IN_CLOSE_WRITE` and `IN_MOVED_TO`
/// report files ready; `IN_DELETE`/`IN_MOVED_FROM` report files gone. Entries that are not
/// regular files (directories, symbolic links, FIFOs, sockets) are reported ready when they
/// appear, so the daemon can refuse them out loud instead of never seeing them. Events are delivered on
/// `queue`. Non-blocking fd read through a Dispatch read source, so `stop()` ends it cleanly.
/// The daemon's services take the events as a sequence (`DirectoryWatch`).
///
/// The inotify descriptor is closed once, by the read source's cancel handler, and nowhere
/// else: `stop()` cancels the source at most once (later calls, and the one in `deinit`, do
/// nothing), and Dispatch runs the cancel handler once, after the last `drain()`.
///
/// `@unchecked Sendable`: `watches`, `handler` and `stopped` are written only by `init`; `drain()`
/// reads them on `queue`; `stop()`, from any thread, touches only the atomic flag and the
/// source, whose `cancel()` is thread-safe.
public final class SpoolWatcher: @unchecked Sendable {
    private let fd: Int32
    private var watches: [Int32: String] = [:]
    private let source: DispatchSourceRead
    private let handler: (WatchEvent) -> Void
    private let cancelled = Atomic<Bool>(false)

    /// Starts watching `directories`; `handler` runs on `queue` for each event; `stopped` runs
    /// on `queue` once the watcher stopped and its descriptor is closed.
    public init(directories: [String], queue: DispatchQueue, handler: @escaping (WatchEvent) -> Void,
                stopped: @escaping @Sendable () -> Void = {}) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw FileError("inotify_init1", directories.first ?? "") }
        self.handler = handler
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CREATE) | UInt32(IN_ONLYDIR)
        for dir in directories {
            let wd = inotify_add_watch(fd, dir, mask)
            // No source exists yet: this is the descriptor's only close.
            guard wd >= 0 else { let e = errno; close(fd); throw FileError("inotify_add_watch", dir, e) }
            watches[wd] = dir
        }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        let fd = self.fd
        source.setCancelHandler {
            close(fd)
            stopped()
        }
        source.resume()
    }

    deinit { stop() }

    /// The inotify descriptor (for tests: that it is closed, once).
    var descriptor: Int32 { fd }

    /// Stops watching; the inotify descriptor is closed once the source has let it go. Safe
    /// from any thread, any number of times.
    public func stop() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        source.cancel()
    }

    /// lstat on a name given as bytes.
    static func isRegularFile(_ dir: String, _ name: [UInt8]) -> Bool {
        var st = stat()
        let path = Array(dir.utf8) + [UInt8(ascii: "/")] + name + [0]
        let ok = path.withUnsafeBufferPointer { b in b.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &st) == 0 } }
        return ok && (st.st_mode & S_IFMT) == S_IFREG
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            var offset = 0
            while offset + 16 <= n {
                // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
                let (wd, mask, len) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = Array(buffer[(offset + 16)..<min(n, offset + 16 + len)].prefix { $0 != 0 })
                offset += 16 + len
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { handler(.overflow); continue }
                guard let dir = watches[wd], !nameBytes.isEmpty else { continue }
                guard EscapedText.isValidUTF8(nameBytes) else {
                    let created = mask & UInt32(IN_CREATE) != 0
                    if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 || (created && !Self.isRegularFile(dir, nameBytes)) {
                        handler(.undecodableName(directory: dir))
                    }
                    continue
                }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 {
                    handler(.fileReady(directory: dir, name: name))
                } else if mask & UInt32(IN_CREATE) != 0 {
                    // A regular file is ready once closed after writing (IN_CLOSE_WRITE, above).
                    // Anything else that appears (mkdir, ln -s, mkfifo, a socket) gets no
                    // further event: report it now.
                    if mask & UInt32(IN_ISDIR) != 0 || FileSystem.regularFile(dir + "/" + name) == nil {
                        handler(.fileReady(directory: dir, name: name))
                    }
                } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                    handler(.fileGone(directory: dir, name: name))
                }
            }
        }
    }
}

/// The spool contract: which names are eligible, and the archive/failed folders.
public struct SpoolDirectory: Sendable {
    public let path: String
    public var archive: String { path + "/archive" }
    public var failed: String { path + "/failed" }

    public init(path: String) { self.path = path }

    /// Creates the spool (0700) with its archive/ and failed/ folders.
    public func create() throws {
        try FileSystem.makeDirectory(path, mode: 0o700)
        try FileSystem.makeDirectory(archive, mode: 0o700)
        try FileSystem.makeDirectory(failed, mode: 0o700)
    }

    /// Names that are left alone until renamed: dot-files and partial downloads.
    public static func isEligible(_ name: String) -> Bool {
        if name.hasPrefix(".") { return false }
        let lower = name.lowercased()
        for suffix in [".tmp", ".part", ".partial", ".crdownload", ".reason"] where lower.hasSuffix(suffix) { return false }
        return true
    }

    /// A destination name in `dir` that does not exist yet.
    func freeName(in dir: String, for name: String, now: Timestamp) -> String {
        var candidate = dir + "/" + name
        if !FileSystem.exists(candidate) { return candidate }
        let stamp = now.iso8601UTC.filter { $0.isNumber }
        candidate = dir + "/" + stamp + "-" + name
        var n = 1
        while FileSystem.exists(candidate) { candidate = dir + "/" + stamp + "-\(n)-" + name; n += 1 }
        return candidate
    }

    /// Moves an imported file to archive/ (or deletes it) and returns where it went. A file kept
    /// is 0600 there, whatever mode it came with.
    @discardableResult
    public func retire(_ name: String, policy: AfterImport, now: Timestamp) throws -> String? {
        let source = path + "/" + name
        switch policy {
        case .delete:
            try FileSystem.remove(source)
            FileSystem.syncDirectory(of: source)
            return nil
        case .archive:
            let target = freeName(in: archive, for: name, now: now)
            try FileSystem.move(source, to: target, mode: 0o600)
            return target
        }
    }

    /// Moves a file that could not be imported to failed/ beside `<name>.reason`, both 0600.
    @discardableResult
    public func quarantine(_ name: String, reason: String, now: Timestamp) throws -> String {
        let source = path + "/" + name
        let target = freeName(in: failed, for: name, now: now)
        let text = "file: \(name)\nfailed: \(now.iso8601UTC)\nreason: \(reason)\n"
        try FileSystem.writeAtomically(target + ".reason", Array(text.utf8))
        try FileSystem.move(source, to: target, mode: 0o600)
        return target
    }
}

#if canImport(Glibc)
import Glibc
#endif
import HealthSpoolCore
import HealthSpoolLinux

/// A file being written into the spool: under a hidden temporary name the spool watcher
/// ignores (`.ingest-…tmp`) until `commit` makes it durable (fsync) and renames it to a unique
/// `ingest-….json`, which the watcher then imports like any file dropped there. Discarded
/// (deleted) unless committed.
public final class SpoolDrop {
    public let spoolDir: String
    /// The temporary file's name in the spool.
    public let temporaryName: String
    private var fd: Int32
    private var done = false

    /// The prefix and suffix of temporary names (`SpoolDirectory.isEligible` ignores both).
    public static let temporaryPrefix = ".ingest-"
    public static let temporarySuffix = ".tmp"

    /// Creates the temporary file (0600) in `spoolDir`.
    public init(spoolDir: String) throws(IngestError) {
        self.spoolDir = spoolDir
        temporaryName = Self.temporaryPrefix + Self.randomHex(8) + Self.temporarySuffix
        do { fd = try SafeWrite.createNew(spoolDir + "/" + temporaryName, mode: 0o600) } catch {
            throw .file(spoolDir + "/" + temporaryName, "cannot create it: \(String(cString: strerror((error as? FileError)?.code ?? EIO)))")
        }
    }

    deinit { discard() }

    /// Appends bytes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(IngestError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .file(spoolDir + "/" + temporaryName, "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Makes the file durable and gives it its final name; returns that name.
    public func commit(now: Timestamp) throws(IngestError) -> String {
        let temporary = spoolDir + "/" + temporaryName
        guard fsync(fd) == 0 else { throw .file(temporary, "cannot fsync: \(String(cString: strerror(errno)))") }
        close(fd)
        fd = -1
        let stamp = now.iso8601UTC.filter { $0.isNumber }
        var name = "ingest-\(stamp)-\(Self.randomHex(4)).json"
        while access(spoolDir + "/" + name, F_OK) == 0 { name = "ingest-\(stamp)-\(Self.randomHex(4)).json" }
        guard rename(temporary, spoolDir + "/" + name) == 0 else {
            throw .file(temporary, "cannot rename it to \(name): \(String(cString: strerror(errno)))")
        }
        done = true
        let dir = open(spoolDir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 { fsync(dir); close(dir) }
        return name
    }

    /// Deletes the temporary file (nothing of it stays in the spool).
    public func discard() {
        guard !done else { return }
        done = true
        if fd >= 0 { close(fd); fd = -1 }
        unlink(spoolDir + "/" + temporaryName)
    }

    /// Removes temporary files a previous run left behind (a crash mid-body); returns their names.
    @discardableResult
    public static func removeLeftovers(in spoolDir: String) -> [String] {
        guard let dir = opendir(spoolDir) else { return [] }
        defer { closedir(dir) }
        var removed: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name.hasPrefix(temporaryPrefix) && name.hasSuffix(temporarySuffix) && unlink(spoolDir + "/" + name) == 0 { removed.append(name) }
        }
        return removed
    }

    /// `count` random bytes as hex.
    static func randomHex(_ count: Int) -> String {
        IngestRandom.bytes(count).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

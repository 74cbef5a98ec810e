import HealthSpoolLinux
import HealthSpoolStore
#if canImport(Glibc)
import Glibc
#endif

/// A local reason an import failed that is not the file's fault and goes away (a full disk, a
/// permission, a store that cannot be written): the file stays in the spool and is retried,
/// instead of going to failed/ for good.
public struct TemporaryCause: Sendable, Equatable, CustomStringConvertible {
    /// A few words for status ("disk full").
    public let short: String
    /// What to do about it.
    public let advice: String

    public var description: String { "\(short): \(advice)" }

    /// The temporary cause behind `error`, or nil when the error is permanent (the file's
    /// content, or a problem that will not go away by waiting).
    public init?(_ error: Error) {
        if let e = error as? FileError {
            switch e.code {
            case ENOSPC, EDQUOT:
                self.init(short: "disk full", advice: "free space on the file system that holds \(FileSystem.parent(e.path))")
            case EACCES, EPERM:
                self.init(short: "permission denied", advice: "make \(e.path) readable by the user the daemon runs as (chmod u+r, or chown)")
            case EMFILE, ENFILE, ENOMEM, EAGAIN, EINTR:
                self.init(short: "out of resources", advice: "\(e.description); the system was short of memory or file descriptors")
            default:
                return nil
            }
        } else if let e = error as? StoreError {
            let dir = FileSystem.parent(e.path)
            switch e.kind {
            case .full:
                self.init(short: "disk full", advice: "free space on the file system that holds the store (\(dir))")
            case .notWritable:
                self.init(short: "store not writable", advice: "make \(dir) and the store in it writable by the user the daemon runs as (\(e.message))")
            case .io:
                self.init(short: "store I/O error", advice: "\(e.message) writing \(e.path); check the disk (dmesg) and free space")
            case .busy:
                self.init(short: "store busy", advice: "\(e.message); another process holds the store")
            case .other:
                return nil
            }
        } else {
            return nil
        }
    }

    init(short: String, advice: String) {
        self.short = short
        self.advice = advice
    }
}

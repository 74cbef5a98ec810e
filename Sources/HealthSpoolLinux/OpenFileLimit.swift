#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`).
public enum OpenFileLimit {
    /// The most the daemon raises its soft limit to: room for every connection it accepts
    /// while the store, the spool and the watchdog keep theirs.
    public static let cap: UInt64 = 65536

    /// Raises the soft limit to the hard one (at most `cap`); returns the soft limit before and
    /// after (equal when there was nothing to raise or the kernel refused).
    @discardableResult
    public static func raise(cap: UInt64 = cap) -> (before: UInt64, after: UInt64) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (0, 0) }
        let before = UInt64(limit.rlim_cur)
        let hard = min(UInt64(limit.rlim_max), cap)   // RLIM_INFINITY is the largest value: the cap
        guard hard > before else { return (before, before) }
        limit.rlim_cur = rlim_t(hard)
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (before, before) }
        return (before, hard)
    }
}

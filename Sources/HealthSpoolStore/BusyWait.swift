import CSQLite
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How one connection waits for another connection's write lock, and how the importer lets such
/// waiters in between its transactions.
///
/// SQLite's own busy timeout sleeps longer and longer between tries (100 ms from the twelfth
/// on), and the daemon's import begins its next transaction microseconds after committing the
/// last, so a command waiting behind an import almost never tried in that gap and gave up with
/// "database is locked". Here a waiting connection tries every 2 ms, and while it waits holds a
/// shared `flock` on `<store>-waiting`; after each commit the importer looks for such a lock
/// (`Connection.letWaitingWritersIn`) and pauses until the waiters are through.
///
/// Used only on its connection's thread (SQLite calls the handler from inside a call on that
/// connection); `marks` is the process-wide count of marks held, read on every step.
final class BusyWait {
    /// How long a connection waits for a lock before SQLite gives up with SQLITE_BUSY.
    let timeoutMillis: Int64
    /// The file the marks are taken on: the store's path + `-waiting`.
    let markPath: String
    private var fd: Int32 = -1
    /// Whether this connection holds its mark (it waits for a lock).
    private(set) var isMarked = false
    private var started: Int64 = 0

    /// Marks held by connections of this process (so that a step that finds none skips the check).
    static let marks = Atomic<Int>(0)
    static var anyMarked: Bool { marks.load(ordering: .relaxed) > 0 }
    /// The pause between two tries for a lock.
    static let pauseMicros: useconds_t = 2_000

    init(storePath: String, timeoutMillis: Int64) {
        self.timeoutMillis = timeoutMillis
        markPath = storePath + "-waiting"
    }

    deinit {
        unmark()
        if fd >= 0 { close(fd) }
    }

    /// SQLite's busy handler: `count` tries have failed so far for this lock. Whether to try
    /// again (after a pause).
    func tryAgain(count: Int32) -> Bool {
        let now = Self.monotonicMillis()
        if count == 0 { started = now }
        if !isMarked { mark() }
        guard now - started < timeoutMillis else {
            unmark()
            return false
        }
        usleep(Self.pauseMicros)
        return true
    }

    /// The mark file, opened (created 0600) at first use; -1 when it cannot be.
    func markFile() -> Int32 {
        // Beside the store, in the state directory (0700), as SQLite's own -wal and -shm files;
        // a link there is not followed all the same (scripts/check-file-writes.py lists it).
        if fd < 0 { fd = open(markPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        return fd
    }

    /// Says "a writer waits" to the importer. A try that finds the importer looking (it holds
    /// the file exclusively for an instant) is repeated at the next pause.
    private func mark() {
        let fd = markFile()
        guard fd >= 0, flock(fd, LOCK_SH | LOCK_NB) == 0 else { return }
        isMarked = true
        Self.marks.add(1, ordering: .relaxed)
    }

    /// Withdraws the mark: the lock was taken, or the wait gave up.
    func unmark() {
        guard isMarked else { return }
        flock(fd, LOCK_UN)
        isMarked = false
        Self.marks.subtract(1, ordering: .relaxed)
    }

    /// Waits while another connection holds a mark, at most `maxMillis`; the milliseconds waited.
    func waitForMarks(maxMillis: Int64) -> Int64 {
        let fd = markFile()
        guard fd >= 0, !isMarked else { return 0 }
        let start = Self.monotonicMillis()
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let waited = Self.monotonicMillis() - start
            if waited >= maxMillis { return waited }
            usleep(1_000)
        }
        flock(fd, LOCK_UN)
        return Self.monotonicMillis() - start
    }

    static func monotonicMillis() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// The C busy handler: `context` is the connection's `BusyWait`, unretained (the connection
/// keeps it alive as long as the handle).
let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
    guard let context else { return 0 }
    return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue().tryAgain(count: count) ? 1 : 0
}

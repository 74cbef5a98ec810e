import CSQLite
import HealthSpoolLock
#if canImport(Glibc)
import Glibc
#endif

/// Copies a bulk writer's WAL into the database on a thread and connection of their own, so the
/// writer does not stop for it: while it runs, the writer's commits only append to the WAL and
/// wake this thread once the WAL holds `threshold` pages (SQLite's own automatic checkpoint would
/// copy them inside the commit, on the writer's thread: about 4 % of a first import's writer).
///
/// The checkpoints are PASSIVE: they never wait for or block the writer or readers. A
/// checkpoint that copied everything lets the writer's next commit start the WAL over, so the
/// file stays about `threshold` pages. `stop()` puts the writer's automatic checkpoint back.
public final class BackgroundCheckpoints: @unchecked Sendable {
    // @unchecked: `shared` is the only state both threads touch, behind its lock; `conn` is used
    // by the checkpoint thread alone between start and `stop()`'s join; `writer` only by the
    // writer's thread (the WAL hook runs inside its commits).
    private struct Shared {
        var requested = false
        var running = false
        var stopping = false
        /// The WAL's size in pages after the writer's last commit.
        var walPages: Int32 = 0
    }
    private let shared = Lock(Shared())
    private let conn: Connection
    private let writer: Connection
    private let threshold: Int32
    private var thread: pthread_t?

    /// Starts checkpointing `store`'s WAL on another connection; nil (and nothing changed) when
    /// no connection or thread could be made.
    public static func start(for store: SampleStore, threshold: Int32 = 4096) -> BackgroundCheckpoints? {
        // A connection learns that the store is in WAL mode when it first reads it; until then
        // a checkpoint on it does nothing.
        guard let conn = try? Connection(path: store.path), (try? conn.exec("PRAGMA journal_mode")) != nil else { return nil }
        let me = BackgroundCheckpoints(conn: conn, writer: store.conn, threshold: threshold)
        var t = pthread_t()
        let context = Unmanaged.passRetained(me).toOpaque()
        guard pthread_create(&t, nil, { raw in
            Unmanaged<BackgroundCheckpoints>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context) == 0 else {
            Unmanaged<BackgroundCheckpoints>.fromOpaque(context).release()
            return nil
        }
        me.thread = t
        // Replaces the writer's automatic checkpoint (itself a WAL hook) with a wake-up.
        sqlite3_wal_hook(store.conn.db, { context, _, _, pages in
            let me = Unmanaged<BackgroundCheckpoints>.fromOpaque(context!).takeUnretainedValue()
            me.shared.withLock(wake: pages >= me.threshold) { s in
                s.walPages = pages
                if pages >= me.threshold { s.requested = true }
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(me).toOpaque())
        return me
    }

    private init(conn: Connection, writer: Connection, threshold: Int32) {
        self.conn = conn
        self.writer = writer
        self.threshold = threshold
    }

    private func run() {
        while true {
            let stopping = shared.wait(until: { $0.requested || $0.stopping }) { s in
                s.requested = false
                s.running = !s.stopping
                return s.stopping
            }
            if stopping { return }
            // Busy (another connection checkpoints, or the writer restarts the WAL): the next
            // wake-up tries again.
            _ = sqlite3_wal_checkpoint_v2(conn.db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            shared.withLock(wake: true) { $0.running = false }
        }
    }

    /// Call before the writer opens a transaction. The WAL starts over only when a transaction
    /// begins after a checkpoint copied all of it; a writer that begins at once after each
    /// commit never sees one finished, and the WAL would grow as large as the store. So once it
    /// holds four times `threshold` pages, this waits for the checkpoint under way (begun at
    /// the last commit and mostly done by now); the next commit then starts the WAL over.
    public func waitIfBehind() {
        let limit = threshold * 4
        shared.wait(until: { $0.walPages < limit || $0.stopping || (!$0.requested && !$0.running) }) { s in
            if s.walPages >= limit { s.walPages = 0 }
        }
    }

    /// Ends the background checkpoints and gives the writer its automatic checkpoint back.
    /// Call on the writer's thread, outside a transaction.
    public func stop() {
        sqlite3_wal_autocheckpoint(writer.db, SampleStore.walAutocheckpointPages)
        shared.withLock(wake: true) { $0.stopping = true }
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    deinit {
        if thread != nil { stop() }
    }
}

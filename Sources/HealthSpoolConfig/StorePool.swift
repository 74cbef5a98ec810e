import HealthSpoolCore
import HealthSpoolLinux
import HealthSpoolStore
import Synchronization

/// Store connections a long-running caller borrows instead of opening its own (the web
/// interface: a page or a form post uses one connection for all its work, where `/day` used to
/// open four). One writer for the changes people make, carried out one at a time, and a few
/// readers for the pages. Each connection is used on a thread of its own (`ThreadExecutor`),
/// never on the cooperative pool: SQLite blocks. A connection is opened at its first use, with
/// a person's wait for the write lock (`SampleStore.interactiveBusyTimeout`), and opened again
/// when a reload moved the store (`state_dir`).
///
/// A pool made for the daemon's process (`daemonReadsWrites`) also carries the journal's
/// writes made inside it (the web's forms on its connections, the journal scheduler's scores
/// and doses) to the daemon's sync coordinator: `journalWrites`, a stream of the record types
/// each write put in line, which the daemon reads (`JournalWritesService`). Another process's
/// pool (the CLI) leaves them to the daemon's control socket.
public final class StorePool: Sendable {
    /// Whether a borrower changes the store (the writer) or mostly reads it (a reader).
    public enum Use: Sendable {
        case read, write
    }

    /// The journal's writes made in this process, as the types each put in line, in the order
    /// written (`announce`); the daemon's sync coordinator reads it. Nothing comes through it
    /// unless `daemonReadsWrites`.
    public let journalWrites: AsyncStream<[String]>
    private let writes: AsyncStream<[String]>.Continuation
    /// Whether a daemon in this process reads `journalWrites`: the connections lent then announce
    /// the journal's writes on it (`StoreLease.announce`); else no one does here (the daemon's
    /// socket is told).
    public let daemonReadsWrites: Bool
    /// The daemon's status in this process (nil when no daemon runs here: its status file).
    public let liveStatus: LiveStatus?
    private let writer: StoreLane
    private let readers: [StoreLane]
    private let free: Mutex<(readers: [Int], waiting: [CheckedContinuation<Int, Never>])>

    /// A pool of one writer and `readers` readers; nothing is opened yet. Fails only when the
    /// system refuses a thread.
    public init(readers: Int = 2, daemonReadsWrites: Bool = false, liveStatus: LiveStatus? = nil) throws(ThreadExecutorError) {
        (journalWrites, writes) = AsyncStream.makeStream(of: [String].self)
        self.daemonReadsWrites = daemonReadsWrites
        self.liveStatus = liveStatus
        writer = try StoreLane(name: "store writer")
        var lanes: [StoreLane] = []
        for index in 0..<max(1, readers) { lanes.append(try StoreLane(name: "store reader \(index)")) }
        self.readers = lanes
        free = Mutex((Array(lanes.indices), []))
    }

    /// Tells the reader of `journalWrites` that a write put records of `types` in line; nothing
    /// unless `daemonReadsWrites` (no one would read it: a lease's `announce` is nil then, and
    /// `LentStore` tells the daemon's socket instead).
    public func announce(_ types: [String]) {
        guard daemonReadsWrites else { return }
        writes.yield(types)
    }

    /// Runs `body` on the thread of a connection, the writer's for `.write` (writers take
    /// turns), else a free reader's (waited for), and returns its result. `body` takes the
    /// connection from its `StoreLease`, or opens none (work that reads files only).
    public func run<T: Sendable>(_ use: Use, _ body: @escaping @Sendable (borrowing StoreLease) throws -> T) async throws -> T {
        switch use {
        case .write:
            return try await writer.run(lendAnnounce, liveStatus, body)
        case .read:
            let index = await takeReader()
            defer { giveBack(index) }
            return try await readers[index].run(lendAnnounce, liveStatus, body)
        }
    }

    /// Runs `body` with the connection to `configuration`'s store; see `run(_:_:)`.
    public func borrow<T: Sendable>(_ use: Use, _ configuration: Configuration,
                                    _ body: @escaping @Sendable (SampleStore) throws -> T) async throws -> T {
        try await run(use) { lease in try body(try lease.store(configuration)) }
    }

    /// What a lease announces the journal's writes with: `announce`, when the daemon reads them here.
    private var lendAnnounce: (@Sendable ([String]) -> Void)? {
        guard daemonReadsWrites else { return nil }
        return { @Sendable [self] types in announce(types) }
    }

    private func takeReader() async -> Int {
        await withCheckedContinuation { (taken: CheckedContinuation<Int, Never>) in
            let index: Int? = free.withLock { free in
                if let index = free.readers.popLast() { return index }
                free.waiting.append(taken)
                return nil
            }
            if let index { taken.resume(returning: index) }
        }
    }

    private func giveBack(_ index: Int) {
        let next: CheckedContinuation<Int, Never>? = free.withLock { free in
            if free.waiting.isEmpty {
                free.readers.append(index)
                return nil
            }
            return free.waiting.removeFirst()
        }
        next?.resume(returning: index)
    }
}

/// A connection lent to the work a `StorePool` runs: valid only inside that work, on its thread.
public struct StoreLease: ~Copyable {
    fileprivate let connect: (Configuration) throws -> SampleStore
    /// The pool's `announce` when a daemon in this process reads its `journalWrites`; else nil.
    public let announce: (@Sendable ([String]) -> Void)?
    /// The pool's `liveStatus`.
    public let liveStatus: LiveStatus?

    /// The connection to `configuration`'s store, opened at its first use (or when a reload moved
    /// the store), its day rollups drawn in `configuration`'s zone and source priority.
    public func store(_ configuration: Configuration) throws -> SampleStore { try connect(configuration) }
}

/// One connection, owned by an actor on a thread of its own: work borrowing it runs there, one
/// piece at a time.
private actor StoreLane {
    private nonisolated let thread: ThreadExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }
    private var opened: (path: String, store: SampleStore)?

    init(name: String) throws(ThreadExecutorError) {
        thread = try ThreadExecutor(name: name)
    }

    /// Runs `body` on the thread with a lease of this lane's connection (and the pool's `announce`
    /// and `liveStatus`).
    func run<T: Sendable>(_ announce: (@Sendable ([String]) -> Void)?, _ liveStatus: LiveStatus?,
                          _ body: @Sendable (borrowing StoreLease) throws -> T) throws -> T {
        try body(StoreLease(connect: { try self.connection($0) }, announce: announce, liveStatus: liveStatus))
    }

    private func connection(_ configuration: Configuration) throws -> SampleStore {
        if let opened, opened.path == configuration.storePath {
            opened.store.rollupPolicy = RollupPolicy(zone: configuration.zone, priority: configuration.settings.sourcePriority)
            opened.store.recheckRollups()
            return opened.store
        }
        opened = nil
        let store = try SampleStore.connect(to: configuration, busyTimeout: SampleStore.interactiveBusyTimeout)
        try store.limitPageCache(kibibytes: 4096)
        opened = (configuration.storePath, store)
        return store
    }
}

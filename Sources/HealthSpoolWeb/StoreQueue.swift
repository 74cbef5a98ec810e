import HealthSpoolConfig
import HealthSpoolDaemon
import HealthSpoolLinux

/// Runs blocking work (SQLite, config files, the control socket) on threads of their own, never
/// on the cooperative pool (two threads here), and hands the result back to the caller's task:
/// the threads of a `StorePool`, whose connections a request borrows (at most one per request)
/// instead of opening its own. Pages read on a reader's thread; form posts are carried out on
/// the writer's, one at a time.
struct StoreQueue: Sendable {
    let pool: StorePool

    /// On `pool` (the app's), else a pool of its own; fails only when the system refuses a thread.
    init(pool: StorePool? = nil) throws(ThreadExecutorError) {
        if let pool { self.pool = pool } else { self.pool = try StorePool() }
    }

    /// Runs `body` on a thread of the pool (the writer's for `.write`), without its connection.
    func run<T: Sendable>(_ use: StorePool.Use = .read, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.run(use) { _ in try body() }
    }

    /// Runs `body` on a thread of the pool with its connection at hand (`StoreLease.uses(_:)`).
    func lease<T: Sendable>(_ use: StorePool.Use, _ body: @escaping @Sendable (borrowing StoreLease) throws -> T) async throws -> T {
        try await pool.run(use, body)
    }
}

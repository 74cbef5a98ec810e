import Dispatch

/// Runs blocking work (SQLite, config files, the control socket) on a queue of its own, never on
/// the cooperative pool (two threads here), and hands the result back to the caller's task.
struct StoreQueue: Sendable {
    let queue = DispatchQueue(label: "healthspool.web.store")

    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { c in
            queue.async { c.resume(with: Result { try body() }) }
        }
    }
}

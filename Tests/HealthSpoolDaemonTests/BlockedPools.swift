import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Dispatch's global queues and Swift's cooperative pool filled with blocking work, as a release
/// build or many imports fill them: `dispatchItems` blocks sent to `DispatchQueue.global()` and
/// `tasks` detached tasks, each waiting on one semaphore until `release()`. A probe block and a
/// probe task queued behind them say when a thread came free again.
final class BlockedPools: Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let count: Int
    private let released = Atomic<Bool>(false)
    private let probes = Mutex<(dispatch: ContinuousClock.Instant?, task: ContinuousClock.Instant?)>((nil, nil))

    init(dispatchItems: Int = 200, tasks: Int = 16) {
        count = dispatchItems + tasks
        for _ in 0..<dispatchItems {
            DispatchQueue.global().async { [gate] in gate.wait() }
        }
        for _ in 0..<tasks {
            Task.detached { [gate] in gate.wait() }
        }
        usleep(300_000)   // the blockers have taken the threads the pools give
        DispatchQueue.global().async { self.probes.withLock { $0.dispatch = ContinuousClock.now } }
        Task.detached { self.probes.withLock { $0.task = ContinuousClock.now } }
    }

    /// When the probe block queued on `DispatchQueue.global()` ran (nil: not yet).
    var dispatchProbe: ContinuousClock.Instant? { probes.withLock { $0.dispatch } }
    /// When the probe task queued on the cooperative pool ran (nil: not yet).
    var taskProbe: ContinuousClock.Instant? { probes.withLock { $0.task } }

    /// Lets every blocker go (once; later calls do nothing).
    func release() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in 0..<count { gate.signal() }
    }

    /// Waits on the calling thread (never suspending) until `done` or `limit` has passed.
    static func spin(for limit: Duration, until done: () -> Bool) {
        let start = ContinuousClock.now
        while !done(), start.duration(to: .now) < limit { usleep(5_000) }
    }
}

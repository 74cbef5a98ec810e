import Dispatch

/// The daemon's serial coordination queue as a Swift `SerialExecutor`: an actor whose
/// `unownedExecutor` is this one runs its jobs on that queue, in order with the Dispatch blocks
/// still sent there (timers, the daemon's routing of events). The coordination actors
/// (`StatusBoard`, `SpoolIntake`, `SyncCoordinator`) share it (issue 27):
/// their state is checked by the compiler, and code already on the queue (a timer, a routed
/// event) enters an actor with `assumeIsolated`, which `checkIsolated()` lets through only on
/// this queue (Linux has no `DispatchSerialQueue` executor to do this).
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}
